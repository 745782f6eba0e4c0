/* test_compare_docs: compare's gates table is one document
 * (compare_gates_doc) whose verdict cell is the verdicts document's word,
 * the word the JUnit file writes: an undecided gate reads "inconclusive"
 * and stands out (no pass), in the text as in the page; the text keeps its
 * columns and the method and stop lines follow the rows. And compare's
 * header (compare_header_doc): the text's lines as they always were, the
 * page's the same but for the arms its cards show. The rounds' warnings,
 * one line per kind, and the order the arms ran in (issue 41). An arm that
 * stopped answering: its verdict and exit code (issue 41 part 3). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/exit_code.h"
#include "report/compare_report.h"
#include "report/doc_table_testing.h"

static struct comparison cmp; /* large: off the stack */
static struct doc_verdicts verdicts;

/* Three gates on 3 of at most 8 auto rounds: p99 undecided, p50 a
 * regression, the rate a pass. */
static void setup_gates(void)
{
    struct compare_plan p;
    char err[ERR_LEN];
    memset(&p, 0, sizeof p);
    const char *exprs[3] = {"p99:+10%", "p50:+5%", "rate:-50%"};
    for (int g = 0; g < 3; g++)
        assert_int_equal(gate_parse(exprs[g], &p.gates[g], err), 0);
    p.ngates = 3;
    p.rounds = 8;
    p.rounds_auto = 1;
    comparison_init(&cmp, &p);
    cmp.pairs = 3;
    const struct gate_result r[3] = {
        {.ci = {1.2, 0.9, 1.6}, .conf = 0.99, .rounds = 3, .verdict = GATE_INCONCLUSIVE},
        {.ci = {1.5, 1.3, 1.7}, .conf = 0.99, .rounds = 3, .verdict = GATE_REGRESSION},
        {.ci = {1.0, 0.98, 1.02}, .conf = 0.99, .rounds = 3, .verdict = GATE_PASS},
    };
    memcpy(cmp.gate, r, sizeof r);
}

/* The writers' settings of the last table build made. */
static struct doc_table_style style;

/* compare_gates_doc's table of cmp, into t (the caller frees it). */
static void build(struct doc_table *t)
{
    char err[ERR_LEN];
    assert_int_equal(compare_gates_doc(&cmp, t, &style, err), 0);
}

/* What the text (html 0) or the page writes of t, else of d: malloc'd,
 * the caller's to free. */
static char *written(const struct doc_table *t, const struct doc_kv *d, int html)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (t && html)
        doc_table_html(f, t, &style.html);
    else if (t)
        doc_table_text(f, t, &style.text);
    else
        (html ? doc_kv_html : doc_kv_text)(f, d);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* Each of want (NULL-ended) is in what the text (html 0) or the page
 * writes of t. */
static void says(const struct doc_table *t, int html, const char *const *want)
{
    char *buf = written(t, NULL, html);
    for (; *want; want++)
        if (!strstr(buf, *want))
            fail_msg("%s lacks %s:\n%s", html ? "the page" : "the text", *want, buf);
    free(buf);
}

/* The verdict cells are the verdicts document's words, which the JUnit
 * file writes; every gate that is no pass is marked. */
