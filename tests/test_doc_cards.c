/* test_doc_cards: a page's headline is a document: a verdict's colour is
 * the typed status the builder set (a failed threshold is bad and the
 * page's class says "bad"), never read back from the words; names and
 * values are escaped; the run's latency and error cards say what the
 * percentile table and the metric formatting say. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/doc_cards.h"
#include "report/run_doc.h"
#include "report/doc_table_testing.h"

static struct run_result res; /* large: off the stack */
static struct doc_cards cards;

/* What doc_cards_html wrote of d, in a buffer of the test's (the next
 * call writes over it). */
static const char *page(const struct doc_cards *d)
{
    static char html[16384];
    memset(html, 0, sizeof html);
    FILE *f = fmemopen(html, sizeof html - 1, "w");
    assert_non_null(f);
    doc_cards_html(f, d);
    assert_int_equal(fclose(f), 0);
    return html;
}

static void failed_threshold_is_bad(void **state)
{
    (void)state;
    doc_cards_init(&cards);
    const struct doc_card *c = doc_cards_verdict(&cards, "h-verdict", "thresholds", 1, 2);
    assert_non_null(c);
    assert_int_equal(c->status, DOC_STATUS_BAD);
    assert_string_equal(c->value, "FAIL (1 of 2)");
    c = doc_cards_verdict(&cards, "h-ok", "thresholds", 0, 3);
    assert_int_equal(c->status, DOC_STATUS_GOOD);
    assert_string_equal(c->value, "pass (3 of 3)");
    assert_null(doc_cards_verdict(&cards, "h-none", "none asked", 0, 0));
    assert_int_equal(cards.n, 2);
    const char *h = page(&cards);
    assert_non_null(strstr(h, "<div class=\"v bad\" id=\"h-verdict\">FAIL (1 of 2)</div>"));
    assert_non_null(strstr(h, "<div class=\"v good\" id=\"h-ok\">pass (3 of 3)</div>"));
    assert_null(strstr(h, "h-none"));
    doc_cards_free(&cards);
}

/* The words do not choose the colour: a figure that reads "FAIL" stays a
 * figure, and a bad status on a number is bad. */
static void status_is_not_the_words(void **state)
{
    (void)state;
    doc_cards_init(&cards);
    doc_cards_add(&cards, "h-label", "label", DOC_STATUS_NONE, "FAIL-over pool");
    doc_cards_add(&cards, "h-errors", "errors", DOC_STATUS_BAD, "3");
    assert_non_null(strstr(page(&cards), "<div class=\"v\" id=\"h-label\">FAIL-over pool</div>"));
    assert_non_null(strstr(page(&cards), "<div class=\"v bad\" id=\"h-errors\">3</div>"));
    doc_cards_free(&cards);
}

static void escaped_and_wide(void **state)
{
    (void)state;
    doc_cards_init(&cards);
    doc_cards_add(&cards, "h-x", "<b>name</b>", DOC_STATUS_NONE,
                  "http://h/\"><script>alert(1)</script>&");
    const char *h = page(&cards);
    assert_null(strstr(h, "<script>"));
    assert_null(strstr(h, "<b>"));
    assert_non_null(strstr(h, "&lt;b&gt;name&lt;/b&gt;"));
    assert_non_null(strstr(h, "&quot;&gt;&lt;script&gt;"));
    assert_non_null(strstr(h, "class=\"card wide\"")); /* over 16 bytes: two columns */
    assert_true(strncmp(h, "<div class=\"cards\" id=\"headline\">\n", 34) == 0);
    doc_cards_free(&cards);
}

/* Past the 32 cards a headline once held at most: every one is on the
 * page (a sweep with many capacity searches has a card each). */
static void many_cards_all_shown(void **state)
{
    (void)state;
    doc_cards_init(&cards);
    for (int i = 0; i < 40; i++) {
        char id[16];
        snprintf(id, sizeof id, "h-%d", i);
        assert_non_null(doc_cards_add(&cards, id, "k", DOC_STATUS_NONE, "v"));
    }
    assert_int_equal(cards.n, 40);
    const char *h = page(&cards);
    for (int i = 0; i < 40; i++) {
        char want[32];
        snprintf(want, sizeof want, "id=\"h-%d\">v<", i);
        assert_non_null(strstr(h, want));
    }
    doc_cards_free(&cards);
}

/* The card whose id is id in d, or NULL. */
static const struct doc_card *card(const struct doc_cards *d, const char *id)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->card[i].id, id))
            return &d->card[i];
    return NULL;
}

/* The percentile table's cell of row name, column col, or NULL. */
static const char *pct_cell(const struct doc_table *t, const char *name, int col)
{
    for (int r = 0; r < t->nrows; r++)
        if (!strcmp(doc_table_cell(t, r, 0), name))
            return doc_table_cell(t, r, col);
    return NULL;
}

static void run_cards_say_what_the_tables_say(void **state)
{
    (void)state;
    struct run_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.encoding, sizeof c.encoding, "xmlrpc");
    snprintf(c.verbs[0].name, sizeof c.verbs[0].name, "ping");
    c.verbs[0].weight = 1;
    c.nverbs = 1;
    c.rate = 10;
    c.duration_ns = c.interval_ns = c.timeout_ns = 1000000000LL;
    c.connections = 1;
    c.pcts[0] = 50, c.pcts[1] = 99, c.npcts = 2;
    assert_int_equal(result_init(&res, &c), 0);
    for (int i = 1; i <= 100; i++) { /* 1.5 ms .. 150 ms */
        hist_record(&res.latency, i * 1500);
        hist_record(&res.service, i * 1000);
    }
    res.offered = res.sent = 102, res.ok = 100, res.errors = 2;
    res.rate_achieved = 10.2;
    res.duration_s = 10;
    char err[256];
    struct run_doc *d = run_doc_new(&res, err);
    assert_non_null(d);
    assert_string_equal(card(&d->cards, "h-p50")->value, pct_cell(&d->pcts, "p50", 1));
    assert_string_equal(card(&d->cards, "h-p99")->value, pct_cell(&d->pcts, "p99", 1));
    assert_string_equal(card(&d->cards, "h-rate")->value, "10.20/s");
    assert_string_equal(card(&d->cards, "h-errors")->value, "2");
    assert_int_equal(card(&d->cards, "h-errors")->status, DOC_STATUS_BAD);
    assert_string_equal(card(&d->cards, "h-cpu-ms")->value, "n/a"); /* not sampled */
    run_doc_free(d);
    result_free(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(failed_threshold_is_bad),
        cmocka_unit_test(status_is_not_the_words),
        cmocka_unit_test(escaped_and_wide),
        cmocka_unit_test(many_cards_all_shown),
        cmocka_unit_test(run_cards_say_what_the_tables_say),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
