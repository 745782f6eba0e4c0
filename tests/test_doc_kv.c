/* test_doc_kv: a key-value section is built once and each writer shows it
 * its own way: the text pads keys to 12 columns and indents a continued
 * line, the page escapes and leaves out the text's own lines; a section
 * holds every line it is given (none dropped past a capacity); a metric
 * line carries its raw value into the CSV summary. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/metric.h"
#include "report/doc_kv.h"
#include "report/report.h"
#include "report/report_testing.h"
#include "report/report_csv.h"

static struct run_result res; /* large: off the stack */

/* What write(out, d) wrote, malloc'd (the caller frees). */
static char *written(void (*write)(FILE *, const struct doc_kv *), const struct doc_kv *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    write(f, d);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void text_pads_and_indents(void **state)
{
    (void)state;
    struct doc_kv d;
    doc_kv_init(&d, "transport");
    d.blank_before = 1;
    doc_kv_add(&d, DOC_IN_BOTH, "transport", "reconnects %d", 3);
    doc_kv_append(&d, "; TLS %s", "verified");
    doc_kv_add(&d, DOC_IN_BOTH, "", "last TLS failure: %s", "x");
    doc_kv_add(&d, DOC_IN_PAGE, "load", "seed 1");
    char *t = written(doc_kv_text, &d);
    assert_string_equal(t, "\ntransport   reconnects 3; TLS verified\n"
                           "            last TLS failure: x\n");
    free(t);
    doc_kv_free(&d);
}

static void page_escapes_and_skips_text_lines(void **state)
{
    (void)state;
    struct doc_kv d;
    doc_kv_init(&d, "machine");
    doc_kv_add(&d, DOC_IN_TEXT, "requests", "sent 1");
    doc_kv_add(&d, DOC_IN_BOTH, "server", "<b id=pwn>&");
    char *h = written(doc_kv_html, &d);
    assert_non_null(strstr(h, "machine"));
    assert_non_null(strstr(h, "&lt;b id=pwn&gt;&amp;"));
    assert_null(strstr(h, "<b id"));
    assert_null(strstr(h, "sent 1"));
    free(h);
    doc_kv_free(&d);
    doc_kv_init(&d, "none"); /* only text lines: no table at all */
    doc_kv_add(&d, DOC_IN_TEXT, "requests", "sent 1");
    h = written(doc_kv_html, &d);
    assert_string_equal(h, "");
    free(h);
    doc_kv_free(&d);
}

/* Past the 24 lines a section once held at most, and with a value past
 * its old 1200 bytes: every line is in the text and on the page, whole. */
static void many_lines_all_shown(void **state)
{
    (void)state;
    enum { LINES = 61 };
    struct doc_kv d;
    doc_kv_init(&d, "many");
    for (int i = 0; i < LINES; i++)
        assert_non_null(doc_kv_add(&d, DOC_IN_BOTH, "k", "line %d.", i));
    doc_kv_append(&d, "%02000d", 7); /* the last line: 2000 digits more */
    assert_int_equal(d.n, LINES);
    assert_int_equal(d.lost, 0);
    char *t = written(doc_kv_text, &d), *h = written(doc_kv_html, &d);
    for (int i = 0; i < LINES; i++) {
        char want[48];
        snprintf(want, sizeof want, "k           line %d.%s", i, i < LINES - 1 ? "\n" : "");
        assert_non_null(strstr(t, want));
        snprintf(want, sizeof want, "<td>line %d.%s", i, i < LINES - 1 ? "</td>" : "");
        assert_non_null(strstr(h, want));
    }
    char tail[2010];
    snprintf(tail, sizeof tail, "%02000d\n", 7);
    assert_non_null(strstr(t, tail));
    assert_null(strstr(t, "lost"));
    free(t);
    free(h);
    doc_kv_free(&d);
}

/* A run with everything a section can say: TLS and STOMP failures, a
 * warmup, connection failures, three watched pids, an idle baseline. */
static void everything(struct run_result *r)
{
    struct run_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.encoding, sizeof c.encoding, "jsonrpc");
    snprintf(c.url, sizeof c.url, "stomps://127.0.0.1:1");
    snprintf(c.verbs[0].name, sizeof c.verbs[0].name, "ping");
    c.verbs[0].weight = 1;
    c.nverbs = 1;
    c.rate = 10;
    c.duration_ns = c.warmup_ns = c.interval_ns = c.timeout_ns = 1000000000LL;
    c.connections = 2;
    assert_int_equal(result_init(r, &c), 0);
    snprintf(r->target_url, sizeof r->target_url, "%s", c.url);
    snprintf(r->tls_error, sizeof r->tls_error, "bad certificate");
    snprintf(r->stomp_error, sizeof r->stomp_error, "no such destination");
    r->conn_failures[0] = r->conn_failures[1] = 1;
    r->nwatched = 3;
    r->offered = r->sent = 10;
    r->ok = 9;
    r->errors = 1;
    r->bytes_received = 900;
    r->duration_s = 1;
    r->interrupted = 2;
}

static void largest_sections_build(void **state)
{
    (void)state;
    struct doc_kv d[REPORT_SECTIONS];
    everything(&res);
    report_sections(&res, d);
    for (int i = 0; i < REPORT_SECTIONS; i++) {
        assert_true(d[i].n > 0);
        assert_int_equal(d[i].lost, 0);
        doc_kv_free(&d[i]);
    }
    result_free(&res);
}

static void metric_line_is_a_csv_column(void **state)
{
    (void)state;
    struct doc_kv d;
    everything(&res);
    doc_kv_init(&d, "x");
    report_kv_metric(&d, DOC_IN_BOTH, "", &res, METRIC_BYTES);
    assert_int_equal(d.line[0].metric, METRIC_BYTES);
    assert_true(fabs(d.line[0].raw - 90) < 1e-9); /* 900 bytes over 10 answers */
    assert_string_equal(d.line[0].value, "bytes/response 90 B");
    doc_kv_free(&d);
    result_free(&res);
}

/* The machine section's metric line (client CPU per answer) is a column of
 * the CSV summary, named by its JSON key, with no line of the CSV's own. */
static void csv_summary_takes_the_sections_metrics(void **state)
{
    (void)state;
    everything(&res);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    report_csv_summary(f, &res);
    assert_int_equal(fclose(f), 0);
    const char *key = metric_defs[METRIC_CLIENT_CPU_MS].json_key;
    char *eol = strchr(buf, '\n');
    assert_non_null(eol);
    assert_true((size_t)(eol - buf) > strlen(key));
    assert_memory_equal(eol - strlen(key) - 1, ",", 1);
    assert_memory_equal(eol - strlen(key), key, strlen(key));
    free(buf);
    result_free(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_pads_and_indents),
        cmocka_unit_test(page_escapes_and_skips_text_lines),
        cmocka_unit_test(many_lines_all_shown),
        cmocka_unit_test(largest_sections_build),
        cmocka_unit_test(metric_line_is_a_csv_column),
        cmocka_unit_test(csv_summary_takes_the_sections_metrics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
