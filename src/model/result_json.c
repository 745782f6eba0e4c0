#include "model/result_json.h"
#include "model/result_ranks.h"
#include "model/result_merge.h"
#include "model/config_keys.h"
#include "model/metric.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/safetext.h"
#include "stats/buckets.h"
#include "base/version.h"
#include "stats/hdrlog.h"
#include "base/units.h"
#include "model/server_cpu.h"

const char *const result_hist_names[5] = {"latency_us", "service_us", "send_lag_us",
                                          "pacing_lag_us", "handshake_us"};

static void add_double(json_object *o, const char *k, double v)
{
    json_object_object_add(o, k, json_object_new_double(v));
}

static void add_int(json_object *o, const char *k, int64_t v)
{
    json_object_object_add(o, k, json_object_new_int64(v));
}

static void pct_key(double p, char *out, size_t len)
{
    snprintf(out, len, "p%g", p);
}

/* k: v, or k: null when the figure is not known. */
static void add_known(json_object *o, const char *k, double v, int known)
{
    json_object_object_add(o, k, known ? json_object_new_double(v) : NULL);
}

/* k: v, or k: null when the count is not known. */
static void add_known_int(json_object *o, const char *k, int64_t v, int known)
{
    json_object_object_add(o, k, known ? json_object_new_int64(v) : NULL);
}

/* k: a memory size (kB) as a whole number, or k: null when not known. */
static void add_kb(json_object *o, const char *k, double kb)
{
    json_object_object_add(o, k, fig_known(kb) ? json_object_new_int64((int64_t)llround(kb)) : NULL);
}

static json_object *config_json(const struct run_config *c);

json_object *result_config_json(const struct run_config *c, const char *target_url)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "config", config_json(c));
    json_object *t = json_object_new_object();
    json_object_object_add(t, "url", json_object_new_string(target_url));
    json_object_object_add(t, "proto", json_object_new_string(c->encoding));
    json_object_object_add(o, "target", t);
    return o;
}

static json_object *config_verbs_json(const struct run_config *c)
{
    json_object *verbs = json_object_new_array();
    for (size_t i = 0; i < c->nverbs; i++) {
        json_object *v = json_object_new_object();
        json_object_object_add(v, "name", json_object_new_string(c->verbs[i].name));
        add_int(v, "weight", c->verbs[i].weight);
        if (c->verbs[i].every_ns) /* its own period: weight 0 says no share of the mix */
            json_object_object_add(v, "every_s",
                                   json_object_new_double((double)c->verbs[i].every_ns / 1e9));
        json_object_array_add(verbs, v);
    }
    return verbs;
}

static json_object *config_pcts_json(const struct run_config *c)
{
    json_object *pcts = json_object_new_array();
    for (size_t i = 0; i < c->npcts; i++)
        json_object_array_add(pcts, json_object_new_double(c->pcts[i]));
    return pcts;
}

/* One row of config_keys as its kind writes it. @return the value, or
 * NULL for none (the key is then left out, or written null for
 * CFK_SECONDS_OR_NULL: *null_out set). */
static json_object *config_value(const struct config_key *k, const struct run_config *c,
                                 int *null_out)
{
    const void *at = config_key_in(k, c);
    int64_t ns = k->size == sizeof(int64_t) ? *(const int64_t *)at : 0;
    *null_out = 0;
    switch (k->kind) {
    case CFK_BOOL:
        return (k->flags & CFK_OMIT_EMPTY) && !*(const int *)at
                   ? NULL : json_object_new_boolean(*(const int *)at);
    case CFK_INT: return json_object_new_int64(*(const int *)at);
    case CFK_U64: return json_object_new_int64((int64_t)*(const uint64_t *)at);
    case CFK_DOUBLE:
        return (k->flags & CFK_OMIT_EMPTY) && *(const double *)at == k->dflt
                   ? NULL : json_object_new_double(*(const double *)at);
    case CFK_SECONDS: return json_object_new_double((double)ns / 1e9);
    case CFK_SECONDS_OR_NULL:
        *null_out = ns < 0; /* -1: unknown */
        return ns < 0 ? NULL : json_object_new_double((double)ns / 1e9);
    case CFK_WINDOW_US: return json_object_new_double((double)ns / 1e3);
    case CFK_SIZE: return json_object_new_int64((int64_t)*(const size_t *)at);
    case CFK_CHOICE: {
        int v = *(const int *)at;
        return json_object_new_string(v >= 0 && v < k->nchoices ? k->choices[v] : "");
    }
    case CFK_TEXT:
        return (k->flags & CFK_OMIT_EMPTY) && !*(const char *)at
                   ? NULL : json_object_new_string((const char *)at);
    case CFK_VERBS: return config_verbs_json(c);
    case CFK_PCTS: return config_pcts_json(c);
    case CFK_STAGES: return c->nstages ? result_stages_config_json(c) : NULL;
    case CFK_BYTES: return NULL; /* never saved (config_keys.h) */
    }
    return NULL;
}

