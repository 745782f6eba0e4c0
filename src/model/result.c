#include "model/run_result.h"
#include "model/server_cpu.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "base/exit_code.h"
#include "base/safetext.h"
#include "base/units.h"
#include "base/version.h"

const char *const err_kind_names[ERR_KINDS] = {
    "connect", "timeout", "closed", "http", "fault", "decode", "handshake", "auth", "check",
};

const char *const conn_cause_names[CONN_CAUSES] = {
    "connect", "reset", "closed", "timeout", "tls", "login_refused", "not_stomp", "protocol",
};

double result_reconnects_per_s(const struct run_result *r)
{
    return r->duration_s > 0 ? (double)r->reconnects / r->duration_s : 0;
}

int64_t result_conn_failures(const struct run_result *r)
{
    int64_t n = 0;
    for (int k = 0; k < CONN_CAUSES; k++)
        n += r->conn_failures[k];
    return n;
}

/* The figures a run measures, unknown until it does (a zero would read
 * as a measured 0). */
static void figures_unknown(struct run_result *r)
{
    r->server_cpu_ms = r->rss_start_kb = r->rss_end_kb = FIG_UNKNOWN;
    r->idle.mean_pct = r->idle.se_pct = r->idle.quiet_pct = FIG_UNKNOWN;
    r->machine_busy_pct = r->machine_steal_pct = r->loadavg1 = FIG_UNKNOWN;
}

int result_init(struct run_result *r, const struct run_config *cfg)
{
    memset(r, 0, sizeof *r);
    figures_unknown(r);
    if (cfg)
        r->cfg = *cfg;
    snprintf(r->build, sizeof r->build, "%s", rpcbench_version()); /* a load replaces it */
    if (hist_init_latency(&r->latency) || hist_init_latency(&r->service) ||
        hist_init_latency(&r->send_lag) || hist_init_latency(&r->handshake) ||
        hist_init_latency(&r->pacing_lag))
        return -1;
    r->nverbs = cfg ? cfg->nverbs : 0;
    for (size_t i = 0; i < r->nverbs; i++) {
        snprintf(r->verbs[i].name, sizeof r->verbs[i].name, "%s", cfg->verbs[i].name);
        if (hist_init_latency(&r->verbs[i].latency))
            return -1;
    }
    return result_stages_init(r);
}

void result_free(struct run_result *r)
{
    hist_close(&r->latency);
    hist_close(&r->service);
    hist_close(&r->send_lag);
    hist_close(&r->handshake);
    hist_close(&r->pacing_lag);
    for (size_t i = 0; i < RUN_MAX_VERBS; i++)
        hist_close(&r->verbs[i].latency);
    for (size_t i = 0; i < RUN_MAX_STAGES; i++)
        hist_close(&r->stages[i].latency);
    free(r->intervals);
    free(r->samples);
    free(r->ranks);
    result_targets_free(r);
    r->intervals = NULL;
    r->samples = NULL;
    r->ranks = NULL;
    r->nranks = 0;
}

/* Grows a timeline array by doubling: O(log n) allocations per run. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 64;
    void *p = realloc(*arr, ncap * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = ncap;
    return 0;
}

int result_add_interval(struct run_result *r, const struct interval_rec *rec)
{
    if (grow((void **)&r->intervals, &r->cap_intervals, r->nintervals, sizeof *rec))
        return -1;
    r->intervals[r->nintervals++] = *rec;
    return 0;
}

int result_add_sample(struct run_result *r, const struct proc_point *p)
{
    if (grow((void **)&r->samples, &r->cap_samples, r->nsamples, sizeof *p))
        return -1;
    r->samples[r->nsamples++] = *p;
    return 0;
}

void result_warn(struct run_result *r, const char *fmt, ...)
{
    if (r->nwarnings >= RUN_MAX_WARNINGS)
        return;
    va_list ap;
    va_start(ap, fmt);
    safetext_vprintf(r->warnings[r->nwarnings++], sizeof r->warnings[0], fmt, ap);
    va_end(ap);
}

double result_client_cpu_mean(const struct run_result *r, double *max)
{
    double sum = 0, mx = FIG_UNKNOWN;
    size_t n = 0;
    for (size_t i = 0; i < r->nsamples; i++) {
        double c = r->samples[i].client_pct;
        if (!fig_known(c))
            continue;
        sum += c;
        n++;
        if (!fig_known(mx) || c > mx)
            mx = c;
    }
    if (max)
        *max = mx;
    return n ? sum / (double)n : FIG_UNKNOWN;
}

/* "12%", or "n/a" when unknown, into out (len bytes). @return out. */
static const char *pct_text(double pct, char *out, size_t len)
{
    if (fig_known(pct))
        snprintf(out, len, "%.0f%%", pct);
    else
        snprintf(out, len, "n/a");
    return out;
}

