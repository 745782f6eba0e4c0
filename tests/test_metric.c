/* test_metric: model/metric.c is the one table of figures: every key is
 * unique, every sweep column has exactly one row, compare's figures are
 * all keyed and valued, and the conditions find each figure by the row's
 * name (judge/condition.c keeps no list of names of its own). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "judge/condition.h"
#include "model/metric.h"

static void test_keys_unique(void **state)
{
    (void)state;
    for (int i = 0; i < METRIC_ALL; i++) {
        assert_non_null(metric_defs[i].name);
        assert_non_null(metric_defs[i].head);
        assert_ptr_equal(metric_named(metric_defs[i].name), &metric_defs[i]);
        for (int j = 0; j < i; j++) {
            assert_string_not_equal(metric_defs[i].name, metric_defs[j].name);
            if (metric_defs[i].json_key && metric_defs[j].json_key)
                assert_string_not_equal(metric_defs[i].json_key, metric_defs[j].json_key);
        }
    }
    /* compare's figures: each keyed, valued and found by --gate's lookup */
    for (int i = 0; i < METRIC_N; i++) {
        assert_non_null(metric_defs[i].json_key);
        assert_non_null(metric_defs[i].value);
        assert_ptr_equal(metric_find(metric_defs[i].name, strlen(metric_defs[i].name)),
                         &metric_defs[i]);
    }
    /* the conditions' own are no compare figure */
    assert_null(metric_find("max", 3));
}

static void test_one_key_for_cpu_per_call(void **state)
{
    (void)state;
    assert_string_equal(metric_defs[METRIC_CPU_MS].json_key, "server_cpu_ms_per_call");
    assert_string_equal(metric_defs[METRIC_CPU_MS].name, "cpu_ms_per_call");
}

static void test_sweep_columns(void **state)
{
    (void)state;
    int seen[METRIC_N] = {0};
    for (int i = 0; i < METRIC_ALL; i++) {
        int col = metric_defs[i].sweep_col;
        assert_true(col >= 0 && col <= metric_sweep_n());
        assert_true(col == 0 || i < METRIC_N); /* a sweep row holds compare's figures */
        if (col)
            seen[col - 1]++;
    }
    assert_int_equal(metric_sweep_n(), 8);
    for (int k = 0; k < metric_sweep_n(); k++) {
        assert_int_equal(seen[k], 1);
        assert_int_equal(metric_defs[metric_sweep_fig(k)].sweep_col, k + 1);
    }
    assert_int_equal(metric_sweep_fig(0), METRIC_RATE); /* after the parameters */
}

/* Every figure parses as a condition by the table's name (bytes and the
 * client's CPU by their value, bare, for the whole run only); a name the
 * table does not have is an unknown metric. */
static void test_conditions_by_name(void **state)
{
    (void)state;
    static const char *const ok[] = {"mean<5ms", "max<5ms", "min<5ms", "errors<1",
                                     "rate>=90%", "server_cpu<50", "cpu_ms_per_call<1",
                                     "send_lag_max<5ms", "unfinished=0", "p99.9<1s",
                                     "bytes<100", "client_cpu_ms<2"};
    char err[ERR_LEN];
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        struct cond_list l = {0};
        assert_int_equal(condition_parse_list(ok[i], &l, err), 0);
    }
    static const char *const bad[] = {"size<100", "bytes<100ms", "getVdsCaps.bytes<100",
                                      "stage1.bytes<100"};
    static const char *const why[] = {"unknown metric", "bare number", "a verb takes",
                                      "a stage takes"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct cond_list l = {0};
        assert_int_equal(condition_parse_list(bad[i], &l, err), -1);
        assert_non_null(strstr(err, why[i]));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_unique),
        cmocka_unit_test(test_one_key_for_cpu_per_call),
        cmocka_unit_test(test_sweep_columns),
        cmocka_unit_test(test_conditions_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
