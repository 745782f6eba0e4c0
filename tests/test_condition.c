/* test_condition: the --threshold grammar (good and bad forms, units,
 * lists) and its judging on synthetic results (boundaries, n/a, verbs),
 * and the JUnit writer's escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <math.h>

#include "judge/condition_testing.h"
#include "report/doc_verdicts.h"

static struct cond_list list;
static struct run_result res; /* large: off the stack */

static const struct condition *parse1(const char *s)
{
    char err[ERR_LEN] = "";
    list.n = 0;
    if (condition_parse_list(s, &list, err)) {
        fprintf(stderr, "unexpected: %s\n", err);
        fail();
    }
    assert_int_equal(list.n, 1);
    return &list.c[0];
}

static void test_parse_good(void **state)
{
    (void)state;
    const struct condition *c = parse1("p99<100ms");
    assert_int_equal(c->kind, CM_PCT);
    assert_true(c->pct == 99 && c->op == COND_LT && c->bound == 100);
    assert_string_equal(c->metric, "p99");
    c = parse1("p99.9<=2s");
    assert_true(c->kind == CM_PCT && c->pct == 99.9 && c->op == COND_LE && c->bound == 2000);
    c = parse1("mean<500us");
    assert_true(c->kind == CM_MEAN && c->bound == 0.5);
    c = parse1("max>1.5s");
    assert_true(c->kind == CM_MAX && c->op == COND_GT && c->bound == 1500);
    c = parse1("min>=1ms");
    assert_true(c->kind == CM_MIN && c->op == COND_GE);
    c = parse1("errors=0");
    assert_true(c->kind == CM_ERRORS && c->op == COND_EQ && c->bound == 0);
    c = parse1("errors<0.1%");
    assert_true(c->kind == CM_ERROR_SHARE && c->bound == 0.1);
    assert_string_equal(cond_unit(c), "%");
    c = parse1("rate>=99%");
    assert_true(c->kind == CM_RATE && c->bound == 99);
    c = parse1("server_cpu<80%");
    assert_true(c->kind == CM_SERVER_CPU && c->bound == 80);
    c = parse1("server_cpu<80");
    assert_true(c->kind == CM_SERVER_CPU && c->bound == 80);
    c = parse1("cpu_ms_per_call<30");
    assert_true(c->kind == CM_CPU_MS_PER_CALL && c->bound == 30);
    c = parse1("send_lag_p99<1ms");
    assert_true(c->kind == CM_SEND_LAG_PCT && c->pct == 99 && c->bound == 1);
    c = parse1("send_lag_max<10ms");
    assert_true(c->kind == CM_SEND_LAG_MAX);
    c = parse1("getAllVmStats.p99<200ms");
    assert_string_equal(c->verb, "getAllVmStats");
    assert_string_equal(c->metric, "p99");
    c = parse1("Host.getStats.p99.9<1s"); /* a method name with dots */
    assert_string_equal(c->verb, "Host.getStats");
    assert_true(c->kind == CM_PCT && c->pct == 99.9);
    c = parse1("list.errors=0");
    assert_true(c->kind == CM_ERRORS && !strcmp(c->verb, "list"));
}

static void test_parse_list(void **state)
{
    (void)state;
    char err[ERR_LEN];
    list.n = 0;
    assert_int_equal(condition_parse_list("p99<100ms, errors=0,rate>=99%", &list, err), 0);
    assert_int_equal(list.n, 3);
    assert_string_equal(list.c[1].expr, "errors=0");
    /* repeated options append; a bad list leaves the earlier ones */
    assert_int_equal(condition_parse_list("p50<1s", &list, err), 0);
    assert_int_equal(list.n, 4);
    assert_int_equal(condition_parse_list("p90<1s,bogus<1", &list, err), -1);
    assert_int_equal(list.n, 4);
}

static void bad(const char *s, const char *says)
{
    char err[ERR_LEN] = "";
    list.n = 0;
    assert_int_equal(condition_parse_list(s, &list, err), -1);
    if (!strstr(err, says) || !strstr(err, "METRIC OP VALUE[UNIT]")) {
        fprintf(stderr, "%s -> %s\n", s, err);
        fail();
    }
    assert_int_equal(list.n, 0);
    assert_true(strlen(err) < ERR_LEN - 1); /* not cut short */
}

