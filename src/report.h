/* report: a run's result as text (the report a person reads), CSV (one row
 * per interval) or JSON (result_json.h). */
#ifndef RPCBENCH_REPORT_H
#define RPCBENCH_REPORT_H

#include <stdio.h>

#include "result.h"
#include "units.h"

/* Writes the full text report. @return 0, or -1 with err (bad --buckets). */
int report_text(FILE *out, const struct run_result *r, char *err);
void report_csv(FILE *out, const struct run_result *r);
/* "12.3ms", "850us", "2.41s": a latency in us, human-sized. */
void report_fmt_us(double us, char *out, size_t len);
/* "146 B", "2.32 MB": a size in bytes, 1000-based, about 3 digits. */
void report_fmt_bytes(double bytes, char *out, size_t len);

#endif
