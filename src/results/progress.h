/* progress: one line per --interval on stderr while a run goes. */
#ifndef RPCBENCH_PROGRESS_H
#define RPCBENCH_PROGRESS_H

#include "results/result.h"

/* Sets a prefix for the lines ("round 2/6 A xmlrpc"), or NULL for none. */
void progress_set_prefix(const char *prefix);
void progress_line(const struct run_config *cfg, const struct interval_rec *rec, int warmup,
                   double total_s);

#endif