static void test_parse_bad(void **state)
{
    (void)state;
    bad("p99", "'p99': no operator");
    bad("p99<5", "needs a unit");
    bad("p99<5%", "needs a unit");
    bad("p99<5parsecs", "bad duration");
    bad("p99<<5ms", "one operator");
    bad("p99<-5ms", "not a non-negative number");
    bad("p99<ms", "not a non-negative number");
    bad("p101<5ms", "unknown metric");
    bad("pxx<5ms", "unknown metric");
    bad("latency<5ms", "unknown metric");
    bad("errors<5ms", "errors takes");
    bad("errors<101%", "at most 100%");
    bad("rate>=99", "rate takes");
    bad("server_cpu<80ms", "server_cpu takes");
    bad("getAllVmStats.rate>=99%", "a verb takes");
    bad("p99<5ms,", "empty condition");
    bad(",p99<5ms", "empty condition");
    bad("p99 < 5 ms", "no spaces");
    bad(".p99<5ms", "unknown metric");
}

/* A run of 1000 sends, 990 ok (latency 1..990 ms), 10 errors; verb
 * "list" with all of them; CPU sampled at 40 %; target 100/s, 98 achieved. */
static int setup(void **state)
{
    (void)state;
    struct run_config cfg = {0};
    snprintf(cfg.verbs[0].name, sizeof cfg.verbs[0].name, "list");
    cfg.nverbs = 1;
    cfg.rate = 100;
    assert_int_equal(result_init(&res, &cfg), 0);
    for (int i = 1; i <= 990; i++) {
        hist_record(&res.latency, i * 1000);
        hist_record(&res.verbs[0].latency, i * 1000);
        hist_record(&res.send_lag, 10);
    }
    res.offered = res.sent = res.verbs[0].requests = 1000;
    res.ok = res.verbs[0].ok = 990;
    res.errors = res.verbs[0].errors = 10;
    res.err[ERR_FAULT] = 10; /* answered by the server: CPU per call is 500 / 1000 */
    res.rate_achieved = 98;
    static struct proc_point pts[2];
    pts[0].server_pct = 30;
    pts[1].server_pct = 50;
    res.samples = NULL;
    for (int i = 0; i < 2; i++)
        assert_int_equal(result_add_sample(&res, &pts[i]), 0);
    res.nwatched = 1;
    res.server_cpu_ms = 500;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    result_free(&res);
    return 0;
}

/* Judges s on res: 1 pass, 0 fail, -1 n/a. */
static int judge(const char *s, double *value)
{
    struct cond_result out;
    condition_eval(parse1(s), &res, &out);
    if (value)
        *value = out.value;
    return out.na ? -1 : out.pass;
}

static void test_eval_boundaries(void **state)
{
    (void)state;
    double v;
    assert_int_equal(judge("max<990ms", &v), 0);
    assert_true(v == 990);
    assert_int_equal(judge("max<=990ms", NULL), 1);
    assert_int_equal(judge("max=990ms", NULL), 1);
    assert_int_equal(judge("min>=1ms", NULL), 1);
    assert_int_equal(judge("min>1ms", NULL), 0);
    /* the percentile is the histogram's (within 0.1 %), the bound exact */
    double p50 = (double)hist_percentile(&res.latency, 50) / 1000;
    char cond[64];
    snprintf(cond, sizeof cond, "p50<=%.3fms", p50);
    assert_int_equal(judge(cond, &v), 1);
    assert_true(v == p50 && v >= 495 && v < 495.5);
    snprintf(cond, sizeof cond, "p50<%.3fms", p50);
    assert_int_equal(judge(cond, NULL), 0);
    assert_int_equal(judge("mean<=495.5ms", &v), 1);
    assert_true(v == 495.5);
    assert_int_equal(judge("mean<495.5ms", NULL), 0);
    assert_int_equal(judge("errors=10", NULL), 1);
    assert_int_equal(judge("errors=0", NULL), 0);
    assert_int_equal(judge("errors<=1%", &v), 1);
    assert_true(v == 1);
    assert_int_equal(judge("errors<1%", NULL), 0);
    assert_int_equal(judge("rate>=98%", &v), 1);
    assert_true(v == 98);
    assert_int_equal(judge("rate>=99%", NULL), 0);
    assert_int_equal(judge("server_cpu<=40%", &v), 1);
    assert_true(v == 40);
    assert_int_equal(judge("server_cpu<40", NULL), 0);
    assert_int_equal(judge("cpu_ms_per_call<=0.5", &v), 1);
    assert_true(v == 0.5);
    assert_int_equal(judge("cpu_ms_per_call<0.5ms", NULL), 0);
    assert_int_equal(judge("send_lag_max<=10us", &v), 1);
    assert_true(v == 0.01);
    assert_int_equal(judge("send_lag_p99<10us", NULL), 0);
}

