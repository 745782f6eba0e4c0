/* Schedule math: how many requests fall in an interval, for constant and
 * Poisson arrivals, and that times never drift or repeat. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "stats/buckets.h"
#include "base/clock.h"
#include "client/sched.h"

/* Consumes the requests of s due strictly before t_ns, from the next one
 * on, as the engine does (sched_peek, then sched_take). @return how many. */
static uint64_t drain_before(struct sched *s, int64_t t_ns)
{
    uint64_t n = 0;
    while (sched_peek(s) < t_ns) {
        sched_take(s);
        n++;
    }
    return n;
}

/* Requests due in [0, len) of a schedule started at t0 = 0. */
static uint64_t count_in(enum arrival a, double rate, int64_t len, uint64_t seed)
{
    struct sched s;
    sched_init(&s, a, rate, 0, seed);
    return drain_before(&s, len);
}

static void test_constant_counts(void **state)
{
    (void)state;
    assert_int_equal(count_in(ARRIVAL_CONSTANT, 50, 20 * NS_PER_S, 1), 1000);
    assert_int_equal(count_in(ARRIVAL_CONSTANT, 4.0 / 60, 60 * NS_PER_S, 1), 4);
    assert_int_equal(count_in(ARRIVAL_CONSTANT, 1.0 / 15, 31 * NS_PER_S, 1), 3); /* 0, 15, 30 */
    assert_int_equal(count_in(ARRIVAL_CONSTANT, 3, NS_PER_S, 1), 3);
    /* A rate that 1e9 does not divide: still exactly R*T, no drift. */
    assert_int_equal(count_in(ARRIVAL_CONSTANT, 7000, 3600 * NS_PER_S, 1), 7000ULL * 3600);
}

static void test_constant_times_absolute(void **state)
{
    (void)state;
    struct sched s;
    sched_init(&s, ARRIVAL_CONSTANT, 3, 1000, 1);
    assert_int_equal(sched_take(&s), 1000);
    for (int k = 1; k < 3000; k++)
        assert_int_equal(sched_take(&s), 1000 + llround((double)k * 1e9 / 3));
}

static void test_poisson_counts(void **state)
{
    (void)state;
    /* 100/s for 100 s: mean 10000, sd 100; allow 5 sd. */
    uint64_t n = count_in(ARRIVAL_POISSON, 100, 100 * NS_PER_S, 42);
    assert_in_range(n, 9500, 10500);
    /* Seeded: the same seed gives the same count, another seed another. */
    assert_int_equal(count_in(ARRIVAL_POISSON, 100, 100 * NS_PER_S, 42), n);
    assert_int_not_equal(count_in(ARRIVAL_POISSON, 100, 100 * NS_PER_S, 43), n);
}

static void test_poisson_gaps_exponential(void **state)
{
    (void)state;
    struct sched s;
    sched_init(&s, ARRIVAL_POISSON, 1000, 0, 7);
    int64_t prev = sched_take(&s);
    double sum = 0, sumsq = 0;
    const int n = 20000;
    for (int i = 0; i < n; i++) {
        int64_t t = sched_take(&s);
        assert_true(t >= prev); /* never backwards */
        double g = (double)(t - prev) / 1e6; /* ms */
        sum += g;
        sumsq += g * g;
        prev = t;
    }
    double mean = sum / n, sd = sqrt(sumsq / n - mean * mean);
    /* Exponential with mean 1 ms: sd equals the mean. */
    assert_true(fabs(mean - 1.0) < 0.05);
    assert_true(fabs(sd - 1.0) < 0.08);
}

static void test_auto_buckets_round(void **state)
{
    (void)state;
    double e[BUCKETS_MAX];
    char err[256];
    /* The VDSM seed's spread: 3220 ms .. 11880 ms gives 500 ms steps. */
    struct hist h;
    assert_int_equal(hist_init_latency(&h), 0);
    for (int64_t v = 3220000; v <= 11880000; v += 1000)
        hist_record(&h, v);
    const struct hist *hs[1] = {&h};
    int n = buckets_edges("auto", hs, 1, e, err);
    hist_close(&h);
    assert_in_range(n, 15, 25);
    assert_true(e[0] <= 3220 && e[n - 1] > 11880);
    for (int i = 1; i < n; i++)
        assert_true(fabs(e[i] - e[i - 1] - 500) < 1e-9);
    assert_int_equal(buckets_edges("3000:12000:500", NULL, 0, e, err), 19);
    assert_int_equal(buckets_edges("1,2,5,10", NULL, 0, e, err), 4);
    assert_int_equal(buckets_edges("5:1:1", NULL, 0, e, err), -1);
}

