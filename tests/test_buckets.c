/* test_buckets: the automatic bucket table fits the data: round edges over
 * its spread, one edge above a long tail, no row repeating the row before
 * it (for one histogram and for the union of two), none without data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/buckets.h"
#include "base/units.h"

/* Rows whose percentage equals the row before it, for every histogram. */
static int repeats(const struct hist *const *hs, int nh, const double *e, int n)
{
    int rep = 0;
    for (int i = 1; i < n; i++) {
        int same = 1;
        for (int k = 0; k < nh; k++)
            same &= hist_pct_below(hs[k], llround(e[i] * 1000)) ==
                    hist_pct_below(hs[k], llround(e[i - 1] * 1000));
        rep += same;
    }
    return rep;
}

static void check_table(const struct hist *const *hs, int nh, const double *e, int n)
{
    assert_true(n >= 2);
    assert_int_equal(repeats(hs, nh, e, n), 0);
    for (int i = 1; i < n; i++)
        assert_true(e[i] > e[i - 1]);
    for (int k = 0; k < nh; k++) {
        if (!hs[k]->total_count)
            continue;
        assert_true(hist_pct_below(hs[k], llround(e[n - 1] * 1000)) == 100.0);
    }
}

/* h (initialised here; the caller closes it) holds the n values (us);
 * e gets the automatic edges. @return their number. */
static int auto_table(struct hist *h, const int64_t *v, int n, double *e)
{
    char err[ERR_LEN];
    assert_int_equal(hist_init_latency(h), 0);
    for (int i = 0; i < n; i++)
        hist_record(h, v[i]);
    const struct hist *hs[1] = {h};
    return buckets_edges("auto", hs, 1, e, err);
}

/* The case: 5 requests, 32.2 .. 44.3 ms, gave 19 rows, 15 alike. */
static void test_five_requests(void **state)
{
    (void)state;
    struct hist h;
    static const int64_t v[] = {32200, 32900, 34800, 38900, 44300};
    double e[BUCKETS_MAX];
    int n = auto_table(&h, v, 5, e);
    const struct hist *hs[1] = {&h};
    assert_in_range(n, 2, 6); /* at most one row per value, and the 0 % row */
    assert_true(hist_pct_below(&h, llround(e[0] * 1000)) == 0.0);
    check_table(hs, 1, e, n);
    hist_close(&h);
}

/* A sharp body and a long tail: rows across the body, one edge past the
 * max, not hundreds of identical 99.x rows. */
static void test_long_tail(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    for (int i = 0; i < 1000; i++)
        hist_record(&h, 80 + i % 80);
    hist_record(&h, 8170);
    const struct hist *hs[1] = {&h};
    double e[BUCKETS_MAX];
    char err[ERR_LEN];
    int n = buckets_edges("auto", hs, 1, e, err);
    assert_in_range(n, 10, 25); /* rows across the body: 80 .. 160 us */
    check_table(hs, 1, e, n);
    assert_true(e[n - 1] > 8.17 && e[n - 1] < 9); /* a round edge just above the max */
    assert_true(e[n - 2] < 0.2);                   /* the body's rows end at the body */
    hist_close(&h);
}

/* compare's two arms: one set of edges over both spreads, a row kept when
 * either arm changes. */
static void test_union_of_arms(void **state)
{
    (void)state;
    struct hist a, b;
    assert_int_equal(hist_init_latency(&a), 0);
    assert_int_equal(hist_init_latency(&b), 0);
    for (int i = 0; i < 200; i++) {
        hist_record(&a, 5000 + i * 20);  /* 5 .. 9 ms */
        hist_record(&b, 30000 + i * 50); /* 30 .. 40 ms */
    }
    const struct hist *hs[2] = {&a, &b};
    double e[BUCKETS_MAX];
    char err[ERR_LEN];
    int n = buckets_edges("auto", hs, 2, e, err);
    assert_true(e[0] <= 5.0 && e[n - 1] > 39.95);
    check_table(hs, 2, e, n);
    assert_in_range(n, 8, 40);
    hist_close(&a);
    hist_close(&b);
}

static void test_no_data_no_rows(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    const struct hist *hs[1] = {&h};
    double e[BUCKETS_MAX];
    char err[ERR_LEN];
    assert_int_equal(buckets_edges("auto", hs, 1, e, err), 0);
    assert_int_equal(buckets_edges("", hs, 1, e, err), 0);
    /* Edges the user gave are kept as given. */
    assert_int_equal(buckets_edges("1,2,5", hs, 1, e, err), 3);
    hist_record(&h, 1500);
    assert_int_equal(buckets_edges("1,2,5", hs, 1, e, err), 3);
    /* One value: a couple of rows around it. */
    int n = buckets_edges("auto", hs, 1, e, err);
    assert_in_range(n, 2, 3);
    check_table(hs, 1, e, n);
    hist_close(&h);
}

/* The max shares a histogram bucket with the edge just above it (44.49
 * and 44.5 ms, one 32 us bucket): that edge's row must read 100, not the
 * row before it repeated and dropped (the table once ended at 80 %). */
static void test_max_in_the_last_edges_bucket(void **state)
{
    (void)state;
    struct hist h;
    static const int64_t v[] = {36600, 38000, 40000, 42000, 44490};
    double e[BUCKETS_MAX];
    int n = auto_table(&h, v, 5, e);
    const struct hist *hs[1] = {&h};
    assert_true(n >= 2);
    assert_true(e[n - 1] > 44.49);
    assert_true(hist_pct_below(&h, 44500) == 100.0); /* was 80: the bucket's count */
    assert_true(hist_pct_below(&h, 44490) == 80.0);  /* the max itself is not below */
    assert_true(hist_pct_below(&h, 36600) == 0.0);
    check_table(hs, 1, e, n);
    hist_close(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_five_requests),
        cmocka_unit_test(test_long_tail),
        cmocka_unit_test(test_union_of_arms),
        cmocka_unit_test(test_no_data_no_rows),
        cmocka_unit_test(test_max_in_the_last_edges_bucket),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
