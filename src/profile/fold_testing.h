/* fold_testing: the test hooks of fold.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_FOLD_TESTING_H
#define RPCBENCH_FOLD_TESTING_H

#include "profile/fold.h"

/* Adds one folded line ("a;b;c 12"; a trailing newline allowed).
 * @return 0, 1 for a line that is no folded stack (blank, no count: it is
 * skipped), or -1 (out of memory). */
int fold_add_line(struct fold *f, const char *line);

#endif
