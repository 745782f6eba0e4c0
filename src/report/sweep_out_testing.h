/* sweep_out_testing: the test hooks of sweep_out.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_SWEEP_OUT_TESTING_H
#define RPCBENCH_SWEEP_OUT_TESTING_H

#include "report/sweep_out.h"

/* Fills *t (the caller's) for probe p of sweep s (both only read). */
void sweep_probe_text(const struct sweep *s, const struct sweep_probe *p,
                      struct sweep_probe_text *t);

#endif
