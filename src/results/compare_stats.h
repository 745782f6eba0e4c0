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

/* @return 1 when the interval excludes 1 (a significant difference), 0
 * otherwise. */
int compare_stats_significant(const struct ci *ci);

#endif
