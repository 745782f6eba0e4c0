/* live_metrics: --metrics-listen for run, compare and sweep. One endpoint
 * for the whole command (net/metrics_endpoint.h), fed at every interval of
 * every run it makes with the figures report/openmetrics.h renders, each
 * run under its own labels (compare's arm and round, sweep's cell). Between
 * runs the last run's final figures stay. Process-wide: the commands make
 * one run at a time. */
#ifndef RPCBENCH_LIVE_METRICS_H
#define RPCBENCH_LIVE_METRICS_H

#include "model/run_config.h"
#include "report/openmetrics.h"

/* Starts the endpoint on listen (--metrics-listen's HOST:PORT; "" none:
 * nothing) with cfg's --buckets, and says where on stderr unless
 * cfg->quiet. Called after the options are checked, before the first
 * request. @return 0, or -1 with err (ERR_LEN, caller-owned: a bad
 * address, the port taken, a --buckets spec). */
int live_metrics_start(const char *listen, const struct run_config *cfg, char *err);

/* The next run's hooks: h with on_snapshot set to feed the endpoint (h
 * unchanged when there is none). cfg and labels are only read (labels
 * NULL: none). */
struct run_hooks live_metrics_hooks(struct run_hooks h, const struct run_config *cfg,
                                    const struct om_labels *labels);

/* The run is over (res its result, only read): its final figures. */
void live_metrics_run_done(const struct run_result *res);

/* Waits up to linger_ns for a scrape of the final figures, then stops the
 * endpoint (nothing when none was started). */
void live_metrics_stop(int64_t linger_ns);

#endif
