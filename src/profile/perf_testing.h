/* perf_testing: the test hooks of perf.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_PERF_TESTING_H
#define RPCBENCH_PERF_TESTING_H

#include "profile/perf.h"

/* perf_fold's parser: `perf script -F tid,time,ip,sym,dso` output read
 * from in (external input: lines that are no header nor frame are
 * skipped, a stack deeper than FOLD_MAX_DEPTH keeps its leaf side).
 * @return 0, or -1 (out of memory). */
int perf_fold_stream(FILE *in, int64_t t0_ns, int64_t t1_ns, struct fold *f, int64_t *outside);

#endif
