/* progress: one line per --interval on stderr while a run goes (unless
 * --quiet), written by the engine's timeline as each interval closes. */
#ifndef RPCBENCH_PROGRESS_H
#define RPCBENCH_PROGRESS_H

#include "model/run_result.h"

/* Sets a prefix for the following lines ("round 2/6 A xmlrpc"), or NULL
 * for none. The text is copied (at most 95 bytes kept): the caller keeps
 * its string. Not thread-safe: call it between runs. */
void progress_set_prefix(const char *prefix);

/* Writes one line for rec to stderr: "[warmup 1.0s]" while warmup is
 * non-zero, "[t/total_s]" after; the rate is rec->sent per cfg's
 * interval. cfg and rec are only read. No return value: a failed write to
 * stderr is not the run's failure. */
void progress_line(const struct run_config *cfg, const struct interval_rec *rec, int warmup,
                   double total_s);

#endif
