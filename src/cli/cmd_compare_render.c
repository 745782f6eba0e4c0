/* cmd_compare_render: a comparison's paired confidence intervals, its
 * verdicts, text tables and JSON (cmd_compare.h); the figures themselves
 * are cmd_compare_figures.c's. */
#include "cli/cmd_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/version.h"
#include "stats/buckets.h"
#include "model/config_diff.h"
#include "report/report.h"
#include "model/result_json.h"

/* ---- text ---------------------------------------------------------------- */

static void summary_table(FILE *out, const struct comparison *c)
{
    const struct compare_arm *A = &c->arm[0], *B = &c->arm[1];
    char ha[80], hb[80];
    snprintf(ha, sizeof ha, "A %.60s", compare_arm_name(A));
    snprintf(hb, sizeof hb, "B %.60s", compare_arm_name(B));
    fprintf(out, "\n%-20s %14s %14s %8s  %s\n", "figure", ha, hb, "B/A", "95% CI of B/A");
    struct report_unit u = compare_summary_unit(c);
    for (int f = 0; f < METRIC_N; f++) {
        char va[40], vb[40], r[32] = "-", v[96];
        compare_fmt_fig(f, A->fig[f], &u, va, sizeof va);
        compare_fmt_fig(f, B->fig[f], &u, vb, sizeof vb);
        int wa = compare_mark_bound(&A->merged, f, A->fig[f], va, sizeof va);
        int wb = compare_mark_bound(&B->merged, f, B->fig[f], vb, sizeof vb);
        double x = compare_figure_ratio(c, f);
        if (!isnan(x))
            compare_stats_fmt_ratio(x, r, sizeof r);
        compare_verdict(c, f, v, sizeof v);
        fprintf(out, "%-20s %*s %*s %8s  %s\n", compare_fig_name(f), 14 + wa, va, 14 + wb, vb, r, v);
    }
    fprintf(out, "(%s)\n", COMPARE_RATIO_METHOD);
    if (compare_too_few_rounds(c))
        fprintf(out, "2 rounds: the interval cannot exclude 1 unless both rounds agree closely "
                     "(t = %.1f with 1 degree of freedom); use 3 or more (--rounds)\n",
                compare_stats_t975(1));
}

/* One set of edges for both arms, from the union of their data. */
static int bucket_edges(const struct comparison *c, double *edges, char *err)
{
    const struct hist *hs[2] = {&c->arm[0].merged.latency, &c->arm[1].merged.latency};
    return buckets_edges(c->plan.buckets, hs, 2, edges, err);
}

