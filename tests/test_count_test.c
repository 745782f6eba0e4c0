/* test_count_test: Fisher's exact test and the stratified (exact
 * Cochran-Mantel-Haenszel) test of count_test.h against values from R and
 * from the hypergeometric formula by hand:
 *     P(X = x) = C(m, x) C(N - m, n_b - x) / C(N, n_b)
 * with N requests, m failures and n_b requests of B's in a table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "judge/count_test.h"

#define NEAR(x, want, tol) assert_true(fabs((x) - (want)) < (tol))

/* R: fisher.test(matrix(c(3, 1, 1, 3), 2), alternative = "greater")
 * gives p = 0.2429. By hand: B 3 of 4 failed, A 1 of 4: N = 8, m = 4,
 * n_b = 4; P(3) = C(4,3) C(4,1) / C(8,4) = 16/70, P(4) = 1/70, so
 * P(X >= 3) = 17/70 = 0.242857. */
static void test_fisher_r_value(void **state)
{
    (void)state;
    struct count_table t = {1, 4, 3, 4};
    NEAR(count_test_fisher(&t), 17.0 / 70, 1e-12);
    NEAR(count_test_fisher(&t), 0.2429, 1e-4);
}

/* A 0 of 10, B 3 of 10: N = 20, m = 3, n_b = 10; X = 3 is the top of
 * the support: P = C(3,3) C(17,7) / C(20,10) = 19448 / 184756 = 2/19. */
static void test_fisher_by_hand(void **state)
{
    (void)state;
    struct count_table t = {0, 10, 3, 10};
    NEAR(count_test_fisher(&t), 2.0 / 19, 1e-12);
    /* the other way round: B 1 of 4, A 3 of 4; P(X >= 1) = 1 - P(0) =
     * 1 - C(4,0) C(4,4) / C(8,4) = 69/70: B is no worse */
    struct count_table u = {3, 4, 1, 4};
    NEAR(count_test_fisher(&u), 69.0 / 70, 1e-12);
}

/* No failure anywhere, or an arm without requests: nothing to tell. */
static void test_fisher_degenerate(void **state)
{
    (void)state;
    struct count_table none = {0, 100, 0, 100}, empty = {0, 0, 5, 10}, all = {10, 10, 10, 10};
    assert_true(count_test_fisher(&none) == 1);
    NEAR(count_test_fisher(&empty), 1, 1e-12);
    NEAR(count_test_fisher(&all), 1, 1e-12);
}

/* Two rounds [[3,1],[1,3]]: each X has the law 1, 16, 36, 16, 1 (/70) on
 * 0..4; the sum observed is 6. P(S >= 6) = P(3,3) + P(2,4) + P(4,2) +
 * P(3,4) + P(4,3) + P(4,4) = (256 + 36 + 36 + 16 + 16 + 1) / 4900 =
 * 361/4900 = 0.073673. */
static void test_stratified_two_rounds(void **state)
{
    (void)state;
    struct count_table t[2] = {{1, 4, 3, 4}, {1, 4, 3, 4}};
    enum count_method m = COUNT_NORMAL;
    NEAR(count_test_stratified(t, 2, &m), 361.0 / 4900, 1e-12);
    assert_int_equal(m, COUNT_EXACT);
    NEAR(count_test_stratified(t, 1, NULL), 17.0 / 70, 1e-12); /* one round: Fisher's */
    NEAR(count_test_stratified(t, 0, NULL), 1, 1e-12);
}

/* One failure in B per round and none in A, 4 rounds of 400 calls each:
 * each round's P(X >= 1) = P(X = 1) = 400/800 = 1/2 (Fisher's method
 * would combine four p = 0.5 into 0.70); together, the four failures all
 * fell on B: (1/2)^4 = 1/16. */
static void test_stratified_sees_sparse_failures(void **state)
{
    (void)state;
    struct count_table t[4] = {{0, 400, 1, 400}, {0, 400, 1, 400}, {0, 400, 1, 400},
                               {0, 400, 1, 400}};
    NEAR(count_test_fisher(&t[0]), 0.5, 1e-12);
    NEAR(count_test_stratified(t, 4, NULL), 1.0 / 16, 1e-12);
    /* a round without failures changes nothing: its X is 0 for sure */
    struct count_table u[5] = {{0, 400, 1, 400}, {0, 400, 1, 400}, {0, 400, 1, 400},
                               {0, 400, 1, 400}, {0, 400, 0, 400}};
    NEAR(count_test_stratified(u, 5, NULL), 1.0 / 16, 1e-12);
}

/* The failing candidate of issue 41: 31 % of 150 calls per round in B,
 * none in A; no chance at all. */
static void test_failing_candidate(void **state)
{
    (void)state;
    struct count_table t[3] = {{0, 50, 16, 50}, {0, 50, 16, 50}, {0, 50, 15, 50}};
    assert_true(count_test_stratified(t, 3, NULL) < 1e-12);
    /* allowed 40 points more than A: A counts as failing 20 of 50 */
    count_test_allow(t, 3, 0.40);
    assert_true(t[0].fail_a == 20 && t[2].fail_a == 20);
    assert_true(count_test_stratified(t, 3, NULL) > 0.5);
}

