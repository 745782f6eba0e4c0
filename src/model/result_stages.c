/* result_stages: where a --stages run's stages lie in its measured window,
 * and the per-stage figures that are computed rather than counted (the
 * server CPU from the timeline's samples). The counts and histograms are
 * recorded by the engine (client/engine_record.c). */
#include "model/result.h"

int result_stages_init(struct run_result *r)
{
    r->nstages = r->cfg.nstages <= RUN_MAX_STAGES ? r->cfg.nstages : RUN_MAX_STAGES;
    for (size_t i = 0; i < r->nstages; i++) {
        r->stages[i].server_cpu_pct = r->stages[i].server_cpu_ms = -1;
        if (hist_init_latency(&r->stages[i].latency))
            return -1;
    }
    return 0;
}

int64_t result_stage_start(const struct run_config *cfg, size_t i)
{
    int64_t t = 0;
    for (size_t j = 0; j < i && j < cfg->nstages; j++)
        t += cfg->stages[j].duration_ns;
    return t;
}

int result_stage_of(const struct run_config *cfg, int64_t off_ns)
{
    if (off_ns < 0)
        return -1;
    int64_t end = 0;
    for (size_t i = 0; i < cfg->nstages; i++) {
        end += cfg->stages[i].duration_ns;
        if (off_ns < end)
            return (int)i;
    }
    return -1;
}

double result_stage_offered(const struct run_stage *st)
{
    return (st->from + st->to) / 2 * (double)st->duration_ns / 1e9;
}

/* The overlap of [a0, a1) and [b0, b1), ns (0 when none). */
static int64_t overlap(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
    int64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    return hi > lo ? hi - lo : 0;
}

/* Sample i covers the time since the one before it (the first: since the
 * window's start) up to its t_ns. */
static void stage_cpu(struct run_result *r, size_t i)
{
    int64_t s0 = result_stage_start(&r->cfg, i), s1 = s0 + r->cfg.stages[i].duration_ns;
    double weighted = 0;
    int64_t covered = 0, prev = 0;
    for (size_t j = 0; j < r->nsamples; j++) {
        const struct proc_point *p = &r->samples[j];
        int64_t ov = overlap(prev, p->t_ns, s0, s1);
        prev = p->t_ns;
        if (ov == 0 || p->server_pct < 0)
            continue;
        weighted += p->server_pct * (double)ov;
        covered += ov;
    }
    struct stage_result *st = &r->stages[i];
    if (covered == 0) {
        st->server_cpu_pct = st->server_cpu_ms = -1;
        return;
    }
    st->server_cpu_pct = weighted / (double)covered;
    st->server_cpu_ms = st->server_cpu_pct / 100 * (double)(s1 - s0) / 1e6;
}

void result_stages_cpu(struct run_result *r)
{
    for (size_t i = 0; i < r->nstages; i++)
        stage_cpu(r, i);
}

double result_stage_cpu_per_call(const struct run_result *r, size_t i)
{
    const struct stage_result *st = &r->stages[i];
    if (st->server_cpu_ms < 0 || st->ok <= 0)
        return -1;
    return st->server_cpu_ms / (double)st->ok;
}