int compare_bucket_doc(const struct comparison *c, struct doc_table *t, char *err)
{
    double edges[BUCKETS_MAX], pa[BUCKETS_MAX], pb[BUCKETS_MAX];
    int n = bucket_edges(c, edges, err);
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

static int bucket_table(FILE *out, const struct comparison *c, char *err)
{
    struct doc_table t;
    if (compare_bucket_doc(c, &t, err))
        return -1;
    doc_table_text(out, &t);
    doc_table_free(&t);
    return 0;
}

/* Per round, with the hypervisor's steal: a round it disturbed stands out. */
static void rounds_table(FILE *out, const struct comparison *c)
{
    fprintf(out, "\n%-6s %-3s %-16s %10s %10s %10s %12s %6s\n", "round", "arm", "label", "p50",
            "p99", "rate", "CPU-ms/call", "steal");
    struct report_unit u = compare_rounds_unit(c);
    for (size_t i = 0; i < c->pairs; i++)
        for (int a = 0; a < 2; a++) {
            const struct run_result *r = &c->arm[a].rounds[i];
            double v[METRIC_N];
            char p50[40], p99[40], rate[32], cpu[32], steal[16] = "-";
            compare_figures(r, v);
            compare_fmt_fig(METRIC_P50, v[METRIC_P50], &u, p50, sizeof p50);
            compare_fmt_fig(METRIC_P99, v[METRIC_P99], &u, p99, sizeof p99);
            int w50 = compare_mark_bound(r, METRIC_P50, v[METRIC_P50], p50, sizeof p50);
            int w99 = compare_mark_bound(r, METRIC_P99, v[METRIC_P99], p99, sizeof p99);
            compare_fmt_fig(METRIC_RATE, v[METRIC_RATE], &u, rate, sizeof rate);
            compare_fmt_fig(METRIC_CPU_MS, v[METRIC_CPU_MS], &u, cpu, sizeof cpu);
            if (r->machine_steal_pct >= 0)
                snprintf(steal, sizeof steal, "%.1f%%", r->machine_steal_pct);
            fprintf(out, "%-6zu %-3c %-16.16s %*s %*s %10s %12s %6s%s\n", i + 1,
                    c->arm[a].letter, compare_arm_name(&c->arm[a]), 10 + w50, p50, 10 + w99, p99,
                    rate, cpu, steal,
                    r->interrupted ? "  (interrupted)" : "");
        }
}

int compare_write_text(FILE *out, const struct comparison *c, char *err)
{
    const struct run_config *cfg = &c->arm[0].merged.cfg;
    char dur[32], warm[32];
    units_format_duration(cfg->duration_ns, dur, sizeof dur);
    units_format_duration(cfg->warmup_ns, warm, sizeof warm);
    fprintf(out, "rpcbench %s compare\n", rpcbench_version());
    for (int a = 0; a < 2; a++)
        fprintf(out, "%c           %s: %s (%s)\n", c->arm[a].letter, compare_arm_name(&c->arm[a]),
                c->arm[a].merged.target_url, c->arm[a].merged.cfg.encoding);
    for (int a = 0; a < 2; a++)
        if (!c->arm[a].merged.cfg.url[0]) { /* make demo's, and any run without --url */
            fprintf(out, "simulator   %s the built-in simulator, not VDSM: its costs are not "
                         "VDSM's (--url measures a host)\n", a || !c->arm[1].merged.cfg.url[0]
                         ? (a ? "B measured" : "A and B measured") : "A measured");
            break;
        }
    struct config_diff d[CONFIG_DIFF_MAX];
    size_t nd = compare_config_diff(c, d);
    char diff[1024];
    config_diff_text(d, nd, diff, sizeof diff);
    if (nd == 0)
        fprintf(out, "A/A         A and B are the same configuration (A/A): their differences "
                     "are the noise of the setup\n");
    else
        fprintf(out, "differ      A and B differ in: %s\n", diff);
    char rate[32];
    units_format_rate(cfg->rate, rate, sizeof rate); /* as the user wrote it */
    if (c->saved && c->plan.ninputs == 1)
        fprintf(out, "saved       %s, %zu rounds per arm; rate %s, verbs ",
                c->plan.inputs[0], c->pairs, rate);
    else if (c->saved)
        fprintf(out, "saved       A %s, B %s; rate %s, verbs ", c->plan.inputs[0],
                c->plan.inputs[1], rate);
    else
        fprintf(out, "rounds      %zu x (%s measured + %s warmup) per arm, interleaved A B A B; "
                     "rate %s, verbs ", c->pairs, dur, warm, rate);
    for (size_t i = 0; i < cfg->nverbs; i++)
        fprintf(out, "%s%s:%u", i ? "," : "", cfg->verbs[i].name, cfg->verbs[i].weight);
    fprintf(out, "\n");
    summary_table(out, c);
    compare_gates_text(out, c);
    if (bucket_table(out, c, err) || compare_verbs_text(out, c, err))
        return -1;
    rounds_table(out, c);
    compare_thresholds_text(out, c);
    int header = 0;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < c->pairs; i++)
            for (size_t w = 0; w < c->arm[a].rounds[i].nwarnings; w++) {
                char pre[32];
                compare_warning_prefix(c, a, i, pre, sizeof pre);
                fprintf(out, "%s  ! %s%s\n", header++ ? "" : "\nwarnings\n", pre,
                        c->arm[a].rounds[i].warnings[w]);
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

/* ---- JSON ------------------------------------------------------------------ */

static json_object *num_or_null(double v)
{
    return isnan(v) ? NULL : json_object_new_double(v);
}

static json_object *arm_json(const struct comparison *c, const struct compare_arm *a)
{
    json_object *o = json_object_new_object();
    char letter[2] = {a->letter, 0};
    json_object_object_add(o, "arm", json_object_new_string(letter));
    json_object_object_add(o, "label", json_object_new_string(compare_arm_name(a)));
    json_object_object_add(o, "proto", json_object_new_string(a->merged.cfg.encoding));
    json_object_object_add(o, "url", json_object_new_string(a->merged.target_url));
    json_object *f = json_object_new_object();
    for (int i = 0; i < METRIC_N; i++)
        json_object_object_add(f, compare_fig_key(i), num_or_null(a->fig[i]));
    json_object_object_add(o, "figures", f);
    const struct run_config *cfg = &a->merged.cfg;
    json_object_object_add(o, "latency_ms", result_hist_json(&a->merged.latency, cfg->pcts,
                                                             cfg->npcts));
    json_object *rounds = json_object_new_array();
    for (size_t i = 0; i < c->pairs; i++)
        json_object_array_add(rounds, result_to_json(&a->rounds[i]));
    json_object_object_add(o, "rounds", rounds);
    return o;
}

static json_object *ratios_json(const struct comparison *c)
{
    json_object *o = json_object_new_object();
    for (int f = 0; f < METRIC_N; f++) {
        json_object *r = json_object_new_object();
        double a = c->arm[0].fig[f], b = c->arm[1].fig[f];
        json_object_object_add(r, "a", num_or_null(a));
        json_object_object_add(r, "b", num_or_null(b));
        json_object_object_add(r, "ratio", num_or_null(compare_figure_ratio(c, f)));
        int have = c->ci_rc[f] == 0;
        json_object_object_add(r, "ci_low", have ? json_object_new_double(c->ci[f].low) : NULL);
        json_object_object_add(r, "ci_high", have ? json_object_new_double(c->ci[f].high) : NULL);
        /* as the table shows it: the same verdict in every output */
        json_object_object_add(r, "significant",
                               have ? json_object_new_boolean(
                                          compare_stats_significant_shown(&c->ci[f]))
                                    : NULL);
        json_object_object_add(o, compare_fig_key(f), r);
    }
    return o;
}

static json_object *buckets_json(const struct comparison *c)
{
    double edges[BUCKETS_MAX], pa[BUCKETS_MAX], pb[BUCKETS_MAX];
    char err[ERR_LEN];
    json_object *arr = json_object_new_array();
    int n = bucket_edges(c, edges, err);
    if (n < 0)
        return arr;
    buckets_fill(&c->arm[0].merged.latency, edges, n, pa);
    buckets_fill(&c->arm[1].merged.latency, edges, n, pb);
    for (int i = 0; i < n; i++) {
        json_object *b = json_object_new_object();
        json_object_object_add(b, "lt_ms", json_object_new_double(edges[i]));
        json_object_object_add(b, "a_pct", json_object_new_double(pa[i]));
        json_object_object_add(b, "b_pct", json_object_new_double(pb[i]));
        json_object_array_add(arr, b);
    }
    return arr;
}

json_object *compare_to_json(const struct comparison *c)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "rpcbench", json_object_new_string(rpcbench_version()));
    json_object_object_add(o, "kind", json_object_new_string(RESULT_KIND_COMPARE));
    json_object_object_add(o, "rounds", json_object_new_int64((int64_t)c->pairs));
    json_object_object_add(o, "confidence", json_object_new_double(0.95));
    struct config_diff d[CONFIG_DIFF_MAX];
    size_t nd = compare_config_diff(c, d);
    json_object_object_add(o, "same_configuration", json_object_new_boolean(nd == 0));
    json_object *diffs = json_object_new_array();
    for (size_t i = 0; i < nd; i++) {
        json_object *x = json_object_new_object();
        json_object_object_add(x, "parameter", json_object_new_string(d[i].name));
        json_object_object_add(x, "a", json_object_new_string(d[i].a));
        json_object_object_add(x, "b", json_object_new_string(d[i].b));
        json_object_array_add(diffs, x);
    }
    json_object_object_add(o, "differences", diffs);
    json_object *arms = json_object_new_array();
    for (int a = 0; a < 2; a++)
        json_object_array_add(arms, arm_json(c, &c->arm[a]));
    json_object_object_add(o, "arms", arms);
    json_object_object_add(o, "ratios", ratios_json(c));
    json_object_object_add(o, "buckets", buckets_json(c));
    json_object_object_add(o, "verbs", compare_verbs_json(c));
    if (c->plan.ngates > 0)
        json_object_object_add(o, "gates", compare_gates_json(c));
    if (c->plan.thresholds.n > 0)
        json_object_object_add(o, "thresholds", compare_thresholds_json(c));
    return o;
}
