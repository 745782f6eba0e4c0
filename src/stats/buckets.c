#include "stats/buckets.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"

/* The round step (1, 2 or 5 times a power of ten, in ms) that cuts span_ms
 * into about rows buckets. */
static double round_step(double span_ms, double rows)
{
    double raw = span_ms / rows;
    if (raw <= 0.001)
        return 0.001;
    double mag = pow(10, floor(log10(raw)));
    double m = raw / mag;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
}

/* The data's spread over every histogram given: min, p99, max (ms).
 * @return 0 when none holds a value. */
static int spread(const struct hist *const *hs, int nh, double *lo, double *body, double *hi)
{
    int any = 0;
    for (int i = 0; i < nh; i++) {
        const struct hist *h = hs[i];
        if (!h->total_count)
            continue;
        double mn = (double)h->min / 1000, mx = (double)h->max / 1000;
        double p99 = (double)hist_percentile(h, 99) / 1000;
        *lo = any && *lo < mn ? *lo : mn;
        *hi = any && *hi > mx ? *hi : mx;
        *body = any && *body > p99 ? *body : p99;
        any = 1;
    }
    return any;
}

/* Drops every edge whose row would repeat the one before it for every
 * histogram: the table keeps the rows where something changes. */
static int drop_repeats(const struct hist *const *hs, int nh, double *edges, int n)
{
    double prev[8] = {0};
    int out = 0;
    for (int i = 0; i < n; i++) {
        int same = out > 0;
        for (int k = 0; k < nh && k < 8; k++) {
            double p = hist_pct_below(hs[k], (int64_t)llround(edges[i] * 1000.0));
            same = same && p == prev[k];
            prev[k] = p;
        }
        if (!same)
            edges[out++] = edges[i];
    }
    return out;
}

/* Round edges across the body of the data (min to the largest p99), about
 * 20 of them, then one round edge above the max when the tail reaches
 * further; rows that repeat the row before them are left out, so a few
 * requests or a long tail do not fill the table with the same figure. */
static int auto_edges(const struct hist *const *hs, int nh, double *edges)
{
    double lo = 0, body = 0, hi = 0;
    if (!spread(hs, nh, &lo, &body, &hi))
        return 0;
    double span = body - lo > body / 20 ? body - lo : body / 20; /* one value: a few rows */
    double step = round_step(span, 20);
    double start = floor(lo / step) * step;
    if (start <= 0)
        start = step; /* "<0ms: 0.0" says nothing */
    int n = 0;
    /* First edge at or below the minimum (shows 0.0), then up past the body. */
    for (double e = start; n < BUCKETS_MAX - 1; e += step) {
        edges[n++] = round(e / step) * step;
        if (e > body)
            break;
    }
    if (edges[n - 1] <= hi) { /* the tail: one edge above the max */
        double tstep = round_step(hi, 20);
        edges[n++] = (floor(hi / tstep) + 1) * tstep;
    }
    return drop_repeats(hs, nh, edges, n);
}

static int range_edges(const char *spec, double *edges, char *err)
{
    double a, b, step;
    char extra;
    if (sscanf(spec, "%lf:%lf:%lf%c", &a, &b, &step, &extra) != 3 || a < 0 || b <= a ||
        step <= 0) {
        snprintf(err, ERR_LEN, "--buckets: bad range '%s' (START:END:STEP in ms)", spec);
        return -1;
    }
    if ((b - a) / step + 1 > BUCKETS_MAX) {
        snprintf(err, ERR_LEN, "--buckets: '%s' gives more than %d buckets", spec, BUCKETS_MAX);
        return -1;
    }
    int n = 0;
    for (double e = a; e <= b + step * 1e-9; e += step)
        edges[n++] = e;
    return n;
}

int buckets_edges(const char *spec, const struct hist *const *hs, int nh, double *edges_ms,
                  char *err)
{
    if (!spec[0] || !strcmp(spec, "auto"))
        return auto_edges(hs, nh, edges_ms);
    if (strchr(spec, ':'))
        return range_edges(spec, edges_ms, err);
    size_t n;
    if (units_parse_list(spec, edges_ms, BUCKETS_MAX, &n, err))
        return -1;
    return (int)n;
}

void buckets_fill(const struct hist *h, const double *edges_ms, int n, double *pct)
{
    for (int i = 0; i < n; i++)
        pct[i] = hist_pct_below(h, (int64_t)llround(edges_ms[i] * 1000.0));
}

int buckets_table(const char *spec, const struct hist *h, double *edges_ms, double *pct,
                  char *err)
{
    int n = buckets_edges(spec, &h, 1, edges_ms, err);
    if (n > 0)
        buckets_fill(h, edges_ms, n, pct);
    return n;
}

void buckets_format_ms(double ms, char *out, size_t len)
{
    snprintf(out, len, "%.6g", ms);
}

void buckets_row_label(double ms, char *out, size_t len)
{
    char e[32];
    buckets_format_ms(ms, e, sizeof e);
    snprintf(out, len, "<%sms:", e);
}
