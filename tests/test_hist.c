/* test_hist: bucket layout, percentiles, merge, edges of hist. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stats/hist.h"
#include "stats/hist_testing.h"

/* Deterministic values for tests: a 64-bit LCG. */
static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static void test_layout_latency(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    /* Numbers HdrHistogram_c's own tests assert for (1, 3600000000, 3). */
    assert_int_equal(h.unit_magnitude, 0);
    assert_int_equal(h.sub_bucket_half_count_magnitude, 10);
    assert_int_equal(h.sub_bucket_count, 2048);
    assert_int_equal(h.sub_bucket_half_count, 1024);
    assert_int_equal(h.bucket_count, 22);
    assert_int_equal(h.counts_len, 23552);
    assert_int_equal(h.sub_bucket_mask, 2047);
    hist_close(&h);
}

static void test_bad_params(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init(&h, 0, 1000, 3), -1);
    assert_int_equal(hist_init(&h, 1, 1000, 0), -1);
    assert_int_equal(hist_init(&h, 1, 1000, 6), -1);
    assert_int_equal(hist_init(&h, 100, 150, 3), -1);
    assert_int_equal(hist_init(&h, 1, 2, 1), 0);
    hist_close(&h);
}

/* Hand-checked equivalences (the same ones HdrHistogram's Java tests use). */
static void test_equivalent_values(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    assert_int_equal(hist_lowest_equivalent(&h, 10007), 10000);
    assert_int_equal(hist_lowest_equivalent(&h, 10009), 10008);
    assert_int_equal(hist_highest_equivalent(&h, 8180), 8183);
    assert_int_equal(hist_highest_equivalent(&h, 8191), 8191);
    assert_int_equal(hist_highest_equivalent(&h, 8193), 8199);
    assert_int_equal(hist_highest_equivalent(&h, 9995), 9999);
    assert_int_equal(hist_highest_equivalent(&h, 10007), 10007);
    assert_int_equal(hist_highest_equivalent(&h, 10008), 10015);
    assert_int_equal(hist_highest_equivalent(&h, 2047), 2047); /* unit-wide below 2048 */
    assert_int_equal(hist_highest_equivalent(&h, 2048), 2049);
    assert_int_equal(hist_index_for(&h, 0), 0);
    assert_int_equal(hist_index_for(&h, 2047), 2047);
    assert_int_equal(hist_index_for(&h, 2048), 2048);
    assert_int_equal(hist_index_for(&h, 4096), 3072);
    assert_int_equal(hist_value_at_index(&h, 3072), 4096);
    assert_true(hist_index_for(&h, h.highest) < h.counts_len);
    hist_close(&h);
}

/* index -> value -> index is the identity, and every value lies in its
 * bucket, whose width is within 0.1 % of it; for two unit magnitudes. */
static void check_geometry(int64_t lowest)
{
    struct hist h;
    assert_int_equal(hist_init(&h, lowest, INT64_C(3600000000), 3), 0);
    for (int32_t i = 1; i < h.counts_len; i++) {
        int64_t v = hist_value_at_index(&h, i);
        if (v > h.highest)
            break;
        assert_int_equal(hist_index_for(&h, v), i);
        assert_int_equal(hist_lowest_equivalent(&h, v), v);
        int64_t hi = hist_highest_equivalent(&h, v);
        assert_int_equal(hist_index_for(&h, hi), i);
        assert_int_equal(hist_index_for(&h, hi + 1), i + 1);
        if (v >= lowest * 1000)
            assert_true((double)(hi - v + 1) <= (double)v * 0.001);
    }
    hist_close(&h);
}

static void test_geometry(void **state)
{
    (void)state;
    check_geometry(1);
    check_geometry(1000);
}

static void test_uniform_percentiles(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    for (int64_t v = 1; v <= 1000000; v++)
        hist_record(&h, v);
    assert_int_equal(h.total_count, 1000000);
    static const double ps[] = {1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100};
    for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
        double exact = ps[i] * 10000.0; /* the value at rank p% of 1e6 */
        double got = (double)hist_percentile(&h, ps[i]);
        assert_true(got >= exact);
        assert_true(got - exact <= exact * 0.001);
    }
    assert_int_equal(hist_percentile(&h, 0), 1);
    assert_int_equal(hist_percentile(&h, 200), 1000000); /* the exact max, not the bucket's top */
    assert_true(hist_mean(&h) == 500000.5);
    hist_close(&h);
}