/* "load 0.52, hypervisor steal 1.2%" for the late pacer's warning: the
 * load when known, the steal when the run had any that shows at one
 * decimal (unknown fails that test). */
static const char *load_note(const struct run_result *r, char *note, size_t len)
{
    int n = fig_known(r->loadavg1) ? snprintf(note, len, "load %.2f", r->loadavg1)
                                   : snprintf(note, len, "load n/a");
    if (n > 0 && (size_t)n < len && r->machine_steal_pct >= 0.05)
        snprintf(note + n, len - (size_t)n, ", hypervisor steal %.1f%%", r->machine_steal_pct);
    return note;
}

void result_note_error(struct run_result *r, int kind, const char *fmt, ...)
{
    if (req_ok(kind) || kind >= ERR_KINDS || r->error_samples[kind][0])
        return;
    va_list ap;
    va_start(ap, fmt);
    safetext_vprintf(r->error_samples[kind], sizeof r->error_samples[kind], fmt, ap);
    va_end(ap);
}

void result_note_default(struct run_result *r, int kind, const char *host, int port,
                         const char *tls_error)
{
    char tmo[32];
    switch (kind) {
    case ERR_CONNECT:
        result_note_error(r, kind, "could not connect to %s:%d%s%s", host, port,
                          tls_error[0] ? ": TLS " : "", tls_error);
        break;
    case ERR_TIMEOUT:
        units_format_duration(r->cfg.timeout_ns, tmo, sizeof tmo);
        result_note_error(r, kind, "no complete answer within %s (--timeout)", tmo);
        break;
    case ERR_CLOSED:
        result_note_error(r, kind, "the server closed or reset the connection before the "
                          "answer was complete");
        break;
    case ERR_HANDSHAKE:
        result_note_error(r, kind, "connected to %s:%d, but the TLS handshake or STOMP login "
                          "failed", host, port);
        break;
    default:
        result_note_error(r, kind, "%s error", err_kind_names[kind]);
    }
}

int64_t result_answers_read(const struct run_result *r)
{
    return r->ok + r->err[ERR_HTTP] + r->err[ERR_FAULT] + r->err[ERR_DECODE] + r->err[ERR_AUTH] +
           r->err[ERR_CHECK];
}

int result_exit_code(const struct run_result *r)
{
    if (r->offered > 0 && r->ok == 0)
        return EXIT_NO_SUCCESS;
    return r->interrupted ? EXIT_SIGNAL(r->interrupted) : EXIT_OK;
}

void result_censor(struct run_result *r, int verb, int64_t waited_us)
{
    const struct censor one = {1, waited_us};
    hist_record(&r->latency, waited_us);
    result_censor_merge(&r->censored, &one);
    if (verb >= 0 && (size_t)verb < r->nverbs) {
        hist_record(&r->verbs[verb].latency, waited_us);
        result_censor_merge(&r->verbs[verb].censored, &one);
    }
}

void result_censor_merge(struct censor *dst, const struct censor *src)
{
    if (src->n <= 0)
        return;
    if (dst->n == 0 || src->min_us < dst->min_us)
        dst->min_us = src->min_us;
    dst->n += src->n;
}

int result_censored_at(const struct censor *cs, double value_us)
{
    return cs->n > 0 && value_us >= (double)cs->min_us;
}

const char *const arrival_names[ARRIVAL_N] = {"constant", "poisson"};
const char *const validate_names[VALIDATE_N] = {"none", "cheap", "full"};

const char *result_arrival_name(enum arrival a)
{
    return arrival_names[a == ARRIVAL_POISSON ? ARRIVAL_POISSON : ARRIVAL_CONSTANT];
}