/* The "config" object: every row of config_keys, in its order. */
static json_object *config_json(const struct run_config *c)
{
    json_object *o = json_object_new_object();
    for (size_t i = 0; i < config_keys_n(); i++) {
        const struct config_key *k = config_key_i(i);
        int null_value;
        if (k->flags & CFK_UNSAVED)
            continue;
        json_object *v = config_value(k, c, &null_value);
        if (v || null_value)
            json_object_object_add(o, k->key, v);
    }
    return o;
}

static json_object *buckets_json(const struct run_result *r)
{
    double edges[BUCKETS_MAX], pct[BUCKETS_MAX];
    char err[ERR_LEN];
    const struct hist *h = &r->latency;
    json_object *a = json_object_new_array();
    int n = buckets_table(r->cfg.buckets, h, edges, pct, err);
    if (n < 0)
        return a;
    for (int i = 0; i < n; i++) {
        json_object *b = json_object_new_object();
        add_double(b, "lt_ms", edges[i]);
        if (h->total_count)
            add_double(b, "pct", pct[i]);
        else /* no answer: no share (explicit --buckets) */
            json_object_object_add(b, "pct", NULL);
        json_object_array_add(a, b);
    }
    return a;
}

/* lat's "lower_bound": the names of its figures ("p99", "mean", "max")
 * that censored values reach (result_censored_at), so only lower bounds;
 * absent when every figure is exact. */
static void add_lower_bounds(json_object *lat, const struct hist *h, const struct censor *cs,
                             const struct run_config *cfg)
{
    if (cs->n <= 0 || !h->total_count)
        return;
    json_object *a = json_object_new_array();
    json_object_array_add(a, json_object_new_string("mean"));
    for (size_t i = 0; i < cfg->npcts; i++) {
        char k[24];
        pct_key(cfg->pcts[i], k, sizeof k);
        if (result_censored_at(cs, (double)hist_percentile(h, cfg->pcts[i])))
            json_object_array_add(a, json_object_new_string(k));
    }
    if (result_censored_at(cs, (double)h->min))
        json_object_array_add(a, json_object_new_string("min"));
    json_object_array_add(a, json_object_new_string("max"));
    json_object_object_add(lat, "lower_bound", a);
}

/* "censored": how many latencies are waits of unfinished requests, and
 * "censored_min_ms" the least: every latency figure at or above it is a
 * lower bound (result_censored_at). */
static void censor_json(json_object *o, const struct censor *cs)
{
    add_int(o, "censored", cs->n);
    if (cs->n > 0) /* the exact us, so a re-rendered report marks the same figures */
        add_int(o, "censored_min_us", cs->min_us);
}

static json_object *verbs_json(const struct run_result *r)
{
    json_object *o = json_object_new_object();
    for (size_t i = 0; i < r->nverbs; i++) {
        const struct verb_result *v = &r->verbs[i];
        json_object *x = json_object_new_object();
        add_int(x, "requests", v->requests);
        add_int(x, "ok", v->ok);
        add_int(x, "errors", v->errors);
        add_int(x, "unfinished", v->unfinished);
        add_int(x, "unsent", v->unsent);
        add_int(x, "unsent_given_up", v->unsent_failed);
        json_object *lat = result_hist_json(&v->latency, r->cfg.pcts, r->cfg.npcts);
        add_lower_bounds(lat, &v->latency, &v->censored, &r->cfg);
        json_object_object_add(x, "latency_ms", lat);
        censor_json(x, &v->censored);
        json_object_object_add(o, v->name, x);
    }
    return o;
}

