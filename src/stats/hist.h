/* hist: a log-linear latency histogram with HdrHistogram semantics.
 *
 * Values are integers in a unit the caller picks (rpcbench records
 * microseconds). Buckets keep `sigfigs` significant decimal digits (3 means
 * any value is recorded within 0.1 %), memory is fixed at init whatever the
 * run length, recording is a few instructions, and two histograms with the
 * same parameters merge by adding counts. The bucket layout is exactly
 * HdrHistogram's, so the log encoder can write counts the Java and C
 * HdrHistogram readers decode.
 *
 * A struct hist is the caller's (on the stack or inside another struct);
 * hist_init allocates its counts array, and hist_close frees it. Functions
 * taking a const struct hist * only read it and keep nothing. */
#ifndef RPCBENCH_HIST_H
#define RPCBENCH_HIST_H

#include <stddef.h>
#include <stdint.h>

struct hist {
    int64_t lowest;          /* lowest discernible value, >= 1 */
    int64_t highest;         /* highest trackable value */
    int sigfigs;             /* 1..5 */
    int32_t unit_magnitude;  /* floor(log2(lowest)) */
    int32_t sub_bucket_half_count_magnitude;
    int32_t sub_bucket_half_count;
    int64_t sub_bucket_mask;
    int32_t sub_bucket_count;
    int32_t bucket_count;
    int32_t counts_len;
    int64_t total_count;
    int64_t min;             /* INT64_MAX when empty */
    int64_t max;             /* 0 when empty */
    double sum;              /* of recorded values, for an exact mean */
    double sum_sq;           /* for the standard deviation */
    int64_t *counts;
};

/* Initialises h (any previous content ignored, not freed) for values
 * lowest (>= 1) to highest (>= 2 * lowest) with sigfigs (1..5) significant
 * digits, and allocates its counts; release them with hist_close.
 * @return 0, or -1 on bad parameters or no memory (nothing is allocated
 * then, and hist_close is still safe). */
int hist_init(struct hist *h, int64_t lowest, int64_t highest, int sigfigs);
/* Frees h's counts; safe twice and after a failed hist_init. h may be
 * initialised again. */
void hist_close(struct hist *h);
/* Empties the histogram, keeping its memory. */
void hist_reset(struct hist *h);

/* Values above `highest` are clamped to it (and still counted);
 * negative values are recorded as 0. */
void hist_record(struct hist *h, int64_t value);

/* Adds src's counts (and min, max, sums) into dst; src is unchanged.
 * @return 0, or -1 (dst unchanged) when their lowest, highest or sigfigs
 * differ. */
int hist_merge(struct hist *dst, const struct hist *src);

/* Takes src's counts (and sums) out of dst, when dst holds every value
 * src does: what is left of a histogram once a part of it is known. The
 * exact min and max of what is left are lost: they become its first
 * bucket's lowest and its last bucket's highest value.
 * @return 0, or -1 (dst unchanged) when their layouts differ or src has
 * more in some bucket than dst. */
int hist_subtract(struct hist *dst, const struct hist *src);

/* @return the value at percentile p (0..100): the highest value
 * equivalent to the bucket holding that rank (the lowest for p == 0), as
 * HdrHistogram reports it, but never outside the exact min and max
 * recorded; 0 when empty. */
int64_t hist_percentile(const struct hist *h, double p);
/* @return the exact mean of the recorded values, 0 when empty. */
double hist_mean(const struct hist *h);
/* @return the population standard deviation, 0 when empty. */
double hist_stddev(const struct hist *h);
/* @return the percentage (0..100) of recorded values strictly below
 * `value`: counted by bucket (values equivalent to `value` count as not
 * below), except at the ends, where the exact min and max decide (0 at or
 * below the min, 100 above the max, even when the max shares `value`'s
 * bucket); 0 when empty. */
double hist_pct_below(const struct hist *h, int64_t value);
/* How many values are at or below `value`: counted by bucket (values
 * equivalent to `value` count), except at the ends, where the exact min
 * and max decide (0 below the min, all at or above the max); 0 when
 * empty. A Prometheus bucket's "le" count. */
int64_t hist_count_at_or_below(const struct hist *h, int64_t value);

/* Bucket geometry, for encoders and iteration: arithmetic on h's layout,
 * no counts read. An index is inside counts only for a value in
 * 0..highest; nothing is checked. */
/* @return the index in counts of the bucket holding value. */
int32_t hist_index_for(const struct hist *h, int64_t value);
/* @return the lowest value the counts index stands for. */
int64_t hist_value_at_index(const struct hist *h, int32_t index);
/* @return the highest value recorded in the same bucket as value. */
int64_t hist_highest_equivalent(const struct hist *h, int64_t value);
/* @return the lowest value recorded in the same bucket as value. */
int64_t hist_lowest_equivalent(const struct hist *h, int64_t value);

/* hist_init for the histogram rpcbench uses for latencies: microseconds,
 * 1 us to 1 h, 3 significant digits; release with hist_close.
 * @return 0, or -1 when memory cannot be had. */
int hist_init_latency(struct hist *h);

#endif