int result_name_index(const char *s, const char *const *names, int n, int def)
{
    for (int i = 0; s && i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return def;
}

void result_arrivals_text(unsigned a, char *out, size_t len)
{
    out[0] = '\0';
    for (enum arrival k = ARRIVAL_CONSTANT; k < ARRIVAL_N; k++)
        if (a & 1u << k)
            snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? " + " : "",
                     result_arrival_name(k));
}

int result_count_known(int64_t n)
{
    return n >= 0;
}

int result_lower_bound(const struct censor *cs, int mean, double value_us)
{
    return mean ? cs->n > 0 : result_censored_at(cs, value_us);
}

static const struct { int sig; const char *name; } sig_names[] = {
    {SIGINT, "SIGINT"}, {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"}, {SIGQUIT, "SIGQUIT"},
};

void result_pacer_text(const struct run_result *r, char *out, size_t len)
{
    const struct run_config *c = &r->cfg;
    const struct pacer_stats *p = &r->pacer;
    char lo[24], hi[24], mean[24], wakes[40] = "";
    if (c->busy_poll) {
        snprintf(out, len, "busy-poll pacer");
        return;
    }
    if (p->wakes > 0 && r->sent > 0)
        snprintf(wakes, sizeof wakes, "; %.2f wakes/request", (double)p->wakes / (double)r->sent);
    units_format_duration(p->window_min_ns, lo, sizeof lo);
    units_format_duration(p->window_max_ns, hi, sizeof hi);
    int64_t mean_us = p->wakes > 0 ? llround(p->window_sum_ns / (double)p->wakes / 1e3) : 0;
    units_format_duration(mean_us * 1000, mean, sizeof mean);
    if (!c->pacer_window_auto) {
        units_format_duration(c->pacer_window_ns, lo, sizeof lo);
        snprintf(out, len, "pacer window %s%s", c->pacer_window_ns ? lo : "none", wakes);
    } else if (p->wakes == 0)
        snprintf(out, len, "pacer window auto");
    else if (p->window_min_ns == p->window_max_ns)
        snprintf(out, len, "pacer window auto: %s%s", lo, wakes);
    else
        snprintf(out, len, "pacer window auto: %s to %s, mean %s%s", lo, hi, mean, wakes);
}

const char *result_signal_name(int sig)
{
    static char other[24];
    for (size_t i = 0; i < sizeof sig_names / sizeof *sig_names; i++)
        if (sig_names[i].sig == sig)
            return sig_names[i].name;
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
}

int result_signal_number(const char *name)
{
    for (size_t i = 0; name && i < sizeof sig_names / sizeof *sig_names; i++)
        if (!strcmp(sig_names[i].name, name))
            return sig_names[i].sig;
    return 0;
}

/* The failed kinds that were never answered, with their counts, into
 * out ("timeout 249, closed 1"). */
static void unanswered_kinds(const struct run_result *r, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < ERR_KINDS && used < len; k++)
        if (r->err[k] && !result_kind_answered(k)) {
            int w = snprintf(out + used, len - used, "%s%s %lld", used ? ", " : "",
                             err_kind_names[k], (long long)r->err[k]);
            used += w > 0 ? (size_t)w : 0;
        }
}

/* The failed share in the ledger's words, then the first error of each
 * kind that occurred. answered = ok + the errors whose answer came back
 * (result_kind_answered: HTTP, fault, decode, auth, check); the others
 * (connect, handshake, closed, timeout) were sent and never answered, and
 * are neither in the answered share nor called answered. */
