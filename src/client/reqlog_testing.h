/* reqlog_testing: the test hooks of reqlog.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_REQLOG_TESTING_H
#define RPCBENCH_REQLOG_TESTING_H

#include "client/reqlog.h"

/* Formats one record as a CSV row (no newline) into out (len bytes, the
 * caller's); verb names and target as reqlog_begin set them.
 * @return the row's length (cut at len - 1). */
size_t reqlog_format(const struct reqlog *l, const struct reqlog_rec *rec, char *out,
                     size_t len);

#endif
