/* test_result_align: results of runs started apart merge side by side on
 * one timeline aligned by their absolute start (start_unix), in slots of the
 * interval length; the merged start is the earliest; results with no start
 * merge at the same t as before; the start survives the JSON round trip and
 * prints as ISO-8601 UTC; the merged duration is the span of the windows
 * and the rate the requests over it; runs that never overlapped merge as
 * consecutive (durations and CPU add); result_timing tells the cases
 * apart. Synthetic results, exact numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/result_json.h"
#include "model/result_merge.h"

/* A 3 s run of 1 s intervals started at start (0: unknown), interval k
 * (1..3, ending at t = k) sending base * k; a sample at each interval's end
 * with a server share of base. */
static void make(struct run_result *r, double start, int64_t base)
{
    struct run_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.encoding, sizeof c.encoding, "xmlrpc");
    c.interval_ns = 1000000000LL;
    c.duration_ns = 3000000000LL;
    c.rate = 10;
    assert_int_equal(result_init(r, &c), 0);
    r->start_unix = start;
    r->duration_s = 3;
    r->server_cpu_ms = FIG_UNKNOWN;
    r->machine_busy_pct = r->machine_steal_pct = FIG_UNKNOWN;
    r->watched_pids[0] = 100 + (pid_t)base; /* different servers: shares add */
    r->nwatched = 1;
    for (int k = 1; k <= 3; k++) {
        struct interval_rec rec = {.t = k, .sent = base * k, .ok = base * k,
                                   .server_cpu_pct = FIG_UNKNOWN,
                                   .client_cpu_pct = FIG_UNKNOWN, .server_rss_kb = FIG_UNKNOWN};
        struct proc_point p;
        proc_point_unknown(&p, k * 1000000000LL);
        p.server_pct = (double)base;
        assert_int_equal(result_add_interval(r, &rec), 0);
        assert_int_equal(result_add_sample(r, &p), 0);
        r->sent += rec.sent;
    }
}

static void expect(const struct run_result *m, const double *t, const int64_t *sent, size_t n)
{
    assert_int_equal(m->nintervals, n);
    for (size_t i = 0; i < n; i++) {
        assert_true(m->intervals[i].t == t[i]);
        assert_int_equal(m->intervals[i].sent, sent[i]);
    }
}

/* b started 1.3 s after a: its intervals (ending 2.3, 3.3, 4.3 s after a's
 * start) fall in a's slots 2 and 3 and a new slot 4. */
static void test_later_run_shifts(void **state)
{
    (void)state;
    struct run_result a, b;
    char err[ERR_LEN] = "";
    make(&a, 1000.0, 10);
    make(&b, 1001.3, 1);
    assert_int_equal(result_merge(&a, &b, RESULT_MERGE_CONCURRENT, err), 0);
    static const double t[] = {1, 2, 3, 4};
    static const int64_t sent[] = {10, 20 + 1, 30 + 2, 3};
    expect(&a, t, sent, 4);
    assert_true(a.start_unix == 1000.0);
    assert_int_equal(a.sent, 60 + 6);
    /* samples: slot 1 a's only, 2 and 3 both servers (10 + 1), 4 b's */
    assert_int_equal(a.nsamples, 4);
    assert_int_equal(a.samples[0].t_ns, 1000000000LL);
    assert_true(a.samples[0].server_pct == 10);
    assert_true(a.samples[1].server_pct == 11);
    assert_int_equal(a.samples[3].t_ns, 4000000000LL);
    assert_true(a.samples[3].server_pct == 1);
    result_free(&a);
    result_free(&b);
}

/* The same pair merged the other way round: the earlier run's arrival
 * moves the timeline already merged, and the figures are the same. */
static void test_earlier_run_moves_dst(void **state)
{
    (void)state;
    struct run_result a, b;
    char err[ERR_LEN] = "";
    make(&a, 1000.0, 10);
    make(&b, 1001.3, 1);
    assert_int_equal(result_merge(&b, &a, RESULT_MERGE_CONCURRENT, err), 0);
    static const double t[] = {1, 2, 3, 4};
    static const int64_t sent[] = {10, 21, 32, 3};
    expect(&b, t, sent, 4);
    assert_true(b.start_unix == 1000.0);
    assert_int_equal(b.samples[3].t_ns, 4000000000LL);
    result_free(&a);
    result_free(&b);
}

/* Starts 0.4 s apart round to the same slots: intervals merge one to one. */
static void test_close_starts_share_slots(void **state)
{
    (void)state;
    struct run_result a, b, c;
    char err[ERR_LEN] = "";
    assert_int_equal(result_init(&a, NULL), 0); /* fresh: takes the first's start */
    make(&b, 2000.4, 1);
    make(&c, 2000.0, 100);
    assert_int_equal(result_merge(&a, &b, RESULT_MERGE_CONCURRENT, err), 0);
    assert_int_equal(result_merge(&a, &c, RESULT_MERGE_CONCURRENT, err), 0);
    static const double t[] = {1, 2, 3};
    static const int64_t sent[] = {101, 202, 303};
    expect(&a, t, sent, 3);
    assert_true(a.start_unix == 2000.0);
    result_free(&a);
    result_free(&b);
    result_free(&c);
}

