/* test_compare_seq: the gates of `compare --rounds auto` on synthetic
 * rounds. Looking after every round and stopping at the first decision
 * must keep the false regression rate at or below alpha (5 %): Bonferroni
 * alpha spending over the looks (compare_stats.h). The same simulation
 * with a plain 95 % interval at every look shows why that is needed.
 * Deterministic seeds; prints the rates and the rounds needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>

#include <cmocka.h>

#include "base/rng.h"
#include "judge/compare_gate.h"
#include "judge/compare_stats.h"

#define MAX_ROUNDS 12
#define MIN_ROUNDS GATE_MIN_ROUNDS
#define ALPHA 0.05

static double normal(uint64_t *s) /* Box-Muller */
{
    double u = rng_u01(s), v = rng_u01(s);
    return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

struct outcome {
    int verdict[3];       /* by enum gate_verdict */
    double rounds;        /* mean rounds used */
    double rounds_decided; /* mean rounds of the decided ones */
};

/* n sequential comparisons of a true ratio `effect` with per-round log
 * noise sd (each round's A and B lognormal, so the ratio's log sd is
 * sd*sqrt(2)), gate bound 1 + tol, looks after each whole block from
 * round 4 to MAX_ROUNDS (gate_is_look) at confidence conf each. */
static struct outcome simulate(int n, double effect, double sd, double tol, double conf,
                               uint64_t seed)
{
    struct outcome o = {{0, 0, 0}, 0, 0};
    uint64_t s = seed;
    long used = 0, used_decided = 0, decided = 0;
    for (int c = 0; c < n; c++) {
        double a[MAX_ROUNDS], b[MAX_ROUNDS];
        enum gate_verdict v = GATE_INCONCLUSIVE;
        int k = 0;
        while (k < MAX_ROUNDS && v == GATE_INCONCLUSIVE) {
            double drift = 10 * exp(0.2 * normal(&s)); /* the machine's drift: both arms */
            a[k] = drift * exp(sd * normal(&s));
            b[k] = drift * effect * exp(sd * normal(&s));
            k++;
            struct ci ci;
            if (gate_is_look((size_t)k, MAX_ROUNDS) && compare_stats_ci_level(a, b, (size_t)k, conf, &ci) == 0)
                v = compare_stats_gate(&ci, 1 + tol, 1);
        }
        o.verdict[v]++;
        used += k;
        if (v != GATE_INCONCLUSIVE) {
            used_decided += k;
            decided++;
        }
    }
    o.rounds = (double)used / n;
    o.rounds_decided = decided ? (double)used_decided / decided : 0;
    return o;
}

static double spent(void)
{
    return compare_stats_look_conf(ALPHA, gate_looks(MAX_ROUNDS));
}

static void print(const char *what, int n, struct outcome o)
{
    printf("  %-36s n %5d ", what, n);
    printf(" pass %5.1f%%  regression %5.2f%%  inconclusive %5.1f%%  rounds %.2f "
           "(decided ones %.2f)\n", 100.0 * o.verdict[GATE_PASS] / n,
           100.0 * o.verdict[GATE_REGRESSION] / n, 100.0 * o.verdict[GATE_INCONCLUSIVE] / n,
           o.rounds, o.rounds_decided);
}

static void test_quantiles(void **state)
{
    (void)state;
    assert_true(fabs(compare_stats_t_quantile(0.95, 1) - 12.706) < 1e-3);
    assert_true(fabs(compare_stats_t_quantile(0.95, 10) - 2.228) < 1e-3);
    assert_true(fabs(compare_stats_t_quantile(0.99, 1) - 63.657) < 1e-3);
    assert_true(fabs(compare_stats_t_quantile(0.995, 2) - 14.089) < 1e-3);
    assert_true(fabs(compare_stats_t_quantile(0.995, 9) - 3.690) < 1e-3);
    assert_true(fabs(compare_stats_t_quantile(0.99, 30) - 2.750) < 1e-3);
    for (int df = 1; df <= 30; df++) /* agrees with the table compare prints */
        assert_true(fabs(compare_stats_t_quantile(0.95, df) - compare_stats_t975(df)) < 2e-3);
    assert_true(compare_stats_t_quantile(0.95, 0) == 0);
    assert_true(compare_stats_t_quantile(1, 3) == 0);
    assert_true(fabs(compare_stats_look_conf(0.05, 10) - 0.995) < 1e-12);
}

static void test_verdicts(void **state)
{
    (void)state;
    struct ci in = {1.02, 0.99, 1.05}, above = {1.3, 1.2, 1.4}, across = {1.1, 1.05, 1.15};
    assert_int_equal(compare_stats_gate(&in, 1.1, 1), GATE_PASS);
    assert_int_equal(compare_stats_gate(&above, 1.1, 1), GATE_REGRESSION);
    assert_int_equal(compare_stats_gate(&across, 1.1, 1), GATE_INCONCLUSIVE);
    /* a rate: lower is worse, bound 1 - tol */
    struct ci low = {0.9, 0.85, 0.95};
    assert_int_equal(compare_stats_gate(&low, 0.98, 0), GATE_REGRESSION);
    assert_int_equal(compare_stats_gate(&in, 0.98, 0), GATE_PASS);
    assert_int_equal(compare_stats_gate(&across, 1.1, 0), GATE_INCONCLUSIVE);
}

/* A = B, the gate at the true ratio (tol 0: the hardest case) or 5 %
 * above it: false regressions stay at or below alpha over 10000
 * sequential comparisons each, at 3 % and at 8 % noise per arm. The naive
 * 95 % at every look goes above it, which this test must be able to see. */
static void test_aa_false_regressions(void **state)
{
    (void)state;
    const int n = 10000;
    printf("A/A, %d (or fewer, as printed) sequential comparisons, looks at blocks, rounds %d..%d, alpha %.2f\n", n,
           MIN_ROUNDS, MAX_ROUNDS, ALPHA);
    double sds[2] = {0.03, 0.08};
    for (int i = 0; i < 2; i++) {
        char what[64];
        struct outcome o0 = simulate(n, 1.0, sds[i], 0.0, spent(), 11 + (uint64_t)i);
        snprintf(what, sizeof what, "sd %.0f%%, gate +0%%, Bonferroni", sds[i] * 100);
        print(what, n, o0);
        assert_true(o0.verdict[GATE_REGRESSION] <= ALPHA * n);
        struct outcome o5 = simulate(n / 2, 1.0, sds[i], 0.05, spent(), 21 + (uint64_t)i);
        snprintf(what, sizeof what, "sd %.0f%%, gate +5%%, Bonferroni", sds[i] * 100);
        print(what, n / 2, o5);
        assert_true(o5.verdict[GATE_REGRESSION] <= ALPHA * n / 2);
    }
    struct outcome naive = simulate(n / 4, 1.0, 0.03, 0.0, 0.95, 31);
    print("sd 3%, gate +0%, naive 95% per look", n / 4, naive);
    assert_true(naive.verdict[GATE_REGRESSION] > ALPHA / 2 * n / 4); /* what spending prevents */
}

/* B 40 % and 10 % slower, gate +5 %, 3 % noise per arm: detected within
 * the 12 rounds (and never passed). */
static void test_detects_regressions(void **state)
{
    (void)state;
    const int n = 5000;
    struct outcome o40 = simulate(n, 1.4, 0.03, 0.05, spent(), 41);
    print("B 40% slower, sd 3%, gate +5%", n, o40);
    assert_true(o40.verdict[GATE_REGRESSION] >= 0.99 * n);
    assert_true(o40.verdict[GATE_PASS] == 0);
    assert_true(o40.rounds < 4.5);
    struct outcome o10 = simulate(n, 1.1, 0.03, 0.05, spent(), 43);
    print("B 10% slower, sd 3%, gate +5%", n, o10);
    assert_true(o10.verdict[GATE_REGRESSION] >= 0.6 * n); /* 5 % beyond the bound: hard */
    assert_true(o10.verdict[GATE_PASS] == 0);
    o10 = simulate(n, 1.1, 0.02, 0.05, spent(), 44);
    print("B 10% slower, sd 2%, gate +5%", n, o10);
    assert_true(o10.verdict[GATE_REGRESSION] >= 0.95 * n);
    assert_true(o10.verdict[GATE_PASS] == 0);
    o10 = simulate(n, 1.1, 0.03, 0.0, spent(), 45);
    print("B 10% slower, sd 3%, gate +0%", n, o10);
    assert_true(o10.verdict[GATE_REGRESSION] >= 0.95 * n);
    struct outcome aa = simulate(n, 1.0, 0.03, 0.05, spent(), 47);
    print("A/A, sd 3%, gate +5%", n, aa);
    assert_true(aa.verdict[GATE_PASS] >= 0.7 * n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantiles),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_aa_false_regressions),
        cmocka_unit_test(test_detects_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
