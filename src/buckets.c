#include "buckets.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

/* The round step (1, 2 or 5 times a power of ten, in ms) that cuts span_ms
 * into about 20 buckets. */
static double round_step(double span_ms)
{
    double raw = span_ms / 20.0;
    if (raw <= 0.001)
        return 0.001;
    double mag = pow(10, floor(log10(raw)));
    double m = raw / mag;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
}

static int auto_edges(int64_t lo_us, int64_t hi_us, double *edges)
{
    double lo = (double)lo_us / 1000.0, hi = (double)hi_us / 1000.0;
    if (hi <= lo)
        hi = lo + 0.001;
    double step = round_step(hi - lo);
    double start = floor(lo / step) * step;
    if (start <= 0)
        start = step; /* "<0ms: 0.0" says nothing */
    int n = 0;
    /* First edge at or below the minimum (shows 0.0), last above the max. */
    for (double e = start; n < BUCKETS_MAX; e += step) {
        edges[n++] = round(e / step) * step;
        if (e > hi)
            break;
    }
    return n;
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

int buckets_edges(const char *spec, int64_t lo_us, int64_t hi_us, double *edges_ms, char *err)
{
    if (!spec[0] || !strcmp(spec, "auto"))
        return auto_edges(lo_us, hi_us, edges_ms);
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

void buckets_format_ms(double ms, char *out, size_t len)
{
    snprintf(out, len, "%.6g", ms);
}
