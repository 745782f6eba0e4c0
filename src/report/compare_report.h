/* compare_report: a comparison (judge/comparison.h) as a person or a
 * program reads it: the text report (compare_text.c), the JSON document
 * (compare_json.c), the JUnit file (compare_verdicts_doc.c) and the page
 * (compare_html.c), each saying the same figures to the same digits
 * through the shared pieces of compare_cells.c, the per-verb tables of
 * compare_verbs.c and the page's documents of compare_docs.c. Every function only reads c. */
#ifndef RPCBENCH_REPORT_COMPARE_REPORT_H
#define RPCBENCH_REPORT_COMPARE_REPORT_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>

#include "judge/comparison.h"
#include "report/doc_cards.h"
#include "report/doc_kv.h"
#include "report/doc_table.h"
#include "report/doc_verdicts.h"
#include "report/report.h"

/* ---- the outputs, for cli/cmd_compare.c ------------------------------------ */

/* Writes the comparison's text report to out.
 * @return 0, or -1 with err (ERR_LEN, caller-owned: a bucket spec the
 * histograms cannot take). */
int compare_write_text(FILE *out, const struct comparison *c, char *err);

/* @return the comparison as a new JSON document (compare --output, and
 * --format json), the caller's to json_object_put. */
json_object *compare_to_json(const struct comparison *c);

/* The --junit file at path: compare_verdicts_doc's document.
 * @return 0, or -1 with err. */
int compare_write_junit(const char *path, const struct comparison *c, char *err);

/* Builds the comparison's verdicts into *d (the caller's, large: keep it
 * static): first, when an arm stopped answering (c->stop), a testcase
 * "arm B answers" saying which arm, in which round and why
 * (compare_stop_text): DOC_FAIL for a failed arm, else DOC_ERROR; then,
 * when a round is complete, a threshold verdict per arm and condition
 * (group "arm A (NAME)", testcase "A EXPR"), a gate verdict per --gate (a
 * regression DOC_FAIL, an undecided gate DOC_INCONCLUSIVE: neither lets a
 * CI pipeline through), and a "complete run" DOC_ERROR when a signal cut
 * the rounds short. The text, the page and the JUnit file write it. Into
 * d (the caller's, initialised here: doc_verdicts_free it after). */
void compare_verdicts_doc(struct doc_verdicts *d, const struct comparison *c);

/* What c->stop says (an arm stopped answering: c->stop.arm >= 0), into
 * out (len bytes, the caller's): "arm B (NAME) stopped answering in round
 * 2 of 3 while A answered, a failed arm: WHY", or that the comparison
 * could not run (A stopped, or neither answered), the failed runs' lines
 * last. The header's line, the verdict's detail, stderr's line and the
 * JSON say it. */
void compare_stop_text(const struct comparison *c, char *out, size_t len);

/* --html FILE: the comparison's page at path (report/html.h), with
 * compare --profile's B - A tables pd[0] (functions) and pd[1] (modules)
 * above the flame graphs (pd NULL, or pd[0] not taken: none). Only reads
 * c and pd. @return 0, or -1 with err. */
int compare_write_html(const char *path, const struct comparison *c,
                       const struct profile_diff pd[2], char *err);

/* The gates' table: per --gate its expression, B/A, its interval, the
 * rounds judged and the verdict (doc_verdict_word of compare_verdicts_doc's
 * gate verdict: the JUnit file's word; a row that is no pass marked), the
 * method and why --rounds auto stopped as its notes, into t as
 * compare_summary_doc (no row and no notes without --gate). The text and
 * the page write it. @return 0, or -1 with err (no memory). */
int compare_gates_doc(const struct comparison *c, struct doc_table *t,
                      struct doc_table_style *st, char *err);

/* The failures rule's verdict when no errors gate takes its place: its
 * name in every output. */
#define COMPARE_FAILURES_EXPR "errors:+0% (implied)"

/* @return 1 when c has a gates table: a --gate, or the implied failures
 * rule (comparison.h), else 0. */
int compare_has_gates(const struct comparison *c);

/* ---- compare_text.c: the thresholds' text, which the page shows too -------- */

/* The verdict lines per arm after the text report (nothing without
 * --threshold). */
void compare_thresholds_text(FILE *out, const struct comparison *c);

/* ---- compare_json.c ---------------------------------------------------------- */

/* ---- compare_cells.c: the pieces every format shares --------------------------- */

const char *compare_fig_key(int f);      /* "p50_ms" (static): its JSON key */
/* A figure's value in a cell: report.h's report_fmt_metric. */
/* Round i's order as "AB" or "BA" (the arm that ran first first), "?"
 * when the rounds' start times do not say, into out (len bytes, 3 at
 * least). @return 1 when known, else 0. */
int compare_order_text(const struct comparison *c, size_t i, char *out, size_t len);

/* What a writer does with one line of warnings: prefix ("B round 2: ",
 * or "7 runs (A 1, 2; B 1, 2, 3), the worst B round 2: ") and the run's
 * own text, both only read. */
typedef void (*compare_warn_fn)(void *ctx, const char *prefix, const char *text);