/* "merged": {runs, how, arrivals [names]}, for a result merged from
 * several (result_merge); config holds the first run's. */
static json_object *merged_json(const struct merged_from *m)
{
    json_object *o = json_object_new_object();
    add_int(o, "runs", m->runs);
    json_object_object_add(o, "how", json_object_new_string(result_merge_name(m->how)));
    json_object *a = json_object_new_array();
    for (enum arrival k = ARRIVAL_CONSTANT; k <= ARRIVAL_POISSON; k++)
        if (m->arrivals & 1u << k)
            json_object_array_add(a, json_object_new_string(result_arrival_name(k)));
    json_object_object_add(o, "arrivals", a);
    return o;
}

static json_object *intervals_json(const struct run_result *r)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < r->nintervals; i++) {
        const struct interval_rec *x = &r->intervals[i];
        json_object *o = json_object_new_object();
        add_double(o, "t", x->t);
        add_int(o, "due", x->due);
        add_int(o, "sent", x->sent);
        add_int(o, "unsent", x->unsent);
        add_int(o, "ok", x->ok);
        add_int(o, "errors", x->errors);
        add_known(o, "p50_ms", x->p50_ms, fig_known(x->p50_ms)); /* null: nothing answered */
        add_known(o, "p99_ms", x->p99_ms, fig_known(x->p99_ms));
        add_known(o, "server_cpu_pct", x->server_cpu_pct, fig_known(x->server_cpu_pct));
        add_known(o, "client_cpu_pct", x->client_cpu_pct, fig_known(x->client_cpu_pct));
        add_kb(o, "server_rss_kb", x->server_rss_kb);
        if (r->cfg.nstages) /* runs without stages offer their --rate throughout */
            add_double(o, "offered", x->offered);
        json_object_array_add(a, o);
    }
    return a;
}

/* The idle baseline, or null when none was taken. */
static json_object *idle_json(const struct run_result *r)
{
    if (r->idle.n <= 0)
        return NULL;
    json_object *o = json_object_new_object();
    add_double(o, "duration_s", r->idle.duration_s);
    add_double(o, "mean_pct", r->idle.mean_pct);
    add_known(o, "se_pct", r->idle.se_pct, fig_known(r->idle.se_pct));
    add_int(o, "intervals", r->idle.n);
    add_known(o, "quiet_pct", r->idle.quiet_pct, fig_known(r->idle.quiet_pct));
    return o;
}

static json_object *cpu_json(const struct run_result *r)
{
    json_object *o = json_object_new_object();
    json_object *pids = json_object_new_array();
    for (size_t i = 0; i < r->nwatched; i++)
        json_object_array_add(pids, json_object_new_int(r->watched_pids[i]));
    json_object_object_add(o, "pids", pids);
    double mean, p50, max;
    struct cpu_per_call c;
    result_cpu_summary(r, &mean, &p50, &max);
    result_cpu_per_call(r, &c);
    int measured = result_server_measured(r);
    /* what was not measured is null, never a number */
    add_known(o, "mean_pct", mean, fig_known(mean));
    add_known(o, "p50_pct", p50, fig_known(p50));
    add_known(o, "max_pct", max, fig_known(max));
    add_known(o, "cpu_ms", r->server_cpu_ms, measured);
    add_known(o, "cpu_ms_per_call", c.raw, fig_known(c.raw));
    add_known(o, "cpu_ms_per_call_se", c.raw_se, fig_known(c.raw_se));
    add_known(o, "cpu_ms_per_call_net", c.net, fig_known(c.net));
    add_known(o, "cpu_ms_per_call_net_se", c.net_se, fig_known(c.net_se));
    json_object_object_add(o, "idle", idle_json(r));
    if (r->server_cpu_source[0])
        json_object_object_add(o, "source", json_object_new_string(r->server_cpu_source));
    if (r->agent.url[0]) { /* sampled on the server's host (--server-agent) */
        json_object *a = json_object_new_object();
        json_object_object_add(a, "url", json_object_new_string(r->agent.url));
        add_double(a, "clock_offset_us", r->agent.clock_offset_us);
        add_double(a, "clock_error_us", r->agent.clock_error_us);
        json_object_object_add(o, "agent", a);
    }
    add_int(o, "threads", r->server_threads);
    add_kb(o, "rss_start_kb", r->rss_start_kb);
    add_kb(o, "rss_end_kb", r->rss_end_kb);
    json_object_object_add(o, "vanished", json_object_new_boolean(r->server_vanished));
    json_object *samples = json_object_new_array();
    for (size_t i = 0; i < r->nsamples; i++) {
        json_object *s = json_object_new_object();
        add_double(s, "t", (double)r->samples[i].t_ns / 1e9);
        add_known(s, "pct", r->samples[i].server_pct,
                  fig_known(r->samples[i].server_pct));
        add_kb(s, "rss_kb", r->samples[i].server_rss_kb);
        json_object_array_add(samples, s);
    }
    json_object_object_add(o, "samples", samples);
    return o;
}

