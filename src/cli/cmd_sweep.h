/* cmd_sweep: what `rpcbench sweep` holds while it runs: the command line
 * (sweep_args.c) and its runs (drive/sweep_runs.h, drive/sweep_search.h).
 * Internal to cli/. */
#ifndef RPCBENCH_CLI_SWEEP_H
#define RPCBENCH_CLI_SWEEP_H

#include "cli/options.h"
#include "cli/sweep_args.h"
#include "drive/sweep_runs.h"

_Static_assert(SWEEP_MAX_LIST <= SWEEP_MAX_SERVERS, "a simulator for each --vms size");

/* The whole sweep; static in cmd_sweep (large). */
struct sweep_cmd {
    struct options *o;
    struct sweep_args *a;
    struct sweep_runs w;
    struct run_config *cfgs; /* the grid's, one per cell (malloc'd) */
};

#endif
