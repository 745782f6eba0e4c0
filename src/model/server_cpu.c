/* server_cpu: the server's CPU figures of a result (server_cpu.h). */
#include "model/server_cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int64_t server_cpu_idle_ns(const struct run_config *cfg)
{
    if (cfg->idle_baseline_ns >= 0)
        return cfg->idle_baseline_ns;
    int named = cfg->nserver_pids > 0 || cfg->server_name[0];
    return named && cfg->rate > 0 && cfg->rate < SERVER_CPU_AUTO_IDLE_RATE
               ? SERVER_CPU_AUTO_IDLE_NS : 0;
}

void server_cpu_wstats(const double *x, const double *w, size_t n, double *mean, double *se)
{
    double sw = 0, swx = 0, ss = 0;
    *mean = *se = FIG_UNKNOWN;
    for (size_t i = 0; i < n; i++) {
        sw += w[i];
        swx += w[i] * x[i];
    }
    if (n == 0 || sw <= 0)
        return;
    *mean = swx / sw;
    if (n < 2)
        return;
    for (size_t i = 0; i < n; i++)
        ss += w[i] * w[i] * (x[i] - *mean) * (x[i] - *mean);
    *se = sqrt((double)n / (double)(n - 1) * ss) / sw;
}

/* The length (s) of sample i's interval: from the previous sample's time,
 * or --interval when the times do not tell (merged or old files). */
static double sample_len(const struct run_result *r, size_t i)
{
    double t = (double)r->samples[i].t_ns / 1e9;
    double prev = i ? (double)r->samples[i - 1].t_ns / 1e9 : 0;
    double step = (double)r->cfg.interval_ns / 1e9;
    return t > prev && (t - prev) < 2 * step + 1 ? t - prev : step > 0 ? step : 1;
}

int result_sample_is_full(const struct run_result *r, size_t i)
{
    return sample_len(r, i) >= (double)r->cfg.interval_ns / 2e9;
}

int result_server_sampled(const struct run_result *r)
{
    return r->nwatched > 0 || r->agent.url[0] || r->server_cpu_source[0];
}

int result_server_measured(const struct run_result *r)
{
    if (r->nwatched == 0 || !fig_known(r->server_cpu_ms))
        return 0;
    for (size_t i = 0; i < r->nsamples; i++)
        if (fig_known(r->samples[i].server_pct))
            return 1;
    return 0;
}

/* The measured intervals' CPU % into x and lengths into w (nsamples
 * each). @return how many. */
static size_t loaded_samples(const struct run_result *r, double *x, double *w)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nsamples; i++) {
        if (!fig_known(r->samples[i].server_pct))
            continue;
        x[n] = r->samples[i].server_pct;
        w[n++] = sample_len(r, i);
    }
    return n;
}

