/* hist_json: a histogram in the saved JSON (result_json.h): its figures,
 * its counts as base64 HdrHistogram and what that encoding loses; shared
 * by the run's, the verbs' and the stages' (result_stages_json.c). */
#include "model/result_json.h"

#include <math.h>
#include <stdio.h>

#include "base/buf.h"
#include "stats/hdrlog.h"

static void add_int(json_object *o, const char *k, int64_t v)
{
    json_object_object_add(o, k, json_object_new_int64(v));
}

/* An empty histogram has no figures: null, never 0 (a run where nothing
 * succeeded is not a fast one). */
static void add_figure(json_object *o, const struct hist *h, const char *k, double v)
{
    json_object_object_add(o, k, h->total_count ? json_object_new_double(v) : NULL);
}

json_object *result_hist_json(const struct hist *h, const double *pcts, size_t npcts)
{
    json_object *o = json_object_new_object();
    add_figure(o, h, "min", (double)h->min / 1000);
    add_figure(o, h, "mean", hist_mean(h) / 1000);
    add_figure(o, h, "max", (double)h->max / 1000);
    add_figure(o, h, "stddev", hist_stddev(h) / 1000);
    for (size_t i = 0; i < npcts; i++) {
        char k[24];
        snprintf(k, sizeof k, "p%g", pcts[i]); /* as result_json's pct_key */
        add_figure(o, h, k, (double)hist_percentile(h, pcts[i]) / 1000);
    }
    return o;
}

/* What the bucket encoding loses: the exact min, max and sums (us), so a
 * saved result reports the same figures as the run. */
json_object *result_hist_exact(const struct hist *h)
{
    json_object *o = json_object_new_object();
    add_int(o, "min", h->total_count ? h->min : 0);
    add_int(o, "max", h->max);
    add_int(o, "sum", (int64_t)h->sum);
    /* Every digit: the standard deviation a report recomputes from it
     * subtracts two close numbers, so %.10g's rounding showed there. */
    char text[40];
    snprintf(text, sizeof text, "%.17g", h->sum_sq);
    json_object_object_add(o, "sum_sq", json_object_new_double_s(h->sum_sq, text));
    return o;
}

json_object *result_hist_encoded(const struct hist *h)
{
    struct buf b = {0};
    json_object *s = NULL;
    if (hdrlog_encode(h, &b) == 0)
        s = json_object_new_string_len(b.data, (int)b.len);
    buf_free(&b);
    return s;
}

/* x's integer at k, 0 when missing, mistyped or negative. */
static int64_t exact_int(json_object *x, const char *k)
{
    json_object *v;
    if (!json_object_object_get_ex(x, k, &v) ||
        !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
        return 0;
    int64_t n = json_object_get_int64(v);
    return n < 0 ? 0 : n;
}

/* The exact min, max and sums saved beside the buckets (files saved before
 * them keep the bucket-derived ones), when they fit the buckets. */
void result_hist_load_exact(json_object *x, struct hist *h)
{
    json_object *v;
    if (!x || h->total_count == 0 || !json_object_is_type(x, json_type_object))
        return;
    int64_t mn = exact_int(x, "min"), mx = exact_int(x, "max"), sum = exact_int(x, "sum");
    double sq = json_object_object_get_ex(x, "sum_sq", &v) && v ? json_object_get_double(v) : -1;
    if (hist_lowest_equivalent(h, mn) != h->min || hist_lowest_equivalent(h, mx) !=
        hist_lowest_equivalent(h, h->max) || mn > mx || !(sq >= 0) || isinf(sq))
        return; /* not this histogram's: keep what the buckets say */
    h->min = mn;
    h->max = mx;
    h->sum = (double)sum;
    h->sum_sq = sq;
}
