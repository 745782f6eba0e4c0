/* compare_json: a comparison as one JSON document (compare --output,
 * --format json; compare_report.h): the arms with their figures and
 * rounds, an arm that stopped answering, the ratios with their intervals,
 * the buckets, the verbs, the gates and the thresholds. Saved, it is
 * read back by model/compare_saved. */
#include "report/compare_report.h"

#include <math.h>

#include "base/version.h"
#include "model/result_json.h"
#include "stats/buckets.h"

static json_object *finite_or_null(double v)
{
    return isfinite(v) ? json_object_new_double(v) : NULL;
}

/* A failures test: the counts per arm, the allowance, the p-value, how,
 * and the verdict. */
static json_object *fail_json(const struct fail_test *f)
{
    json_object *o = json_object_new_object();
    for (int a = 0; a < 2; a++) {
        json_object *arm = json_object_new_object();
        json_object_object_add(arm, "failed", json_object_new_int64(f->failed[a]));
        json_object_object_add(arm, "requests", json_object_new_int64(f->requests[a]));
        json_object_object_add(o, a ? "b" : "a", arm);
    }
    json_object_object_add(o, "allowed_pct", json_object_new_double(f->tol * 100));
    json_object_object_add(o, "rounds", json_object_new_int64((int64_t)f->rounds));
    json_object_object_add(o, "p", json_object_new_double(f->p));
    json_object_object_add(o, "alpha", json_object_new_double(f->alpha));
    json_object_object_add(o, "test", json_object_new_string(
                                          f->method == COUNT_EXACT ? "exact" : "normal"));
    json_object_object_add(o, "dispersion", finite_or_null(f->dispersion));
    json_object_object_add(o, "p_bursts", finite_or_null(f->p_bursts));
    json_object_object_add(o, "verdict",
                           json_object_new_string(compare_stats_verdict_name(f->verdict)));
    return o;
}

/* The failures rule with no allowance, and whether it is a verdict. */
static json_object *failures_json(const struct comparison *c)
{
    json_object *o = fail_json(&c->failures);
    json_object_object_add(o, "judged", json_object_new_boolean(c->failures_implied));
    return o;
}

/* An inconclusive gate's {half_width_pct, rounds (null: none would),
 * round_length_x}: what would decide it at the noise measured. */
static json_object *needs_json(const struct gate_result *r)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "half_width_pct", finite_or_null(r->half_width * 100));
    json_object_object_add(o, "rounds", r->rounds_needed > 0
                                            ? json_object_new_int(r->rounds_needed) : NULL);
    json_object_object_add(o, "round_length_x", finite_or_null(r->longer));
    return o;
}

/* @return the gates as a new JSON array, the caller's to json_object_put. */
static json_object *compare_gates_json(const struct comparison *c)
{
    json_object *arr = json_object_new_array();
    for (int g = 0; g < c->plan.ngates; g++) {
        const struct gate *gt = &c->plan.gates[g];
        const struct gate_result *r = &c->gate[g];
        json_object *o = json_object_new_object();
        json_object_object_add(o, "gate", json_object_new_string(gt->expr));
        json_object_object_add(o, "metric", json_object_new_string(gate_metric_name(gt->fig)));
        if (gt->call[0]) /* a call's own figure (CALL.METRIC) */
            json_object_object_add(o, "call", json_object_new_string(gt->call));
        json_object_object_add(o, "tolerance_pct", json_object_new_double(gt->tol * 100));
        json_object_object_add(o, "bound", json_object_new_double(gate_bound(gt)));
        json_object_object_add(o, "ratio", r->rc >= 0 ? finite_or_null(r->ci.geo_ratio) : NULL);
        json_object_object_add(o, "ci_low", r->rc == 0 ? finite_or_null(r->ci.low) : NULL);
        json_object_object_add(o, "ci_high", r->rc == 0 ? finite_or_null(r->ci.high) : NULL);
        json_object_object_add(o, "confidence", json_object_new_double(r->conf));
        json_object_object_add(o, "rounds", json_object_new_int64((int64_t)r->rounds));
        int64_t max_rounds = c->saved ? (int64_t)c->pairs : c->plan.rounds;
        json_object_object_add(o, "max_rounds", json_object_new_int64(max_rounds));
        json_object_object_add(o, "looks", json_object_new_int(c->looks));
        json_object_object_add(o, "verdict",
                               json_object_new_string(compare_stats_verdict_name(r->verdict)));
        json_object_object_add(o, "method", json_object_new_string("bonferroni"));
        json_object_object_add(o, "alpha", json_object_new_double(GATE_ALPHA));
        if (gt->fig == METRIC_ERRORS) /* its verdict's */
            json_object_object_add(o, "failures", fail_json(&r->fail));
        if (!isnan(r->half_width)) /* an inconclusive gate: what would decide it */
            json_object_object_add(o, "needs", needs_json(r));
        if (r->unknown[0] || r->unknown[1]) { /* rounds whose figure was not measured */
            json_object *u = json_object_new_object();
            json_object_object_add(u, "A", json_object_new_int64((int64_t)r->unknown[0]));
            json_object_object_add(u, "B", json_object_new_int64((int64_t)r->unknown[1]));
            json_object_object_add(o, "unknown_rounds", u);
        }
        json_object_array_add(arr, o);
    }
    return arr;
}

