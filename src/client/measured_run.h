/* measured_run: one measured run from a config: resolve the target (or
 * the embedded simulator), watch the server's CPU (here, or through the
 * agent of cfg->agent_url: agent_link.h), drive the engine
 * (engine_run: the load loop itself), and sum up the samples and warnings.
 * Shared by `run` and by every round of `compare`. */
#ifndef RPCBENCH_MEASURED_RUN_H
#define RPCBENCH_MEASURED_RUN_H

#include "model/run_result.h"
#include "client/spawn.h"

/* Starts the built-in simulator (`rpcbench serve`) sized by cfg->vms into
 * cs, which the caller then owns: stop it with spawn_stop. @return 0, or
 * -1 with err (nothing is left running). */
int measured_run_spawn_server(const struct run_config *cfg, struct child_server *cs, char *err);

/* Runs cfg against cfg->url, or against the embedded server cs when
 * cfg->url is empty (cs may then not be NULL; it stays the caller's),
 * with hooks (may be NULL: engine_run's). res
 * is initialised here and is the caller's: free it with result_free, even
 * on failure. @return 0 (the run happened, whatever its errors), or -1
 * with a one-line err (e.g. the target cannot be reached, TLS never got
 * through, the server agent refused the token: then nothing was sent). */
int measured_run(const struct run_config *cfg, const struct run_hooks *hooks,
                 const struct child_server *cs, struct run_result *res, char *err);

#endif
