/* dist: distributed runs over MPI (Open MPI's mpirun). Under N > 1 ranks
 * every measured run is split: rank r sends the requests k*N + r of the
 * one schedule, on its share of the connections, from a start instant
 * common to all ranks (rank 0 estimates each rank's clock offset with
 * ping-pongs); every interval the ranks' counts and histograms merge
 * live at rank 0, which prints the one progress line and feeds --hdr-log;
 * at the end rank 0 merges the results exactly (histograms bucket by
 * bucket) and hands the merged result back to every rank, so every rank
 * takes the same decisions after it (compare's gates, thresholds, exit
 * codes). Only rank 0 prints or writes files.
 *
 * Built without RPCBENCH_MPI (the default make), or run without mpirun,
 * or with one rank, all of this is a single process: dist_measured_run is
 * measured_run. Every MPI call of the program is in this layer. */
#ifndef RPCBENCH_DIST_H
#define RPCBENCH_DIST_H

#include "client/spawn.h"
#include "model/run_result.h"

/* What --version says of MPI: "with MPI, Open MPI 4.1.4" or "without
 * MPI". @return a static string. */
const char *dist_build(void);
/* Built without MPI, and started by an MPI launcher for more than one
 * process (Open MPI's, PMI's or Slurm's environment): each process would
 * run the whole load and print its own report. @return the variable that
 * says so ("OMPI_COMM_WORLD_SIZE=2", a static string), or NULL (always
 * NULL in the MPI build, which joins the job). */
const char *dist_foreign_launch(void);

/* Starts MPI when built with it (a singleton without mpirun). Call once,
 * first thing in main. @return 0, or -1 (MPI would not start). */
int dist_init(int *argc, char ***argv);
/* Rank 0's exit code becomes every rank's (decisions are rank 0's); then
 * MPI ends. @return the code this process exits with. */
int dist_finish(int code);
/* This process' rank (0 without MPI) and the number of ranks (1). */
int dist_rank(void);
int dist_size(void);
static inline int dist_is_root(void) { return dist_rank() == 0; }

/* --rank-output PREFIX: every rank also writes its own share, unmerged,
 * to PREFIX.<rank>.json. prefix is copied; "" turns it off. */
void dist_set_rank_output(const char *prefix);
/* --server-host H: only ranks on host H sample the server's CPU (with
 * --server-pid / --server-name; "" = every rank where the process is). */
void dist_set_server_host(const char *host);

/* measured_run_spawn_server for the job: rank 0 starts the simulator
 * and gives every rank its address (cs->pid is 0 on the other ranks,
 * which must be on rank 0's host). @return 0, or -1 with err on every
 * rank. */
int dist_spawn_server(const struct run_config *cfg, struct child_server *cs, char *err);

/* measured_run (client/measured_run.h, same contract) as a distributed
 * run: every rank runs its share and ends with the merged result in res;
 * hooks->on_interval runs on rank 0 alone, over the job's merged intervals;
 * on failure (any rank could not start, or failed) every rank returns -1
 * with the first failing rank's reason. */
int dist_measured_run(const struct run_config *cfg, const struct run_hooks *hooks,
                      const struct child_server *cs, struct run_result *res, char *err);

#endif