/* The pacer's wakes in the measured window and the window they used. */
static json_object *pacer_json(const struct pacer_stats *p, int64_t sent)
{
    json_object *o = json_object_new_object();
    add_int(o, "wakes", p->wakes);
    add_double(o, "wakes_per_request", sent > 0 ? (double)p->wakes / (double)sent : 0);
    json_object *w = json_object_new_object();
    add_double(w, "min", (double)p->window_min_ns / 1e3);
    add_double(w, "mean", p->wakes > 0 ? p->window_sum_ns / (double)p->wakes / 1e3 : 0);
    add_double(w, "max", (double)p->window_max_ns / 1e3);
    json_object_object_add(o, "window_us", w);
    return o;
}

static json_object *histograms_json(const struct run_result *r)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "encoding",
                           json_object_new_string("HdrHistogram V2 compressed, base64"));
    json_object_object_add(o, "unit", json_object_new_string("us"));
    json_object_object_add(o, "latency_us", result_hist_encoded(&r->latency));
    json_object_object_add(o, "service_us", result_hist_encoded(&r->service));
    json_object_object_add(o, "send_lag_us", result_hist_encoded(&r->send_lag));
    json_object_object_add(o, "pacing_lag_us", result_hist_encoded(&r->pacing_lag));
    json_object_object_add(o, "handshake_us", result_hist_encoded(&r->handshake));
    json_object *v = json_object_new_object(), *x = json_object_new_object();
    for (size_t i = 0; i < r->nverbs; i++)
        json_object_object_add(v, r->verbs[i].name, result_hist_encoded(&r->verbs[i].latency));
    json_object_object_add(o, "verbs", v);
    const struct hist *hs[] = {&r->latency, &r->service, &r->send_lag, &r->pacing_lag,
                               &r->handshake};
    for (size_t i = 0; i < sizeof hs / sizeof *hs; i++)
        json_object_object_add(x, result_hist_names[i], result_hist_exact(hs[i]));
    json_object *xv = json_object_new_object();
    for (size_t i = 0; i < r->nverbs; i++)
        json_object_object_add(xv, r->verbs[i].name, result_hist_exact(&r->verbs[i].latency));
    json_object_object_add(x, "verbs", xv);
    if (r->nstages) {
        json_object_object_add(o, "stages", result_stages_hist_json(r, 0));
        json_object_object_add(x, "stages", result_stages_hist_json(r, 1));
    }
    json_object_object_add(o, "exact_us", x);
    return o;
}


/* --expect: the checks as written, answers checked (warmup too) and
 * broken, the full decode's and checks' client CPU per answer. */