static void verdict_cell_is_junit_word(void **state)
{
    (void)state;
    setup_gates();
    struct doc_table t;
    char err[ERR_LEN];
    build(&t);
    assert_int_equal(t.nrows, 3);
    compare_verdicts_doc(&verdicts, &cmp);
    assert_int_equal(verdicts.n, 3);
    static const char *const want[3] = {"inconclusive", "regression", "pass"};
    for (int g = 0; g < 3; g++) {
        assert_string_equal(doc_table_cell(&t, g, 4), want[g]);
        assert_string_equal(doc_table_cell(&t, g, 4), doc_verdict_word(&verdicts.v[g]));
        assert_int_equal(!!(t.rows[g].flags & DOC_ROW_MARKED), g < 2);
    }
    char path[] = "/tmp/test_compare_docs_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(compare_write_junit(path, &cmp, err), 0);
    static char xml[16384];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    xml[fread(xml, 1, sizeof xml - 1, f)] = 0;
    fclose(f);
    unlink(path);
    /* the undecided gate is a failed testcase whose message ends in the cell's word */
    const char *tc = strstr(xml, "name=\"gate p99:+10%\"");
    assert_non_null(tc);
    const char *fail = strstr(tc, "<failure message=\"");
    assert_non_null(fail);
    assert_true(fail < strstr(tc, "</testcase>"));
    assert_non_null(strstr(fail, ": inconclusive\""));
    doc_table_free(&t);
    doc_verdicts_free(&verdicts);
}

/* The text lays the rows out as the report always did; the method and
 * why the rounds stopped follow them; the page marks the open gate. */
static void text_and_page(void **state)
{
    (void)state;
    setup_gates();
    struct doc_table t;
    build(&t);
    static const char *const text[] = {
        "\ngate                        B/A  interval of B/A            rounds  verdict\n",
        "\np99:+10%                  1.200  [0.900, 1.600] 99%              3  inconclusive\n",
        "\nmethod: ", "; 3 looks, alpha ",
        "\nstopped after 3 of at most 8 rounds: the outcome was decided (a regression; the "
        "gates still open could not change the exit code)\n", NULL};
    static const char *const page[] = {
        "<td id=\"gate-g1-verdict\" class=\"stick sig\">inconclusive</td>",
        "<td id=\"gate-g3-verdict\" class=\"stick\">pass</td>", "<p class=\"sub\">method: ",
        NULL};
    says(&t, 0, text);
    says(&t, 1, page);
    doc_table_free(&t);
}

/* Without --gate: no row, no notes (the writers show nothing of it). */
static void no_gates(void **state)
{
    (void)state;
    struct compare_plan p;
    memset(&p, 0, sizeof p);
    comparison_init(&cmp, &p);
    struct doc_table t;
    build(&t);
    assert_int_equal(t.nrows, 0);
    assert_string_equal(t.notes, "");
    doc_table_free(&t);
}

static struct run_result round_of[2]; /* large: off the stack */

/* A saved A/A of the simulator: the text's header lines, padded as
 * before; the page's the same words, without the arms. */
static void header_text_and_page(void **state)
{
    (void)state;
    struct compare_plan p;
    memset(&p, 0, sizeof p);
    p.inputs[0] = "ab.json";
    p.ninputs = 1;
    comparison_init(&cmp, &p);
    cmp.saved = 1;
    cmp.pairs = 3;
    for (int a = 0; a < 2; a++) {
        struct run_result *m = &cmp.arm[a].merged;
        snprintf(m->cfg.encoding, sizeof m->cfg.encoding, "xmlrpc");
        snprintf(m->target_url, sizeof m->target_url, "http://sim/RPC2");
        snprintf(m->cfg.verbs[0].name, sizeof m->cfg.verbs[0].name, "list");
        m->cfg.verbs[0].weight = 1;
        m->cfg.nverbs = 1;
        m->cfg.rate = 20;
        round_of[a].cfg = m->cfg;
        cmp.arm[a].rounds = &round_of[a];
    }
    struct doc_kv d;
    compare_header_doc(&cmp, &d);
    char *buf = written(NULL, &d, 0);
    assert_string_equal(buf, "A           xmlrpc: http://sim/RPC2 (xmlrpc)\n"
                             "B           xmlrpc: http://sim/RPC2 (xmlrpc)\n"
                             "simulator   A and B measured the built-in simulator, not VDSM: "
                             "its costs are not VDSM's (--url measures a host)\n"
                             "A/A         A and B are the same configuration (A/A): their "
                             "differences are the noise of the setup\n"
                             "saved       ab.json, 3 rounds per arm; rate 20.00/s, verbs "
                             "list:1\n");
    free(buf);
    buf = written(NULL, &d, 1);
    assert_null(strstr(buf, "http://sim/RPC2")); /* the cards' */
    assert_non_null(strstr(buf, "<th scope=\"row\">A/A</th><td>A and B are the same "
                                "configuration (A/A): their differences are the noise of the "
                                "setup</td>"));
    assert_non_null(strstr(buf, "ab.json, 3 rounds per arm; rate 20.00/s, verbs list:1</td>"));
    free(buf);    doc_kv_free(&d);
}

