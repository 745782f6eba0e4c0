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

/* r's summary as a document of one row, a column per figure, each cell
 * with its raw value (doc_table.h), built from r alone (never from a text
 * section, so its columns are the same whatever the text shows): label,
 * proto, url, duration_s, rate_target, rate_achieved, the counts,
 * errors_<kind> per kind, latency_{min,mean,max}_ms and latency_pP_ms
 * per --percentiles (unknown without an answer), censored,
 * latency_lower_bound, the server's CPU, bytes_received, its idle and net
 * CPU, and the sections' metrics by their JSON keys. Into t (the
 * caller's: doc_table_free it after a 0). @return 0, or -1 with err (no
 * memory; nothing to free). */
int report_summary_doc(const struct run_result *r, struct doc_table *t, char *err);

/* r's timeline as a document, a row per interval, each cell with its raw
 * value: t (s, 3 decimals), due, sent, unsent, ok, errors, p50_ms and
 * p99_ms (3; unknown: nothing answered), server_cpu_pct and
 * client_cpu_pct (1; unknown: not measured), server_rss_kb (0), and a
 * staged run's offered rate (3). Into t as report_summary_doc.
 * @return 0, or -1 with err (no memory). */
int report_timeline_doc(const struct run_result *r, struct doc_table *t, char *err);

/* Writes s as one CSV field: made safe (base/safetext.h: valid UTF-8, a
 * line break or control as "\xHH"), then as is, or quoted (quotes doubled)
 * when it holds a comma or a quote. */
void report_csv_field(FILE *out, const char *s);

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