/* Side by side 1.3 s apart: the span 4.3 s, the rate over it. */
static void test_span_and_rate(void **state)
{
    (void)state;
    struct run_result a, b;
    char err[ERR_LEN] = "";
    make(&a, 1000.0, 10);
    make(&b, 1001.3, 1);
    assert_int_equal(result_merge(&a, &b, RESULT_MERGE_CONCURRENT, err), 0);
    assert_true(a.duration_s > 4.3 - 1e-9 && a.duration_s < 4.3 + 1e-9);
    assert_true(a.rate_achieved > 66 / 4.3 - 1e-9 && a.rate_achieved < 66 / 4.3 + 1e-9);
    result_free(&a);
    result_free(&b);
}

/* 9 minutes apart, one server: durations and CPU add, the rate is not
 * summed, each interval stays at its own time. */
static void test_consecutive(void **state)
{
    (void)state;
    struct run_result a, b;
    char err[ERR_LEN] = "";
    make(&a, 1000.0, 10);
    make(&b, 1540.0, 10);
    a.server_cpu_ms = 6;
    b.server_cpu_ms = 6;
    a.rate_achieved = b.rate_achieved = 20;
    assert_int_equal(result_merge(&a, &b, RESULT_MERGE_CONSECUTIVE, err), 0);
    assert_true(a.duration_s == 6);
    assert_true(a.rate_achieved == 20); /* 120 requests in 6 s */
    assert_true(a.server_cpu_ms == 12);
    assert_true(a.start_unix == 1000.0);
    static const double t[] = {1, 2, 3, 541, 542, 543};
    static const int64_t sent[] = {10, 20, 30, 10, 20, 30};
    expect(&a, t, sent, 6);
    result_free(&a);
    result_free(&b);
}

static void test_timing(void **state)
{
    (void)state;
    size_t order[3];
    double common = -1;
    /* given out of order: c, a, b; all share [1001, 1003) */
    const double s1[] = {1001, 1000, 1000.5}, d1[] = {3, 3, 3};
    assert_int_equal(result_timing(s1, d1, 3, order, &common), RESULT_TIMING_OVERLAP);
    assert_int_equal(order[0], 1);
    assert_int_equal(order[1], 2);
    assert_int_equal(order[2], 0);
    assert_true(common == 2);
    const double s2[] = {1540, 1000}, d2[] = {3, 3};
    assert_int_equal(result_timing(s2, d2, 2, order, &common), RESULT_TIMING_APART);
    assert_int_equal(order[0], 1);
    assert_true(common == 0);
    const double s3[] = {1000, 1001, 1540}, d3[] = {3, 3, 3};
    assert_int_equal(result_timing(s3, d3, 3, order, &common), RESULT_TIMING_MIXED);
    const double s4[] = {1000, 0}, d4[] = {3, 3};
    assert_int_equal(result_timing(s4, d4, 2, order, &common), RESULT_TIMING_UNKNOWN);
}

/* A result with no start (an older file) merges at the same t, as before. */
static void test_unknown_start_merges_as_before(void **state)
{
    (void)state;
    struct run_result a, b;
    char err[ERR_LEN] = "";
    make(&a, 1000.0, 10);
    make(&b, 0, 1);
    assert_int_equal(result_merge(&a, &b, RESULT_MERGE_CONCURRENT, err), 0);
    static const double t[] = {1, 2, 3};
    static const int64_t sent[] = {11, 22, 33};
    expect(&a, t, sent, 3);
    assert_true(a.start_unix == 1000.0);
    result_free(&a);
    result_free(&b);
    make(&a, 0, 10);
    make(&b, 1005.5, 1);
    assert_int_equal(result_merge(&a, &b, RESULT_MERGE_CONCURRENT, err), 0);
    expect(&a, t, sent, 3);
    assert_true(a.start_unix == 1005.5); /* the only one known */
    result_free(&a);
    result_free(&b);
}

/* start_unix is saved to the microsecond (not cut by the %.10g of other
 * figures), with its ISO-8601 twin; a file without it loads as 0. */
static void test_saved_start(void **state)
{
    (void)state;
    struct run_result a, back;
    char err[ERR_LEN] = "", path[] = "/tmp/rpcbench-align-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    make(&a, 1796103981.184495, 1);
    json_object *j = result_to_json(&a);
    assert_string_equal(json_object_get_string(json_object_object_get(j, "start_time")),
                        "2026-12-01T05:46:21.184495Z");
    json_object_put(j);
    assert_int_equal(result_save(&a, path, err), 0);
    assert_int_equal(result_load(&back, path, err), 0);
    assert_true(back.start_unix > 1796103981.184494 && back.start_unix < 1796103981.184496);
    result_free(&back);
    a.start_unix = 0;
    assert_int_equal(result_save(&a, path, err), 0);
    assert_int_equal(result_load(&back, path, err), 0);
    assert_true(back.start_unix == 0);
    unlink(path);
    result_free(&a);
    result_free(&back);
}

static void test_format_start(void **state)
{
    (void)state;
    char s[40];
    result_format_start(0, s, sizeof s);
    assert_string_equal(s, "");
    result_format_start(86400.9999996, s, sizeof s); /* rounds into the next second */
    assert_string_equal(s, "1970-01-02T00:00:01.000000Z");
    result_format_start(1.5, s, sizeof s);
    assert_string_equal(s, "1970-01-01T00:00:01.500000Z");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_later_run_shifts),
        cmocka_unit_test(test_earlier_run_moves_dst),
        cmocka_unit_test(test_close_starts_share_slots),
        cmocka_unit_test(test_unknown_start_merges_as_before),
        cmocka_unit_test(test_span_and_rate),
        cmocka_unit_test(test_consecutive),
        cmocka_unit_test(test_timing),
        cmocka_unit_test(test_saved_start),
        cmocka_unit_test(test_format_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
