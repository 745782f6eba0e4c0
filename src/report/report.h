/* report: a run's result as text (the report a person reads), CSV (one row
 * per interval) or JSON (result_json.h). */
#ifndef RPCBENCH_REPORT_H
#define RPCBENCH_REPORT_H

#include <stdio.h>

#include "model/run_result.h"
#include "base/units.h"
#include "stats/buckets.h"
#include "report/doc_kv.h"
#include "report/doc_table.h"

/* The results (only read) are the caller's; err is ERR_LEN bytes,
 * caller-owned. Write errors on out are the caller's to check (ferror). */

/* The *_doc builders below fill a table t and, beside it, st: each
 * writer's settings for it (doc_table.h's doc_table_style; both the
 * caller's, st initialised by the builder). */

/* Writes the full text report. @return 0, or -1 with err (bad --buckets). */
int report_text(FILE *out, const struct run_result *r, char *err);
/* --format csv: the timeline, a header row and one row per interval
 * (report_csv.c: report_timeline_doc written by doc_table_csv). */
void report_csv(FILE *out, const struct run_result *r);
/* The VDSM table of r (--buckets): the average/min/max line (ms, one
 * number of decimals for all three, lower bounds marked) as its caption,
 * and per edge the % of answers under it ("n/a" when none succeeded),
 * into t (initialised here; the caller's to doc_table_free).
 * @return 0, or -1 with err (a bad --buckets spec, out of memory). */
int report_bucket_doc(const struct run_result *r, struct doc_table *t,
                      struct doc_table_style *st, char *err);
/* The percentile table of r: each --percentiles and the mean, latency
 * and service in one unit (lower bounds marked), its legend and the
 * censored note as its warning, into t, as report_bucket_doc.
 * @return 0, or -1 with err (out of memory). */
int report_pct_doc(const struct run_result *r, struct doc_table *t,
                   struct doc_table_style *st, char *err);
/* The per-verb table of a mix (requests, ok, errors, unfinished, p50
 * and p99 in one unit, lower bounds marked) into t, as report_bucket_doc.
 * @return 0, 1 when there is no table (one verb: t has no row), or -1
 * with err (out of memory). */
int report_verb_doc(const struct run_result *r, struct doc_table *t,
                    struct doc_table_style *st, char *err);
/* A distributed run's ranks (r->ranks) into t (doc_table_free it after a
 * 0): a row per rank, LOST marked, the job's totals as its notes.
 * @return 0, or -1 with err (no memory; t freed). */
int report_ranks_doc(const struct run_result *r, struct doc_table *t,
                     struct doc_table_style *st, char *err);
/* targets_doc.c: a --targets run's worst hosts and a summary of all in
 * t (nrows 0 without targets). @return 0, or -1 with err (no memory). */
int report_targets_doc(const struct run_result *r, struct doc_table *t,
                       struct doc_table_style *st, char *err);
/* profile_doc.c: r's server profile (--profile) as a table of its top
 * r->profile.top functions, with how it was taken and its caveats; no
 * row nor caption when r has none. @return 0, or -1 with err. */
int report_profile_doc(const struct run_result *r, struct doc_table *t,
                       struct doc_table_style *st, char *err);
/* The same profile by module (profile/fold.h's fold_by_module), in t (no
 * row when r has none). @return 0, or -1 with err. */
int report_profile_modules_doc(const struct run_result *r, struct doc_table *t,
                               struct doc_table_style *st, char *err);
/* compare --profile's B - A as a table of its top d->top rows, the sum as
 * its notes. @return 0, or -1 with err (t's rows then freed). */
int report_profile_diff_doc(const struct profile_diff *d, struct doc_table *t,
                            struct doc_table_style *st, char *err);
/* report_stages.c: a --stages run's table into t, one row per stage (id
 * "stageN"): its time in the window, the rate it offered and the rate it
 * achieved, ok, errors, unfinished, p50/p90/p99 in one unit, the server's mean CPU and
 * CPU-ms per call over it (n/a where unknown). No stages: t has no row.
 * @return 0, or -1 with err (out of memory). */
int report_stage_doc(const struct run_result *r, struct doc_table *t,
                     struct doc_table_style *st, char *err);
/* A stage's rates as --stages takes them, "20.00/s" for a hold and
 * "0/s-100.00/s" for a ramp, into out (len bytes; 72 hold any). */
void report_stage_rates(const struct run_stage *st, char *out, size_t len);

/* "12.3ms", "850us", "2.41s": a latency in us, human-sized, into out (len
 * bytes, always terminated). */
void report_fmt_us(double us, char *out, size_t len);
/* A time unit and the decimals every cell of one table gets: one per table. */
struct report_unit {
    const char *name; /* "us", "ms", "s" */
    double div;       /* us per unit */
    int dec;
};

/* Picks from the largest and the smallest non-zero figure (us) of a table:
 * the unit of the largest, with decimals enough for the smallest to keep
 * about 3 significant digits (at most 3). @return the unit, by value. */