static void test_eval_verbs(void **state)
{
    (void)state;
    assert_int_equal(judge("list.p50<=496ms", NULL), 1);
    assert_int_equal(judge("list.errors=10", NULL), 1);
    hist_reset(&res.verbs[0].latency);
    assert_int_equal(judge("list.p50<=496ms", NULL), -1);
    assert_int_equal(judge("p50<=496ms", NULL), 1); /* the run's own is intact */
    assert_int_equal(judge("getAllVmStats.p99<1s", NULL), -1);
    char err[ERR_LEN];
    assert_int_equal(condition_check_verbs(&list, &res.cfg, err), -1);
    assert_non_null(strstr(err, "no verb 'getAllVmStats' (it has list)"));
    parse1("list.p99<1s");
    assert_int_equal(condition_check_verbs(&list, &res.cfg, err), 0);
}

/* A --stages run of two stages (1 s at 100/s, then 1 s ramping to 300/s):
 * stageN.METRIC judges stage N's own figures; a stage the run lacks is
 * n/a, and a usage error before the run. */
static int setup_stages(void **state)
{
    (void)state;
    struct run_config cfg = {.rate = 150, .nstages = 2,
                             .stages = {{1000000000, 100, 100}, {1000000000, 100, 300}}};
    assert_int_equal(result_init(&res, &cfg), 0);
    assert_int_equal(res.nstages, 2);
    for (int i = 1; i <= 100; i++)
        hist_record(&res.stages[0].latency, i * 1000);      /* 1..100 ms */
    for (int i = 1; i <= 190; i++)
        hist_record(&res.stages[1].latency, 500000 + i);    /* ~500 ms */
    res.stages[0].offered = res.stages[0].sent = res.stages[0].ok = 100;
    res.stages[1].offered = res.stages[1].sent = 200;
    res.stages[1].ok = 190;
    res.stages[1].errors = 10;
    res.stages[1].answered = 195; /* ok, and 5 faults; its 5 timeouts were never answered */
    res.stages[1].server_cpu_pct = 20;
    res.stages[1].server_cpu_ms = 200;
    return 0;
}

static void test_eval_stages(void **state)
{
    (void)state;
    const struct condition *c = parse1("stage2.p99<600ms");
    assert_int_equal(c->stage, 2);
    assert_string_equal(c->verb, "");
    assert_int_equal(judge("stage2.p99<600ms", NULL), 1);
    assert_int_equal(judge("stage1.p99<600ms", NULL), 1);
    assert_int_equal(judge("stage2.p50<100ms", NULL), 0);
    assert_int_equal(judge("stage1.max<=100ms", NULL), 1);
    double v;
    assert_int_equal(judge("stage2.errors=10", NULL), 1);
    assert_int_equal(judge("stage1.errors=0", NULL), 1);
    assert_int_equal(judge("stage2.rate>=99%", &v), 1); /* 200 sent of 200 offered */
    assert_true(v == 100);
    assert_int_equal(judge("stage2.server_cpu<=20%", &v), 1);
    assert_int_equal(judge("stage2.cpu_ms_per_call<=1.1", &v), 1); /* 200 ms / 195 answered */
    assert_true(fabs(v - 200.0 / 195) < 1e-12);
    res.stages[1].answered = 0; /* the server measured, and it answered nothing */
    assert_int_equal(judge("stage2.cpu_ms_per_call<=1.1", NULL), -1);
    struct cond_result out;
    condition_eval(&list.c[0], &res, &out);
    assert_string_equal(out.why, "no request answered");
    res.stages[1].answered = 195;
    assert_int_equal(judge("stage1.server_cpu<100", NULL), -1); /* not measured */
    assert_int_equal(judge("stage3.p99<1s", NULL), -1);
    assert_int_equal(judge("p99<1s", NULL), -1); /* the run's own histogram: empty here */
    char err[ERR_LEN];
    assert_int_equal(condition_check_verbs(&list, &res.cfg, err), 0);
    parse1("stage3.p99<1s");
    assert_int_equal(condition_check_verbs(&list, &res.cfg, err), -1);
    assert_non_null(strstr(err, "no stage 3 (it has 2)"));
    list.n = 0;
    assert_int_equal(condition_parse_list("stage2.send_lag_max<1ms", &list, err), -1);
    assert_int_equal(condition_parse_list("stage0.p99<1ms", &list, err), -1);
    assert_int_equal(condition_parse_list("stage17.p99<1ms", &list, err), -1);
    assert_int_equal(condition_parse_list("stage2x.p99<1ms", &list, err), 0); /* a verb */
    assert_int_equal(list.c[0].stage, 0);
}

