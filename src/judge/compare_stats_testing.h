/* compare_stats_testing: the test hooks of compare_stats.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_COMPARE_STATS_TESTING_H
#define RPCBENCH_COMPARE_STATS_TESTING_H

#include "judge/compare_stats.h"

/* @return 1 when the interval excludes 1 (a significant difference), 0
 * otherwise. */
int compare_stats_significant(const struct ci *ci);

#endif