/* 10000 values at 1000 and one at 100000000: HdrHistogram's own example. */
static void test_hand_checked(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    hist_record_n(&h, 1000, 10000);
    hist_record(&h, 100000000);
    assert_int_equal(hist_percentile(&h, 30), 1000);
    assert_int_equal(hist_percentile(&h, 99), 1000);
    assert_int_equal(hist_percentile(&h, 99.99), 1000);
    /* HdrHistogram says 100007935, the top of the max's bucket: past the max. */
    assert_int_equal(hist_percentile(&h, 99.999), 100000000);
    assert_int_equal(hist_percentile(&h, 100), 100000000);
    assert_int_equal(h.min, 1000);
    assert_int_equal(h.max, 100000000);
    hist_reset(&h);
    hist_record(&h, 10007);
    assert_int_equal(hist_percentile(&h, 0), 10007); /* not 10000, below the min */
    assert_int_equal(hist_percentile(&h, 50), 10007);
    hist_reset(&h);
    for (int v = 1; v <= 4; v++)
        hist_record(&h, v); /* ranks: 50 % of 4 is the 2nd value */
    assert_int_equal(hist_percentile(&h, 50), 2);
    assert_int_equal(hist_percentile(&h, 62.5), 3); /* 2.5 rounds up to rank 3 */
    assert_int_equal(hist_percentile(&h, 75), 3);
    assert_int_equal(hist_percentile(&h, 76), 3);
    assert_int_equal(hist_percentile(&h, 90), 4);
    hist_close(&h);
}

/* What --hdr-log's censored interval is: a run's histogram less the
 * intervals already written. Refused, changing nothing, when the part is
 * not a part. */
static void test_subtract(void **state)
{
    (void)state;
    struct hist all, part, rest;
    assert_int_equal(hist_init_latency(&all), 0);
    assert_int_equal(hist_init_latency(&part), 0);
    assert_int_equal(hist_init_latency(&rest), 0);
    for (int64_t v = 100; v < 200; v++) {
        hist_record(&all, v);
        hist_record(v < 190 ? &part : &rest, v);
    }
    hist_record(&all, 5000000);
    hist_record(&rest, 5000000);
    assert_int_equal(hist_subtract(&all, &part), 0);
    assert_int_equal(all.total_count, 11);
    assert_memory_equal(all.counts, rest.counts, (size_t)rest.counts_len * sizeof(int64_t));
    assert_int_equal(all.min, 190);
    assert_int_equal(all.max, hist_highest_equivalent(&all, 5000000));
    assert_true(all.sum == rest.sum);
    hist_record(&part, 7);
    assert_int_equal(hist_subtract(&all, &part), -1);
    assert_int_equal(all.total_count, 11);
    assert_int_equal(hist_subtract(&all, &rest), 0);
    assert_int_equal(all.total_count, 0);
    assert_int_equal(all.max, 0);
    hist_close(&all);
    hist_close(&part);
    hist_close(&rest);
}

static void test_merge(void **state)
{
    (void)state;
    struct hist a, b, all, other;
    assert_int_equal(hist_init_latency(&a), 0);
    assert_int_equal(hist_init_latency(&b), 0);
    assert_int_equal(hist_init_latency(&all), 0);
    uint64_t seed = 42;
    for (int i = 0; i < 20000; i++) {
        int64_t v = (int64_t)(lcg(&seed) % 5000000);
        hist_record(i % 3 ? &a : &b, v);
        hist_record(&all, v);
    }
    assert_int_equal(hist_merge(&a, &b), 0);
    assert_int_equal(a.total_count, all.total_count);
    assert_int_equal(a.min, all.min);
    assert_int_equal(a.max, all.max);
    assert_memory_equal(a.counts, all.counts, (size_t)all.counts_len * sizeof(int64_t));
    assert_true(a.sum == all.sum);
    for (double p = 0; p <= 100; p += 0.5)
        assert_int_equal(hist_percentile(&a, p), hist_percentile(&all, p));
    assert_int_equal(hist_init(&other, 1, 1000000, 3), 0);
    assert_int_equal(hist_merge(&other, &a), -1);
    hist_close(&other);
    assert_int_equal(hist_init(&other, 1, INT64_C(3600000000), 2), 0);
    assert_int_equal(hist_merge(&other, &a), -1);
    hist_close(&other);
    hist_close(&a);
    hist_close(&b);
    hist_close(&all);
}

