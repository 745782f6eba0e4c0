/* run_charts_testing: the test hooks of run_charts.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_RUN_CHARTS_TESTING_H
#define RPCBENCH_RUN_CHARTS_TESTING_H

#include "report/run_charts.h"

/* x values (percentiles, 0..100) for a latency percentile plot of h:
 * 0 up to the last the count can tell (1 - 1/count), evenly on the log
 * 1/(1-p) axis, into pct (at most max) and the latency (ms) of each into
 * ms. @return how many (0 for an empty h). */
size_t run_chart_pct_points(const struct hist *h, double *pct, double *ms, size_t max);

#endif
