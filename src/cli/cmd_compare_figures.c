/* cmd_compare_figures: the figures a comparison shows (cmd_compare.h),
 * from the metric table (model/metric.h): each one's name and JSON key,
 * its value from a result, how it is written, and the one time unit of a
 * table's latencies. Shared by the
 * text, the JSON, the gates and the HTML page, and calls none of them. */
#include "cli/cmd_compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"

/* ---- figures ------------------------------------------------------------- */

static int is_latency(int f)
{
    return metric_defs[f].unit == MU_MS;
}

/* One time unit for every latency a table shows (ms figures, NAN skipped). */
static void unit_widen(double ms, double *mn, double *mx)
{
    if (isnan(ms) || ms <= 0)
        return;
    if (*mn <= 0 || ms * 1000 < *mn)
        *mn = ms * 1000;
    if (ms * 1000 > *mx)
        *mx = ms * 1000;
}

/* u: the table's time unit, for the latency figures. */
void compare_fmt_fig(int f, double v, const struct report_unit *u, char *out, size_t len)
{
    if (isnan(v)) { /* no answer, CPU not sampled: as run's report says it */
        snprintf(out, len, "n/a");
        return;
    }
    switch (metric_defs[f].unit) {
    case MU_PER_S: snprintf(out, len, "%.2f/s", v); break;
    case MU_COUNT: snprintf(out, len, "%.0f", v); break;
    case MU_PCT: snprintf(out, len, "%.1f%%", v); break;
    case MU_CPU_MS: snprintf(out, len, "%.3f", v); break;
    case MU_BYTES: report_fmt_bytes(v, out, len); break; /* "2.09 MB", as run says it */
    case MU_MS: report_unit_fmt(u, 1, v * 1000, out, len); break;
    }
}

int compare_mark_bound(const struct run_result *r, int f, double v, char *cell, size_t len)
{
    if (!is_latency(f) || isnan(v) ||
        !result_lower_bound(&r->censored, f == METRIC_MEAN, (double)llround(v * 1000)))
        return 0;
    char was[64];
    snprintf(was, sizeof was, "%s", cell);
    snprintf(cell, len, "%s%s", RESULT_LOWER_BOUND_MARK, was);
    return (int)strlen(RESULT_LOWER_BOUND_MARK) - 1;
}

const char *compare_fig_name(int f)
{
    return metric_defs[f].label;
}

const char *compare_fig_key(int f)
{
    return metric_defs[f].json_key;
}

struct report_unit compare_summary_unit(const struct comparison *c)
{
    double mn = 0, mx = 0;
    for (int f = 0; f < METRIC_N; f++)
        if (is_latency(f)) {
            unit_widen(c->arm[0].fig[f], &mn, &mx);
            unit_widen(c->arm[1].fig[f], &mn, &mx);
        }
    return report_unit_pick(mx, mn);
}

struct report_unit compare_rounds_unit(const struct comparison *c)
{
    double mn = 0, mx = 0;
    for (size_t i = 0; i < c->pairs; i++)
        for (int a = 0; a < 2; a++) {
            double v[METRIC_N];
            compare_figures(&c->arm[a].rounds[i], v);
            unit_widen(v[METRIC_P50], &mn, &mx);
            unit_widen(v[METRIC_P99], &mn, &mx);
        }
    return report_unit_pick(mx, mn);
}
