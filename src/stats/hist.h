/* hist: a log-linear latency histogram with HdrHistogram semantics.
 *
 * Values are integers in a unit the caller picks (rpcbench records
 * microseconds). Buckets keep `sigfigs` significant decimal digits (3 means
 * any value is recorded within 0.1 %), memory is fixed at init whatever the
 * run length, recording is a few instructions, and two histograms with the
 * same parameters merge by adding counts. The bucket layout is exactly
 * HdrHistogram's, so the log encoder can write counts the Java and C
 * HdrHistogram readers decode. */
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

/* Initialises h (the struct is the caller's; its counts array is h's own,
 * sized once here, freed by hist_close). @return 0, or -1 on bad
 * parameters or no memory (nothing to close then). */
int hist_init(struct hist *h, int64_t lowest, int64_t highest, int sigfigs);
/* Frees the counts; safe twice, and on a zeroed struct. */
void hist_close(struct hist *h);
/* Empties the histogram, keeping its memory. */
void hist_reset(struct hist *h);

/* Values above `highest` are clamped to it (and still counted);
 * negative values are recorded as 0. */
void hist_record(struct hist *h, int64_t value);
void hist_record_n(struct hist *h, int64_t value, int64_t count);

/* Adds src's counts into dst (src only read). @return 0, or -1 if the
 * layouts (lowest, highest, sigfigs) differ: dst unchanged. */
int hist_merge(struct hist *dst, const struct hist *src);

/* Value at percentile p (0..100): the highest value equivalent to the
 * bucket holding that rank, as HdrHistogram reports it, but never outside
 * the exact min and max recorded. 0 when empty. */
int64_t hist_percentile(const struct hist *h, double p);
/* @return the exact mean of the values recorded (from the running sum),
 * 0 when empty. */
double hist_mean(const struct hist *h);
/* @return the exact population standard deviation, 0 when empty. */
double hist_stddev(const struct hist *h);
/* Percentage (0..100) of recorded values strictly below `value`
 * (counted by bucket; values equivalent to `value` count as not below). */
double hist_pct_below(const struct hist *h, int64_t value);

/* Bucket geometry, for encoders and iteration: the counts index a value
 * falls in, the lowest value of an index, and the highest and lowest
 * values equivalent to (in the same bucket as) a value. */
int32_t hist_index_for(const struct hist *h, int64_t value);
int64_t hist_value_at_index(const struct hist *h, int32_t index);
int64_t hist_highest_equivalent(const struct hist *h, int64_t value);
int64_t hist_lowest_equivalent(const struct hist *h, int64_t value);

/* The histogram rpcbench uses for latencies: microseconds, 1 us to 1 h,
 * 3 significant digits. @return hist_init's. */
int hist_init_latency(struct hist *h);

#endif
