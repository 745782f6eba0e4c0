/* reqlog_read: a run's --requests-log (client/reqlog.h writes it) read
 * back into a result, for `rpcbench report --requests-log FILE`.
 *
 * What the rows hold is rebuilt: the counts (sent, ok, errors by kind,
 * unfinished, per call), the latency and service histograms of the ok
 * requests and the send lag, so the percentiles are the run's within the
 * histograms' precision; with the REQLOG_END_TAG line, the censored waits
 * of the unfinished and of the unsent left waiting too. What the rows do
 * not hold is not: the server's CPU, the machine's load, the queued
 * count, the timeline: unknown in the result (NaN, or -1 for the queued
 * count), so every format says n/a or null.
 *
 * The run's configuration (options, protocol, timeout, warmup, window)
 * is the REQLOG_CONFIG_TAG line before the header. A log without it (one
 * written before it existed) still reads: its timeout and warmup are then
 * unknown (-1) and the window's length is taken from the last intended
 * send (the result says so). */
#ifndef RPCBENCH_REQLOG_READ_H
#define RPCBENCH_REQLOG_READ_H

#include "base/err.h"
#include "model/run_result.h"

/* The line before a --requests-log's header (client/reqlog.c writes it):
 * this tag, a blank, then {"config": ..., "target": ...} as one line of
 * JSON (result_config_json). Lines starting with '#' are comments to CSV
 * readers that take them (pandas' comment='#'). */
#define REQLOG_CONFIG_TAG "#rpcbench-config"
/* The line after the rows: this tag, a blank, then when the run was over
 * (us since the measured window's start), the instant up to which the
 * unfinished and the unsent left waiting had waited: their censored
 * latencies, which a rebuilt report records as the run did. */
#define REQLOG_END_TAG "#rpcbench-end over_us="

/* Reads path (plain CSV or gzip, by its content) into r, which is
 * initialised here: the caller frees it with result_free, on failure too.
 * @return 0, or -1 with err (unreadable, not a requests log, a bad row:
 * its line number). */
int reqlog_load(const char *path, struct run_result *r, char *err);

#endif
