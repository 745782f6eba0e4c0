/* compare_cells: how a comparison's figures are written, the same in the
 * text, the JSON and the page (compare_report.h): each figure's name and
 * JSON key, its cell, the lower-bound mark, the one time unit of a table's
 * latencies, the bucket table both formats show, and a warning's prefix.
 * Calls none of the writers. */
#include "report/compare_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/buckets.h"

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

/* One set of edges for both arms, from the union of their data. */
int compare_bucket_edges(const struct comparison *c, double *edges, char *err)
{
    const struct hist *hs[2] = {&c->arm[0].merged.latency, &c->arm[1].merged.latency};
    return buckets_edges(c->plan.buckets, hs, 2, edges, err);
}

int compare_bucket_doc(const struct comparison *c, struct doc_table *t, char *err)
{
    double edges[BUCKETS_MAX], pa[BUCKETS_MAX], pb[BUCKETS_MAX];
    int n = compare_bucket_edges(c, edges, err);
    if (n < 0)
        return -1;
    buckets_fill(&c->arm[0].merged.latency, edges, n, pa);
    buckets_fill(&c->arm[1].merged.latency, edges, n, pb);
    doc_table_init(t, 3);
    snprintf(t->html_caption, sizeof t->html_caption, "cumulative %% of answers under each edge");
    snprintf(t->empty, sizeof t->empty, "(no successful answer in either arm: nothing to bucket)");
    snprintf(t->heads[0], DOC_CELL_LEN, "response time");
    t->width[0] = -16;
    for (int a = 0; a < 2; a++) {
        snprintf(t->heads[1 + a], DOC_CELL_LEN, "%s", compare_arm_name(&c->arm[a]));
        int w = (int)strlen(t->heads[1 + a]);
        t->width[1 + a] = w < 8 ? 8 : w;
    }
    int ha = c->arm[0].merged.latency.total_count > 0;
    int hb = c->arm[1].merged.latency.total_count > 0;
    for (int i = 0; i < n; i++) {
        char row[48], ca[16] = "n/a", cb[16] = "n/a"; /* an arm without answers */
        buckets_row_label(edges[i], row, sizeof row);
        if (ha)
            snprintf(ca, sizeof ca, "%.1f", pa[i]);
        if (hb)
            snprintf(cb, sizeof cb, "%.1f", pb[i]);
        const char *cells[3] = {row, ca, cb};
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

void compare_warning_prefix(const struct comparison *c, int a, size_t i, char *out, size_t len)
{
    if (c->pairs > 1)
        snprintf(out, len, "%c round %zu: ", c->arm[a].letter, i + 1);
    else
        snprintf(out, len, "%c: ", c->arm[a].letter);
}
