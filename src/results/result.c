#include "results/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "base/units.h"

const char *const err_kind_names[ERR_KINDS] = {
    "connect", "timeout", "closed", "http", "fault", "decode", "handshake",
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

int result_init(struct run_result *r, const struct run_config *cfg)
{
    memset(r, 0, sizeof *r);
    if (cfg)
        r->cfg = *cfg;
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
    return 0;
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
    free(r->intervals);
    free(r->samples);
    free(r->ranks);
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
    vsnprintf(r->warnings[r->nwarnings++], sizeof r->warnings[0], fmt, ap);
    va_end(ap);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void result_cpu_summary(const struct run_result *r, double *mean, double *p50, double *max)
{
    *mean = *p50 = *max = -1;
    double *v = malloc((r->nsamples + 1) * sizeof *v);
    size_t n = 0;
    double sum = 0;
    for (size_t i = 0; v && i < r->nsamples; i++) {
        if (r->samples[i].server_pct < 0)
            continue;
        v[n++] = r->samples[i].server_pct;
        sum += r->samples[i].server_pct;
    }
    if (n) {
        qsort(v, n, sizeof *v, cmp_double);
        *mean = sum / (double)n;
        *p50 = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        *max = v[n - 1];
    }
    free(v);
}

double result_client_cpu_mean(const struct run_result *r, double *max)
{
    double sum = 0, mx = -1;
    size_t n = 0;
    for (size_t i = 0; i < r->nsamples; i++) {
        double c = r->samples[i].client_pct;
        if (c < 0)
            continue;
        sum += c;
        n++;
        if (c > mx)
            mx = c;
    }
    if (max)
        *max = mx;
    return n ? sum / (double)n : -1;
}

double result_cpu_ms_per_call(const struct run_result *r)
{
    if (r->nwatched == 0 || r->ok + r->errors == 0 || r->server_cpu_ms < 0)
        return -1;
    return r->server_cpu_ms / (double)(r->ok + r->errors);
}

/* ", hypervisor steal 1.2%" for the client-bound warning, when the run had
 * any steal that shows at one decimal; "" otherwise. */
static const char *steal_note(const struct run_result *r, char *note, size_t len)
{
    note[0] = '\0';
    if (r->machine_steal_pct >= 0.05)
        snprintf(note, len, ", hypervisor steal %.1f%%", r->machine_steal_pct);
    return note;
}

void result_note_error(struct run_result *r, int kind, const char *fmt, ...)
{
    if (kind < 0 || kind >= ERR_KINDS || r->error_samples[kind][0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error_samples[kind], sizeof r->error_samples[kind], fmt, ap);
    va_end(ap);
}

void result_note_default(struct run_result *r, int kind, const char *host, int port)
{
    char tmo[32];
    switch (kind) {
    case ERR_CONNECT:
        result_note_error(r, kind, "could not connect to %s:%d%s%.100s", host, port,
                          r->tls_error[0] ? ": TLS " : "", r->tls_error);
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

int result_exit_code(const struct run_result *r)
{
    if (r->sent > 0 && r->ok == 0)
        return RUN_EXIT_NO_SUCCESS;
    return r->interrupted ? RUN_EXIT_INTERRUPTED : 0;
}

/* The failed share, then the first error of each kind that occurred. */
static void warn_failures(struct run_result *r)
{
    if (r->errors == 0)
        return;
    int64_t done = r->ok + r->errors;
    /* Kinds that had an answer; the others (connect, handshake, closed,
     * timeout) never got one, and are not called answered. */
    int64_t answered = r->err[ERR_HTTP] + r->err[ERR_FAULT] + r->err[ERR_DECODE];
    if (r->ok == 0 && answered == r->errors)
        result_warn(r, "no request succeeded: %lld of %lld answered requests failed (100%%); "
                    "latency figures are n/a", (long long)r->errors, (long long)done);
    else if (r->ok == 0)
        result_warn(r, "no request succeeded: %lld failed, %lld of them never answered; "
                    "latency figures are n/a", (long long)r->errors,
                    (long long)(r->errors - answered));
    else
        result_warn(r, "%.1f%% of answered requests failed (%lld of %lld); latency covers the "
                    "successful ones", 100.0 * (double)r->errors / (double)done,
                    (long long)r->errors, (long long)done);
    for (int k = 0; k < ERR_KINDS; k++)
        if (r->err[k])
            result_warn(r, "first %s error (%lld in all): %s", err_kind_names[k],
                        (long long)r->err[k],
                        r->error_samples[k][0] ? r->error_samples[k] : "(not recorded)");
}

/* @return the index of the first sample at or above --cpu-saturation, or
 * -1 when none is. */
static long first_saturated(const struct run_result *r)
{
    for (size_t i = 0; i < r->nsamples; i++)
        if (r->samples[i].server_pct >= r->cfg.cpu_saturation)
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

unsigned result_limits(const struct run_result *r)
{
    unsigned f = 0;
    double lag99;
    if (first_saturated(r) >= 0)
        f |= RESULT_SATURATED;
    if (result_client_cpu_mean(r, NULL) > 80 && !r->cfg.busy_poll) /* polling is always busy */
        f |= RESULT_CLIENT_BOUND;
    else if (late_pacer(r, &lag99))
        f |= RESULT_LATE_PACER;
    if (!r->closed_loop && r->cfg.rate > 0 && r->rate_achieved < 0.99 * r->cfg.rate)
        f |= RESULT_RATE_NOT_HELD;
    return f;
}

static void warn_client(struct run_result *r)
{
    unsigned f = result_limits(r);
    double cmean = result_client_cpu_mean(r, NULL);
    char note[48];
    double lag99;
    late_pacer(r, &lag99);
    if (f & RESULT_CLIENT_BOUND)
        result_warn(r, "client-bound: client CPU %.0f%% of a core; the client, not the server, "
                    "may limit these figures", cmean);
    else if (f & RESULT_LATE_PACER)
        result_warn(r, "late pacer: pacer lag p99 %.2fms with the client at %.0f%% CPU: the "
                    "machine (load %.2f%s) kept the client from sending on time; latencies "
                    "include that delay", lag99, cmean, r->loadavg1,
                    steal_note(r, note, sizeof note));
}

static void warn_interrupted(struct run_result *r)
{
    if (!r->interrupted)
        return;
    char planned[32];
    units_format_duration(r->cfg.duration_ns, planned, sizeof planned);
    result_warn(r, "interrupted (SIGINT) after %.2fs of the planned %s: the figures cover only "
                "that part", r->duration_s, planned);
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

void result_check_warnings(struct run_result *r)
{
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
    int64_t written = r->sent - r->unfinished;
    if (!r->closed_loop && written > 0 && 100.0 * (double)r->queued / (double)written >= 1)
        result_warn(r, "%.1f%% of the requests sent waited for a free connection (all %d "
                    "busy): the server is slower than the rate, or raise --connections",
                    100.0 * (double)r->queued / (double)written, r->cfg.connections);
    if (result_limits(r) & RESULT_RATE_NOT_HELD)
        result_warn(r, "rate not held: achieved %.2f/s of %.2f/s target", r->rate_achieved,
                    r->cfg.rate);
    if (r->cfg.tls_insecure)
        result_warn(r, "TLS without verifying the server (--insecure): anyone could have "
                    "answered");
    if (r->stomp_errors)
        result_warn(r, "%lld STOMP ERROR frames; the last said: %.80s",
                    (long long)r->stomp_errors, r->stomp_error);
    warn_churn(r);
    if (r->server_vanished)
        result_warn(r, "a watched server process vanished during the run");
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
