/* condition_testing: test hooks of judge/condition.h, as HdrHistogram_c keeps its own
 * in hdr_tests.h. The library defines them; only tests and fuzz harnesses
 * include this header: nothing in rpcbench calls them. */
#ifndef RPCBENCH_CONDITION_TESTING_H
#define RPCBENCH_CONDITION_TESTING_H

#include "judge/condition.h"

/* Judges c on r (both only read) into *out, as in a list with no
 * unfinished condition (unfinished requests not allowed). */
void condition_eval(const struct condition *c, const struct run_result *r,
                    struct cond_result *out);

/* The unit values and bounds of c are in: "ms", "%", "" (a count, CPU-ms). */
const char *cond_unit(const struct condition *c);

#endif
