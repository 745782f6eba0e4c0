/* report_csv: a run's timeline, summary and bucket table as CSV
 * (report_csv.c); the timeline's writer is report_csv() in report.h. */
#ifndef RPCBENCH_REPORT_CSV_H
#define RPCBENCH_REPORT_CSV_H

#include <stdio.h>

#include "model/run_result.h"
#include "report/doc_table.h"

/* r is only read; write errors on out are the caller's to check. */

/* A header row and one row: label, target, counts by kind, latency
 * figures (ms, empty without an answer), server CPU: report_summary_doc
 * written by doc_table_csv. */
void report_csv_summary(FILE *out, const struct run_result *r);

/* "lt_ms,pct", one row per edge of r->cfg.buckets (pct empty without an
 * answer). @return 0, or -1 with err (ERR_LEN, caller-owned: bad bucket
 * spec). */
int report_csv_buckets(FILE *out, const struct run_result *r, char *err);

/* --format csv-targets: a --targets run's hosts, a header and one row
 * each, in the targets file's order (every host, not only the report's
 * worst 10): url,rate,start_s,sent,ok,errors,unfinished,p50_ms,p99_ms
 * (percentiles empty for a host with no success). Without --targets:
 * the header alone. */
void report_csv_targets(FILE *out, const struct run_result *r);

#endif