struct report_unit report_unit_pick(double max_us, double min_us);
/* Widens [*mn, *mx] (us; 0 = nothing yet) by what h shows: its min, max
 * and, when its min is 0, its median. Empty h leaves them as they are. */
void report_unit_span(const struct hist *h, double *mn, double *mx);
/* "12.3ms" in unit u into out (len bytes, always terminated), or "n/a"
 * when have is 0 (the histogram behind the figure is empty). A non-zero
 * figure that u would show with fewer than 2 significant digits (0.000s,
 * 0.004s) is written in its own unit instead, as report_fmt_us does
 * ("220us", "4.12ms"), so no measured figure prints as zero. */
void report_unit_fmt(const struct report_unit *u, int have, double us, char *out, size_t len);
/* @return the unit of r's percentile table (its latency and service),
 * which the run page's latency cards are written in too. */
struct report_unit report_pct_unit(const struct run_result *r);
/* A % of a core (or of the machine) that may be unknown (-1): "12.3%" or
 * "n/a" into buf (16 bytes hold it). @return buf. */
const char *report_fmt_pct(double v, char *buf, size_t len);
/* A latency figure of h (us) as report_unit_fmt writes it, after
 * RESULT_LOWER_BOUND_MARK ("≥") when it is only a lower bound: cs's
 * censored values reach it (result_lower_bound; mean: h's mean). @return the bytes the mark adds beyond its one column (for
 * printf widths), 0 when unmarked. */
int report_latency_fmt(const struct report_unit *u, const struct hist *h, const struct censor *cs,
                       int mean, double us, char *out, size_t len);
/* "146 B", "2.32 MB": a size in bytes, 1000-based, about 3 digits, into
 * out (len bytes, always terminated). */
void report_fmt_bytes(double bytes, char *out, size_t len);
/* What r's unsent requests were, in words ("48 still waiting for a
 * connection at the end, 2 given up at once: no connection (connect
 * failed)") into out (len bytes, the caller's). @return out. */
const char *report_unsent_text(const struct run_result *r, char *out, size_t len);
/* A cumulative bucket table with one column per histogram, a document
 * (doc_table.h) as every table: the edges from a --buckets spec over all
 * the histograms (buckets_edges), a row per edge, its label ("<5ms:")
 * then its cells ("12.0"; "n/a" in the column of an empty histogram). */
#define REPORT_GRID_COLS 16
struct report_grid_words {
    const char *title;   /* the text's first head ("response time %") */
    const char *corner;  /* the page's ("response time") */
    const char *caption; /* the page's caption */
    const char *note;    /* "" or what the columns leave out: the text's legend,
                            the page's caption "caption (note)" */
};
/* The grid of the n histograms hs (only read; at most REPORT_GRID_COLS
 * are taken), the columns headed names[0..n) (only read), into t and st
 * (the caller's; doc_table_free t after a 0): each text column at least
 * 8 wide, the first 16 and left-aligned. @return 0, or -1 with err (a
 * spec that does not parse, no memory; nothing to free). */
int report_bucket_grid_doc(const char *spec, const struct hist *const *hs,
                           const char *const *names, int n, const struct report_grid_words *w,
                           struct doc_table *t, struct doc_table_style *st, char *err);
/* A mix of many calls keeps its tables of buckets readable with the
 * busiest calls only: the indices of the at most k largest of
 * counts[0..n) into idx, in their order there (a tie: the first).
 * @return how many (n when n <= k). */
size_t report_busiest(const int64_t *counts, size_t n, size_t k, size_t *idx);

/* ---- the key-value sections (report_sections.c) ------------------------------ */

/* Each fills d (the caller's, doc_kv_init'd here: doc_kv_free it after)
 * with a section of r (only read), for doc_kv_text and doc_kv_html. */
/* target, verbs, rate, duration, start; the page adds load, simulator
 * and buckets. */
void report_config_doc(const struct run_result *r, struct doc_kv *d);
/* Appends c's verbs and weights ("list:4,getAllVmStats:1") to d's last
 * line: the first 8, then how many there are. */
void report_verbs_append(struct doc_kv *d, const struct run_config *c);
/* requests, warmup and error kinds (the text's; the page has its own
 * table of them), bytes, send and pacer lag. */
void report_requests_doc(const struct run_result *r, struct doc_kv *d);
/* Reconnects, connection failures, TLS, STOMP, the last failures. */
void report_transport_doc(const struct run_result *r, struct doc_kv *d);
/* The server's CPU (idle, RSS) and the machine's, and the client's. */
void report_machine_doc(const struct run_result *r, struct doc_kv *d);
/* All four, in the report's order; each the caller's to doc_kv_free. */
#define REPORT_SECTIONS 4
/* Metric m's value v as every table shows it: by its unit, latencies in u;
 * "n/a" for NAN (no answer, CPU not sampled). Into out (len bytes). */
void report_fmt_metric(int m, double v, const struct report_unit *u, char *out, size_t len);

#endif
