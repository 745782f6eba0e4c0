/* engine_timeline: the run's uniform interval grid. Every --interval a
 * tick closes the interval: counts, p50/p99, the /proc sample taken now,
 * the progress line, and the interval hook (HdrHistogram logs). Intervals
 * sit at m0 + k * interval, so timelines of different runs line up. */
#include "base/clock.h"
#include "client/engine_int.h"
#include "proc/sampler.h"
#include "client/agent_link.h"
#include "client/progress.h"

void timeline_snapshot(struct engine *e, const struct interval_rec *rec,
                              const struct hist *latency, int warmup)
{
    if (!e->hooks.on_snapshot)
        return;
    struct live_view v = {.res = e->res, .rec = rec, .latency = latency, .warmup = warmup,
                          .in_flight = e->outstanding,
                          .interval_s = (double)e->cfg->interval_ns / 1e9};
    e->hooks.on_snapshot(e->hooks.snapshot_ctx, &v);
}

/* Hands the measured latencies since the last call to the interval hook. */
void timeline_flush_hook(struct engine *e, const struct interval_rec *rec, int64_t t_ns)
{
    if (e->hooks.on_interval && t_ns > e->hook_start_ns)
        e->hooks.on_interval(e->hooks.interval_ctx, rec, &e->hook_hist,
                             (double)(e->hook_start_ns - e->m0_ns) / 1e9,
                             (double)(t_ns - e->hook_start_ns) / 1e9);
    hist_reset(&e->hook_hist);
    e->hook_start_ns = t_ns;
}

/* Interval k's /proc (read at now) and agent figures into pt (the
 * caller's); at k 0, the grid's start: the sampler's first reading, the
 * agent's stream. */
static void sample_interval(struct engine *e, int64_t k, int64_t t_ns, int64_t now,
                            struct proc_point *pt)
{
    proc_point_unknown(pt, 0); /* what neither the sampler nor the agent reads */
    if (e->smp) {
        if (k == 0)
            sampler_start(e->smp, now);
        else
            sampler_sample(e->smp, now, pt);
    }
    if (e->agent) { /* the server's host's figures, never waited for */
        if (k == 0)
            agent_link_start(e->agent, t_ns, e->cfg->interval_ns);
        else
            agent_link_take(e->agent, k, pt);
    }
}

/* Closes the interval ending at t_ns (grid index k; k <= 0 is warmup). */
void timeline_close(struct engine *e, int64_t k, int64_t t_ns)
{
    struct interval_rec rec = {0};
    struct proc_point pt;
    int64_t now = clock_now_ns();
    if (k == 0)
        timeline_window_edge(e, 0);
    sample_interval(e, k, t_ns, now, &pt);
    rec.t = (double)(t_ns - e->m0_ns) / 1e9;
    int64_t from = e->m0_ns + (k - 1) * e->cfg->interval_ns;
    if (from < e->m0_ns - e->cfg->warmup_ns)
        from = e->m0_ns - e->cfg->warmup_ns;
    rec.offered = lanes_offered(e, from, t_ns);
    /* Warmup intervals show the warmup's requests; measured ones count the
     * measured requests only (the ledger keeps them apart), each column by
     * its own stamp; what comes for it later joins it at the end. */
    const struct ival_tally *tl = ledger_ival_close(e, k);
    if (tl) {
        rec.due = tl->due;
        rec.sent = tl->sent;
        rec.unsent = tl->unsent;
        rec.ok = tl->ok;
        rec.errors = tl->errors;
    }
    if (e->hooks.on_tick) { /* a distributed run: every rank's interval in one */
        struct tick_data t = {.k = k, .rec = &rec, .pt = &pt, .ival = &e->ival_hist,
                              .hook = &e->hook_hist};
        e->hooks.on_tick(e->hooks.dist_ctx, &t);
    }
    int answered = e->ival_hist.total_count > 0; /* else no latency: unknown, not 0 */
    rec.p50_ms = answered ? (double)hist_percentile(&e->ival_hist, 50) / 1000.0 : FIG_UNKNOWN;
    rec.p99_ms = answered ? (double)hist_percentile(&e->ival_hist, 99) / 1000.0 : FIG_UNKNOWN;
    rec.server_cpu_pct = pt.server_pct;
    rec.client_cpu_pct = pt.client_pct;
    rec.server_rss_kb = pt.server_rss_kb;
    if (k > 0) {
        pt.t_ns = t_ns - e->m0_ns;
        result_add_interval(e->res, &rec);
        result_add_sample(e->res, &pt);
        timeline_snapshot(e, &rec, &e->hook_hist, 0);
        timeline_flush_hook(e, &rec, t_ns);
    } else {
        e->hook_start_ns = e->m0_ns;
        timeline_snapshot(e, &rec, NULL, 1);
    }
    if (!e->cfg->quiet)
        progress_line(e->cfg, &rec, k <= 0, (double)(e->end_ns - e->m0_ns) / 1e9);
    /* The answers stamped past this interval, read before it closed, are
     * the next one's start. */
    hist_reset(&e->ival_hist);
    hist_reset(&e->hook_hist);
    struct hist h = e->ival_hist;
    e->ival_hist = e->ival_next;
    e->ival_next = h;
    h = e->hook_hist;
    e->hook_hist = e->hook_next;
    e->hook_next = h;
}

void timeline_tick_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    struct engine *e = w->data;
    conn_pool_harvest(&e->pool); /* answers in by the tick count in its interval */
    int64_t now = clock_now_ns();
    int64_t step = e->cfg->interval_ns;
    while (e->m0_ns + e->tick_k * step <= now && e->m0_ns + e->tick_k * step < e->end_ns) {
        timeline_close(e, e->tick_k, e->m0_ns + e->tick_k * step);
        e->tick_k++;
    }
    int64_t next = e->m0_ns + e->tick_k * step;
    if (next >= e->end_ns)
        return; /* the end closes the last interval */
    ev_timer_set(w, (double)(next - now) / 1e9, 0);
    ev_timer_start(loop, w);
}

void timeline_window_edge(struct engine *e, int end)
{
    if (e->hooks.on_window)
        e->hooks.on_window(e->hooks.window_ctx, end, e->m0_ns, e->end_ns);
}
