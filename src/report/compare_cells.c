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
    if (!fig_known(ms) || ms <= 0)
        return;
    if (*mn <= 0 || ms * 1000 < *mn)
        *mn = ms * 1000;
    if (ms * 1000 > *mx)
        *mx = ms * 1000;
}

/* Puts RESULT_LOWER_BOUND_MARK ("≥") before cell (len bytes), the
 * formatted figure f of value v (ms) of r, when it is a latency figure that
 * r's censored waits of unfinished requests reach (result_lower_bound).
 * @return the bytes the mark adds beyond its one column, 0 when unmarked. */
static int compare_mark_bound(const struct run_result *r, int f, double v, char *cell, size_t len)
{
    if (!is_latency(f) || !fig_known(v) ||
        !result_lower_bound(&r->censored, f == METRIC_MEAN, (double)llround(v * 1000)))
        return 0;
    size_t mark = strlen(RESULT_LOWER_BOUND_MARK), n = strlen(cell);
    if (n + mark >= len) /* no room for the mark: the figure stays whole */
        return 0;
    memmove(cell + mark, cell, n + 1);
    memcpy(cell, RESULT_LOWER_BOUND_MARK, mark);
    return (int)strlen(RESULT_LOWER_BOUND_MARK) - 1;
}

/* "p50 latency", "server CPU-ms/call (net of idle)" as c's CPU basis says */
static const char *compare_fig_name(const struct comparison *c, int f)
{
    if (f == METRIC_CPU_MS && c->cpu_basis == CPU_NET)
        return "server CPU-ms/call (net of idle)";
    if (f == METRIC_CPU_MS && c->cpu_basis == CPU_RAW_REFUSED)
        return "server CPU-ms/call (raw)";
    return metric_defs[f].label;
}

const char *compare_fig_key(int f)
{
    return metric_defs[f].json_key;
}

/* @return the unit of the summary table's latencies, and of the rounds
 * table's (p50 and p99 of every round). */
static struct report_unit compare_summary_unit(const struct comparison *c)
{
    double mn = 0, mx = 0;
    for (int f = 0; f < METRIC_N; f++)
        if (is_latency(f)) {
            unit_widen(c->arm[0].fig[f], &mn, &mx);
            unit_widen(c->arm[1].fig[f], &mn, &mx);
        }
    return report_unit_pick(mx, mn);
}

