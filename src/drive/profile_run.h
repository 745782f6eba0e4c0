/* profile_run: --profile around one measured run, for run and compare:
 * the profiler starts before the run on the server's pids (--server-pid,
 * or the built-in simulator's), is told the measured window's edges
 * through run_hooks, and its summary goes into the result. */
#ifndef RPCBENCH_DRIVE_PROFILE_RUN_H
#define RPCBENCH_DRIVE_PROFILE_RUN_H

#include "client/spawn.h"
#include "model/run_result.h"
#include "profile/session.h"

/* --profile samples the server from this process, over its own window:
 * under mpirun the ranks' hosts and windows are not joined to it yet.
 * what: the command ("run"). @return 0, or -1 with err (usage). */
int drive_profile_alone(const struct profile_opts *o, const char *what, char *err);
/* Starts ps (the caller's) when o asks for a profile (else nothing: 0) on
 * the server's pids: --server-pid's, --server-name's process tree as it
 * is at the start (workers forked later are not followed), or the
 * built-in simulator; and sets hooks' window hook. @return 0, or -1 with err (the run must
 * not start: nothing is left running). */
int drive_profile_start(const struct profile_opts *o, const struct run_config *cfg,
                      const struct child_server *cs, struct profile_session *ps,
                      struct run_hooks *hooks, char *err);
/* After the run: res->profile from ps, the folded stacks as
 * --profile-out's name.folded; a profiler that failed is said on stderr
 * and in res's warnings, and res->profile.lost is set: the run's figures
 * and outputs stand, and the command exits EXIT_RUN_FAILED unless it has
 * a more specific code (README). ps is freed but for
 * its fold when keep (then the caller's: fold_free). @return the fold
 * kept (NULL: none, or not kept). */
struct fold *drive_profile_finish(struct profile_session *ps, struct run_result *res,
                                const char *name, int keep);

#endif
