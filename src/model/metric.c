/* metric: the one table of figures (metric.h). */
#include "model/metric.h"

#include <math.h>
#include <string.h>

#include "model/server_cpu.h"

static double pct_of(const struct run_result *r, double p)
{
    const struct hist *h = &r->latency;
    return h->total_count ? (double)hist_percentile(h, p) / 1000 : FIG_UNKNOWN;
}

static double p50(const struct run_result *r) { return pct_of(r, 50); }
static double p90(const struct run_result *r) { return pct_of(r, 90); }
static double p99(const struct run_result *r) { return pct_of(r, 99); }

static double mean(const struct run_result *r)
{
    return r->latency.total_count ? hist_mean(&r->latency) / 1000 : FIG_UNKNOWN;
}

static double rate(const struct run_result *r)
{
    return r->rate_achieved;
}

static double errors(const struct run_result *r)
{
    return (double)r->errors;
}

static double cpu_pct(const struct run_result *r)
{
    double m, p, max;
    result_cpu_summary(r, &m, &p, &max);
    return m;
}

static double cpu_ms(const struct run_result *r)
{
    return result_cpu_ms_per_call(r);
}

static double bytes(const struct run_result *r)
{
    int64_t answered = r->ok + r->errors;
    return answered > 0 ? (double)r->bytes_received / (double)answered : FIG_UNKNOWN;
}

/* The client's CPU per answer: its mean share of a core over the measured
 * window, times the window, over the answers. */
static double client_ms(const struct run_result *r)
{
    double max, share = result_client_cpu_mean(r, &max);
    int64_t answered = r->ok + r->errors;
    return fig_known(share) && answered > 0
               ? share / 100 * r->duration_s * 1000 / (double)answered : FIG_UNKNOWN;
}

#ifdef RPCBENCH_TEST_FIGURE
/* A value no run has by chance, for the test to find in every output. */
static double test_figure(const struct run_result *r)
{
    (void)r;
    return 41713;
}
#endif

const struct metric_def metric_defs[METRIC_ALL] = {
    [METRIC_P50] = {"p50", "p50 latency", "p50_ms", "p50", "p50", MU_MS, 0, 2, 0, p50},
    [METRIC_P90] = {"p90", "p90 latency", "p90_ms", "p90", "p90", MU_MS, 0, 3, 0, p90},
    [METRIC_P99] = {"p99", "p99 latency", "p99_ms", "p99", "p99", MU_MS, 0, 4, 0, p99},
    [METRIC_MEAN] = {"mean", "mean latency", "mean_ms", "mean", "mean", MU_MS, 0, 0, 0, mean},
    [METRIC_RATE] = {"rate", "achieved rate", "rate_per_s", "rate", "achieved/s", MU_PER_S, 1, 1, 0,
                     rate},
    [METRIC_ERRORS] = {"errors", "errors", "errors", "errors", "errors", MU_COUNT, 0, 5, 0, errors},
    [METRIC_CPU_PCT] = {"server_cpu", "server CPU", "server_cpu_pct", "cpu", "CPU %", MU_PCT, 0, 6,
                        0, cpu_pct},
    /* Files before issue 40 keyed this figure cpu_ms_per_call in the sweep's
     * CSV and a stage of a saved result (docs/files.md says so). */
    [METRIC_CPU_MS] = {"cpu_ms_per_call", "server CPU-ms/call", "server_cpu_ms_per_call",
                       "cpu-ms", "CPU-ms/call", MU_CPU_MS, 0, 7, 0, cpu_ms},
    [METRIC_BYTES] = {"bytes", "bytes/response", "bytes_per_response", "bytes", "bytes/resp",
                      MU_BYTES, 0, 8, 0, bytes},
    [METRIC_CLIENT_CPU_MS] = {"client_cpu_ms", "client CPU-ms/answer", "client_cpu_ms_per_answer",
                              "client-cpu-ms", "client CPU-ms", MU_CPU_MS, 0, 0, 1, client_ms},
    /* --threshold's own: judge/condition.c reads them (a verb's, a stage's) */
    [METRIC_MAX] = {"max", "max latency", NULL, NULL, "max", MU_MS, 0, 0, 0, NULL},
    [METRIC_MIN] = {"min", "min latency", NULL, NULL, "min", MU_MS, 0, 0, 0, NULL},
    [METRIC_UNFINISHED] = {"unfinished", "unfinished", NULL, NULL, "unfinished", MU_COUNT, 0, 0, 0,
                           NULL},
    [METRIC_SEND_LAG_MAX] = {"send_lag_max", "max send lag", NULL, NULL, "send lag max", MU_MS,
                             0, 0, 0, NULL},
#ifdef RPCBENCH_TEST_FIGURE
    [METRIC_TEST_FIGURE] = {"test_figure", "test figure", "test_figure_n", "test_figure",
                            "test fig", MU_COUNT, 0, 9, 1, test_figure},
#endif
};

const struct metric_def *metric_find(const char *s, size_t len)
{
    for (int i = 0; i < METRIC_N; i++)
        if (strlen(metric_defs[i].name) == len && !strncmp(metric_defs[i].name, s, len))
            return &metric_defs[i];
    return NULL;
}

const struct metric_def *metric_named(const char *s)
{
    for (int i = 0; i < METRIC_ALL; i++)
        if (!strcmp(metric_defs[i].name, s))
            return &metric_defs[i];
    return NULL;
}

int metric_sweep_n(void)
{
    int n = 0;
    for (int i = 0; i < METRIC_N; i++)
        n += metric_defs[i].sweep_col > 0;
    return n;
}

enum metric metric_sweep_fig(int k)
{
    for (int i = 0; i < METRIC_N; i++)
        if (metric_defs[i].sweep_col == k + 1)
            return (enum metric)i;
    return METRIC_N; /* not reached: every column has its row (test_metric) */
}

void metric_values(const struct run_result *r, double *v)
{
    for (int i = 0; i < METRIC_N; i++)
        v[i] = metric_defs[i].value(r);
}

int metric_per_call(enum metric f)
{
    return f == METRIC_P50 || f == METRIC_P90 || f == METRIC_P99 || f == METRIC_MEAN;
}

/* The same figure as the run's, from one call's own histogram. */
double metric_call_value(const struct run_result *r, const char *call, enum metric f)
{
    const struct verb_result *v = NULL;
    for (size_t i = 0; i < r->nverbs && !v; i++)
        if (!strcmp(r->verbs[i].name, call))
            v = &r->verbs[i];
    if (!v || !metric_per_call(f) || !v->latency.total_count)
        return FIG_UNKNOWN;
    if (f == METRIC_MEAN)
        return hist_mean(&v->latency) / 1000;
    double p = f == METRIC_P50 ? 50 : f == METRIC_P90 ? 90 : 99;
    return (double)hist_percentile(&v->latency, p) / 1000;
}