/* The allowance: A 0 of 100, B 1 of 100, 1 point allowed: A counts 1
 * failure; m = 2, N = 200, n_b = 100: P(X >= 1) = 1 - C(100,2)/C(200,2)
 * = 1 - 4950/19900 = 0.751256. Never above A's requests. */
static void test_allow(void **state)
{
    (void)state;
    struct count_table t = {0, 100, 1, 100};
    count_test_allow(&t, 1, 0.01);
    assert_true(t.fail_a == 1);
    NEAR(count_test_fisher(&t), 1 - 4950.0 / 19900, 1e-12);
    struct count_table u = {90, 100, 0, 100};
    count_test_allow(&u, 1, 0.5);
    assert_true(u.fail_a == 100);
}

/* Past the exact test's work: the normal approximation. Three rounds of
 * 100000 requests per arm, half failing in each arm: S = E[S], and per
 * round V = m (N - m) n_a n_b / (N^2 (N - 1)) = 1e20 / (4e10 x 199999) =
 * 12500.06; z = -0.5 / sqrt(37500.19) = -0.002582, p = 0.50103. */
static void test_normal_beyond_the_exact(void **state)
{
    (void)state;
    struct count_table t[3] = {{50000, 100000, 50000, 100000}, {50000, 100000, 50000, 100000},
                               {50000, 100000, 50000, 100000}};
    enum count_method m = COUNT_EXACT;
    NEAR(count_test_stratified(t, 3, &m), 0.50103, 1e-5);
    assert_int_equal(m, COUNT_NORMAL);
    /* and it agrees with the exact test where both work: B 60 of 1000,
     * A 30 of 1000, twice */
    struct count_table u[2] = {{30, 1000, 60, 1000}, {30, 1000, 60, 1000}};
    double ex = count_test_stratified(u, 2, &m);
    assert_int_equal(m, COUNT_EXACT);
    assert_true(ex < 1e-3 && ex > 1e-6);
}

/* Failures in bursts (an overload of a few seconds, in whichever arm ran
 * then): one round's burst, the others clean, is an excess the counts call
 * p < 1e-9, and the dispersion shows it for the burst it is. */
static void test_bursts_disperse(void **state)
{
    (void)state;
    struct count_table t[4] = {{0, 250, 0, 250}, {0, 250, 120, 250}, {0, 250, 0, 250},
                               {0, 250, 0, 250}};
    assert_true(count_test_stratified(t, 4, NULL) < 1e-9);
    double phi = count_test_dispersion(t, 4);
    assert_true(phi > 50);
    assert_true(count_test_scaled(t, 4, phi) > 0.05);
    /* bursts both ways: more than chance, whoever ran then */
    struct count_table u[4] = {{0, 1000, 300, 1000}, {200, 1000, 0, 1000},
                               {0, 1000, 150, 1000}, {100, 1000, 5, 1000}};
    assert_true(count_test_dispersion(u, 4) > 100);
}

/* A candidate that fails more in every round, by a share that varies as
 * chance lets it: the dispersion stays near 1, and the scaled test still
 * sees the excess; the failing candidate of issue 41 too. Three rounds
 * are the least that tell a dispersion. */
static void test_steady_excess_is_not_a_burst(void **state)
{
    (void)state;
    struct count_table t[4] = {{1, 1000, 12, 1000}, {0, 1000, 9, 1000},
                               {2, 1000, 15, 1000}, {1, 1000, 10, 1000}};
    double phi = count_test_dispersion(t, 4);
    assert_true(phi < 2);
    assert_true(count_test_scaled(t, 4, phi > 1 ? phi : 1) < 1e-3);
    struct count_table f[3] = {{0, 50, 16, 50}, {0, 50, 16, 50}, {0, 50, 15, 50}};
    assert_true(count_test_dispersion(f, 3) < 1);
    assert_true(count_test_dispersion(t, 2) == 1);
    struct count_table none[3] = {{0, 50, 0, 50}, {0, 50, 0, 50}, {0, 50, 0, 50}};
    assert_true(count_test_dispersion(none, 3) == 1);
    assert_true(count_test_scaled(none, 3, 1) == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fisher_r_value),
        cmocka_unit_test(test_fisher_by_hand),
        cmocka_unit_test(test_fisher_degenerate),
        cmocka_unit_test(test_stratified_two_rounds),
        cmocka_unit_test(test_stratified_sees_sparse_failures),
        cmocka_unit_test(test_failing_candidate),
        cmocka_unit_test(test_allow),
        cmocka_unit_test(test_normal_beyond_the_exact),
        cmocka_unit_test(test_bursts_disperse),
        cmocka_unit_test(test_steady_excess_is_not_a_burst),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