void result_cpu_loaded(const struct run_result *r, double *mean, double *se)
{
    *mean = *se = FIG_UNKNOWN;
    double *x = malloc((r->nsamples + 1) * 2 * sizeof *x);
    if (x && result_server_measured(r))
        server_cpu_wstats(x, x + r->nsamples + 1, loaded_samples(r, x, x + r->nsamples + 1),
                          mean, se);
    free(x);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A partial interval (the few ms after SIGINT) weighs in the mean for its
 * length, but a short one says little of a median or a peak: those use
 * the intervals at least half an --interval long, when there are any. */
void result_cpu_summary(const struct run_result *r, double *mean, double *p50, double *max)
{
    double se;
    *p50 = *max = FIG_UNKNOWN;
    result_cpu_loaded(r, mean, &se);
    double *x = malloc((r->nsamples + 1) * sizeof *x);
    size_t k = 0;
    /* the full intervals; when every one is short, all of them */
    for (int all = 0; x && fig_known(*mean) && all < 2 && k == 0; all++)
        for (size_t i = 0; i < r->nsamples; i++)
            if (fig_known(r->samples[i].server_pct) && (all || result_sample_is_full(r, i)))
                x[k++] = r->samples[i].server_pct;
    if (k) {
        qsort(x, k, sizeof *x, cmp_double);
        *p50 = k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
        *max = x[k - 1];
    }
    free(x);
}

int result_kind_answered(int kind)
{
    /* the kinds whose answer came from the server; connect, timeout,
     * closed and handshake failures never reached it or never came back */
    return req_ok(kind) || kind == ERR_HTTP || kind == ERR_FAULT || kind == ERR_DECODE ||
           kind == ERR_AUTH || kind == ERR_CHECK;
}

int64_t result_answered_calls(const struct run_result *r)
{
    int64_t n = r->ok;
    for (int k = 0; k < ERR_KINDS; k++)
        n += result_kind_answered(k) ? r->err[k] : 0;
    return n;
}

/* The share of r's errors that the server answered (0 without errors). */
static double answered_error_share(const struct run_result *r)
{
    int64_t errs = result_answered_calls(r) - r->ok;
    return r->errors > 0 ? (double)errs / (double)r->errors : 0;
}

/* Interval i's answered calls, given the share of errors answered. */
static double interval_answered(const struct run_result *r, size_t i, double err_share)
{
    return (double)r->intervals[i].ok + (double)r->intervals[i].errors * err_share;
}

double result_interval_answered(const struct run_result *r, size_t i)
{
    return interval_answered(r, i, answered_error_share(r));
}

/* @return 1 when every sample measured the server, 0 when some did not (it
 * exited, was not found yet). */
static int all_measured(const struct run_result *r)
{
    for (size_t i = 0; i < r->nsamples; i++)
        if (!fig_known(r->samples[i].server_pct))
            return 0;
    return 1;
}

/* The window where the server was measured (cpu_window). */
struct cpu_window {
    double cpu_ms;   /* the server's CPU in it */
    double len_s;    /* its length */
    double answered; /* the calls it answered in it */
    double err_share; /* answered errors / errors */
    int by_interval; /* the timeline lines up with the samples (per-interval figures) */
};

/* The window where the server lived: all of it when every interval
 * measured the server, else the intervals that did (a server killed
 * mid-run answers nothing after, and its CPU is not read after: the calls
 * that failed there are not its). @return 0, or -1 when not measured. */
static int cpu_window(const struct run_result *r, struct cpu_window *w)
{
    if (!result_server_measured(r))
        return -1;
    *w = (struct cpu_window){.cpu_ms = r->server_cpu_ms, .len_s = r->duration_s,
                             .answered = (double)result_answered_calls(r),
                             .err_share = answered_error_share(r),
                             .by_interval = r->nintervals == r->nsamples && r->nsamples > 0};
    if (all_measured(r) || !w->by_interval)
        return 0;
    w->len_s = w->answered = 0;
    for (size_t i = 0; i < r->nsamples; i++)
        if (fig_known(r->samples[i].server_pct)) {
            w->len_s += sample_len(r, i);
            w->answered += interval_answered(r, i, w->err_share);
        }
    return 0;
}

double result_cpu_ms_per_call(const struct run_result *r)
{
    struct cpu_window w;
    if (cpu_window(r, &w) || !(w.answered > 0))
        return NAN;
    return w.cpu_ms / w.answered;
}

/* The standard error of per: the ratio estimator's, from each measured
 * interval's CPU (ms) and answered calls, so that a planned change of
 * rate (a ramp) moves CPU and calls together and is no noise:
 * se^2 = n/(n-1) * sum (cpu_i - per * a_i)^2 / (sum a_i)^2. @return it, or
 * FIG_UNKNOWN when fewer than 2 intervals measured the server. */
static double per_call_se(const struct run_result *r, const struct cpu_window *w, double per)
{
    double ss = 0, sa = 0;
    size_t n = 0;
    for (size_t i = 0; i < r->nsamples; i++) {
        if (!fig_known(r->samples[i].server_pct))
            continue;
        double cpu = r->samples[i].server_pct / 100 * sample_len(r, i) * 1000;
        double a = interval_answered(r, i, w->err_share);
        ss += (cpu - per * a) * (cpu - per * a);
        sa += a;
        n++;
    }
    if (n < 2 || !(sa > 0))
        return FIG_UNKNOWN;
    return sqrt((double)n / (double)(n - 1) * ss) / sa;
}

void result_cpu_per_call(const struct run_result *r, struct cpu_per_call *out)
{
    struct cpu_window w;
    double mean, se;
    *out = (struct cpu_per_call){FIG_UNKNOWN, FIG_UNKNOWN, FIG_UNKNOWN, FIG_UNKNOWN};
    if (cpu_window(r, &w) || !(w.answered > 0))
        return;
    out->raw = w.cpu_ms / w.answered;
    /* ms of CPU per call for each % of a core held over the window */
    double scale = w.len_s * 1000 / 100 / w.answered;
    result_cpu_loaded(r, &mean, &se);
    if (w.by_interval)
        se = per_call_se(r, &w, out->raw);
    else /* no timeline: the spread of CPU % (rates assumed even; unknown stays so) */
        se *= scale;
    out->raw_se = se;
    if (r->idle.n <= 0)
        return;
    double net = out->raw - r->idle.mean_pct * scale;
    if (net < 0) /* idle above the load: refused (result_refuse_idle), never negative */
        return;
    out->net = net;
    if (fig_known(se) && fig_known(r->idle.se_pct))
        out->net_se = sqrt(se * se + r->idle.se_pct * scale * r->idle.se_pct * scale);
}

const char *server_cpu_na_reason(const struct run_result *r)
{
    if (r->nwatched == 0)
        return "not sampled: no --server-pid or --server-name";
    if (r->server_vanished)
        return "not measured: the server process exited";
    if (r->agent.url[0] && r->server_cpu_source[0]) /* it sampled, then stopped */
        return "not measured: the agent's samples stopped";
    return "not measured: the server process was not found";
}

void server_cpu_text(const struct run_result *r, char *out, size_t len)
{
    double mean, p50, max;
    result_cpu_summary(r, &mean, &p50, &max);
    if (!fig_known(mean)) {
        snprintf(out, len, "CPU n/a (%s)", server_cpu_na_reason(r));
        return;
    }
    double per = result_cpu_ms_per_call(r);
    char call[48] = "";
    if (fig_known(per))
        snprintf(call, sizeof call, ", %.3f CPU-ms/call", per);
    snprintf(out, len, "CPU mean %.1f%% p50 %.1f%% max %.1f%%%s", mean, p50, max, call);
}

/* " +/- 0.012" with the digits of the figure, or "" when se is unknown. */
static void fmt_se(double se, const char *fmt, char *out, size_t len)
{
    out[0] = '\0';
    if (fig_known(se))
        snprintf(out, len, fmt, se);
}

void server_cpu_idle_text(const struct run_result *r, char *out, size_t len)
{
    struct cpu_per_call c;
    char ise[32], nse[32], rse[32], net[96] = "";
    out[0] = '\0';
    if (r->idle.n <= 0)
        return;
    result_cpu_per_call(r, &c);
    fmt_se(r->idle.se_pct, " +/- %.1f%%", ise, sizeof ise);
    fmt_se(c.net_se, " +/- %.3f", nse, sizeof nse);
    fmt_se(c.raw_se, " +/- %.3f", rse, sizeof rse);
    if (fig_known(c.net))
        snprintf(net, sizeof net, "; net of idle %.3f%s CPU-ms/call (raw %.3f%s)", c.net, nse,
                 c.raw, rse);
    snprintf(out, len, "idle %.1f%%%s (%.1fs before the load)%s", r->idle.mean_pct, ise,
             r->idle.duration_s, net);
}
