/* sweep_runs: the runs of a sweep (`rpcbench sweep`'s grid, and its
 * capacity searches' probes, drive/sweep_search.h): the built-in simulator
 * each --vms size needs, and each run as one more repeat of a cell, with
 * its progress line and the time left. What to run comes made: a cell's
 * run_config is the command line's (cli/sweep_args.h). */
#ifndef RPCBENCH_DRIVE_SWEEP_RUNS_H
#define RPCBENCH_DRIVE_SWEEP_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "client/spawn.h"
#include "model/sweep.h"
#include "profile/session.h"
#include "report/hdrlog_sink.h"

#define SWEEP_MAX_SERVERS 64 /* --vms sizes: one simulator each */

/* The built-in simulator, one per --vms size, started when a cell first
 * needs it and kept to the end (so every repeat of a cell meets the same
 * warm server; an idle one costs no CPU). */
struct sweep_server {
    int vms;
    struct child_server cs;
};

/* A sweep while it runs (large: static in its command). Zeroed, then s
 * set up with sweep_init and the rest by the caller: profile (NULL: none)
 * and quiet read, hdr opened when --hdr-log is given. */
struct sweep_runs {
    struct sweep s;
    const struct profile_opts *profile;
    int quiet;                    /* no progress lines */
    struct hdrlog_sink hdr;       /* --hdr-log: one section per run; hdr.f NULL: none */
    struct sweep_server servers[SWEEP_MAX_SERVERS];
    size_t nservers;
    size_t runs_done, runs_total; /* runs_total 0: unknown (a search) */
    int64_t t0_ns;                /* the first run's start */
    int interrupted;              /* the signal (SIGINT, SIGTERM): stop, report what was measured */
};

/* Runs cfg once as one more repeat of cell (progress line naming what and
 * the time left; SIGINT caught between runs). The result goes into the
 * cell even when interrupted. @return 0, the signal when SIGINT or SIGTERM
 * stopped it (or came before), or -1 with err (the run could not happen). */
int sweep_runs_cell(struct sweep_runs *w, size_t cell, const struct run_config *cfg,
                    const char *what, char *err);

/* Stops the simulators w started and closes its --hdr-log (a failure to
 * write it said on stderr); w->s stays the caller's (sweep_free). */
void sweep_runs_stop(struct sweep_runs *w);

#endif