/* Split among n ranks, the union of every rank's intended times is the
 * single schedule, time for time and in the same order once merged: rank r
 * holds exactly the requests k * n + r. */
static void check_split(enum arrival a, double rate, unsigned n)
{
    enum { TOTAL = 3001 };
    static int64_t whole[TOTAL];
    struct sched one, part[8];
    sched_init(&one, a, rate, 12345, 42);
    for (int k = 0; k < TOTAL; k++)
        whole[k] = sched_take(&one);
    for (unsigned r = 0; r < n; r++) {
        sched_init(&part[r], a, rate, 12345, 42);
        sched_split(&part[r], n, r);
    }
    for (int k = 0; k < TOTAL; k++)
        assert_int_equal(sched_take(&part[(unsigned)k % n]), whole[k]);
    /* each rank holds its share of a window: the counts add up to one */
    uint64_t sum = 0;
    for (unsigned r = 0; r < n; r++) {
        sched_init(&part[r], a, rate, 0, 42);
        sched_split(&part[r], n, r);
        sum += drain_before(&part[r], 3 * NS_PER_S);
    }
    assert_int_equal(sum, count_in(a, rate, 3 * NS_PER_S, 42));
}

static void test_split_union(void **state)
{
    (void)state;
    for (unsigned n = 1; n <= 5; n++) {
        check_split(ARRIVAL_CONSTANT, 200, n);
        check_split(ARRIVAL_POISSON, 200, n);
        check_split(ARRIVAL_CONSTANT, 7000, n);
    }
    /* 200/s for 3 s over 4 ranks: 150 each, at t0 + (4k + r)/200 */
    struct sched s;
    sched_init(&s, ARRIVAL_CONSTANT, 200, 0, 1);
    sched_split(&s, 4, 3);
    assert_int_equal(sched_take(&s), 15 * NS_PER_MS);
    assert_int_equal(sched_take(&s), 35 * NS_PER_MS);
    assert_int_equal(drain_before(&s, 3 * NS_PER_S), 148);
}

/* N(t) of stages st (no lead), computed here independently: the closed
 * form of each ramp's integral. */
static double stages_count(const struct run_stage *st, size_t n, double t)
{
    double c = 0;
    for (size_t i = 0; i < n && t > 0; i++) {
        double len = (double)st[i].duration_ns / 1e9, tau = t < len ? t : len;
        c += st[i].from * tau + (st[i].to - st[i].from) * tau * tau / (2 * len);
        t -= len;
    }
    return c;
}

/* Constant arrivals of stages: the requests due in [0, t] are floor(N(t))
 * + 1 (request 0 is due at 0), within one, at every 10 ms. */
static void check_ramp(const struct run_stage *st, size_t n, int64_t lead_ns)
{
    struct sched s;
    sched_init_stages(&s, ARRIVAL_CONSTANT, st, n, lead_ns, 0, 1);
    int64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += st[i].duration_ns;
    uint64_t got = 0;
    double lead = st[0].from * (double)lead_ns / 1e9;
    for (int64_t t = 0; t <= total; t += 10 * NS_PER_MS) {
        while (sched_peek(&s) <= lead_ns + t) {
            sched_take(&s);
            got++;
        }
        double want = floor(lead + stages_count(st, n, (double)t / 1e9)) + 1;
        assert_true(fabs((double)got - want) <= 1);
    }
    assert_int_equal(sched_peek(&s), SCHED_NEVER);
}

