/* run_hooks: what a run calls back while it goes (the --hdr-log sink,
 * live metrics, a distributed run's start and merge, the request log, a
 * fleet, the profiler's window): pointers, so never part of the saved or
 * sent configuration (run_config.h). */
#ifndef RPCBENCH_RUN_HOOKS_H
#define RPCBENCH_RUN_HOOKS_H

#include <stdint.h>

#include "stats/hist.h"
#include "proc/sampler.h"

struct interval_rec;
struct reqlog;
struct targets_file;
struct run_result;

/* Called for every measured interval with the histogram of the latencies
 * (us, from the intended send time) of the requests answered ok in it; the
 * last call covers the drain after the window, so the calls' counts add up
 * to requests.ok. start_s is since the measured window's start. */
typedef void (*interval_hook)(void *ctx, const struct interval_rec *rec, const struct hist *h,
                              double start_s, double len_s);

/* What the engine hands run_hooks.on_tick when it closes an interval,
 * before the interval's percentiles are taken (a distributed run merges
 * the other ranks' intervals into it there: dist.h). last: the call after
 * the drain, with no interval (rec, pt and ival NULL) but the drain's
 * counts, which go to the last interval. Everything stays the engine's. */
struct tick_data {
    int64_t k;                /* grid index; k <= 0: warmup */
    int last;
    struct interval_rec *rec;
    struct proc_point *pt;
    struct hist *ival;        /* ok latencies of the interval (warmup too) */
    struct hist *hook;        /* measured ok latencies since the last hook call */
    int64_t *sent, *ok, *errors, *unsent, *due; /* last: the counts after the ticks */
};
/* Called once the connections are up, before the first send: may set
 * *t0_ns (CLOCK_MONOTONIC, in the future) as the common start. @return 0,
 * or -1 with err (ERR_LEN): the run does not start, engine_run fails. */
typedef int (*start_hook)(void *ctx, int64_t *t0_ns, char *err);
typedef void (*tick_hook)(void *ctx, struct tick_data *t);
/* The measured window's edges (CLOCK_MONOTONIC ns): called once as it
 * opens (end 0: from_ns its start, to_ns its planned end) and once as it
 * closes (end 1: [from_ns, to_ns] the window as measured, shorter after a
 * signal). A profiler is started and stopped there (issue 27); the call
 * must not block. */
typedef void (*window_hook)(void *ctx, int end, int64_t from_ns, int64_t to_ns);

/* What a run looks like while it goes, handed to run_hooks.on_snapshot as
 * each interval closes (warmup too) and once more for the drain after the
 * window: the live figures for --metrics-listen. latency: the measured ok
 * latencies (us) since the last call (NULL in warmup), so that the calls'
 * counts add up to requests.ok, as interval_hook's do. Everything is the
 * engine's, valid during the call only. */
struct live_view {
    const struct run_result *res;   /* counters so far (measured window) */
    const struct interval_rec *rec; /* the interval just closed; NULL: the drain */
    const struct hist *latency;
    int warmup;                     /* the interval was the warmup's */
    int64_t in_flight;              /* requests sent and not yet answered */
    double interval_s;              /* the interval's length */
};
typedef void (*snapshot_hook)(void *ctx, const struct live_view *v);

/* What a run calls back while it goes: not part of its configuration
 * (which is saved, sent to MPI ranks as bytes and compared), since
 * pointers mean nothing outside this process. Each may be NULL. */
struct run_hooks {
    interval_hook on_interval; /* --hdr-log's sink */
    void *interval_ctx;
    snapshot_hook on_snapshot; /* --metrics-listen's live figures */
    void *snapshot_ctx;
    start_hook on_start;       /* a distributed run (dist.h): the common start */
    tick_hook on_tick;         /* ... and its live interval merge */
    void *dist_ctx;            /* on_start's and on_tick's */
    struct reqlog *reqlog;     /* --requests-log (client/reqlog.h), the caller's */
    const struct targets_file *targets; /* --targets (client/targets_file.h): the
                                           fleet, the caller's; NULL: cfg's url */
    window_hook on_window;     /* --profile: the window's edges */
    void *window_ctx;
};

#endif
