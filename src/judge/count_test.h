/* count_test: does B fail more often than A, beyond chance? (issue 41)
 *
 * Each round gives a 2x2 table of requests: A's failed and A's others, B's
 * failed and B's others. Given the table's margins, B's failures X follow
 * the hypergeometric law (N = n_a + n_b requests, m = fail_a + fail_b
 * failures, n_b of the requests B's):
 *     P(X = x) = C(m, x) C(N - m, n_b - x) / C(N, n_b),
 * and Fisher's exact test, one-sided ("B worse"), is P(X >= fail_b).
 *
 * Rounds are combined by the exact stratified test of a common odds ratio
 * of 1 (the exact form of the Cochran-Mantel-Haenszel test, R's
 * mantelhaen.test(exact = TRUE) one-sided): the statistic is the sum of
 * B's failures over the rounds, whose law under "B no worse" is the
 * convolution of the rounds' hypergeometric laws. Why this and not
 * Fisher's method (-2 sum log p_i against chi-square): Fisher's method on
 * discrete p-values is conservative, and a round without any failure (p =
 * 1) dilutes it, so one failure per round in B and none in A over 4 rounds
 * of 400 calls gives p = 0.7; the stratified sum sees the 4 failures
 * together (p = 1/16) while still comparing each round's arms only with
 * each other, so a round's drift or load cannot pass for a difference.
 * When the convolution would be too long (many rounds of many failures),
 * the Cochran-Mantel-Haenszel normal approximation with continuity
 * correction is used, which is accurate at such counts.
 *
 * No library: log-factorials via lgamma. */
#ifndef RPCBENCH_JUDGE_COUNT_TEST_H
#define RPCBENCH_JUDGE_COUNT_TEST_H

#include <stddef.h>
#include <stdint.h>

/* One round's counts: requests and how many of them failed, per arm. */
struct count_table {
    int64_t fail_a, n_a, fail_b, n_b;
};

/* How a p-value was computed. */
enum count_method { COUNT_EXACT, COUNT_NORMAL };

/* @return Fisher's exact one-sided p-value P(X >= t->fail_b) of one
 * table (1 when the table holds no failure or an arm no request; counts
 * are clamped into 0..n). */
double count_test_fisher(const struct count_table *t);

/* The stratified test over k tables (only read): @return the one-sided
 * p-value that B's failures, summed, are as many or more under "B no
 * worse than A" (1 for k = 0), and into *method (NULL: not said) how it
 * was computed. Exact while the convolution's support stays within
 * COUNT_EXACT_MAX values and its work within 3e7 products (2 x
 * COUNT_EXACT_MAX doubles at most, freed before it returns); beyond, or
 * out of memory, the normal approximation. */
double count_test_stratified(const struct count_table *t, size_t k, enum count_method *method);

/* Failures that come in bursts (a second of overload on a shared
 * machine, a server's pause) are not independent requests: B's failure
 * share minus A's then moves from round to round far more than chance
 * allows, and the tests above, which count requests as independent, call
 * one burst in one arm a regression (an A/A at 50/s on a loaded machine:
 * p < 1e-9 from one round). The dispersion is the rounds' spread of that
 * difference over the spread independent requests would give: the
 * variance of d_i = fail_b/n_b - fail_a/n_a over the rounds where both arms
 * sent, against the mean of p(1 - p)(1/n_a + 1/n_b), p the pooled failure
 * share. About 1 for independent failures, and still about 1 for a
 * candidate that fails more in every round (its d_i are alike).
 * @return the dispersion (>= 0), or 1 with fewer than 3 such rounds or no
 * failure at all (too few to tell). */
double count_test_dispersion(const struct count_table *t, size_t k);

/* The Cochran-Mantel-Haenszel test with its variance times phi (the
 * dispersion, as a quasi-likelihood test scales it): the one-sided normal
 * p-value, continuity-corrected; phi 1 is the plain normal CMH. @return
 * it (1 for k = 0 or no failure). */
double count_test_scaled(const struct count_table *t, size_t k, double phi);

/* The convolution's longest support before the normal approximation. */
#define COUNT_EXACT_MAX 200000

/* Raises each table's A failures by the allowance tol (a fraction of A's
 * requests, rounded to the nearest request, at most n_a): the test then
 * asks whether B's failure share exceeds A's by more than tol. */
void count_test_allow(struct count_table *t, size_t k, double tol);

#endif