static void test_eval_na(void **state)
{
    (void)state;
    struct cond_result out[3];
    list.n = 0;
    char err[ERR_LEN], line[256];
    assert_int_equal(condition_parse_list("p99<1s,server_cpu<80%,rate>0%", &list, err), 0);
    hist_reset(&res.latency);
    res.nsamples = 0;
    res.server_cpu_ms = FIG_UNKNOWN;
    res.cfg.rate = 0;
    assert_int_equal(condition_eval_list(&list, &res, out), 3);
    for (int i = 0; i < 3; i++)
        assert_true(out[i].na && !out[i].pass);
    condition_describe(&list.c[0], &out[0], line, sizeof line);
    assert_string_equal(line, "p99 n/a (no successful response), bound < 1000ms");
    json_object *j = condition_json(&list, out);
    assert_non_null(strstr(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN), "\"value\":null"));
    json_object_put(j);
    parse1("errors<1%");
    res.offered = res.sent = 0;
    struct cond_result one;
    condition_eval(&list.c[0], &res, &one);
    assert_true(one.na);
}

/* Judges the list s on res: how many failed, out[] filled. */
static size_t judge_list(const char *s, struct cond_result *out)
{
    char err[ERR_LEN];
    list.n = 0;
    assert_int_equal(condition_parse_list(s, &list, err), 0);
    return condition_eval_list(&list, &res, out);
}

/* 20 more sends never answered, censored at 2 s and more: the figures they
 * reach are lower bounds; unless an unfinished condition allows them they
 * count as errors and fail every latency condition. */
static void test_eval_unfinished(void **state)
{
    (void)state;
    struct cond_result out[3];
    char line[256];
    for (int i = 0; i < 20; i++)
        result_censor(&res, 0, 2000000 + i * 1000);
    res.offered = res.sent = res.verbs[0].requests = 1020;
    res.unfinished = res.verbs[0].unfinished = 20;
    assert_true(res.censored.n == 20 && res.censored.min_us == 2000000);
    assert_int_equal(judge_list("errors=10", out), 1);
    assert_true(out[0].value == 30 && out[0].unallowed);
    assert_int_equal(judge_list("p50<1s", out), 1); /* exact, but not allowed */
    assert_true(!out[0].lower_bound && out[0].unallowed);
    assert_int_equal(judge_list("p50<1s,unfinished<2%,errors=10", out), 0);
    assert_true(out[1].value == 100.0 * 20 / 1020 && !out[2].unallowed);
    assert_int_equal(judge_list("unfinished<=20,p99<1h,max<2s", out), 1);
    assert_true(out[1].pass && out[1].lower_bound && !out[2].pass && out[2].lower_bound);
    condition_describe(&list.c[2], &out[2], line, sizeof line);
    assert_string_equal(line, "max " RESULT_LOWER_BOUND_MARK " 2019ms (a lower bound: 20 requests "
                              "unfinished), bound < 2000ms");
    assert_int_equal(judge_list("list.unfinished=20,list.mean<1h", out), 0);
    assert_true(out[1].lower_bound);
    assert_int_equal(judge_list("unfinished<1", out), 1);
    char err[ERR_LEN];
    list.n = 0;
    assert_int_equal(condition_parse_list("unfinished<5ms", &list, err), -1);
    assert_non_null(strstr(err, "unfinished takes a count or a share in %"));
}

/* The file at path, into buf (len bytes), then removed. */
static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    unlink(path);
    buf[n] = '\0';
}