static void warn_failures(struct run_result *r)
{
    if (r->errors == 0)
        return;
    int64_t answered = result_answered_calls(r);
    int64_t bad = answered - r->ok; /* answered, with an error */
    int64_t never = r->errors - bad;
    char kinds[120] = "";
    if (never) { /* " (timeout 249, closed 1)" */
        char list[100];
        unanswered_kinds(r, list, sizeof list);
        snprintf(kinds, sizeof kinds, " (%s)", list);
    }
    if (r->ok == 0 && bad > 0)
        result_warn(r, "no request succeeded: %lld of %lld answered requests failed (100%%), "
                    "%lld never answered%s; latency figures are n/a", (long long)bad,
                    (long long)answered, (long long)never, kinds);
    else if (r->ok == 0)
        result_warn(r, "no request succeeded: %lld failed, none answered: all %lld never "
                    "answered%s; latency figures are n/a", (long long)r->errors,
                    (long long)never, kinds);
    else
        result_warn(r, "%.1f%% of answered requests failed (%lld of %lld), %lld never "
                    "answered%s; latency covers the successful ones",
                    100.0 * (double)bad / (double)answered, (long long)bad, (long long)answered,
                    (long long)never, kinds);
    for (int k = 0; k < ERR_KINDS; k++)
        if (r->err[k])
            result_warn(r, "first %s error (%lld in all): %s", err_kind_names[k],
                        (long long)r->err[k],
                        r->error_samples[k][0] ? r->error_samples[k] : "(not recorded)");
}

/* @return the index of the first sample at or above --cpu-saturation, or
 * -1 when none is or the rule is off (--cpu-saturation off: 0). A short
 * interval (the ms after SIGINT, one call flat out) is no saturation,
 * unless every interval was short. */
static long first_saturated(const struct run_result *r)
{
    int any_full = 0;
    for (size_t i = 0; i < r->nsamples && !any_full; i++)
        any_full = result_sample_is_full(r, i);
    for (size_t i = 0; r->cfg.cpu_saturation > 0 && i < r->nsamples; i++)
        if (r->samples[i].server_pct >= r->cfg.cpu_saturation &&
            (!any_full || result_sample_is_full(r, i)))
            return (long)i;
    return -1;
}

static void warn_saturation(struct run_result *r)
{
    long i = first_saturated(r);
    if (i >= 0)
        result_warn(r, "server saturated: %.0f%% CPU at t=%.1fs (>= %.0f%% of one core); "
                    "latency here measures overload", r->samples[i].server_pct,
                    (double)r->samples[i].t_ns / 1e9, r->cfg.cpu_saturation);
}

/* The client limits the figures only when it is busy itself; a late pacer
 * with an idle client means the machine held it back (load, steal), which
 * is said as such and never called client-bound. Lag from waiting for a
 * busy connection is the server's doing and is not pacer lag at all. */
/* The pacer's lag p99 (ms), and whether enough sends were late (over 1 ms)
 * for that p99 to mean something: a p99 of a handful of sends is one outlier. */
static int late_pacer(const struct run_result *r, double *lag99)
{
    *lag99 = (double)hist_percentile(&r->pacing_lag, 99) / 1000.0;
    double late = (100 - hist_pct_below(&r->pacing_lag, 1001)) / 100 *
                  (double)r->pacing_lag.total_count;
    return !r->closed_loop && *lag99 > 1.0 && late >= 3;
}

/* The share of the offered requests (%) that found every connection busy
 * when due: written late, or never (unsent at the end). */
static double queued_pct(const struct run_result *r)
{
    return r->offered > 0 && result_count_known(r->queued)
               ? 100.0 * (double)r->queued / (double)r->offered : 0;
}

unsigned result_limits(const struct run_result *r)
{
    unsigned f = 0;
    double lag99;
    if (first_saturated(r) >= 0)
        f |= RESULT_SATURATED;
    if (result_client_cpu_mean(r, NULL) > RESULT_CLIENT_BUSY_PCT && !r->cfg.busy_poll)
        f |= RESULT_CLIENT_BOUND; /* polling is always busy */
    else if (late_pacer(r, &lag99))
        f |= RESULT_LATE_PACER;
    /* A busy client is slow to read answers too, which keeps connections
     * busy: the queueing is then no sign against the server. */
    if (!r->closed_loop && queued_pct(r) >= RESULT_QUEUED_PCT && !(f & RESULT_CLIENT_BOUND))
        f |= RESULT_SERVER_BOUND;
    if (r->offered > 0 &&
        100.0 * (double)r->unsent_failed / (double)r->offered >= RESULT_QUEUED_PCT)
        f |= RESULT_CONNS_FAILED;
    if (!r->closed_loop && r->cfg.rate > 0 && r->rate_achieved < 0.99 * r->cfg.rate)
        f |= RESULT_RATE_NOT_HELD;
    return f;
}

