/* runner: one measured run from a config: resolve the target (or the
 * embedded simulator), watch the server's CPU, drive the engine, and sum
 * up the samples and warnings. Shared by `run` and `compare`. */
#ifndef RPCBENCH_RUNNER_H
#define RPCBENCH_RUNNER_H

#include "results/result.h"
#include "client/spawn.h"

/* Starts the built-in simulator sized by cfg->vms. @return 0 or -1 with err. */
int runner_start_embedded(const struct run_config *cfg, struct child_server *cs, char *err);

/* Runs cfg against cfg->url, or against the embedded server cs when
 * cfg->url is empty (cs may then not be NULL). res is initialised here and
 * must be freed with result_free even on failure. @return 0, or -1 with a
 * one-line err (e.g. the target cannot be reached). */
int runner_run(const struct run_config *cfg, const struct child_server *cs,
               struct run_result *res, char *err);

#endif