static struct run_result runs[2][3]; /* large: off the stack */

/* Three rounds of each arm, with the warnings given (NULL: none) and
 * start times that say round 1 ran A B, round 2 B A, round 3 unknown. */
static void setup_runs(const char *const warn[2][3])
{
    struct compare_plan p;
    memset(&p, 0, sizeof p);
    comparison_init(&cmp, &p);
    memset(runs, 0, sizeof runs);
    cmp.pairs = 3;
    static const double start[2][3] = {{100, 103, 0}, {101, 102, 0}};
    for (int a = 0; a < 2; a++) {
        for (int i = 0; i < 3; i++) {
            runs[a][i].start_unix = start[a][i];
            if (warn[a][i])
                result_warn(&runs[a][i], "%s", warn[a][i]);
        }
        cmp.arm[a].rounds = runs[a];
        cmp.arm[a].nrounds = 3;
    }
}

struct said {
    char lines[8][400];
    int n;
};

static void collect(void *ctx, const char *prefix, const char *text)
{
    struct said *s = ctx;
    if (s->n < 8)
        snprintf(s->lines[s->n++], sizeof s->lines[0], "%s%s", prefix, text);
}

/* A warning said by several runs is one line: the count, the runs, and
 * the worst run's own words (the largest first figure that stands alone:
 * 3.41 of "p99 3.41ms", never the 99 of p99); one said once stays as it
 * was; the kinds come in the order first said. */
static void warnings_collapse(void **state)
{
    (void)state;
    const char *const warn[2][3] = {
        {"late pacer: pacer lag p99 1.20ms with the client at 1% CPU",
         "late pacer: pacer lag p99 3.41ms with the client at 0% CPU", NULL},
        {"32.0% of answered requests failed (16 of 50); latency covers the successful ones",
         "late pacer: pacer lag p99 2.00ms with the client at 1% CPU",
         "hypervisor steal 0.6% of CPU time: the VM was paused now and then"}};
    setup_runs(warn);
    struct said s = {.n = 0};
    compare_warnings_each(&cmp, collect, &s);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.lines[0], "3 runs (A 1, 2; B 2), the worst A round 2: late pacer: "
                                    "pacer lag p99 3.41ms with the client at 0% CPU");
    assert_string_equal(s.lines[1], "B round 1: 32.0% of answered requests failed (16 of 50); "
                                    "latency covers the successful ones");
    assert_string_equal(s.lines[2], "B round 3: hypervisor steal 0.6% of CPU time: the VM was "
                                    "paused now and then");
}

/* The order of the arms: planned A B, B A, ...; read back from the
 * rounds' start times, "?" where they do not say. */
static void order_of_the_arms(void **state)
{
    (void)state;
    const char *const none[2][3] = {{NULL, NULL, NULL}, {NULL, NULL, NULL}};
    setup_runs(none);
    assert_int_equal(compare_first_arm_planned(0), 0);
    assert_int_equal(compare_first_arm_planned(1), 1);
    assert_int_equal(compare_first_arm_planned(2), 0);
    char o[4];
    assert_int_equal(compare_order_text(&cmp, 0, o, sizeof o), 1);
    assert_string_equal(o, "AB");
    assert_int_equal(compare_order_text(&cmp, 1, o, sizeof o), 1);
    assert_string_equal(o, "BA");
    assert_int_equal(compare_order_text(&cmp, 2, o, sizeof o), 0);
    assert_string_equal(o, "?");
    assert_int_equal(compare_first_arm(&cmp, 3), -1); /* no such round */
}