static json_object *checks_json(const struct run_result *r)
{
    json_object *o = json_object_new_object(), *a = json_object_new_array();
    for (size_t i = 0; i < r->cfg.nexpects; i++)
        json_object_array_add(a, json_object_new_string(r->cfg.expects[i]));
    json_object_object_add(o, "expect", a);
    add_int(o, "checked", r->checks.checked);
    add_int(o, "failed", r->checks.failed);
    add_int(o, "cpu_ns", r->checks.ns);
    add_known(o, "cpu_us_per_answer",
              r->checks.checked ? (double)r->checks.ns / 1e3 / (double)r->checks.checked : 0,
              r->checks.checked > 0);
    return o;
}

static json_object *counts_json(const struct run_result *r, json_object *root)
{
    json_object *req = json_object_new_object();
    add_int(req, "offered", r->offered);
    add_int(req, "sent", r->sent);
    add_int(req, "unsent", r->unsent);
    add_int(req, "unsent_given_up", r->unsent_failed);
    if (r->unsent_failed)
        json_object_object_add(req, "unsent_given_up_as",
                               json_object_new_string(err_kind_names[r->unsent_kind]));
    add_int(req, "ok", r->ok);
    add_int(req, "errors", r->errors);
    add_int(req, "unfinished", r->unfinished);
    censor_json(req, &r->censored);
    add_known_int(req, "queued", r->queued, result_count_known(r->queued));
    json_object_object_add(root, "requests", req);
    json_object *warm = json_object_new_object();
    add_known_int(warm, "sent", r->warmup.sent, result_count_known(r->warmup.sent));
    add_known_int(warm, "ok", r->warmup.ok, result_count_known(r->warmup.ok));
    add_known_int(warm, "errors", r->warmup.errors, result_count_known(r->warmup.errors));
    add_known_int(warm, "unsent", r->warmup.unsent, result_count_known(r->warmup.unsent));
    json_object_object_add(root, "warmup", warm);
    json_object *err = json_object_new_object();
    for (int k = 0; k < ERR_KINDS; k++)
        add_int(err, err_kind_names[k], r->err[k]);
    json_object_object_add(root, "errors", err);
    json_object *samples = json_object_new_object();
    for (int k = 0; k < ERR_KINDS; k++)
        if ((r->err[k] || (r->unsent_failed && r->unsent_kind == k)) &&
            r->error_samples[k][0])
            json_object_object_add(samples, err_kind_names[k],
                                   json_object_new_string(r->error_samples[k]));
    json_object_object_add(root, "error_samples", samples);
    json_object *bytes = json_object_new_object();
    add_int(bytes, "sent", r->bytes_sent);
    add_int(bytes, "received", r->bytes_received);
    json_object_object_add(root, "bytes", bytes);
    /* --expect, or a --workload line's expect: what was checked, at what cost */
    if (r->cfg.nexpects || r->checks.checked)
        json_object_object_add(root, "checks", checks_json(r));
    return root;
}

/* When the measured window began: seconds since the epoch (to the
 * microsecond, for merging by absolute time) and the same for people;
 * null both when unknown. */
static void add_start(json_object *root, double start_unix)
{
    char iso[40], text[40];
    result_format_start(start_unix, iso, sizeof iso);
    /* Its own text: the %.10g of other figures would drop the fraction. */
    snprintf(text, sizeof text, "%.6f", start_unix);
    json_object_object_add(root, "start_unix",
                           start_unix > 0 ? json_object_new_double_s(start_unix, text) : NULL);
    json_object_object_add(root, "start_time", iso[0] ? json_object_new_string(iso) : NULL);
}

static json_object *target_json(const struct run_result *r)
{
    json_object *t = json_object_new_object();
    json_object_object_add(t, "url", json_object_new_string(r->target_url));
    json_object_object_add(t, "proto", json_object_new_string(r->cfg.encoding));
    json_object_object_add(t, "embedded", json_object_new_boolean(!r->cfg.url[0]));
    return t;
}

static json_object *client_json(const struct run_result *r)
{
    json_object *client = json_object_new_object();
    double cmax, cmean = result_client_cpu_mean(r, &cmax);
    add_known(client, "mean_pct", cmean, fig_known(cmean));
    add_known(client, "max_pct", cmax, fig_known(cmax));
    return client;
}