/* Calls fn once per kind of warning of c's rounds, in the order first
 * said (arm A's rounds, then B's): a kind is a text whose numbers aside
 * and up to its first ':' is the same; said by several runs, the line
 * names them and gives the worst run's text (the largest first number
 * that stands alone: the lag, the steal, the share). compare_warnings.c. */
void compare_warnings_each(const struct comparison *c, compare_warn_fn fn, void *ctx);

/* "B round 2: " (or "B: " with one round), before a warning of arm a's
 * round i, into out (len bytes, the caller's). */
void compare_warning_prefix(const struct comparison *c, int a, size_t i, char *out, size_t len);
/* Each *_doc builder here fills a table t and, beside it, st: each
 * writer's settings for it (doc_table.h; both the caller's, st
 * initialised by the builder). */
/* One set of bucket edges for both arms (--buckets), from the union of
 * their data, into edges (BUCKETS_MAX). @return how many, or -1 with err
 * (a bucket spec the histograms cannot take). */
int compare_bucket_edges(const struct comparison *c, double *edges, char *err);
/* The cumulative % of each arm's answers under each bucket edge both arms
 * share (--buckets), into t (initialised here; the caller's to
 * doc_table_free): the text's table and the page's.
 * @return 0, or -1 with err (a bucket spec the histograms cannot take). */
int compare_bucket_doc(const struct comparison *c, struct doc_table *t,
                       struct doc_table_style *st, char *err);
/* The summary table: per figure A, B, B/A and the verdict on its 95 %
 * interval (lower bounds marked, the interval's difference marked for the
 * page; the estimator as its legend, 2 rounds' caveat as its warning),
 * into t (initialised here; the caller's to doc_table_free).
 * @return 0, or -1 with err (no memory). */
int compare_summary_doc(const struct comparison *c, struct doc_table *t,
                        struct doc_table_style *st, char *err);
/* One of the builders above (summary, rounds, buckets). */
typedef int (*compare_doc_builder)(const struct comparison *c, struct doc_table *t,
                                   struct doc_table_style *st, char *err);
/* The rounds table: per round and arm the label, p50, p99, rate, CPU-ms
 * per call, the hypervisor's steal, and on B's row B/A of the round's p99
 * (or "interrupted"), into t as compare_summary_doc. @return 0, or -1 with
 * err (no memory). */
int compare_rounds_doc(const struct comparison *c, struct doc_table *t,
                       struct doc_table_style *st, char *err);

/* ---- compare_docs.c: the page's headline and its tables of the merged rounds -- */

/* Who was compared and how, into d (the caller's; initialised here): each
 * arm (compare_arm_text; the text's only: the page's cards say it), the
 * simulator when an arm measured it, what A and B differ in (or that they
 * are an A/A), the saved files or the rounds with the rate and verbs,
 * and an arm that stopped answering (compare_stop_text, with the rounds
 * the figures are of). The text's header and the page's table under the
 * cards. Into d (the caller's, initialised here: doc_kv_free it after). */
void compare_header_doc(const struct comparison *c, struct doc_kv *d);
/* The page's headline into d (the caller's; initialised here): each arm
 * (compare_arm_text), the rounds per arm, an arm that stopped answering
 * (bad), the gates (good when all pass, bad on a regression or an open
 * gate) and the thresholds of both arms (doc_cards_verdict); the last two
 * only when asked for. The caller's to doc_cards_free. */
void compare_cards_doc(const struct comparison *c, struct doc_cards *d);
/* The merged rounds' percentiles: each --percentiles and the mean, A's
 * and B's latency and service in one unit, into t as
 * compare_summary_doc. @return 0, or -1 with err (no memory). */
int compare_pct_doc(const struct comparison *c, struct doc_table *t,
                    struct doc_table_style *st, char *err);
/* The merged rounds' requests (sent, ok, errors, unfinished, warmup) and
 * errors by kind, A's and B's, into t as compare_summary_doc.
 * @return 0, or -1 with err (no memory). */
int compare_counts_doc(const struct comparison *c, struct doc_table *t,
                       struct doc_table_style *st, char *err);

/* ---- compare_verbs.c ------------------------------------------------------------ */

/* Per-verb figures of a mix (nothing unless an arm sent two verbs or
 * more), side by side: the text's table and bucket tables (@return 0, or
 * -1 with err: a bad --buckets), the JSON array (new, the caller's to put;
 * empty without a mix) and the page's tables. */
int compare_verbs_text(FILE *out, const struct comparison *c, char *err);
json_object *compare_verbs_json(const struct comparison *c);
void compare_verbs_html(FILE *out, const struct comparison *c);
/* Each arm's verbs, a row per verb and arm: requests, ok, errors, p50
 * and p99 (in the per-verb table's unit), into t as compare_verbs_doc.
 * @return 0, 1 when neither arm sent a mix (t has no row), or -1 with
 * err (no memory). */
int compare_verb_counts_doc(const struct comparison *c, struct doc_table *t,
                            struct doc_table_style *st, char *err);

#endif
