/* cmd_sweep: what `rpcbench sweep` holds while it runs, shared by its
 * files: cmd_sweep.c (options, the grid's runs, outputs, exit code),
 * sweep_cell.c (one run of a cell), sweep_find.c (the capacity searches)
 * and sweep_args.c (the command line). Internal to cli/. */
#ifndef RPCBENCH_CLI_SWEEP_H
#define RPCBENCH_CLI_SWEEP_H

#include <stdint.h>

#include "cli/options.h"
#include "cli/sweep_args.h"
#include "client/spawn.h"
#include "report/hdrlog_sink.h"
#include "model/sweep.h"

/* The built-in simulator, one per --vms size, started when a cell first
 * needs it and kept to the end (so every repeat of a cell meets the same
 * warm server; an idle one costs no CPU). */
struct sweep_server {
    int vms;
    struct child_server cs;
};

/* The whole sweep; static in cmd_sweep (large). */
struct sweep_cmd {
    struct options *o;
    struct sweep_args *a;
    struct sweep s;
    struct run_config *cfgs;      /* the grid's, one per cell (malloc'd) */
    struct sweep_server servers[SWEEP_MAX_LIST];
    size_t nservers;
    struct hdrlog_sink hdr;       /* --hdr-log: one section per run */
    size_t runs_done, runs_total; /* runs_total 0: unknown (a search) */
    int64_t t0_ns;                /* the first run's start */
    int interrupted;              /* the signal (SIGINT, SIGTERM): stop, report what was measured */
};

/* sweep_cell.c: runs cfg once as one more repeat of cell (progress line naming what and
 * the time left; SIGINT caught between runs). The result goes into the
 * cell even when interrupted. @return 0, the signal when SIGINT or SIGTERM
 * stopped it (or came before), or -1 with err (the run could not happen). */
int sweep_run_cell(struct sweep_cmd *c, size_t cell, const struct run_config *cfg,
                   const char *what, char *err);

/* sweep_find.c: checks every search's config before anything runs.
 * @return 0, or -1 with err (usage). */
int sweep_find_check(struct sweep_cmd *c, char *err);
/* Runs one capacity search per --proto x --verb, each probe a cell.
 * @return 0 (done or interrupted: c->interrupted), or -1 with err. */
int sweep_find_run(struct sweep_cmd *c, char *err);
/* The exit code of the searches (base/exit_code.h): EXIT_MIN_BREAKS when
 * one found even --rate-min breaks, else EXIT_MAX_HOLDS when one found
 * --rate-max holds, else EXIT_OK. */
int sweep_find_exit(const struct sweep_cmd *c);

#endif
