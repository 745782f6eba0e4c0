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
    *mean = *se = -1;
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

int result_rss_known(int64_t rss_kb)
{
    return rss_kb > 0;
}

int result_server_measured(const struct run_result *r)
{
    if (r->nwatched == 0 || r->server_cpu_ms < 0)
        return 0;
    for (size_t i = 0; i < r->nsamples; i++)
        if (r->samples[i].server_pct >= 0)
            return 1;
    return 0;
}

/* The measured intervals' CPU % into x and lengths into w (nsamples
 * each). @return how many. */
static size_t loaded_samples(const struct run_result *r, double *x, double *w)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nsamples; i++) {
        if (r->samples[i].server_pct < 0)
            continue;
        x[n] = r->samples[i].server_pct;
        w[n++] = sample_len(r, i);
    }
    return n;
}

void result_cpu_loaded(const struct run_result *r, double *mean, double *se)
{
    *mean = *se = -1;
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
    *p50 = *max = -1;
    result_cpu_loaded(r, mean, &se);
    double *x = malloc((r->nsamples + 1) * sizeof *x);
    size_t k = 0;
    /* the full intervals; when every one is short, all of them */
    for (int all = 0; x && *mean >= 0 && all < 2 && k == 0; all++)
        for (size_t i = 0; i < r->nsamples; i++)
            if (r->samples[i].server_pct >= 0 && (all || result_sample_is_full(r, i)))
                x[k++] = r->samples[i].server_pct;
    if (k) {
        qsort(x, k, sizeof *x, cmp_double);
        *p50 = k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
        *max = x[k - 1];
    }
    free(x);
}

double result_cpu_ms_per_call(const struct run_result *r)
{
    if (!result_server_measured(r) || r->ok + r->errors == 0)
        return -1;
    return r->server_cpu_ms / (double)(r->ok + r->errors);
}

void result_cpu_per_call(const struct run_result *r, struct cpu_per_call *out)
{
    double per = result_cpu_ms_per_call(r), mean, se;
    *out = (struct cpu_per_call){NAN, NAN, NAN, NAN};
    if (per < 0)
        return;
    out->raw = per;
    result_cpu_loaded(r, &mean, &se);
    /* ms of CPU per call for each % of a core held over the window */
    double scale = r->duration_s * 1000 / 100 / (double)(r->ok + r->errors);
    if (se >= 0)
        out->raw_se = se * scale;
    if (r->idle.n <= 0)
        return;
    out->net = per - r->idle.mean_pct * scale;
    if (se >= 0 && r->idle.se_pct >= 0)
        out->net_se = sqrt(se * se + r->idle.se_pct * r->idle.se_pct) * scale;
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
    if (mean < 0) {
        snprintf(out, len, "CPU n/a (%s)", server_cpu_na_reason(r));
        return;
    }
    double per = result_cpu_ms_per_call(r);
    char call[48] = "";
    if (per >= 0)
        snprintf(call, sizeof call, ", %.3f CPU-ms/call", per);
    snprintf(out, len, "CPU mean %.1f%% p50 %.1f%% max %.1f%%%s", mean, p50, max, call);
}

/* " +/- 0.012" with the digits of the figure, or "" when se is unknown. */
static void fmt_se(double se, const char *fmt, char *out, size_t len)
{
    out[0] = '\0';
    if (!isnan(se) && se >= 0)
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
    if (!isnan(c.net))
        snprintf(net, sizeof net, "; net of idle %.3f%s CPU-ms/call (raw %.3f%s)", c.net, nse,
                 c.raw, rse);
    snprintf(out, len, "idle %.1f%%%s (%.1fs before the load)%s", r->idle.mean_pct, ise,
             r->idle.duration_s, net);
}