static json_object *system_json(const struct run_result *r)
{
    json_object *sys = json_object_new_object();
    add_known(sys, "busy_pct", r->machine_busy_pct, fig_known(r->machine_busy_pct));
    add_known(sys, "steal_pct", r->machine_steal_pct,
              fig_known(r->machine_steal_pct));
    add_known(sys, "loadavg", r->loadavg1, fig_known(r->loadavg1));
    if (r->machine_cores > 0)
        json_object_object_add(sys, "cores", json_object_new_int(r->machine_cores));
    return sys;
}

/* Reconnects, connection failures by cause, TLS and STOMP. */
static json_object *transport_json(const struct run_result *r)
{
    json_object *tr = json_object_new_object();
    add_int(tr, "reconnects", r->reconnects);
    add_double(tr, "reconnects_per_s", result_reconnects_per_s(r));
    json_object *cf = json_object_new_object();
    for (int k = 0; k < CONN_CAUSES; k++)
        add_int(cf, conn_cause_names[k], r->conn_failures[k]);
    json_object_object_add(tr, "connection_failures", cf);
    add_int(tr, "tls_handshakes", r->handshakes);
    add_int(tr, "tls_failures", r->tls_failures);
    json_object_object_add(tr, "tls_insecure", json_object_new_boolean(r->cfg.tls_insecure));
    json_object_object_add(tr, "handshake_ms",
                           result_hist_json(&r->handshake, r->cfg.pcts, r->cfg.npcts));
    json_object_object_add(tr, "tls_error", json_object_new_string(r->tls_error));
    add_int(tr, "stomp_errors", r->stomp_errors);
    add_int(tr, "stomp_bad_frames", r->stomp_bad_frames);
    json_object_object_add(tr, "stomp_error", json_object_new_string(r->stomp_error));
    add_int(tr, "stray_replies", r->stray_replies);
    /* what was sent besides the call, secrets as "***" (never the values) */
    if (r->cfg.auth_shown[0])
        json_object_object_add(tr, "auth", json_object_new_string(r->cfg.auth_shown));
    if (r->cfg.headers_shown[0])
        json_object_object_add(tr, "headers", json_object_new_string(r->cfg.headers_shown));
    return tr;
}

json_object *result_figures_json(const double *v)
{
    json_object *o = json_object_new_object();
    for (int i = 0; i < METRIC_N; i++) {
        if (metric_defs[i].unit == MU_COUNT) /* a count, written as one */
            add_known_int(o, metric_defs[i].json_key, (int64_t)v[i], fig_known(v[i]));
        else
            add_known(o, metric_defs[i].json_key, v[i], fig_known(v[i]));
    }
    return o;
}

/* Every figure of r: derived from the rest, written for readers, never
 * read back. */
static json_object *figures_json(const struct run_result *r)
{
    double v[METRIC_N];
    metric_values(r, v);
    return result_figures_json(v);
}

