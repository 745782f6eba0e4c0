/* compare_stats: how sure an A/B ratio is, from paired rounds.
 *
 * Each round i gives a pair (A_i, B_i) measured under the same conditions,
 * back to back. The ratios B_i/A_i are treated as log-normal: the 95 %
 * interval is exp(mean(log r) +- t_{0.975,K-1} * sd(log r) / sqrt(K)), the
 * paired t-interval on the log scale. Ratios, not differences, because a
 * 2 ms change means something else at 5 ms than at 500 ms. */
#ifndef RPCBENCH_COMPARE_STATS_H
#define RPCBENCH_COMPARE_STATS_H

#include <stddef.h>

/* Two-sided 95 % quantile of Student's t with df degrees of freedom:
 * tabulated for 1..30, 1.96 beyond. @return the quantile, or 0 for df < 1. */
double compare_stats_t975(int df);

struct ci {
    double geo_ratio;  /* exp(mean log ratio) */
    double low, high;  /* the 95 % interval of B/A */
};

/* Paired interval of b[i]/a[i] over k rounds (a and b only read).
 * @return 0 with *out filled; 1 when there is no interval (k < 2: one
 * round); -1 when a ratio is undefined (a value <= 0, NaN or unknown),
 * *out then zeroed. */
int compare_stats_ci(const double *a, const double *b, size_t k, struct ci *out);

/* The same at confidence conf (0 < conf < 1, two-sided; 0.95 is the
 * above), with t from compare_stats_t_quantile. Same returns. */
int compare_stats_ci_level(const double *a, const double *b, size_t k, double conf,
                           struct ci *out);

/* t such that P(|T| < t) = conf for Student's t with df degrees of freedom
 * (exact sums for integer df, solved by bisection).
 * @return the quantile, or 0 for df < 1 or conf outside (0, 1). */
double compare_stats_t_quantile(double conf, int df);

/* ---- gates: a sequential test that may look after every round ----------
 *
 * A gate "B/A <= 1 + tol" is judged on the interval of B/A: regression when
 * the whole interval is beyond the bound, pass when it is wholly on the
 * good side, inconclusive otherwise. Looking after every round and
 * stopping at the first decision would inflate the error rate if each look
 * used a 95 % interval. Bonferroni alpha spending keeps it: with at most
 * L looks, each look uses a two-sided 1 - alpha/L interval, so the chance
 * that any look's interval misses the true ratio is at most alpha (so is
 * the chance of a false regression, or of a false pass). */
enum gate_verdict { GATE_INCONCLUSIVE, GATE_PASS, GATE_REGRESSION };

/* @return the per-look confidence 1 - alpha/looks (looks < 1 counts as 1). */
double compare_stats_look_conf(double alpha, int looks);

/* The verdict of an interval against bound: higher_is_worse for latency,
 * CPU, bytes, errors (regression when low > bound); else for a rate
 * (regression when high < bound). */
enum gate_verdict compare_stats_gate(const struct ci *ci, double bound, int higher_is_worse);

/* @return "pass", "regression" or "inconclusive" (static). */
const char *compare_stats_verdict_name(enum gate_verdict v);

/* The one way a ratio B/A or an end of its interval is written, in every
 * table and format (text, HTML, JUnit): fixed notation, 3 decimals below
 * 10 ("1.074", "0.000" for a ratio under 0.0005), then 3 significant
 * digits ("14.8", "148", "3080"), never an exponent; "n/a" when x is NaN
 * or negative. Into out (len bytes, always terminated). */
void compare_stats_fmt_ratio(double x, char *out, size_t len);

/* The same, judged on the interval as compare_stats_fmt_ratio writes it:
 * rounds alike to within a tick give "[1.000, 1.000]", which must not say
 * "B lower" in one output and "significant": true in another. Every
 * output of a comparison judges significance with this one. @return 1 or
 * 0. */
int compare_stats_significant_shown(const struct ci *ci);

#endif
