/* result_load: a saved JSON result back into a struct run_result (the
 * merge of results is result_merge.c).
 *
 * The histograms come back whole from their HdrHistogram encoding, so a
 * loaded result re-renders with any buckets or percentiles exactly as the
 * live run would have. A saved file is input from outside: every number is
 * range-checked and every array bounded. */
#include "model/result_json.h"
#include "model/metric.h"
#include "model/result_ranks.h"
#include "model/result_merge.h"
#include "model/config_keys.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/safetext.h"
#include "stats/hdrlog.h"
#include "base/units.h"

/* ---- JSON access that tolerates missing or mistyped fields ------------ */

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v))
        return v;
    return NULL;
}

static double num(json_object *o, const char *key, double dflt)
{
    json_object *v = get(o, key);
    if (!v || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
        return dflt;
    double d = json_object_get_double(v);
    return isfinite(d) ? d : dflt;
}

/* 1 when o has key set to null: a figure saved as unknown (absent is
 * another matter: a file saved before the figure existed). */
static int is_null(json_object *o, const char *key)
{
    json_object *v = NULL;
    return o && json_object_is_type(o, json_type_object) &&
           json_object_object_get_ex(o, key, &v) && !v;
}

/* Counts, sizes and seeds in a saved result are never negative, and never
 * beyond 2^53: clamping them there keeps the sums of merged files from
 * overflowing (found by fuzzing: two INT64_MAX counts). */
#define LOAD_INT_MAX ((int64_t)1 << 53)

static int64_t i64(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    if (!v || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
        return 0;
    int64_t n = json_object_get_int64(v);
    return n < 0 ? 0 : n > LOAD_INT_MAX ? LOAD_INT_MAX : n;
}

/* A measured figure (never negative): unknown when null, absent (a file
 * saved before the figure existed) or the -1 older versions wrote for
 * unknown (base/figure.h). */
static double fig(json_object *o, const char *key)
{
    return fig_from_marker(num(o, key, FIG_UNKNOWN));
}

/* An interval's latency percentile: unknown as fig says, and also when
 * nothing was answered in it (older versions wrote 0 then). */
static double latency_fig(json_object *x, const char *key)
{
    return i64(x, "ok") > 0 ? fig(x, key) : FIG_UNKNOWN;
}

/* A server memory size (kB): unknown as fig says, and also 0, which older
 * versions wrote when nothing was read. */
static double kb(json_object *o, const char *key)
{
    double x = fig_rss_from_marker(num(o, key, FIG_UNKNOWN));
    return x > (double)LOAD_INT_MAX ? (double)LOAD_INT_MAX : x; /* as i64 clamps a count */
}

/* A saved file is input too: an old one (or anyone's) may hold a peer's
 * raw bytes, and json-c passes invalid UTF-8 through and decodes "\u001b"
 * into a raw ESC. Made safe as the run would have stored it. */
static void str(json_object *o, const char *key, char *out, size_t len)
{
    json_object *v = get(o, key);
    if (v && json_object_is_type(v, json_type_string))
        safetext(json_object_get_string(v), (size_t)json_object_get_string_len(v), out, len, 0);
}

static int boolean(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v ? json_object_get_boolean(v) : 0;
}

static size_t array_len(json_object *a)
{
    return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* Seconds (0 .. ~30 years) to ns; anything else gives 0. */
static int64_t secs_ns(double s)
{
    return s >= 0 && s < 1e9 ? (int64_t)(s * 1e9) : 0;
}

/* ---- sections --------------------------------------------------------- */

/* A window out of --pacer-window's range (a file edited, or not ours)
 * reads as none. */
static int64_t window_ns(json_object *w, const char *key)
{
    double us = num(w, key, 0);
    return us > 0 && us <= PACER_WINDOW_MAX_NS / 1e3 ? (int64_t)(us * 1e3) : 0;
}

/* --expect's "checks" (absent without it, and in older files). */
static void load_checks(json_object *k, struct run_result *r)
{
    json_object *a = get(k, "expect");
    for (size_t i = 0; i < array_len(a) && r->cfg.nexpects < RUN_MAX_EXPECTS; i++) {
        json_object *v = json_object_array_get_idx(a, i);
        if (json_object_is_type(v, json_type_string))
            snprintf(r->cfg.expects[r->cfg.nexpects++], sizeof r->cfg.expects[0], "%s",
                     json_object_get_string(v));
    }
    r->checks.checked = i64(k, "checked");
    r->checks.failed = i64(k, "failed");
    r->checks.ns = i64(k, "cpu_ns");
}

/* config.stages (files without: none); a stage that is no stage (no
 * length, a negative rate) ends the list. */
static void load_stage_config(json_object *a, struct run_config *cfg)
{
    for (size_t i = 0; i < array_len(a) && cfg->nstages < RUN_MAX_STAGES; i++) {
        json_object *x = json_object_array_get_idx(a, i);
        struct run_stage st = {.duration_ns = secs_ns(num(x, "duration_s", 0)),
                               .from = num(x, "from", -1), .to = num(x, "to", -1)};
        if (st.duration_ns <= 0 || st.from < 0 || st.to < 0)
            return;
        cfg->stages[cfg->nstages++] = st;
    }
}

static void load_verbs(json_object *verbs, struct run_config *cfg)
{
    for (size_t i = 0; i < array_len(verbs) && cfg->nverbs < RUN_MAX_VERBS; i++) {
        json_object *v = json_object_array_get_idx(verbs, i);
        struct verb_spec *vs = &cfg->verbs[cfg->nverbs];
        str(v, "name", vs->name, sizeof vs->name);
        int64_t w = i64(v, "weight");
        double every = json_object_get_double(json_object_object_get(v, "every_s"));
        vs->weight = w >= 1 && w <= 1000 ? (unsigned)w : 1;
        if (every > 0 && every < 1e9) /* a call with its own period, in no mix */
            vs->every_ns = (int64_t)(every * 1e9 + 0.5);
        if (json_object_object_get(v, "weight") && w == 0) /* a periodic call, a replay's */
            vs->weight = 0;
        if (vs->name[0])
            cfg->nverbs++;
    }
}

static void load_pcts(json_object *p, struct run_config *cfg)
{
    for (size_t i = 0; i < array_len(p) && cfg->npcts < RUN_MAX_PCTS; i++) {
        double v = json_object_get_double(json_object_array_get_idx(p, i));
        if (v >= 0 && v <= 100)
            cfg->pcts[cfg->npcts++] = v;
    }
}

/* One row of config_keys from the config object c into cfg, as its kind
 * reads it (config_keys.h: absent or out of range gives the default). */
static void load_config_key(const struct config_key *k, json_object *c, struct run_config *cfg)
{
    void *at = config_key_at(k, cfg);
    char name[32] = "";
    switch (k->kind) {
    case CFK_BOOL: *(int *)at = boolean(c, k->key); break;
    case CFK_INT: {
        double v = num(c, k->key, k->dflt);
        *(int *)at = v >= k->lo && v <= k->hi ? (int)v : (int)k->dflt;
        break;
    }
    case CFK_U64: *(uint64_t *)at = (uint64_t)i64(c, k->key); break;
    case CFK_DOUBLE: *(double *)at = num(c, k->key, k->dflt); break;
    case CFK_SECONDS: *(int64_t *)at = secs_ns(num(c, k->key, k->dflt)); break;
    case CFK_SECONDS_OR_NULL: {
        double s = num(c, k->key, k->dflt);
        *(int64_t *)at = is_null(c, k->key) || s < 0 ? -1 : secs_ns(s);
        break;
    }
    case CFK_SIZE: {
        double v = num(c, k->key, k->dflt);
        *(size_t *)at = v >= 0 && v <= k->hi ? (size_t)v : (size_t)k->dflt;
        break;
    }
    case CFK_WINDOW_US: *(int64_t *)at = window_ns(c, k->key); break;
    case CFK_CHOICE:
        str(c, k->key, name, sizeof name);
        *(int *)at = result_name_index(name, k->choices, k->nchoices, (int)k->dflt);
        break;
    case CFK_TEXT:
        snprintf(at, k->size, "%s", k->dflt_text ? k->dflt_text : "");
        str(c, k->key, at, k->size);
        break;
    case CFK_VERBS: load_verbs(get(c, k->key), cfg); break;
    case CFK_PCTS: load_pcts(get(c, k->key), cfg); break;
    case CFK_STAGES: load_stage_config(get(c, k->key), cfg); break;
    case CFK_BYTES: break; /* never saved (config_keys.h) */
    }
}

static void load_config(json_object *c, struct run_config *cfg)
{
    for (size_t i = 0; i < config_keys_n(); i++)
        if (!(config_key_i(i)->flags & CFK_UNSAVED))
            load_config_key(config_key_i(i), c, cfg);
}

/* requests.censored and censored_min_us (result_json's censor_json);
 * absent in files saved before them: nothing censored. */
static void load_censor(json_object *o, struct censor *cs)
{
    cs->n = i64(o, "censored");
    cs->min_us = i64(o, "censored_min_us");
    if (cs->n < 0 || cs->min_us < 0)
        cs->n = cs->min_us = 0;
}

/* The error kind a name says (ERR_CONNECT when none or unknown). */
static int given_up_kind(json_object *v)
{
    const char *s = v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
    for (int k = 0; k < ERR_KINDS; k++)
        if (!strcmp(s, err_kind_names[k]))
            return k;
    return ERR_CONNECT;
}

/* "merged" (result_json's merged_json); absent: one run. */
static void load_merged(json_object *m, struct run_result *r)
{
    int64_t runs = i64(m, "runs");
    if (runs < 2)
        return;
    char how[32] = "";
    str(m, "how", how, sizeof how);
    int h = result_merge_from_name(how);
    r->merged = (struct merged_from){.runs = runs > INT32_MAX ? INT32_MAX : (int)runs,
                                     .how = h < 0 ? RESULT_MERGE_CONCURRENT : h};
    json_object *a = get(m, "arrivals");
    for (size_t i = 0; i < array_len(a); i++) {
        const char *s = json_object_get_string(json_object_array_get_idx(a, i));
        r->merged.arrivals |= 1u << result_name_index(s, arrival_names, ARRIVAL_N,
                                                      ARRIVAL_CONSTANT);
    }
}

static void load_counts(json_object *root, struct run_result *r)
{
    json_object *req = get(root, "requests");
    r->sent = i64(req, "sent");
    r->ok = i64(req, "ok");
    r->errors = i64(req, "errors");
    r->unfinished = i64(req, "unfinished");
    /* Saved before the ledger: sent was what was offered, and its
     * unfinished counted the requests never written too. */
    r->unsent = i64(req, "unsent");
    r->offered = get(req, "offered") ? i64(req, "offered") : r->sent + r->unsent;
    r->unsent_failed = i64(req, "unsent_given_up");
    r->unsent_kind = given_up_kind(get(req, "unsent_given_up_as"));
    load_censor(req, &r->censored);
    r->queued = is_null(req, "queued") ? -1 : i64(req, "queued");
    json_object *warm = get(root, "warmup"); /* absent in older files: 0 */
    r->warmup.sent = is_null(warm, "sent") ? -1 : i64(warm, "sent");
    r->warmup.ok = is_null(warm, "ok") ? -1 : i64(warm, "ok");
    r->warmup.errors = is_null(warm, "errors") ? -1 : i64(warm, "errors");
    r->warmup.unsent = is_null(warm, "unsent") ? -1 : i64(warm, "unsent");
    json_object *err = get(root, "errors");
    for (int k = 0; k < ERR_KINDS; k++)
        r->err[k] = i64(err, err_kind_names[k]);
    json_object *bytes = get(root, "bytes");
    r->bytes_sent = i64(bytes, "sent");
    r->bytes_received = i64(bytes, "received");
    load_checks(get(root, "checks"), r);
    r->duration_s = num(root, "duration_s", 0);
    load_merged(get(root, "merged"), r);
    r->start_unix = num(root, "start_unix", 0); /* 0: unknown (older files) */
    if (!(r->start_unix > 0 && r->start_unix < 1e11)) /* not before 1970 nor past year 5000 */
        r->start_unix = 0;
    r->interrupted = 0;
    if (boolean(root, "interrupted")) { /* files saved before "signal": SIGINT */
        json_object *sig = get(root, "signal");
        r->interrupted = sig ? result_signal_number(json_object_get_string(sig)) : 0;
        if (!r->interrupted)
            r->interrupted = SIGINT;
    }
    r->closed_loop = boolean(root, "closed_loop");
    r->rate_achieved = num(get(root, "rate"), "achieved", 0);
}

/* Replaces *h with the histogram encoded at key; a missing key leaves the
 * (empty) histogram as it is. */
static int load_hist_value(json_object *v, const char *key, struct hist *h, char *err)
{
    if (!v)
        return 0;
    struct hist tmp;
    if (!json_object_is_type(v, json_type_string) ||
        hdrlog_decode(json_object_get_string(v), (size_t)json_object_get_string_len(v), &tmp,
                      err)) {
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", json_object_is_type(v, json_type_string) ? err : "not a string");
        snprintf(err, ERR_LEN, "histogram %.40s: %.180s", key, why);
        return -1;
    }
    hist_close(h);
    *h = tmp;
    return 0;
}

static int load_hist(json_object *o, const char *key, struct hist *h, char *err)
{
    if (load_hist_value(get(o, key), key, h, err))
        return -1;
    result_hist_load_exact(get(get(o, "exact_us"), key), h);
    return 0;
}

/* The stages' counts, CPU and histograms (result_stages_json.c), as many
 * as the configuration has. */
static int load_stages(json_object *root, struct run_result *r, char *err)
{
    json_object *a = get(root, "stages"), *h = get(get(root, "histograms"), "stages");
    json_object *x = get(get(get(root, "histograms"), "exact_us"), "stages");
    for (size_t i = 0; i < r->nstages; i++) {
        json_object *o = i < array_len(a) ? json_object_array_get_idx(a, i) : NULL;
        struct stage_result *s = &r->stages[i];
        s->sent = i64(o, "sent");
        s->ok = i64(o, "ok");
        s->errors = i64(o, "errors");
        s->unsent = i64(o, "unsent");
        s->unsent_failed = i64(o, "unsent_given_up");
        s->offered = get(o, "offered_count") ? i64(o, "offered_count") : s->sent + s->unsent;
        s->unfinished = get(o, "unfinished") ? i64(o, "unfinished")
                                             : s->sent - s->ok - s->errors;
        /* null, or a file saved before it was counted: unknown */
        s->answered = get(o, "answered") ? i64(o, "answered") : -1;
        s->server_cpu_pct = fig(o, metric_defs[METRIC_CPU_PCT].json_key);
        s->server_cpu_ms = fig(o, "server_cpu_ms");
        if (i < array_len(h) &&
            load_hist_value(json_object_array_get_idx(h, i), "stages", &s->latency, err))
            return -1;
        if (i < array_len(x))
            result_hist_load_exact(json_object_array_get_idx(x, i), &s->latency);
    }
    return 0;
}

static int load_histograms(json_object *root, struct run_result *r, char *err)
{
    json_object *h = get(root, "histograms");
    if (!get(h, "latency_us")) {
        snprintf(err, ERR_LEN, "no histograms.latency_us: not an rpcbench result");
        return -1;
    }
    struct hist *hs[] = {&r->latency, &r->service, &r->send_lag, &r->pacing_lag, &r->handshake};
    for (size_t i = 0; i < sizeof hs / sizeof *hs; i++)
        if (load_hist(h, result_hist_names[i], hs[i], err))
            return -1;
    json_object *hv = get(h, "verbs"), *counts = get(root, "verbs");
    for (size_t i = 0; i < r->nverbs; i++) {
        struct verb_result *v = &r->verbs[i];
        json_object *c = get(counts, v->name);
        v->requests = i64(c, "requests");
        v->ok = i64(c, "ok");
        v->errors = i64(c, "errors");
        v->unfinished = i64(c, "unfinished");
        v->unsent = i64(c, "unsent");
        v->unsent_failed = i64(c, "unsent_given_up");
        load_censor(c, &v->censored);
        if (load_hist(hv, v->name, &v->latency, err))
            return -1;
        result_hist_load_exact(get(get(get(h, "exact_us"), "verbs"), v->name), &v->latency);
    }
    return 0;
}

/* One sample per interval with the client's CPU alone: a run that
 * watched no server saves no samples, yet its client CPU was sampled.
 * @return 0, or -1 out of memory. */
static int client_samples(struct run_result *r)
{
    for (size_t i = 0; i < r->nintervals; i++) {
        const struct interval_rec *x = &r->intervals[i];
        struct proc_point p;
        proc_point_unknown(&p, secs_ns(x->t));
        p.client_pct = x->client_cpu_pct;
        if (fig_known(x->client_cpu_pct) && result_add_sample(r, &p))
            return -1;
    }
    return 0;
}

static int load_timeline(json_object *root, struct run_result *r)
{
    json_object *iv = get(root, "intervals");
    for (size_t i = 0; i < array_len(iv); i++) {
        json_object *x = json_object_array_get_idx(iv, i);
        struct interval_rec rec = {
            .t = num(x, "t", 0), .sent = i64(x, "sent"), .ok = i64(x, "ok"),
            .unsent = i64(x, "unsent"),
            .due = get(x, "due") ? i64(x, "due") : i64(x, "sent") + i64(x, "unsent"),
            .errors = i64(x, "errors"), .p50_ms = latency_fig(x, "p50_ms"),
            .p99_ms = latency_fig(x, "p99_ms"), .server_cpu_pct = fig(x, "server_cpu_pct"),
            .client_cpu_pct = fig(x, "client_cpu_pct"), .server_rss_kb = kb(x, "server_rss_kb"),
            .offered = num(x, "offered", r->cfg.rate), /* saved with stages only */
        };
        if (result_add_interval(r, &rec))
            return -1;
    }
    json_object *cpu = get(root, "server_cpu"), *sm = get(cpu, "samples");
    if (!array_len(sm)) /* no server watched (server_cpu null): the client's CPU stays */
        return client_samples(r);
    for (size_t i = 0; i < array_len(sm); i++) {
        json_object *x = json_object_array_get_idx(sm, i);
        /* The client's CPU is saved per interval, one sample per interval. */
        struct proc_point p;
        proc_point_unknown(&p, secs_ns(num(x, "t", 0)));
        p.server_pct = fig(x, "pct");
        p.server_rss_kb = kb(x, "rss_kb");
        if (i < r->nintervals)
            p.client_pct = r->intervals[i].client_cpu_pct;
        if (result_add_sample(r, &p))
            return -1;
    }
    return 0;
}

/* Older files have no "pacer": no wakes counted. */
static void load_pacer(json_object *o, struct pacer_stats *p)
{
    int64_t wakes = i64(o, "wakes");
    if (wakes <= 0)
        return;
    json_object *w = get(o, "window_us");
    p->wakes = wakes;
    p->window_min_ns = window_ns(w, "min");
    p->window_max_ns = window_ns(w, "max");
    p->window_sum_ns = (double)window_ns(w, "mean") * (double)wakes;
}

static void load_cpu(json_object *root, struct run_result *r)
{
    json_object *cpu = get(root, "server_cpu"), *pids = get(cpu, "pids");
    for (size_t i = 0; i < array_len(pids) && r->nwatched < RUN_MAX_PIDS; i++)
        r->watched_pids[r->nwatched++] = (pid_t)json_object_get_int(json_object_array_get_idx(pids, i));
    r->server_cpu_ms = fig(cpu, "cpu_ms");
    str(cpu, "source", r->server_cpu_source, sizeof r->server_cpu_source);
    json_object *agent = get(cpu, "agent");
    if (agent) {
        str(agent, "url", r->agent.url, sizeof r->agent.url);
        r->agent.clock_offset_us = num(agent, "clock_offset_us", 0);
        r->agent.clock_error_us = num(agent, "clock_error_us", 0);
    }
    r->server_threads = (long)i64(cpu, "threads");
    r->rss_start_kb = kb(cpu, "rss_start_kb");
    r->rss_end_kb = kb(cpu, "rss_end_kb");
    r->server_vanished = boolean(cpu, "vanished");
    json_object *idle = get(cpu, "idle");
    if (idle && fig_known(fig(idle, "mean_pct"))) {
        long long n = i64(idle, "intervals");
        r->idle = (struct idle_cpu){.duration_s = num(idle, "duration_s", 0),
                                    .mean_pct = fig(idle, "mean_pct"),
                                    .se_pct = fig(idle, "se_pct"),
                                    .quiet_pct = fig(idle, "quiet_pct"),
                                    .n = n > 0 && n < 1000000 ? (int)n : 1};
    }
    json_object *sys = get(root, "system");
    r->machine_busy_pct = fig(sys, "busy_pct");
    r->machine_steal_pct = fig(sys, "steal_pct"); /* absent in older files: unknown */
    r->loadavg1 = fig(sys, "loadavg");
    r->machine_cores = (int)i64(sys, "cores"); /* absent in older files: 0, unknown */
    load_pacer(get(root, "pacer"), &r->pacer);
    json_object *tr = get(root, "transport"), *es = get(root, "error_samples");
    r->reconnects = i64(tr, "reconnects");
    json_object *cf = get(tr, "connection_failures"); /* absent in older files: 0 */
    for (int k = 0; k < CONN_CAUSES; k++)
        r->conn_failures[k] = i64(cf, conn_cause_names[k]);
    r->stomp_bad_frames = i64(tr, "stomp_bad_frames");
    r->handshakes = i64(tr, "tls_handshakes");
    r->tls_failures = i64(tr, "tls_failures");
    r->stomp_errors = i64(tr, "stomp_errors");
    r->stray_replies = i64(tr, "stray_replies");
    str(tr, "tls_error", r->tls_error, sizeof r->tls_error);
    str(tr, "stomp_error", r->stomp_error, sizeof r->stomp_error);
    r->cfg.tls_insecure = boolean(tr, "tls_insecure");
    str(tr, "auth", r->cfg.auth_shown, sizeof r->cfg.auth_shown);
    str(tr, "headers", r->cfg.headers_shown, sizeof r->cfg.headers_shown);
    for (int k = 0; k < ERR_KINDS; k++)
        str(es, err_kind_names[k], r->error_samples[k], sizeof r->error_samples[k]);
    json_object *w = get(root, "warnings");
    for (size_t i = 0; i < array_len(w); i++)
        result_warn(r, "%s", json_object_get_string(json_object_array_get_idx(w, i)));
}

void result_config_load(json_object *root, struct run_config *cfg)
{
    load_config(get(root, "config"), cfg);
    json_object *t = get(root, "target");
    str(t, "proto", cfg->encoding, sizeof cfg->encoding);
    if (!boolean(t, "embedded"))
        str(t, "url", cfg->url, sizeof cfg->url);
    if (!cfg->label[0])
        snprintf(cfg->label, sizeof cfg->label, "%s", cfg->encoding);
}

static int load_root(json_object *root, struct run_result *r, char *err)
{
    struct run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    result_config_load(root, &cfg);
    json_object *t = get(root, "target");
    if (result_init(r, &cfg)) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    str(t, "url", r->target_url, sizeof r->target_url);
    r->build[0] = '\0'; /* files without it: unknown */
    str(root, "rpcbench", r->build, sizeof r->build);
    load_counts(root, r);
    load_cpu(root, r);
    profile_sum_load(get(root, "profile"), &r->profile);
    if (load_timeline(root, r) || result_ranks_load(root, r)) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    return load_histograms(root, r, err) || load_stages(root, r, err) ||
                   result_targets_load(root, r, err) ? -1 : 0;
}

/* @return 1 when root's "kind" is want. */
static int kind_is(json_object *root, const char *want)
{
    json_object *kind = get(root, "kind");
    return kind && json_object_is_type(kind, json_type_string) &&
           strcmp(json_object_get_string(kind), want) == 0;
}

int result_json_is_comparison(json_object *root)
{
    return kind_is(root, RESULT_KIND_COMPARE);
}

int result_json_is_sweep(json_object *root)
{
    return kind_is(root, RESULT_KIND_SWEEP);
}

int result_load_json(struct run_result *r, json_object *root, char *err)
{
    memset(r, 0, sizeof *r);
    if (!json_object_is_type(root, json_type_object)) {
        snprintf(err, ERR_LEN, "not an rpcbench result");
        return -1;
    }
    if (result_json_is_comparison(root)) {
        snprintf(err, ERR_LEN, "a saved comparison, not a run: rpcbench compare FILE re-renders it");
        return -1;
    }
    if (result_json_is_sweep(root)) {
        snprintf(err, ERR_LEN, "a saved sweep, not a run: rpcbench report FILE re-renders it, "
                 "compare FILE#CELL FILE#CELL takes two of its cells");
        return -1;
    }
    return load_root(root, r, err);
}

/* Why path could not be read, in the user's terms: cannot open it, or not
 * JSON and where the parser stopped (json-c's own wording trimmed). */
static void load_error(const char *path, char *err)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, ERR_LEN, "%.200s: cannot read: %s", path, strerror(errno));
        return;
    }
    close(fd);
    const char *why = json_util_get_last_err();
    const char *p = why ? strstr(why, "failed: ") : NULL;
    char reason[128] = "";
    if (p)
        snprintf(reason, sizeof reason, "%s", p + strlen("failed: "));
    reason[strcspn(reason, "\n")] = '\0';
    snprintf(err, ERR_LEN, "%.150s: not JSON%s%s (want a result saved by --output)", path,
             reason[0] ? ": " : "", reason);
}

int result_load(struct run_result *r, const char *path, char *err)
{
    memset(r, 0, sizeof *r); /* result_free is safe whatever happens below */
    json_object *root = json_object_from_file(path);
    if (!root) {
        load_error(path, err);
        return -1;
    }
    int rc = result_load_json(r, root, err);
    json_object_put(root);
    if (rc) {
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", err);
        if (strncmp(why, path, strlen(path)))
            snprintf(err, ERR_LEN, "%.120s: %.130s", path, why);
    }
    return rc;
}