json_object *result_to_json(const struct run_result *r)
{
    json_object *root = json_object_new_object();
    const double *p = r->cfg.pcts;
    json_object_object_add(root, "rpcbench", json_object_new_string(r->build[0] ? r->build
                                                                    : rpcbench_version()));
    json_object_object_add(root, "config", config_json(&r->cfg));
    json_object_object_add(root, "target", target_json(r));
    add_start(root, r->start_unix);
    add_double(root, "duration_s", r->duration_s);
    if (r->merged.runs > 1)
        json_object_object_add(root, "merged", merged_json(&r->merged));
    json_object_object_add(root, "interrupted", json_object_new_boolean(r->interrupted));
    if (r->interrupted)
        json_object_object_add(root, "signal",
                               json_object_new_string(result_signal_name(r->interrupted)));
    json_object_object_add(root, "closed_loop", json_object_new_boolean(r->closed_loop));
    json_object *rate = json_object_new_object();
    add_double(rate, "target", r->cfg.rate);
    add_double(rate, "achieved", r->rate_achieved);
    json_object_object_add(root, "rate", rate);
    counts_json(r, root);
    json_object *lat = result_hist_json(&r->latency, p, r->cfg.npcts);
    add_lower_bounds(lat, &r->latency, &r->censored, &r->cfg);
    json_object_object_add(root, "latency_ms", lat);
    json_object_object_add(root, "service_ms", result_hist_json(&r->service, p, r->cfg.npcts));
    json_object_object_add(root, "send_lag_ms", result_hist_json(&r->send_lag, p, r->cfg.npcts));
    json_object_object_add(root, "pacing_lag_ms",
                           result_hist_json(&r->pacing_lag, p, r->cfg.npcts));
    json_object_object_add(root, "buckets", buckets_json(r));
    json_object_object_add(root, "figures", figures_json(r));
    json_object_object_add(root, "verbs", verbs_json(r));
    if (r->nstages)
        json_object_object_add(root, "stages", result_stages_json(r));
    json_object_object_add(root, "intervals", intervals_json(r));
    /* null, not an object of nulls, when nothing of the server was watched */
    json_object_object_add(root, "server_cpu", result_server_sampled(r) ? cpu_json(r) : NULL);
    json_object_object_add(root, "client_cpu", client_json(r));
    json_object_object_add(root, "system", system_json(r));
    json_object *w = json_object_new_array();
    for (size_t i = 0; i < r->nwarnings; i++)
        json_object_array_add(w, json_object_new_string(r->warnings[i]));
    json_object_object_add(root, "warnings", w);
    json_object_object_add(root, "pacer", pacer_json(&r->pacer, r->sent));
    json_object_object_add(root, "transport", transport_json(r));
    json_object_object_add(root, "histograms", histograms_json(r));
    result_ranks_json(root, r);
    result_targets_json(root, r);
    if (r->profile.taken)
        json_object_object_add(root, "profile", profile_sum_json(&r->profile));
    return root;
}

/* 10 digits: more than any figure measures (microseconds of an hour),
 * fewer than the 17 that expose the binary fraction. */
#define DOUBLE_FORMAT "%.10g"
#define TEXT_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
                    JSON_C_TO_STRING_NOSLASHESCAPE)

/* Defence in depth: every string of j made safe before it is written
 * (base/safetext.h, \n and \t kept; json-c escapes those). Texts are made
 * safe where they enter, so this changes nothing unless an entry point
 * was missed; it keeps every file we write valid UTF-8 even then. */
static void make_safe(json_object *j)
{
    const unsigned flags = SAFETEXT_KEEP_LINES;
    if (json_object_is_type(j, json_type_object)) {
        json_object_object_foreach(j, key, v) {
            (void)key; /* ours: names of figures, never a peer's */
            make_safe(v);
        }
    } else if (json_object_is_type(j, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(j); i++)
            make_safe(json_object_array_get_idx(j, i));
    } else if (json_object_is_type(j, json_type_string)) {
        const char *s = json_object_get_string(j);
        size_t n = (size_t)json_object_get_string_len(j);
        if (safetext_is_safe(s, n, flags))
            return;
        char *t = malloc(4 * n + 1); /* an escape per byte at most: never cut */
        if (t) {
            size_t m = safetext(s, n, t, 4 * n + 1, flags);
            json_object_set_string_len(j, t, (int)m);
        }
        free(t);
    }
}

const char *result_json_text(json_object *j)
{
    make_safe(j);
    json_c_set_serialization_double_format(DOUBLE_FORMAT, JSON_C_OPTION_GLOBAL);
    return json_object_to_json_string_ext(j, TEXT_FLAGS);
}

const char *result_json_line(json_object *j)
{
    make_safe(j);
    json_c_set_serialization_double_format(DOUBLE_FORMAT, JSON_C_OPTION_GLOBAL);
    return json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN |
                                                 JSON_C_TO_STRING_NOSLASHESCAPE);
}

int result_json_write(json_object *j, const char *path, char *err)
{
    make_safe(j);
    json_c_set_serialization_double_format(DOUBLE_FORMAT, JSON_C_OPTION_GLOBAL);
    if (json_object_to_file_ext(path, j, TEXT_FLAGS) < 0) {
        snprintf(err, ERR_LEN, "cannot write %.200s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int result_save(const struct run_result *r, const char *path, char *err)
{
    json_object *o = result_to_json(r);
    int rc = result_json_write(o, path, err);
    json_object_put(o);
    return rc;
}