const char *result_rate_holder(unsigned f)
{
    if (f & RESULT_CLIENT_BOUND)
        return "the client";
    if (f & (RESULT_SATURATED | RESULT_SERVER_BOUND | RESULT_CONNS_FAILED))
        return "the server";
    return f & RESULT_LATE_PACER ? "the machine" : "neither side measurably";
}

/* Appends "; " and one rule's phrase to out. */
static void say(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *out, size_t len, const char *fmt, ...)
{
    size_t used = strlen(out);
    if (used && used + 2 < len) {
        memcpy(out + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + used, len - used, fmt, ap);
    va_end(ap);
}

void result_limits_text(const struct run_result *r, unsigned f, char *out, size_t len)
{
    double lag99, mx;
    long i = first_saturated(r);
    out[0] = '\0';
    if ((f & RESULT_SATURATED) && i >= 0)
        say(out, len, "server saturated (CPU %.0f%% >= --cpu-saturation %g%%)",
            r->samples[i].server_pct, r->cfg.cpu_saturation);
    if (f & RESULT_SERVER_BOUND)
        say(out, len, "server-bound (%.1f%% of sends waited for a busy connection; limit "
            "%g%%)", queued_pct(r), RESULT_QUEUED_PCT);
    if (f & RESULT_CONNS_FAILED)
        say(out, len, "connections failed (%lld of %lld requests given up unsent: %s)",
            (long long)r->unsent_failed, (long long)r->offered, err_kind_names[r->unsent_kind]);
    if (f & RESULT_CLIENT_BOUND)
        say(out, len, "client-bound (client CPU %.0f%% > %d%% of a core)",
            result_client_cpu_mean(r, &mx), RESULT_CLIENT_BUSY_PCT);
    if (f & RESULT_LATE_PACER) {
        late_pacer(r, &lag99);
        say(out, len, "late pacer (send lag p99 %.2fms > 1ms with the client idle: the machine "
            "held it back)", lag99);
    }
    if (f & RESULT_RATE_NOT_HELD)
        say(out, len, "rate not held (%.6g/s of %.6g/s, under 99%%: %s)", r->rate_achieved,
            r->cfg.rate, result_rate_holder(result_limits(r))); /* every rule, shown or not */
}

static void warn_client(struct run_result *r)
{
    unsigned f = result_limits(r);
    double cmean = result_client_cpu_mean(r, NULL);
    char note[64], cpu[16];
    double lag99;
    late_pacer(r, &lag99);
    if (f & RESULT_CLIENT_BOUND)
        result_warn(r, "client-bound: client CPU %.0f%% of a core; the client, not the server, "
                    "may limit these figures", cmean);
    else if (f & RESULT_LATE_PACER)
        result_warn(r, "late pacer: pacer lag p99 %.2fms with the client at %s CPU: the "
                    "machine (%s) kept the client from sending on time; latencies "
                    "include that delay", lag99, pct_text(cmean, cpu, sizeof cpu),
                    load_note(r, note, sizeof note));
}

static void warn_interrupted(struct run_result *r)
{
    if (!r->interrupted)
        return;
    char planned[32];
    units_format_duration(r->cfg.duration_ns, planned, sizeof planned);
    result_warn(r, "interrupted (%s) after %.2fs of the planned %s: the figures cover only "
                "that part", result_signal_name(r->interrupted), r->duration_s, planned);
}

/* Every table that splits the requests adds up to the run's totals; a
 * table that does not would mislead whoever reads it (and a per-verb
 * threshold would judge the wrong totals), so it is said, never hidden.
 * @return the first table that does not add up, or NULL. */
static const char *counts_mismatch(const struct run_result *r)
{
    int64_t v[5] = {0}, t[5] = {0}, k[4] = {0};
    int lost = 0; /* a lost rank's requests are known by their count only */
    for (size_t i = 0; i < r->nverbs; i++) {
        const struct verb_result *x = &r->verbs[i];
        v[0] += x->requests, v[1] += x->ok, v[2] += x->errors, v[3] += x->unfinished;
        v[4] += x->unsent;
    }
    for (size_t i = 0; i < r->nintervals; i++) {
        const struct interval_rec *x = &r->intervals[i];
        t[0] += x->sent, t[1] += x->ok, t[2] += x->errors, t[3] += x->unsent, t[4] += x->due;
    }
    for (size_t i = 0; i < r->nranks; i++) {
        k[0] += r->ranks[i].sent, k[1] += r->ranks[i].ok, k[2] += r->ranks[i].errors;
        k[3] += r->ranks[i].unsent;
        lost |= r->ranks[i].lost;
    }
    if (r->offered != r->sent + r->unsent)
        return "sent + unsent";
    if (r->sent != r->ok + r->errors + r->unfinished)
        return "ok + errors + unfinished";
    if (r->nverbs && !lost && (v[0] != r->offered || v[1] != r->ok || v[2] != r->errors ||
                               v[3] != r->unfinished || v[4] != r->unsent))
        return "the per-verb rows";
    /* A rank's own share (split_ranks > 1) holds the whole job's timeline. */
    if (r->nintervals && r->cfg.split_ranks <= 1 &&
        (t[0] != r->sent || t[1] != r->ok || t[2] != r->errors || t[3] != r->unsent ||
         t[4] != r->offered))
        return "the intervals";
    if (r->nranks && (k[0] != r->sent || k[1] != r->ok || k[2] != r->errors ||
                      k[3] != r->unsent))
        return "the ranks";
    return NULL;
}

/* Reconnects past 1 % of the requests: connections churn, and the run
 * measures connection setup (or a server that keeps dropping us). */
static void warn_churn(struct run_result *r)
{
    if (r->reconnects == 0 || (double)r->reconnects <= 0.01 * (double)r->sent)
        return;
    char causes[160] = "";
    size_t at = 0;
    for (int k = 0; k < CONN_CAUSES && at < sizeof causes; k++)
        if (r->conn_failures[k])
            at += (size_t)snprintf(causes + at, sizeof causes - at, "%s %s %lld",
                                   at ? "," : "; failures:", conn_cause_names[k],
                                   (long long)r->conn_failures[k]);
    result_warn(r, "connections churn: %lld reconnects (%.1f/s) for %lld requests (over 1%%)%s",
                (long long)r->reconnects, result_reconnects_per_s(r), (long long)r->sent, causes);
}

void result_warn_idle(struct run_result *r)
{
    double mean, se;
    struct cpu_per_call c;
    result_cpu_loaded(r, &mean, &se);
    if (r->idle.n <= 0 || !(mean > 0) || !(r->idle.mean_pct > SERVER_CPU_IDLE_WARN_SHARE * mean))
        return;
    result_cpu_per_call(r, &c);
    if (!fig_known(c.net)) /* nothing answered: no CPU per call to speak of */
        return;
    result_warn(r, "the server's idle CPU (%.1f%% of a core before the load) is %.0f%% of its CPU "
                "under load (%.1f%%): that share of the %.3f CPU-ms/call is its own background; "
                "net of idle %.3f CPU-ms/call", r->idle.mean_pct, 100 * r->idle.mean_pct / mean,
                mean, c.raw, c.net);
}

/* Drops r's baseline with a warning giving its figures and why (a phrase:
 * "above its CPU under load (2.4%)"). */
static void refuse_idle(struct run_result *r, const char *why)
{
    result_warn(r, "idle baseline refused: the server used %.1f%% of a core in the %.1fs before "
                "the load, %s: not idle (busy with something else, such as a socket a previous "
                "run left); CPU per call is raw only", r->idle.mean_pct, r->idle.duration_s, why);
    r->idle = (struct idle_cpu){.mean_pct = FIG_UNKNOWN, .se_pct = FIG_UNKNOWN,
                                .quiet_pct = FIG_UNKNOWN};
}

/* @return 1 when a baseline of mean % is above the quiet level q (%):
 * more than twice it, and by more than SERVER_CPU_IDLE_QUIET_PTS. */
static int above_quiet(double mean, double q)
{
    return fig_known(q) && mean > 2 * q && mean - q > SERVER_CPU_IDLE_QUIET_PTS;
}

int result_refuse_idle_above(struct run_result *r, double quiet_pct)
{
    char why[96];
    if (r->idle.n <= 0 || !above_quiet(r->idle.mean_pct, quiet_pct))
        return 0;
    snprintf(why, sizeof why, "above its quiet level (%.1f%%, another run's baseline)", quiet_pct);
    refuse_idle(r, why);
    return 1;
}

int result_refuse_idle(struct run_result *r)
{
    double mean, se;
    const struct idle_cpu *i = &r->idle;
    if (i->n <= 0)
        return 0;
    result_cpu_loaded(r, &mean, &se);
    int above_load = fig_known(mean) && i->mean_pct > mean;
    if (!above_load && !above_quiet(i->mean_pct, i->quiet_pct))
        return 0;
    char why[96];
    if (above_load)
        snprintf(why, sizeof why, "above its CPU under load (%.1f%%)", mean);
    else
        snprintf(why, sizeof why, "above its quiet level (%.1f%%, its quietest interval)",
                 i->quiet_pct);
    refuse_idle(r, why);
    return 1;
}

void result_check_warnings(struct run_result *r)
{
    const char *what = counts_mismatch(r);
    if (what)
        result_warn(r, "counts: %s do not add up to offered %lld, sent %lld, unsent %lld, ok "
                    "%lld, errors %lld, unfinished %lld (a bug: please report it)", what,
                    (long long)r->offered, (long long)r->sent, (long long)r->unsent,
                    (long long)r->ok, (long long)r->errors, (long long)r->unfinished);
    warn_failures(r);
    warn_interrupted(r);
    warn_saturation(r);
    warn_client(r);
    /* At 0.5 % the hypervisor takes 10 ms of each core in a 2 s run: pauses
     * that long reach the send lag's p99 at kHz rates (bench/RESULTS.md has
     * runs with and without steal). */
    if (r->machine_steal_pct >= 0.5)
        result_warn(r, "hypervisor steal %.1f%% of CPU time: the VM was paused now and then; "
                    "latencies and send lag include those pauses (rerun, or compare rounds)",
                    r->machine_steal_pct);
    unsigned f = result_limits(r);
    if (f & RESULT_SERVER_BOUND)
        result_warn(r, "%.1f%% of the requests offered waited for a free connection (all %d "
                    "busy): the server is slower than the rate, or raise --connections",
                    queued_pct(r), r->cfg.connections);
    else if ((f & RESULT_CLIENT_BOUND) && !r->closed_loop && queued_pct(r) >= RESULT_QUEUED_PCT)
        result_warn(r, "%.1f%% of the requests offered waited for a free connection (all %d "
                    "busy) while the client was busy itself: a client slow to read answers "
                    "keeps connections busy, so this is no sign against the server",
                    queued_pct(r), r->cfg.connections);
    if (r->stray_replies && strncmp(r->target_url, "stomp", 5))
        result_warn(r, "%lld stray %s: bytes came that no request asked for (a second answer, "
                    "or one before the request); each closed its connection",
                    (long long)r->stray_replies, r->stray_replies == 1 ? "reply" : "replies");
    if (f & RESULT_RATE_NOT_HELD)
        result_warn(r, "rate not held: achieved %.2f/s of %.2f/s target; held back by %s",
                    r->rate_achieved, r->cfg.rate, result_rate_holder(f));
    if (r->cfg.tls_insecure)
        result_warn(r, "TLS without verifying the server (--insecure): anyone could have "
                    "answered");
    if (r->stomp_errors)
        result_warn(r, "%lld STOMP ERROR frames; the last said: %.80s",
                    (long long)r->stomp_errors, r->stomp_error);
    warn_churn(r);
    if (r->server_vanished)
        result_warn(r, "a watched server process vanished during the run");
    char why[RUN_WARNING_LEN];
    for (size_t k = 0; k <= r->nstages; k++)
        if (result_stage_warning(r, k, why, sizeof why))
            result_warn(r, "%s", why);
}

void result_format_start(double start_unix, char *out, size_t len)
{
    struct tm tm;
    time_t sec = (time_t)start_unix;
    long us = lround((start_unix - (double)sec) * 1e6);
    if (us >= 1000000) { /* the fraction rounded up to the next second */
        sec++;
        us -= 1000000;
    }
    if (len)
        out[0] = '\0';
    if (!(start_unix > 0) || !gmtime_r(&sec, &tm) || len < 32)
        return;
    size_t n = strftime(out, len, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, len - n, ".%06ldZ", us);
}