static void test_pct_below(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    assert_true(hist_pct_below(&h, 100) == 0.0);
    hist_record_n(&h, 10, 100);
    hist_record_n(&h, 5000, 100); /* bucket [5000, 5003] */
    assert_true(hist_pct_below(&h, 0) == 0.0);
    assert_true(hist_pct_below(&h, 10) == 0.0);
    assert_true(hist_pct_below(&h, 11) == 50.0);
    assert_true(hist_pct_below(&h, 5000) == 50.0);
    /* above the exact max: all of them, though 5003 shares 5000's bucket */
    assert_true(hist_pct_below(&h, 5003) == 100.0);
    assert_true(hist_pct_below(&h, 5004) == 100.0);
    assert_true(hist_pct_below(&h, h.highest + 1) == 100.0);
    hist_record_n(&h, 9000, 200); /* now 5000's bucket is in the middle */
    assert_true(hist_pct_below(&h, 5003) == 25.0); /* equivalent: not below */
    assert_true(hist_pct_below(&h, 5004) == 50.0);
    hist_close(&h);
}

static void test_clamping(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    hist_record(&h, INT64_C(10000000000));
    hist_record(&h, INT64_MAX);
    hist_record(&h, -5);
    assert_int_equal(h.total_count, 3);
    assert_int_equal(h.max, h.highest);
    assert_int_equal(h.min, 0);
    assert_int_equal(h.counts[0], 1);
    assert_int_equal(h.counts[hist_index_for(&h, h.highest)], 2);
    assert_int_equal(hist_percentile(&h, 100), h.highest);
    assert_int_equal(hist_percentile(&h, 0), 0);
    hist_close(&h);
}

static void test_empty(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    assert_int_equal(h.total_count, 0);
    assert_int_equal(h.min, INT64_MAX);
    assert_int_equal(h.max, 0);
    assert_int_equal(hist_percentile(&h, 50), 0);
    assert_int_equal(hist_percentile(&h, 100), 0);
    assert_true(hist_mean(&h) == 0.0);
    assert_true(hist_stddev(&h) == 0.0);
    assert_true(hist_pct_below(&h, 1000) == 0.0);
    hist_close(&h);
}

static void test_mean_stddev(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    static const int vals[] = {2, 4, 4, 4, 5, 5, 7, 9};
    for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
        hist_record(&h, vals[i]);
    assert_true(hist_mean(&h) == 5.0);
    assert_true(hist_stddev(&h) == 2.0);
    hist_reset(&h);
    hist_record_n(&h, 1000000, 1000);
    assert_true(hist_mean(&h) == 1000000.0);
    assert_true(hist_stddev(&h) < 1e-3);
    hist_close(&h);
}

static void test_reset(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    int64_t *mem = h.counts;
    for (int v = 1; v < 100000; v += 7)
        hist_record(&h, v);
    hist_reset(&h);
    assert_ptr_equal(h.counts, mem);
    assert_int_equal(h.total_count, 0);
    assert_int_equal(h.min, INT64_MAX);
    assert_int_equal(h.max, 0);
    assert_true(h.sum == 0.0);
    for (int32_t i = 0; i < h.counts_len; i++)
        assert_int_equal(h.counts[i], 0);
    hist_record(&h, 77);
    assert_int_equal(hist_percentile(&h, 50), 77);
    hist_close(&h);
}

/* The report's p99 52.895 ms beside max 52.888 ms: a percentile never
 * leaves the exact [min, max], whatever the bucket's edges. */
static void test_percentiles_within_extremes(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    hist_record(&h, 40001);
    hist_record_n(&h, 52000, 98);
    hist_record(&h, 52888);
    assert_true(hist_highest_equivalent(&h, 52888) == 52895);
    assert_int_equal(hist_percentile(&h, 99.5), 52888);
    assert_int_equal(hist_percentile(&h, 100), 52888);
    assert_int_equal(hist_percentile(&h, 0), 40001);
    for (double p = 0; p <= 100; p += 0.25) {
        int64_t v = hist_percentile(&h, p);
        assert_true(v >= h.min && v <= h.max);
    }
    /* Random spreads: every percentile inside, and not decreasing in p. */
    uint64_t x = 88172645463325252ULL;
    for (int run = 0; run < 50; run++) {
        hist_reset(&h);
        int n = 1 + run * 7;
        for (int i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            hist_record(&h, (int64_t)(x % 5000000) + 1);
        }
        int64_t prev = 0;
        for (double p = 0; p <= 100; p += 0.5) {
            int64_t v = hist_percentile(&h, p);
            assert_true(v >= h.min && v <= h.max && v >= prev);
            prev = v;
        }
    }
    hist_close(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_latency),
        cmocka_unit_test(test_bad_params),
        cmocka_unit_test(test_equivalent_values),
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_uniform_percentiles),
        cmocka_unit_test(test_hand_checked),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_subtract),
        cmocka_unit_test(test_pct_below),
        cmocka_unit_test(test_clamping),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_mean_stddev),
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_percentiles_within_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
