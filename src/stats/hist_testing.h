/* hist_testing: the test hooks of hist.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_HIST_TESTING_H
#define RPCBENCH_HIST_TESTING_H

#include "stats/hist.h"

void hist_record_n(struct hist *h, int64_t value, int64_t count);

#endif
