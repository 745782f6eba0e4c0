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

/* @return 0, or -1 on bad parameters or no memory. */
int hist_init(struct hist *h, int64_t lowest, int64_t highest, int sigfigs);
void hist_close(struct hist *h);
/* Empties the histogram, keeping its memory. */
void hist_reset(struct hist *h);

/* Values above `highest` are clamped to it (and still counted);
 * negative values are recorded as 0. */
void hist_record(struct hist *h, int64_t value);
void hist_record_n(struct hist *h, int64_t value, int64_t count);

/* Adds src's counts into dst. @return 0, or -1 if layouts differ. */
int hist_merge(struct hist *dst, const struct hist *src);

/* Value at percentile p (0..100): the highest value equivalent to the
 * bucket holding that rank, as HdrHistogram reports it, but never outside
 * the exact min and max recorded. 0 when empty. */
int64_t hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);
/* Percentage (0..100) of recorded values strictly below `value`
 * (counted by bucket; values equivalent to `value` count as not below). */
double hist_pct_below(const struct hist *h, int64_t value);

/* Bucket geometry, for encoders and iteration. */
int32_t hist_index_for(const struct hist *h, int64_t value);
int64_t hist_value_at_index(const struct hist *h, int32_t index);
int64_t hist_highest_equivalent(const struct hist *h, int64_t value);
int64_t hist_lowest_equivalent(const struct hist *h, int64_t value);

/* The histogram rpcbench uses for latencies: microseconds, 1 us to 1 h,
 * 3 significant digits. */
int hist_init_latency(struct hist *h);

#endif