/* An arm that stopped answering (issue 41 part 3): B while A answered
 * is a failed arm (3, bad under --bisect), a failed testcase ahead of the
 * others that names the arm and the round; B when A did not answer
 * either, or A, could not run (1, skip under --bisect), an error; stopped
 * before a round was complete, it is the one verdict (nothing else was
 * judged); none stopped gives no verdict and EXIT_OK. */
static void stopped_arm(void **state)
{
    (void)state;
    setup_gates(); /* 3 gates, 3 rounds of at most 8 */
    snprintf(cmp.arm[0].cfg.label, sizeof cmp.arm[0].cfg.label, "old");
    snprintf(cmp.arm[1].cfg.label, sizeof cmp.arm[1].cfg.label, "new");
    assert_int_equal(compare_stop_exit(&cmp), EXIT_OK);
    cmp.stop.arm = 1;
    cmp.stop.round = 4;
    cmp.stop.other_answered = 1;
    snprintf(cmp.stop.why, sizeof cmp.stop.why, "cannot connect to h:2: Connection refused");
    assert_int_equal(compare_stop_exit(&cmp), EXIT_ARM_FAILED);
    cmp.plan.bisect = 1;
    assert_int_equal(compare_stop_exit(&cmp), EXIT_BISECT_BAD);
    compare_verdicts_doc(&verdicts, &cmp);
    assert_int_equal(verdicts.n, 4);
    assert_int_equal(verdicts.v[0].kind, DOC_V_RUN);
    assert_int_equal(verdicts.v[0].status, DOC_FAIL);
    assert_string_equal(verdicts.v[0].name, "arm B answers");
    assert_string_equal(verdicts.v[0].detail, "arm B (new) stopped answering in round 4 of at "
                        "most 8 while A answered, a failed arm: cannot connect to h:2: "
                        "Connection refused");
    doc_verdicts_free(&verdicts);
    cmp.stop.other_answered = 0;
    snprintf(cmp.stop.other_why, sizeof cmp.stop.other_why, "cannot connect to h:1: refused");
    assert_int_equal(compare_stop_exit(&cmp), EXIT_BISECT_SKIP);
    cmp.plan.bisect = 0;
    assert_int_equal(compare_stop_exit(&cmp), EXIT_RUN_FAILED);
    compare_verdicts_doc(&verdicts, &cmp);
    assert_int_equal(verdicts.v[0].status, DOC_ERROR);
    assert_non_null(strstr(verdicts.v[0].detail, " and A did not answer either, so the "
                           "comparison could not run: B: cannot connect to h:2: Connection "
                           "refused; A: cannot connect to h:1: refused"));
    doc_verdicts_free(&verdicts);
    cmp.stop.arm = 0;
    cmp.stop.round = 0;
    cmp.pairs = 0;
    assert_int_equal(compare_stop_exit(&cmp), EXIT_RUN_FAILED);
    compare_verdicts_doc(&verdicts, &cmp);
    assert_int_equal(verdicts.n, 1);
    assert_string_equal(verdicts.v[0].name, "arm A answers");
    assert_string_equal(verdicts.v[0].detail, "arm A (old) did not answer its call before "
                        "round 1, so without its baseline the comparison could not run: "
                        "cannot connect to h:2: Connection refused");
    doc_verdicts_free(&verdicts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(verdict_cell_is_junit_word),
        cmocka_unit_test(text_and_page),
        cmocka_unit_test(no_gates),
        cmocka_unit_test(header_text_and_page),
        cmocka_unit_test(warnings_collapse),
        cmocka_unit_test(order_of_the_arms),
        cmocka_unit_test(stopped_arm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