static void test_junit_escapes(void **state)
{
    (void)state;
    char path[] = "/tmp/test_junit_XXXXXX", err[ERR_LEN];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct doc_verdicts d;
    doc_verdicts_init(&d, "rpcbench <run>");
    struct doc_verdict *v = doc_verdicts_add(&d, DOC_V_THRESHOLD, DOC_FAIL);
    snprintf(v->name, sizeof v->name, "p99<5ms & \"x\"");
    snprintf(v->classname, sizeof v->classname, "rpcbench.run");
    snprintf(v->detail, sizeof v->detail, "p99 = 20ms, bound < 5ms\x01");
    v = doc_verdicts_add(&d, DOC_V_THRESHOLD, DOC_PASS);
    snprintf(v->name, sizeof v->name, "errors=0");
    assert_int_equal(doc_verdicts_junit(path, &d, err), 0);
    char buf[2048] = "";
    slurp(path, buf, sizeof buf);
    assert_non_null(strstr(buf, "name=\"p99&lt;5ms &amp; &quot;x&quot;\""));
    assert_non_null(strstr(buf, "name=\"rpcbench &lt;run&gt;\" tests=\"2\" failures=\"1\""));
    assert_non_null(strstr(buf, "bound &lt; 5ms\\x01: FAIL\""));
    assert_null(strchr(buf, '\x01'));
    assert_int_equal(doc_verdicts_junit("/nonexistent/dir/x.xml", &d, err), -1);
    assert_non_null(strstr(err, "/nonexistent/dir/x.xml"));
    doc_verdicts_free(&d);
}

/* One document, every format: a run cut short is an <error> of type
 * "interrupted" in JUnit (not a failure, not counted as one), an
 * inconclusive gate a <failure> with the word "inconclusive", and the
 * text's threshold lines say of each condition the word JUnit says. */
static void test_verdicts_one_document(void **state)
{
    (void)state;
    struct doc_verdicts d;
    doc_verdicts_init(&d, "rpcbench compare");
    static const enum doc_verdict_status st[3] = {DOC_PASS, DOC_FAIL, DOC_INCONCLUSIVE};
    static const enum doc_vkind kind[3] = {DOC_V_THRESHOLD, DOC_V_THRESHOLD, DOC_V_GATE};
    for (int i = 0; i < 3; i++) {
        struct doc_verdict *v = doc_verdicts_add(&d, kind[i], st[i]);
        snprintf(v->expr, sizeof v->expr, "p%d<5ms", 50 + i);
        snprintf(v->name, sizeof v->name, "case %d", i);
        snprintf(v->group, sizeof v->group, "%s", i < 2 ? "arm A (x)" : "");
        snprintf(v->detail, sizeof v->detail, "measured %d", i);
    }
    struct doc_verdict *v = doc_verdicts_add(&d, DOC_V_RUN, DOC_ERROR);
    snprintf(v->name, sizeof v->name, "complete run");
    snprintf(v->detail, sizeof v->detail, "interrupted by SIGINT");
    assert_string_equal(doc_verdict_word(v), "error");
    size_t failed;
    assert_int_equal(doc_verdicts_count(&d, DOC_V_THRESHOLD, &failed), 2);
    assert_int_equal(failed, 1);
    char path[] = "/tmp/test_verdicts_XXXXXX", err[ERR_LEN], xml[4096], text[1024] = "";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(doc_verdicts_junit(path, &d, err), 0);
    slurp(path, xml, sizeof xml);
    assert_non_null(strstr(xml, "tests=\"4\" failures=\"2\" errors=\"1\""));
    assert_non_null(strstr(xml, "<error message=\"interrupted by SIGINT\" type=\"interrupted\">"));
    assert_non_null(strstr(xml, "<system-out>arm A (x): measured 0: pass</system-out>"));
    assert_non_null(strstr(xml, "type=\"threshold\">arm A (x): measured 1: FAIL</failure>"));
    /* a gate's failure says what kind: "inconclusive" (or "regression") */
    assert_non_null(strstr(xml, "type=\"inconclusive\">measured 2: inconclusive</failure>"));
    FILE *f = fmemopen(text, sizeof text, "w");
    doc_verdicts_text(f, &d, "arm A (x)");
    fclose(f);
    assert_string_equal(text, "threshold p50<5ms: measured 0: pass\n"
                              "threshold p51<5ms: measured 1: FAIL\n");
    doc_verdicts_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good),
        cmocka_unit_test(test_parse_list),
        cmocka_unit_test(test_parse_bad),
        cmocka_unit_test_setup_teardown(test_eval_boundaries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eval_verbs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eval_na, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eval_stages, setup_stages, teardown),
        cmocka_unit_test_setup_teardown(test_eval_unfinished, setup, teardown),
        cmocka_unit_test(test_junit_escapes), cmocka_unit_test(test_verdicts_one_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
