/* report_sections: a run's key-value sections as documents (report.h):
 * built once here, written as text lines, page tables and CSV columns. */
#include <math.h>
#include <string.h>

#include "base/units.h"
#include "model/config_keys.h"
#include "model/metric.h"
#include "model/result_merge.h"
#include "model/server_cpu.h"
#include "report/report.h"
#include "report/report_testing.h"

static const char *plural(int64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

void report_fmt_metric(int m, double v, const struct report_unit *u, char *out, size_t len)
{
    if (!fig_known(v)) { /* no answer, CPU not sampled */
        snprintf(out, len, "n/a");
        return;
    }
    switch (metric_defs[m].unit) {
    case MU_PER_S: snprintf(out, len, "%.2f/s", v); break;
    case MU_COUNT: snprintf(out, len, "%.0f", v); break;
    case MU_PCT: snprintf(out, len, "%.1f%%", v); break;
    case MU_CPU_MS: snprintf(out, len, "%.3f", v); break;
    case MU_BYTES: report_fmt_bytes(v, out, len); break; /* "2.09 MB", as run says it */
    case MU_MS: report_unit_fmt(u, 1, v * 1000, out, len); break;
    }
}

void report_kv_metric(struct doc_kv *d, unsigned where, const char *key,
                      const struct run_result *r, int m)
{
    double v = metric_defs[m].value(r);
    char cell[48];
    struct report_unit u = report_unit_pick(v * 1000, v * 1000);
    report_fmt_metric(m, v, &u, cell, sizeof cell);
    struct doc_kv_line *l = doc_kv_add(d, where, key, "%s %s", metric_defs[m].label, cell);
    if (l) {
        l->metric = m;
        l->raw = v;
    }
}

/* ---- configuration --------------------------------------------------------- */

/* What the target rate is where it is not --rate, said plainly, into
 * buf. A fleet's window is offered less than its hosts' steady rates
 * while their spread starts come in: both are said. @return buf. */
static const char *target_note(const struct run_result *r, char *buf, size_t len)
{
    const struct run_config *c = &r->cfg;
    double steady = 0, own = 0; /* a host's row: its mix's rate, or its periods' if no mix */
    size_t mixed = 0;
    for (size_t i = 0; i < c->nverbs; i++) {
        own += c->verbs[i].every_ns ? 1e9 / (double)c->verbs[i].every_ns : 0;
        mixed += !c->verbs[i].every_ns;
    }
    for (size_t i = 0; i < r->ntargets; i++)
        steady += r->targets[i].rate + (mixed ? own : 0);
    buf[0] = '\0';
    if (c->nstages)
        return " (the stages' mean)";
    if (c->replay[0])
        return " (the recorded calls intended in the window)";
    if (c->targets_file[0] && r->ntargets) {
        snprintf(buf, len, " (what the window offered, the hosts' starts spread over their "
                 "first period included; steady %.2f/s)", steady);
        return buf;
    }
    for (size_t i = 0; i < c->nverbs; i++)
        if (c->verbs[i].every_ns)
            return " (what the window offered: the periodic calls' sends in it)";
    return "";
}

static void rate_line(struct doc_kv *d, const struct run_result *r)
{
    const struct run_config *c = &r->cfg;
    if (r->closed_loop) {
        doc_kv_add(d, DOC_IN_BOTH, "rate", "closed loop (max): %.2f/s achieved; latency is "
                   "service time", r->rate_achieved);
        return;
    }
    char target[32], pacer[112], arrivals[48];
    units_format_rate(c->rate, target, sizeof target); /* as the user wrote it */
    result_pacer_text(r, pacer, sizeof pacer);
    /* a merge names every process its runs had, not the first one's */
    result_arrivals_text(r->merged.arrivals ? r->merged.arrivals : 1u << c->arrival, arrivals,
                         sizeof arrivals);
    if (c->replay[0]) /* a replay's calls come at their recorded times */
        snprintf(arrivals, sizeof arrivals, "recorded");
    char note[160];
    doc_kv_add(d, DOC_IN_BOTH, "rate", "%s target%s, %.2f/s achieved (%s arrivals, %s)", target,
               target_note(r, note, sizeof note), r->rate_achieved, arrivals, pacer);
    if (!c->nstages)
        return;
    doc_kv_add(d, DOC_IN_BOTH, "stages", "%s", ""); /* as --stages takes them */
    for (size_t i = 0; i < c->nstages; i++) {
        char len[32], rates[72];
        units_format_duration(c->stages[i].duration_ns, len, sizeof len);
        report_stage_rates(&c->stages[i], rates, sizeof rates);
        doc_kv_append(d, "%s%s:%s", i ? "," : "", len, rates);
    }
}

/* How a merge put its runs together, for the duration line. */
static const char *merged_how(int how)
{
    switch (how) {
    case RESULT_MERGE_SEQUENTIAL: return "back to back, durations added";
    case RESULT_MERGE_CONSECUTIVE: return "one after the other, durations added";
    default: return "side by side, the span of their windows";
    }
}

/* A merged result's measured window (r->duration_s, not the first run's
 * plan) into buf. @return buf. */
static const char *merged_span(const struct run_result *r, char *buf, size_t len)
{
    units_format_duration((int64_t)llround(r->duration_s * 1e9), buf, len);
    return buf;
}

static void duration_lines(struct doc_kv *d, const struct run_result *r)
{
    const struct run_config *c = &r->cfg;
    char dur[32], warm[32], tmo[32];
    units_format_duration(c->duration_ns, dur, sizeof dur);
    units_format_duration(c->warmup_ns, warm, sizeof warm);
    units_format_duration(c->timeout_ns, tmo, sizeof tmo);
    if (c->warmup_ns < 0) /* a requests log without its config line */
        snprintf(warm, sizeof warm, "n/a");
    if (c->timeout_ns < 0)
        snprintf(tmo, sizeof tmo, "n/a");
    if (r->merged.runs > 1)
        doc_kv_add(d, DOC_IN_BOTH, "duration", "%s measured: %d runs merged %s",
                   merged_span(r, dur, sizeof dur), r->merged.runs, merged_how(r->merged.how));
    else if (r->interrupted)
        doc_kv_add(d, DOC_IN_BOTH, "duration", "%.2fs measured of %s planned, INTERRUPTED (%s)",
                   r->duration_s, dur, result_signal_name(r->interrupted));
    else
        doc_kv_add(d, DOC_IN_BOTH, "duration", "%s measured", dur);
    /* a merge's config is its first run's: said so */
    doc_kv_append(d, r->merged.runs > 1 ? "; the first run: +%s warmup, %d %s, timeout %s"
                                        : " (+%s warmup), %d %s, timeout %s",
                  warm, c->connections, plural(c->connections, "connection", "connections"), tmo);
    char iso[40];
    result_format_start(r->start_unix, iso, sizeof iso);
    if (iso[0]) /* the measured window's start, for lining up with other logs */
        doc_kv_add(d, DOC_IN_BOTH, "started", "%s (%.6f s since the epoch)", iso,
                   r->start_unix);
}

/* A mix of many calls names its first ones: the per-verb table has them
 * all, and the line stays one line. */
#define VERBS_NAMED 8

void report_verbs_append(struct doc_kv *d, const struct run_config *c)
{
    size_t n = c->nverbs > VERBS_NAMED ? VERBS_NAMED : c->nverbs;
    if (c->replay[0]) /* the recorded calls: at their times, by no weight */
        doc_kv_append(d, "replay of %s%s%s, x%g%s: ", c->replay, c->replay_as[0] ? " as " : "",
                      c->replay_as, c->replay_speed > 0 ? c->replay_speed : 1,
                      c->replay_loop ? ", looped" : "");
    for (size_t i = 0; i < n; i++) {
        char every[32];
        const struct verb_spec *v = &c->verbs[i];
        units_format_duration(v->every_ns, every, sizeof every);
        if (c->replay[0])
            doc_kv_append(d, "%s%s", i ? "," : "", v->name);
        else if (v->every_ns) /* its own period, as --verb V@P and "every" take it */
            doc_kv_append(d, "%s%s@%s", i ? "," : "", v->name, every);
        else
            doc_kv_append(d, "%s%s:%u", i ? "," : "", v->name, v->weight);
    }
    if (n < c->nverbs)
        doc_kv_append(d, ", ... (%zu calls; each in the per-verb table)", c->nverbs);
}

void report_config_doc(const struct run_result *r, struct doc_kv *d)
{
    const struct run_config *c = &r->cfg;
    doc_kv_init(d, "configuration");
    if (c->targets_file[0] && r->ntargets) /* a fleet: never its first host */
        doc_kv_add(d, DOC_IN_BOTH, "target", "%zu targets from %s (%s)", r->ntargets,
                   c->targets_file, c->encoding);
    else
        doc_kv_add(d, DOC_IN_BOTH, "target", "%s (%s)%s", r->target_url, c->encoding,
                   c->url[0] ? "" : " built-in simulator");
    doc_kv_add(d, DOC_IN_BOTH, "verbs", "%s", "");
    report_verbs_append(d, c);
    rate_line(d, r);
    duration_lines(d, r);
    char iv[32];
    units_format_duration(c->interval_ns, iv, sizeof iv);
    doc_kv_add(d, DOC_IN_PAGE, "load", "interval %s; seed %llu; validate %s", iv,
               (unsigned long long)c->seed, validate_names[c->validate % VALIDATE_N]);
    if (!c->url[0])
        doc_kv_add(d, DOC_IN_PAGE, "simulator", "%d VMs", c->vms);
    doc_kv_add(d, DOC_IN_PAGE, "buckets", "%s", c->buckets[0] ? c->buckets : "auto");
    for (size_t i = 0; i < c->nexpects; i++)
        doc_kv_add(d, DOC_IN_BOTH, i ? "" : "expect", "%s", c->expects[i]);
    /* how the run was asked for: the text says it when a job file did */
    unsigned where = c->job_file[0] ? DOC_IN_BOTH : DOC_IN_PAGE;
    if (c->options_given[0] || c->job_file[0])
        doc_kv_add(d, where, "options", "%s", c->options_given);
    if (c->job_file[0])
        doc_kv_append(d, "%sfrom %s: %s", c->options_given[0] ? "; " : "", c->job_file,
                      c->options_from_job);
    for (size_t i = 0; i < config_keys_n(); i++) { /* the fields shown by their row */
        char v[160];
        if (!(config_key_i(i)->flags & CFK_SHOWN))
            continue;
        config_key_text(config_key_i(i), c, v, sizeof v);
        doc_kv_add(d, DOC_IN_BOTH, config_key_i(i)->key, "%s", v);
    }
}

/* ---- requests, bytes and lags ---------------------------------------------- */

/* Send lag and pacer lag, one unit per line (they differ by orders of
 * magnitude when the server is the bottleneck). */
static void lag_lines(struct doc_kv *d, const struct run_result *r)
{
    const struct hist *hs[2] = {&r->send_lag, &r->pacing_lag};
    static const char *const key[2] = {"send lag", "pacer lag"};
    static const char *const what[2] = {
        "actual - intended send time", "the same, sends that found a free connection"};
    for (int i = 0; i < 2; i++) {
        double mn = 0, mx = 0;
        report_unit_span(hs[i], &mn, &mx);
        struct report_unit u = report_unit_pick(mx, mn);
        char p50[32], p99[32], m[32];
        int have = hs[i]->total_count > 0;
        report_unit_fmt(&u, have, (double)hist_percentile(hs[i], 50), p50, sizeof p50);
        report_unit_fmt(&u, have, (double)hist_percentile(hs[i], 99), p99, sizeof p99);
        report_unit_fmt(&u, have, (double)hs[i]->max, m, sizeof m);
        doc_kv_add(d, DOC_IN_BOTH, key[i], "p50 %s  p99 %s  max %s (%s)", p50, p99, m, what[i]);
    }
}

const char *report_unsent_text(const struct run_result *r, char *out, size_t len)
{
    int64_t left = r->unsent - r->unsent_failed;
    int n = 0;
    out[0] = '\0';
    if (left > 0)
        n = snprintf(out, len, "%lld still waiting for a connection at the end (every one was "
                     "busy)", (long long)left);
    if (r->unsent_failed > 0 && n >= 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, "%s%lld given up at once: no connection could take "
                 "them (%s failed)", n ? "; " : "", (long long)r->unsent_failed,
                 err_kind_names[r->unsent_kind]);
    return out;
}

void report_requests_doc(const struct run_result *r, struct doc_kv *d)
{
    doc_kv_init(d, "bytes and pacing"); /* what the page shows of it */
    d->blank_before = 1;
    /* The page's own table says these, with each kind's first error. */
    char queued[24] = "n/a";
    if (result_count_known(r->queued))
        snprintf(queued, sizeof queued, "%lld", (long long)r->queued);
    doc_kv_add(d, DOC_IN_TEXT, "requests", "offered %lld  sent %lld  unsent %lld  ok %lld  "
               "errors %lld  unfinished %lld  (queued %s)", (long long)r->offered,
               (long long)r->sent, (long long)r->unsent, (long long)r->ok, (long long)r->errors,
               (long long)r->unfinished, queued);
    char unsent[160];
    if (r->unsent)
        doc_kv_add(d, DOC_IN_TEXT, "unsent", "%s", report_unsent_text(r, unsent, sizeof unsent));
    if (!result_count_known(r->warmup.sent))
        doc_kv_add(d, DOC_IN_TEXT, "warmup", "n/a (not in a requests log)");
    else if (r->warmup.sent || r->warmup.unsent || r->cfg.warmup_ns)
        doc_kv_add(d, DOC_IN_TEXT, "warmup", "sent %lld  unsent %lld  ok %lld  errors %lld  "
                   "(before the window: in no figure here)", (long long)r->warmup.sent,
                   (long long)r->warmup.unsent, (long long)r->warmup.ok,
                   (long long)r->warmup.errors);
    doc_kv_add(d, DOC_IN_TEXT, "errors", "%s", "");
    for (int k = 0; k < ERR_KINDS; k++)
        doc_kv_append(d, "%s%s %lld", k ? " " : "", err_kind_names[k], (long long)r->err[k]);
    /* Means over what was written and what was read whole. */
    int64_t answered = result_answers_read(r);
    char req[32] = "n/a", resp[32] = "n/a";
    if (r->sent > 0)
        report_fmt_bytes((double)r->bytes_sent / (double)r->sent, req, sizeof req);
    if (answered > 0)
        report_fmt_bytes((double)r->bytes_received / (double)answered, resp, sizeof resp);
    doc_kv_add(d, DOC_IN_BOTH, "bytes", "request %s, response %s (mean)", req, resp);
    /* what --expect (or a --workload line's own expect) found, and what
     * the full decode cost */
    char by[48] = "the workload's own expect";
    if (r->cfg.nexpects)
        snprintf(by, sizeof by, "%zu --expect", r->cfg.nexpects);
    if (r->cfg.nexpects || r->checks.checked)
        doc_kv_add(d, DOC_IN_BOTH, "checks", "%lld %s checked by %s, %lld broke one; "
                   "full decode + checks %.1f us of client CPU per answer",
                   (long long)r->checks.checked, plural(r->checks.checked, "answer", "answers"),
                   by, (long long)r->checks.failed,
                   r->checks.checked ? (double)r->checks.ns / 1e3 / (double)r->checks.checked
                                     : 0.0);
    lag_lines(d, r);
}

/* ---- transport ----------------------------------------------------------- */

static int uses_tls(const struct run_result *r)
{
    return !strncmp(r->target_url, "https:", 6) || !strncmp(r->target_url, "stomps:", 7);
}

static void tls_part(struct doc_kv *d, const struct run_result *r)
{
    char p50[32], mx[32];
    double lo = 0, hi = 0;
    report_unit_span(&r->handshake, &lo, &hi);
    struct report_unit u = report_unit_pick(hi, lo);
    int have = r->handshake.total_count > 0;
    report_unit_fmt(&u, have, (double)hist_percentile(&r->handshake, 50), p50, sizeof p50);
    report_unit_fmt(&u, have, (double)r->handshake.max, mx, sizeof mx);
    doc_kv_append(d, "; TLS %s, %lld %s (connect + handshake p50 %s, max %s; not in "
                  "latency), %lld failed", r->cfg.tls_insecure ? "INSECURE (server not verified)"
                                                               : "verified",
                  (long long)r->handshakes, plural(r->handshakes, "handshake", "handshakes"),
                  p50, mx, (long long)r->tls_failures);
}

/* Connections, TLS and STOMP: what the transport went through. */
void report_transport_doc(const struct run_result *r, struct doc_kv *d)
{
    doc_kv_init(d, "transport");
    doc_kv_add(d, DOC_IN_BOTH, "transport", "reconnects %lld (%.1f/s)", (long long)r->reconnects,
               result_reconnects_per_s(r));
    if (result_conn_failures(r)) {
        doc_kv_append(d, ", connection failures %lld (", (long long)result_conn_failures(r));
        for (int k = 0, n = 0; k < CONN_CAUSES; k++)
            if (r->conn_failures[k])
                doc_kv_append(d, "%s%s %lld", n++ ? ", " : "", conn_cause_names[k],
                              (long long)r->conn_failures[k]);
        doc_kv_append(d, ")");
    }
    if (uses_tls(r))
        tls_part(d, r);
    if (!strncmp(r->target_url, "stomp", 5))
        doc_kv_append(d, "; STOMP ERROR frames %lld, bad frames %lld, stray replies %lld",
                      (long long)r->stomp_errors, (long long)r->stomp_bad_frames,
                      (long long)r->stray_replies);
    else if (r->stray_replies)
        doc_kv_append(d, "; stray replies %lld", (long long)r->stray_replies);
    if (r->cfg.auth_shown[0] || r->cfg.headers_shown[0])
        doc_kv_add(d, DOC_IN_BOTH, "", "%s%s%s%s", r->cfg.auth_shown,
                   r->cfg.auth_shown[0] && r->cfg.headers_shown[0] ? "; " : "",
                   r->cfg.headers_shown[0] ? "headers " : "", r->cfg.headers_shown);
    if (r->tls_error[0])
        doc_kv_add(d, DOC_IN_BOTH, "", "last TLS failure: %s", r->tls_error);
    if (r->stomp_error[0])
        doc_kv_add(d, DOC_IN_BOTH, "", "last STOMP ERROR: %s", r->stomp_error);
}

/* ---- the server and the machine ------------------------------------------------ */

/* Where the server's figures came from when not from here: the agent
 * (--server-agent), with the clock offset its samples were lined up by. */
static void agent_line(struct doc_kv *d, const struct run_result *r)
{
    if (r->agent.url[0])
        doc_kv_add(d, DOC_IN_BOTH, "", "sampled by the agent at %s, its clock %+.3f ms from "
                   "ours (+-%.3f ms)", r->agent.url, r->agent.clock_offset_us / 1e3,
                   r->agent.clock_error_us / 1e3);
}

static void server_lines(struct doc_kv *d, const struct run_result *r)
{
    char line[320];
    server_cpu_text(r, line, sizeof line);
    if (!r->nwatched) {
        doc_kv_add(d, DOC_IN_BOTH, "server", "%s", line);
        agent_line(d, r);
        return;
    }
    doc_kv_add(d, DOC_IN_BOTH, "server", "pid");
    for (size_t i = 0; i < r->nwatched; i++)
        doc_kv_append(d, "%s%d", i ? "+" : " ", (int)r->watched_pids[i]);
    doc_kv_append(d, " (%ld %s): %s", r->server_threads,
                  plural(r->server_threads, "thread", "threads"), line);
    if (r->server_cpu_source[0])
        doc_kv_append(d, " (%s)", r->server_cpu_source);
    agent_line(d, r);
    server_cpu_idle_text(r, line, sizeof line);
    if (line[0])
        doc_kv_add(d, DOC_IN_BOTH, "", "%s", line);
    char a[32], b[32];
    snprintf(a, sizeof a, "n/a");
    snprintf(b, sizeof b, "n/a");
    if (fig_known(r->rss_start_kb))
        report_fmt_bytes(r->rss_start_kb * 1024, a, sizeof a);
    if (fig_known(r->rss_end_kb))
        report_fmt_bytes(r->rss_end_kb * 1024, b, sizeof b);
    doc_kv_add(d, DOC_IN_BOTH, "", "RSS %s -> %s", a, b);
}

void report_machine_doc(const struct run_result *r, struct doc_kv *d)
{
    doc_kv_init(d, "machine");
    server_lines(d, r);
    double cmax, cmean = result_client_cpu_mean(r, &cmax);
    char steal[32] = ""; /* unknown in results saved before steal was measured */
    if (fig_known(r->machine_steal_pct))
        snprintf(steal, sizeof steal, ", steal %.1f%%", r->machine_steal_pct);
    char cores[24] = "";
    if (r->machine_cores > 0)
        snprintf(cores, sizeof cores, "%d cores, ", r->machine_cores);
    char busy[16], cm[16], cx[16], load[24] = "n/a";
    if (fig_known(r->loadavg1))
        snprintf(load, sizeof load, "%.2f", r->loadavg1);
    doc_kv_add(d, DOC_IN_BOTH, "machine", "%sbusy %s (all cores)%s, load %s; client CPU mean "
               "%s max %s", cores, report_fmt_pct(r->machine_busy_pct, busy, sizeof busy), steal,
               load, report_fmt_pct(cmean, cm, sizeof cm),
               report_fmt_pct(cmax, cx, sizeof cx));
    for (int m = 0; m < METRIC_N; m++) /* the figures a run shows by their row */
        if (metric_defs[m].run_line)
            report_kv_metric(d, DOC_IN_BOTH, "", r, m);
}

void report_sections(const struct run_result *r, struct doc_kv d[REPORT_SECTIONS])
{
    report_config_doc(r, &d[0]);
    report_requests_doc(r, &d[1]);
    report_transport_doc(r, &d[2]);
    report_machine_doc(r, &d[3]);
}
