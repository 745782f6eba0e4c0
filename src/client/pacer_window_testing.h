/* pacer_window_testing: the test hooks of pacer_window.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_PACER_WINDOW_TESTING_H
#define RPCBENCH_PACER_WINDOW_TESTING_H

#include "client/pacer_window.h"

/* @return the p99 of the recent wakes' lateness (ns, to the bucket's top;
 * 0 before any wake). */
int64_t pacer_window_late_p99(const struct pacer_window *w);

#endif
