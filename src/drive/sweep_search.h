/* sweep_search: the capacity searches of `rpcbench sweep --find-max`: one
 * per protocol x verb mix, each probe a full run stored as a new cell of
 * the sweep (drive/sweep_runs.h), judged by the conditions and by what
 * limited it (result_limits); the choice of the next rate is
 * judge/capacity.c's. */
#ifndef RPCBENCH_DRIVE_SWEEP_SEARCH_H
#define RPCBENCH_DRIVE_SWEEP_SEARCH_H

#include <stddef.h>

#include "drive/sweep_runs.h"
#include "judge/condition.h"

/* A probe's run_config from its parameters p (the command line's run
 * options with p's rate, connections, vms, proto and verb mix), into
 * *cfg; ctx is the plan's. @return 0, or -1 with err. */
typedef int (*sweep_cell_config_fn)(const void *ctx, const struct sweep_params *p,
                                    struct run_config *cfg, char *err);

/* What to search (every pointer read only, kept by the caller while the
 * searches run): one search per protos[i] x verbs[j]. */
struct sweep_search_plan {
    const char (*protos)[16];  /* "" for run's default; nprotos entries */
    size_t nprotos;
    const char (*verbs)[128];  /* one mix each ("list:4,ping:1"); nverbs entries */
    size_t nverbs;
    int connections, vms;
    double rate_min, rate_max, resolution; /* resolution a fraction (0.05) */
    const struct cond_list *find; /* what a probe must hold */
    const char *find_text;        /* as given, for the outputs */
    sweep_cell_config_fn config;
    const void *ctx;
};

/* The parameters of search (ip, ib)'s probe at rate, into *p. */
void sweep_search_params(const struct sweep_search_plan *plan, size_t ip, size_t ib, double rate,
                         struct sweep_params *p);

/* Runs every search of plan in w, each to its end: w->s gets the probes
 * as cells and the searches as capacities (repeats 1). @return 0 (done,
 * or interrupted: w->interrupted the signal), or -1 with err. */
int sweep_search_run(struct sweep_runs *w, const struct sweep_search_plan *plan, char *err);

/* The exit code of w's searches (base/exit_code.h): EXIT_MIN_BREAKS when
 * one found even --rate-min breaks, else EXIT_MAX_HOLDS when one found
 * --rate-max holds, else EXIT_OK. */
int sweep_search_exit(const struct sweep_runs *w);

#endif
