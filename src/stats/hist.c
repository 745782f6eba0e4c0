/* hist: HdrHistogram's log-linear bucket layout, in plain C.
 *
 * The counts array is split into buckets; bucket 0 holds sub_bucket_count
 * unit-wide slots, every later bucket holds the upper half of its sub
 * buckets (the lower half would duplicate the previous bucket) at twice the
 * previous width. Index arithmetic follows HdrHistogram_c/Java exactly so the
 * counts can be written in their V2 encoding and read by their tools. */
#include "stats/hist.h"
#include "stats/hist_testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Position of the highest set bit plus one; v is never 0 here because the
 * callers OR in sub_bucket_mask. */
static inline int32_t bit_length(int64_t v)
{
    return 64 - __builtin_clzll((unsigned long long)v);
}

static inline int32_t bucket_index(const struct hist *h, int64_t value)
{
    int32_t pow2ceiling = bit_length(value | h->sub_bucket_mask);
    return pow2ceiling - h->unit_magnitude - (h->sub_bucket_half_count_magnitude + 1);
}

static inline int32_t sub_bucket_index(const struct hist *h, int64_t value, int32_t bucket)
{
    return (int32_t)(value >> (bucket + h->unit_magnitude));
}

static inline int32_t counts_index(const struct hist *h, int32_t bucket, int32_t sub)
{
    int32_t base = (bucket + 1) << h->sub_bucket_half_count_magnitude;
    return base + (sub - h->sub_bucket_half_count);
}

static inline int64_t value_from(const struct hist *h, int32_t bucket, int32_t sub)
{
    return (int64_t)sub << (bucket + h->unit_magnitude);
}

int32_t hist_index_for(const struct hist *h, int64_t value)
{
    int32_t b = bucket_index(h, value);
    return counts_index(h, b, sub_bucket_index(h, value, b));
}

int64_t hist_value_at_index(const struct hist *h, int32_t index)
{
    int32_t b = (index >> h->sub_bucket_half_count_magnitude) - 1;
    int32_t sub = (index & (h->sub_bucket_half_count - 1)) + h->sub_bucket_half_count;
    if (b < 0) {
        sub -= h->sub_bucket_half_count;
        b = 0;
    }
    return value_from(h, b, sub);
}

/* Width of the bucket slot holding value: 1 << (unit + bucket), one bucket
 * further up when value sits past the top sub bucket. */
static int64_t equivalent_range(const struct hist *h, int64_t value)
{
    int32_t b = bucket_index(h, value);
    int32_t sub = sub_bucket_index(h, value, b);
    int32_t adjusted = sub >= h->sub_bucket_count ? b + 1 : b;
    return (int64_t)1 << (h->unit_magnitude + adjusted);
}

int64_t hist_lowest_equivalent(const struct hist *h, int64_t value)
{
    int32_t b = bucket_index(h, value);
    return value_from(h, b, sub_bucket_index(h, value, b));
}

int64_t hist_highest_equivalent(const struct hist *h, int64_t value)
{
    return hist_lowest_equivalent(h, value) + equivalent_range(h, value) - 1;
}

/* Smallest number of buckets whose top reaches past value (HdrHistogram's
 * buckets_needed_to_cover_value). */
static int32_t buckets_needed(int64_t value, int32_t sub_bucket_count, int32_t unit_magnitude)
{
    int64_t smallest_untrackable = (int64_t)sub_bucket_count << unit_magnitude;
    int32_t n = 1;
    while (smallest_untrackable <= value) {
        if (smallest_untrackable > INT64_MAX / 2)
            return n + 1;
        smallest_untrackable <<= 1;
        n++;
    }
    return n;
}

int hist_init(struct hist *h, int64_t lowest, int64_t highest, int sigfigs)
{
    memset(h, 0, sizeof(*h));
    if (lowest < 1 || sigfigs < 1 || sigfigs > 5 || highest < 2 * lowest)
        return -1;
    int64_t largest_single_unit = 2;
    for (int i = 0; i < sigfigs; i++)
        largest_single_unit *= 10;
    int32_t sub_bucket_count_magnitude = 0; /* ceil(log2(largest_single_unit)) */
    while (((int64_t)1 << sub_bucket_count_magnitude) < largest_single_unit)
        sub_bucket_count_magnitude++;

    h->lowest = lowest;
    h->highest = highest;
    h->sigfigs = sigfigs;
    h->unit_magnitude = 63 - __builtin_clzll((unsigned long long)lowest);
    h->sub_bucket_half_count_magnitude =
        (sub_bucket_count_magnitude > 1 ? sub_bucket_count_magnitude : 1) - 1;
    if (h->unit_magnitude + h->sub_bucket_half_count_magnitude > 61)
        return -1;
    h->sub_bucket_count = (int32_t)1 << (h->sub_bucket_half_count_magnitude + 1);
    h->sub_bucket_half_count = h->sub_bucket_count / 2;
    h->sub_bucket_mask = ((int64_t)h->sub_bucket_count - 1) << h->unit_magnitude;
    h->bucket_count = buckets_needed(highest, h->sub_bucket_count, h->unit_magnitude);
    h->counts_len = (h->bucket_count + 1) * (h->sub_bucket_count / 2);
    h->counts = calloc((size_t)h->counts_len, sizeof(*h->counts));
    if (!h->counts)
        return -1;
    hist_reset(h);
    return 0;
}