static void test_stages_ramp_counts(void **state)
{
    (void)state;
    const struct run_stage ramp[] = {{2 * NS_PER_S, 20, 20}, {4 * NS_PER_S, 20, 100},
                                     {2 * NS_PER_S, 100, 100}};
    check_ramp(ramp, 3, 0);
    check_ramp(ramp, 3, 3 * NS_PER_S); /* a warmup at 20/s before it */
    const struct run_stage from0[] = {{3 * NS_PER_S, 0, 50}, {1 * NS_PER_S, 0, 0},
                                      {4 * NS_PER_S, 100, 0}};
    check_ramp(from0, 3, NS_PER_S); /* a = 0, a pause, a falling ramp to 0 */
    const struct run_stage flat[] = {{5 * NS_PER_S, 30, 30.000001}, {2 * NS_PER_S, 7000, 6999.99}};
    check_ramp(flat, 2, 0); /* a ~ b: no digits lost */
    /* A hold's times are its own t0 + k/R exactly (to the rounding). */
    struct sched s;
    sched_init_stages(&s, ARRIVAL_CONSTANT, ramp, 1, 0, 1000, 1);
    for (int k = 0; k < 40; k++)
        assert_true(llabs(sched_take(&s) - (1000 + llround(k * 1e9 / 20))) <= 1);
    assert_int_equal(sched_peek(&s), SCHED_NEVER);
    /* The offered rate of an interval is the ramp's mean over it. */
    sched_init_stages(&s, ARRIVAL_CONSTANT, ramp, 3, 0, 0, 1);
    assert_true(fabs(sched_offered(&s, 0, NS_PER_S) - 20) < 1e-9);
    assert_true(fabs(sched_offered(&s, 2 * NS_PER_S, 3 * NS_PER_S) - 30) < 1e-9);
    assert_true(fabs(sched_offered(&s, 7 * NS_PER_S, 8 * NS_PER_S) - 100) < 1e-9);
}

static void test_stages_poisson(void **state)
{
    (void)state;
    /* 0 -> 200/s over 100 s: mean 10000, sd 100; allow 5 sd, in each half
     * too (2500 in the first, 7500 in the second: time rescaling). */
    const struct run_stage ramp[] = {{100 * NS_PER_S, 0, 200}};
    struct sched s;
    sched_init_stages(&s, ARRIVAL_POISSON, ramp, 1, 0, 0, 42);
    uint64_t first = drain_before(&s, 50 * NS_PER_S), second = drain_before(&s, 100 * NS_PER_S);
    assert_in_range(first, 2250, 2750);
    assert_in_range(second, 7070, 7930);
    assert_int_equal(sched_peek(&s), SCHED_NEVER);
}

/* Staged, split among n ranks: the union is the single schedule. */
static void check_split_stages(enum arrival a, unsigned n)
{
    enum { TOTAL = 2000 };
    static int64_t whole[TOTAL];
    const struct run_stage st[] = {{NS_PER_S, 0, 300}, {5 * NS_PER_S, 300, 500}};
    struct sched one, part[8];
    sched_init_stages(&one, a, st, 2, NS_PER_S / 2, 777, 42);
    for (int k = 0; k < TOTAL; k++)
        whole[k] = sched_take(&one);
    for (unsigned r = 0; r < n; r++) {
        sched_init_stages(&part[r], a, st, 2, NS_PER_S / 2, 777, 42);
        sched_split(&part[r], n, r);
    }
    for (int k = 0; k < TOTAL; k++)
        assert_int_equal(sched_take(&part[(unsigned)k % n]), whole[k]);
}

static void test_stages_split_union(void **state)
{
    (void)state;
    for (unsigned n = 1; n <= 5; n++) {
        check_split_stages(ARRIVAL_CONSTANT, n);
        check_split_stages(ARRIVAL_POISSON, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_counts),
        cmocka_unit_test(test_constant_times_absolute),
        cmocka_unit_test(test_poisson_counts),
        cmocka_unit_test(test_poisson_gaps_exponential),
        cmocka_unit_test(test_auto_buckets_round),
        cmocka_unit_test(test_split_union),
        cmocka_unit_test(test_stages_ramp_counts),
        cmocka_unit_test(test_stages_poisson),
        cmocka_unit_test(test_stages_split_union),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
