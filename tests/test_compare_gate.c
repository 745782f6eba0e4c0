/* test_compare_gate: --gate's grammar with a call (CALL.METRIC:+TOL%, the
 * call's name holding dots too), what a call's gate refuses, the check of
 * its call against a run's verbs, and the per-call figure it is judged on
 * (the call's own histogram, unknown for a call without answers or a
 * figure a call has not). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "base/err.h"
#include "judge/compare_gate.h"
#include "model/metric.h"

static void whole_run_and_call_gates(void **state)
{
    (void)state;
    struct gate g;
    char err[ERR_LEN];
    assert_int_equal(gate_parse("p99:+10%", &g, err), 0);
    assert_string_equal(g.call, "");
    assert_int_equal(g.fig, METRIC_P99);
    assert_int_equal(gate_parse("add.p99:+10%", &g, err), 0);
    assert_string_equal(g.call, "add");
    assert_int_equal(g.fig, METRIC_P99);
    assert_true(fabs(g.tol - 0.10) < 1e-12);
    assert_string_equal(g.expr, "add.p99:+10%");
    assert_int_equal(gate_parse("Host.getStats.mean:+5%", &g, err), 0);
    assert_string_equal(g.call, "Host.getStats");
    assert_int_equal(g.fig, METRIC_MEAN);
}

static void bad_call_gates_refused(void **state)
{
    (void)state;
    struct gate g;
    char err[ERR_LEN];
    const char *bad[][2] = {{"add.rate:-2%", "a call's gate takes p50, p90, p99 or mean"},
                            {"add.errors:+1%", "a call's gate takes"},
                            {".p99:+10%", "no call before the '.'"},
                            {"add.p98:+10%", "unknown metric"},
                            {"add.p99:-10%", "takes +"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (gate_parse(bad[i][0], &g, err) == 0)
            fail_msg("'%s' was taken", bad[i][0]);
        if (!strstr(err, bad[i][1]) || !strstr(err, bad[i][0]))
            fail_msg("'%s': '%s' does not say '%s'", bad[i][0], err, bad[i][1]);
    }
}

static void calls_checked_against_the_verbs(void **state)
{
    (void)state;
    struct gate g[2];
    char err[ERR_LEN];
    static struct run_config cfg;
    cfg.nverbs = 2;
    snprintf(cfg.verbs[0].name, sizeof cfg.verbs[0].name, "add");
    snprintf(cfg.verbs[1].name, sizeof cfg.verbs[1].name, "list");
    assert_int_equal(gate_parse("p50:+10%", &g[0], err), 0);
    assert_int_equal(gate_parse("list.p99:+10%", &g[1], err), 0);
    assert_int_equal(gate_check_calls(g, 2, &cfg, err), 0);
    assert_int_equal(gate_parse("nope.p99:+10%", &g[1], err), 0);
    assert_int_equal(gate_check_calls(g, 2, &cfg, err), -1);
    assert_non_null(strstr(err, "no call 'nope' (it has add, list)"));
}

static void a_calls_figure_is_its_own(void **state)
{
    (void)state;
    static struct run_config cfg;
    static struct run_result r;
    cfg.nverbs = 2;
    snprintf(cfg.verbs[0].name, sizeof cfg.verbs[0].name, "add");
    snprintf(cfg.verbs[1].name, sizeof cfg.verbs[1].name, "list");
    assert_int_equal(result_init(&r, &cfg), 0);
    for (int i = 0; i < 100; i++)
        hist_record(&r.verbs[0].latency, 2000); /* 2 ms */
    double p50 = metric_call_value(&r, "add", METRIC_P50);
    assert_true(p50 > 1.9 && p50 < 2.1);
    double mean = metric_call_value(&r, "add", METRIC_MEAN);
    assert_true(mean > 1.9 && mean < 2.1);
    assert_false(fig_known(metric_call_value(&r, "list", METRIC_P50))); /* no answer */
    assert_false(fig_known(metric_call_value(&r, "nope", METRIC_P50)));
    assert_false(fig_known(metric_call_value(&r, "add", METRIC_RATE)));
    result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_run_and_call_gates),
        cmocka_unit_test(bad_call_gates_refused),
        cmocka_unit_test(calls_checked_against_the_verbs),
        cmocka_unit_test(a_calls_figure_is_its_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