int hist_init_latency(struct hist *h)
{
    return hist_init(h, 1, INT64_C(3600000000), 3);
}

void hist_close(struct hist *h)
{
    free(h->counts);
    h->counts = NULL;
}

void hist_reset(struct hist *h)
{
    if (h->counts)
        memset(h->counts, 0, (size_t)h->counts_len * sizeof(*h->counts));
    h->total_count = 0;
    h->min = INT64_MAX;
    h->max = 0;
    h->sum = 0;
    h->sum_sq = 0;
}

/* The hot path: two compares, one clz, shifts and adds. */
void hist_record_n(struct hist *h, int64_t value, int64_t count)
{
    if (value < 0)
        value = 0;
    if (value > h->highest)
        value = h->highest;
    h->counts[hist_index_for(h, value)] += count;
    h->total_count += count;
    if (value < h->min)
        h->min = value;
    if (value > h->max)
        h->max = value;
    double v = (double)value;
    h->sum += v * (double)count;
    h->sum_sq += v * v * (double)count;
}

void hist_record(struct hist *h, int64_t value)
{
    hist_record_n(h, value, 1);
}

int hist_merge(struct hist *dst, const struct hist *src)
{
    if (dst->lowest != src->lowest || dst->highest != src->highest ||
        dst->sigfigs != src->sigfigs || dst->counts_len != src->counts_len)
        return -1;
    for (int32_t i = 0; i < src->counts_len; i++)
        dst->counts[i] += src->counts[i];
    dst->total_count += src->total_count;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    dst->sum += src->sum;
    dst->sum_sq += src->sum_sq;
    return 0;
}

/* Checked first, so a subtraction that cannot be done changes nothing. */
static int holds_all(const struct hist *dst, const struct hist *src)
{
    if (dst->lowest != src->lowest || dst->highest != src->highest ||
        dst->sigfigs != src->sigfigs || dst->counts_len != src->counts_len)
        return 0;
    for (int32_t i = 0; i < src->counts_len; i++)
        if (src->counts[i] > dst->counts[i])
            return 0;
    return 1;
}

int hist_subtract(struct hist *dst, const struct hist *src)
{
    if (!holds_all(dst, src))
        return -1;
    dst->total_count = 0;
    dst->min = INT64_MAX;
    dst->max = 0;
    for (int32_t i = 0; i < dst->counts_len; i++) {
        dst->counts[i] -= src->counts[i];
        if (dst->counts[i] == 0)
            continue;
        int64_t lo = hist_value_at_index(dst, i);
        if (dst->total_count == 0)
            dst->min = lo;
        dst->max = hist_highest_equivalent(dst, lo);
        dst->total_count += dst->counts[i];
    }
    dst->sum -= src->sum;
    dst->sum_sq -= src->sum_sq;
    if (dst->total_count == 0)
        dst->sum = dst->sum_sq = 0;
    return 0;
}

/* As hdr_value_at_percentile: the rank is rounded to the nearest count, the
 * first index whose running count reaches it gives the bucket, and the
 * bucket's highest equivalent value is reported (lowest for p == 0),
 * clamped to the exact min and max recorded. */
int64_t hist_percentile(const struct hist *h, double p)
{
    if (h->total_count == 0)
        return 0;
    if (!(p >= 0)) /* negative or NaN */
        p = 0;
    double requested = p < 100.0 ? p : 100.0;
    int64_t rank = (int64_t)((requested / 100.0) * (double)h->total_count + 0.5);
    if (rank < 1)
        rank = 1;
    int64_t running = 0;
    int64_t value = 0;
    for (int32_t i = 0; i < h->counts_len; i++) {
        running += h->counts[i];
        if (running >= rank) {
            value = hist_value_at_index(h, i);
            break;
        }
    }
    value = p == 0.0 ? hist_lowest_equivalent(h, value) : hist_highest_equivalent(h, value);
    /* A bucket's edge can lie beyond the exact extremes (p99 52.895 with
     * max 52.888): no percentile is reported outside them. */
    return value < h->min ? h->min : value > h->max ? h->max : value;
}

double hist_mean(const struct hist *h)
{
    return h->total_count ? h->sum / (double)h->total_count : 0.0;
}

/* Population standard deviation from the running sums; the difference can
 * go slightly negative through rounding, hence the clamp. */
double hist_stddev(const struct hist *h)
{
    if (h->total_count == 0)
        return 0.0;
    double n = (double)h->total_count;
    double mean = h->sum / n;
    double var = h->sum_sq / n - mean * mean;
    return var > 0 ? sqrt(var) : 0.0;
}

double hist_pct_below(const struct hist *h, int64_t value)
{
    if (h->total_count == 0 || value <= 0 || value <= h->min)
        return 0.0;
    if (value > h->max || value > h->highest) /* the exact extremes settle the ends */
        return 100.0;
    int32_t limit = hist_index_for(h, value);
    int64_t below = 0;
    for (int32_t i = 0; i < limit; i++)
        below += h->counts[i];
    return 100.0 * (double)below / (double)h->total_count;
}

int64_t hist_count_at_or_below(const struct hist *h, int64_t value)
{
    if (h->total_count == 0 || value < h->min)
        return 0;
    if (value >= h->max || value > h->highest)
        return h->total_count;
    int32_t last = hist_index_for(h, value);
    int64_t n = 0;
    for (int32_t i = 0; i <= last && i < h->counts_len; i++)
        n += h->counts[i];
    return n;
}