static struct report_unit compare_rounds_unit(const struct comparison *c)
{
    double mn = 0, mx = 0;
    for (size_t i = 0; i < c->pairs; i++)
        for (int a = 0; a < 2; a++) {
            double v[METRIC_N];
            compare_figures(c, &c->arm[a].rounds[i], v);
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

int compare_bucket_doc(const struct comparison *c, struct doc_table *t,
                       struct doc_table_style *st, char *err)
{
    double edges[BUCKETS_MAX], pa[BUCKETS_MAX], pb[BUCKETS_MAX];
    int n = compare_bucket_edges(c, edges, err);
    if (n < 0)
        return -1;
    buckets_fill(&c->arm[0].merged.latency, edges, n, pa);
    buckets_fill(&c->arm[1].merged.latency, edges, n, pb);
    doc_table_init(t, 3);
    doc_table_style_init(st);
    snprintf(st->html.caption, sizeof st->html.caption, "cumulative %% of answers under each edge");
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

int compare_order_text(const struct comparison *c, size_t i, char *out, size_t len)
{
    int first = compare_first_arm(c, i);
    snprintf(out, len, "%s", first < 0 ? "?" : first ? "BA" : "AB");
    return first >= 0;
}

void compare_warning_prefix(const struct comparison *c, int a, size_t i, char *out, size_t len)
{
    if (c->pairs > 1)
        snprintf(out, len, "%c round %zu: ", c->arm[a].letter, i + 1);
    else
        snprintf(out, len, "%c: ", c->arm[a].letter);
}

/* The errors row's verdict: decided on every request that did not end
 * ok (errors, unfinished, unsent), which the row's figure (errors only)
 * may not show, so the counts are said: "B fails more: 45 vs 12 failed
 * (counts, p 2.3e-05)". */
static void failures_verdict_text(const struct fail_test *f, int fails_more, char *v, size_t n)
{
    const char *word = fails_more ? "B fails more"
                       : f->verdict == GATE_INCONCLUSIVE ? "B fails more in bursts?"
                                                         : "no excess in B";
    snprintf(v, n, "%s: %lld vs %lld failed (counts, p %.2g)", word, (long long)f->failed[1],
             (long long)f->failed[0], f->verdict == GATE_INCONCLUSIVE ? f->p_bursts : f->p);
}

/* The summary's row of figure f. @return doc_table_add_row's. */
static int summary_row(const struct comparison *c, struct doc_table *t, int f,
                       const struct report_unit *u, char *err)
{
    const struct compare_arm *A = &c->arm[0], *B = &c->arm[1];
    char va[40], vb[40], r[32] = "-", v[96];
    report_fmt_metric(f, A->fig[f], u, va, sizeof va);
    report_fmt_metric(f, B->fig[f], u, vb, sizeof vb);
    compare_mark_bound(&A->merged, f, A->fig[f], va, sizeof va);
    compare_mark_bound(&B->merged, f, B->fig[f], vb, sizeof vb);
    double x = compare_figure_ratio(c, f);
    if (fig_known(x))
        compare_stats_fmt_ratio(x, r, sizeof r);
    enum cmp_verdict kind = compare_verdict(c, f, v, sizeof v);
    int fails_more = f == METRIC_ERRORS && c->failures.verdict == GATE_REGRESSION;
    if (f == METRIC_ERRORS) /* decided on the counts (compare_failures.c), never n/a */
        failures_verdict_text(&c->failures, fails_more, v, sizeof v);
    const char *cells[5] = {compare_fig_name(c, f), va, vb, r, v};
    /* an interval that shows a difference either way stands out */
    unsigned flags = kind == CMP_B_LOWER || kind == CMP_B_HIGHER || fails_more
                         ? DOC_ROW_MARKED : 0;
    return doc_table_add_row(t, cells, metric_defs[f].html_id, flags, err);
}

int compare_summary_doc(const struct comparison *c, struct doc_table *t,
                        struct doc_table_style *st, char *err)
{
    static const char *const col_ids[5] = {"", "a", "b", "ratio", "ci"};
    static const int widths[5] = {-20, 14, 14, 8, 0};
    doc_table_init(t, 5);
    doc_table_style_init(st);
    snprintf(t->heads[0], DOC_CELL_LEN, "figure");
    snprintf(t->heads[1], DOC_CELL_LEN, "A %.60s", compare_arm_name(&c->arm[0]));
    snprintf(t->heads[2], DOC_CELL_LEN, "B %.60s", compare_arm_name(&c->arm[1]));
    snprintf(t->heads[3], DOC_CELL_LEN, "B/A");
    snprintf(t->heads[4], DOC_CELL_LEN, "95%% CI of B/A");
    for (int k = 0; k < 5; k++) {
        t->width[k] = widths[k];
        snprintf(t->col_id[k], sizeof t->col_id[k], "%s", col_ids[k]);
    }
    /* the figure column fits its longest name ("server CPU-ms/call (net of idle)") */
    for (int f = 0; f < METRIC_N; f++)
        if ((int)strlen(compare_fig_name(c, f)) > -t->width[0])
            t->width[0] = -(int)strlen(compare_fig_name(c, f));
    t->gap[4] = 1;
    snprintf(t->id, sizeof t->id, "summary");
    snprintf(t->cell_ids, sizeof t->cell_ids, "cmp");
    st->html.stick_last = 1; /* at 420 px the figures scroll, the verdict stays in view */
    snprintf(t->legend, sizeof t->legend, "%s", COMPARE_RATIO_METHOD);
    snprintf(st->html.caption, sizeof st->html.caption, "%s (95 %%)", COMPARE_RATIO_METHOD);
    if (compare_too_few_rounds(c))
        snprintf(t->warning, sizeof t->warning, "2 rounds: the interval cannot exclude 1 unless "
                 "both rounds agree closely (t = %.1f with 1 degree of freedom); use 3 or more "
                 "(--rounds)", compare_stats_t975(1));
    struct report_unit u = compare_summary_unit(c);
    for (int f = 0; f < METRIC_N; f++)
        if (summary_row(c, t, f, &u, err))
            return -1;
    return 0;
}

/* Round i's row of arm a: its figures, steal, and B/A of the round's p99. */
static int round_row(const struct comparison *c, struct doc_table *t, size_t i, int a,
                     const struct report_unit *u, char *err)
{
    const struct run_result *r = &c->arm[a].rounds[i];
    double v[METRIC_N], va[METRIC_N];
    char n[24], arm[4], p50[40], p99[40], rate[32], cpu[32], steal[16] = "n/a", ratio[32] = "";
    compare_figures(c, r, v);
    compare_figures(c, &c->arm[0].rounds[i], va);
    snprintf(n, sizeof n, "%zu", i + 1);
    snprintf(arm, sizeof arm, "%c", c->arm[a].letter);
    report_fmt_metric(METRIC_P50, v[METRIC_P50], u, p50, sizeof p50);
    report_fmt_metric(METRIC_P99, v[METRIC_P99], u, p99, sizeof p99);
    compare_mark_bound(r, METRIC_P50, v[METRIC_P50], p50, sizeof p50);
    compare_mark_bound(r, METRIC_P99, v[METRIC_P99], p99, sizeof p99);
    report_fmt_metric(METRIC_RATE, v[METRIC_RATE], u, rate, sizeof rate);
    report_fmt_metric(METRIC_CPU_MS, v[METRIC_CPU_MS], u, cpu, sizeof cpu);
    if (fig_known(r->machine_steal_pct))
        snprintf(steal, sizeof steal, "%.1f%%", r->machine_steal_pct);
    double x = compare_ratio(va[METRIC_P99], v[METRIC_P99]);
    if (a == 1 && fig_known(x))
        compare_stats_fmt_ratio(x, ratio, sizeof ratio); /* as the summary's B/A */
    const char *cells[9] = {n, arm, compare_arm_name(&c->arm[a]), p50, p99, rate, cpu, steal,
                            r->interrupted ? "interrupted" : ratio};
    return doc_table_add_row(t, cells, NULL, 0, err);
}

int compare_rounds_doc(const struct comparison *c, struct doc_table *t,
                       struct doc_table_style *st, char *err)
{
    static const char *const heads[9] = {"round", "arm", "label", "p50", "p99", "rate",
                                         "CPU-ms/call", "steal", "B/A p99"};
    static const int widths[9] = {-6, -3, -16, 10, 10, 10, 12, 6, 0};
    doc_table_init(t, 9);
    doc_table_style_init(st);
    for (int k = 0; k < 9; k++) {
        snprintf(t->heads[k], DOC_CELL_LEN, "%s", heads[k]);
        t->width[k] = widths[k];
    }
    if (c->cpu_basis == CPU_NET) { /* as the summary's row */
        snprintf(t->heads[6], DOC_CELL_LEN, "net CPU-ms/call");
        t->width[6] = 15;
    }
    st->text.max[2] = 16; /* a long label keeps the columns in line */
    snprintf(st->html.caption, sizeof st->html.caption, "per round, the arms in the order run, "
             "with the hypervisor's steal; B/A of the p99s of the same round");
    struct report_unit u = compare_rounds_unit(c);
    for (size_t i = 0; i < c->pairs; i++) {
        int first = compare_first_arm(c, i); /* rows in the order run */
        for (int k = 0; k < 2; k++)
            if (round_row(c, t, i, first == 1 ? !k : k, &u, err))
                return -1;
    }
    return 0;
}
