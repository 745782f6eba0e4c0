/* report_testing: the test hooks of report.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_REPORT_TESTING_H
#define RPCBENCH_REPORT_TESTING_H

#include "report/report.h"

/* A metric's line (model/metric.h's enum metric m) in d, shown where:
 * key, then "<label> <value>" formatted by its unit, and the raw value
 * (the CSV summary's column, named by its json_key). */
void report_kv_metric(struct doc_kv *d, unsigned where, const char *key,
                      const struct run_result *r, int m);

void report_sections(const struct run_result *r, struct doc_kv d[REPORT_SECTIONS]);

#endif