/* @return a new {"A": [...], "B": [...]} of the verdicts (the caller puts it). */
static json_object *compare_thresholds_json(const struct comparison *c)
{
    json_object *o = json_object_new_object();
    for (int a = 0; a < 2; a++) {
        char letter[2] = {c->arm[a].letter, 0};
        json_object_object_add(o, letter, condition_json(&c->plan.thresholds, c->verdict[a].res));
    }
    return o;
}

static json_object *num_or_null(double v)
{
    return !fig_known(v) ? NULL : json_object_new_double(v);
}

static json_object *arm_json(const struct comparison *c, const struct compare_arm *a)
{
    json_object *o = json_object_new_object();
    char letter[2] = {a->letter, 0};
    json_object_object_add(o, "arm", json_object_new_string(letter));
    json_object_object_add(o, "label", json_object_new_string(compare_arm_name(a)));
    json_object_object_add(o, "proto", json_object_new_string(a->merged.cfg.encoding));
    json_object_object_add(o, "url", json_object_new_string(a->merged.target_url));
    json_object_object_add(o, "figures", result_figures_json(a->fig));
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
    int n = compare_bucket_edges(c, edges, err);
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

/* The arm that stopped answering: which, the round it could not run (0:
 * the call before round 1), why, whether A then answered, the verdict,
 * and the sentence the text says. */
static json_object *stop_json(const struct comparison *c)
{
    const struct compare_stop *s = &c->stop;
    json_object *o = json_object_new_object();
    char letter[2] = {c->arm[s->arm].letter, 0}, text[DOC_KV_VALUE];
    json_object_object_add(o, "arm", json_object_new_string(letter));
    json_object_object_add(o, "round", json_object_new_int64((int64_t)s->round));
    json_object_object_add(o, "why", json_object_new_string(s->why));
    if (s->arm == 1) {
        json_object_object_add(o, "a_answered", json_object_new_boolean(s->other_answered));
        if (!s->other_answered)
            json_object_object_add(o, "a_why", json_object_new_string(s->other_why));
    }
    json_object_object_add(o, "verdict", json_object_new_string(
                                             compare_arm_failed(c) ? "failed arm"
                                                                   : "could not run"));
    compare_stop_text(c, text, sizeof text);
    json_object_object_add(o, "text", json_object_new_string(text));
    return o;
}

/* --rounds auto's longer rounds: from which round, from and to what
 * length, and the answered calls that were too few. */
static json_object *longer_json(const struct round_length *l)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "from_round", json_object_new_int64((int64_t)l->from));
    json_object_object_add(o, "from_s", json_object_new_double((double)l->from_ns / 1e9));
    json_object_object_add(o, "to_s", json_object_new_double((double)l->to_ns / 1e9));
    json_object_object_add(o, "answered_calls", json_object_new_int64(l->calls));
    json_object_object_add(o, "min_calls", json_object_new_int64(l->need));
    json_object_object_add(o, "for_gate", json_object_new_string(l->what));
    json_object_object_add(o, "server_cpu_ms", finite_or_null(l->cpu_ms));
    json_object_object_add(o, "min_server_cpu_ms", json_object_new_double(COMPARE_MIN_CPU_MS));
    return o;
}

json_object *compare_to_json(const struct comparison *c)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "rpcbench", json_object_new_string(rpcbench_version()));
    json_object_object_add(o, "kind", json_object_new_string(RESULT_KIND_COMPARE));
    json_object_object_add(o, "rounds", json_object_new_int64((int64_t)c->pairs));
    if (c->stop.arm >= 0) /* absent when both arms answered throughout */
        json_object_object_add(o, "stopped", stop_json(c));
    if (c->longer.from) /* absent when the rounds kept -d */
        json_object_object_add(o, "lengthened", longer_json(&c->longer));
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
    json_object *order = json_object_new_array(); /* per round: "AB", "BA", null unknown */
    for (size_t i = 0; i < c->pairs; i++) {
        char t[4];
        int known = compare_order_text(c, i, t, sizeof t);
        json_object_array_add(order, known ? json_object_new_string(t) : NULL);
    }
    json_object_object_add(o, "order", order);
    json_object_object_add(o, "ratios", ratios_json(c));
    /* what figures.server_cpu_ms_per_call and its ratio are */
    json_object_object_add(o, "cpu_ms_per_call_basis",
                           json_object_new_string(c->cpu_basis == CPU_NET ? "net of idle" : "raw"));
    json_object_object_add(o, "buckets", buckets_json(c));
    json_object_object_add(o, "verbs", compare_verbs_json(c));
    if (c->plan.ngates > 0)
        json_object_object_add(o, "gates", compare_gates_json(c));
    json_object_object_add(o, "failures", failures_json(c));
    if (c->plan.thresholds.n > 0)
        json_object_object_add(o, "thresholds", compare_thresholds_json(c));
    return o;
}
