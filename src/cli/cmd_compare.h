/* cmd_compare: what `rpcbench compare` holds while it runs, shared by its two
 * files: cmd_compare.c (options, live rounds or saved inputs, outputs, exit
 * code) and cmd_compare_render.c (figures, confidence intervals, the text and
 * JSON of a comparison). Internal to cli/. */
#ifndef RPCBENCH_CLI_COMPARE_H
#define RPCBENCH_CLI_COMPARE_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cli_verdict.h"
#include "judge/compare_gate.h"
#include "cli/options.h"
#include "judge/compare_stats.h"
#include "model/config_diff.h"
#include "report/hdrlog_sink.h"
#include "report/report.h"
#include "model/result.h"


/* One arm: its config, its rounds (malloc'd, each result its own), their
 * merge, and its --hdr-log sink. */
struct arm {
    struct run_config cfg;
    char letter;
    struct run_result *rounds;
    size_t nrounds;
    struct run_result merged;
    int have_merged;
    struct hdrlog_sink hdr;
    double fig[METRIC_N];            /* of the merged result */
};

/* The whole comparison; static in cmd_compare (large). */
struct cmp {
    struct options *o;
    struct arm arm[2];
    size_t pairs;                 /* rounds with both arms */
    int saved;                    /* compare A.json B.json */
    struct ci ci[METRIC_N];
    int ci_rc[METRIC_N];             /* compare_stats_ci's return */
    int interrupted;              /* the signal that ended the rounds early; 0 none */
    struct gate_result gate[GATES_MAX]; /* per --gate, at the last look */
    int looks;                    /* the looks planned: MAX - 2 for --rounds auto, else 1 */
    struct verdict verdict[2];    /* --threshold, per arm's merged result */
};

/* cmd_compare_verdicts.c: --threshold judged on each arm's merged result
 * (c->verdict filled; nothing without --threshold). */
void compare_judge_thresholds(struct cmp *c);
/* @return how many (arm, condition) pairs failed; 0 without --threshold. */
size_t compare_thresholds_failed(const struct cmp *c);
/* The verdict lines per arm after the text report (nothing without
 * --threshold). */
void compare_thresholds_text(FILE *out, const struct cmp *c);
/* @return a new {"A": [...], "B": [...]} of the verdicts (the caller puts it). */
json_object *compare_thresholds_json(const struct cmp *c);
/* The --junit file: a testcase per arm and condition, and per gate
 * (regression or inconclusive fail). @return 0, or -1 with err. */
int compare_write_junit(const struct cmp *c, char *err);

/* The figures of one result (enum metric order, v has METRIC_N): latencies in
 * ms, NAN where a figure does not exist (no answer, CPU not sampled). */
void compare_figures(const struct run_result *r, double *v);

/* Judges every --gate on the first k paired rounds (c->gate filled).
 * @return 1 when the outcome is decided: every gate is (pass or
 * regression), or one is a regression, which more rounds cannot undo;
 * else 0. */
int compare_judge_gates(struct cmp *c, size_t k);

/* The exit code the gates give (README, base/exit_code.h): EXIT_OK all
 * pass, EXIT_REGRESSION a regression, else EXIT_INCONCLUSIVE an
 * inconclusive gate; with --bisect EXIT_OK, EXIT_BISECT_BAD or
 * EXIT_BISECT_SKIP. */
int compare_gates_exit(const struct cmp *c);

/* The gates' table and method (nothing without --gate); c only read. */
void compare_gates_text(FILE *out, const struct cmp *c);

/* @return the gates as a new JSON array, the caller's to json_object_put. */
json_object *compare_gates_json(const struct cmp *c);

/* Merges each arm's rounds into its merged result (result_init'd here;
 * have_merged says so), then takes the figures and the paired intervals.
 * @return 0, or -1 with err (ERR_LEN, caller-owned: no memory, a merge
 * failed); what was made is freed with the rest by the caller. */
int compare_summarise(struct cmp *c, char *err);

/* @return the arm's label, or its encoding without one; a pointer into a. */
const char *compare_arm_name(const struct arm *a);

/* Writes the comparison's text report to out (c only read).
 * @return 0, or -1 with err (a bucket spec the histograms cannot take). */
int compare_write_text(FILE *out, const struct cmp *c, char *err);

/* @return the comparison as a new JSON document (compare --output, and
 * --format json), the caller's to json_object_put. */
json_object *compare_to_json(const struct cmp *c);

/* The text report's pieces, shared with the HTML page (cmd_compare_html.c)
 * so both say the same figures to the same digits. c is only read. */
const char *compare_fig_name(int f);     /* "p50 latency" (static) */
const char *compare_fig_key(int f);      /* "p50_ms" (static): its JSON key */
/* Figure f's value v as the summary table prints it ("n/a" for NAN). */
void compare_fmt_fig(int f, double v, const struct report_unit *u, char *out, size_t len);
double compare_ratio(double a, double b); /* b/a, NAN when a is 0 or unknown */
/* The one estimator of figure f's B/A, shown by every table and format
 * (the figures table, the gates, JSON, HTML, JUnit): the geometric mean of
 * the rounds' ratios, the centre of its interval (with one round, that
 * round's ratio). @return it, or NAN when a round's ratio is undefined. */
double compare_figure_ratio(const struct cmp *c, int f);
/* Puts RESULT_LOWER_BOUND_MARK ("≥") before cell (len bytes), the
 * formatted figure f of value v (ms) of r, when it is a latency figure that
 * r's censored waits of unfinished requests reach (result_lower_bound).
 * @return the bytes the mark adds beyond its one column, 0 when unmarked. */
int compare_mark_bound(const struct run_result *r, int f, double v, char *cell, size_t len);
/* The estimator, named once (the text and HTML say it under the table). */
#define COMPARE_RATIO_METHOD "B/A: the geometric mean of the rounds' ratios; the interval is " \
                             "the paired t-interval of those ratios"
/* What figure f's 95 % interval of B/A says, judged on the interval as
 * printed (its ends rounded as the table gives them), one value per
 * wording of compare_verdict's text: the HTML styles by the value, so a
 * rewording of the text cannot change the page's styling. */
enum cmp_verdict {
    CMP_NA_ONE_ROUND,   /* "n/a (1 round)": no interval */
    CMP_NA,             /* "n/a": a round's ratio is undefined */
    CMP_B_LOWER,        /* "[.., ..] B lower": the interval is below 1 */
    CMP_B_HIGHER,       /* "[.., ..] B higher": above 1 */
    CMP_TOO_FEW,        /* "[.., ..] too few rounds to tell": includes 1, 2 rounds */
    CMP_NO_DIFFERENCE   /* "[.., ..] no significant difference": includes 1 */
};
/* "[0.91, 0.98] B lower", "n/a (1 round)", ... as the text says it, into
 * out (len bytes, the caller's). @return which verdict it is. */
enum cmp_verdict compare_verdict(const struct cmp *c, int f, char *out, size_t len);
/* The parameters the arms differ in, into d (CONFIG_DIFF_MAX entries).
 * @return how many; 0 is an A/A. */
size_t compare_config_diff(const struct cmp *c, struct config_diff *d);
/* "B round 2: " (or "B: " with one round), before a warning of arm a's
 * round i, into out (len bytes, the caller's). */
void compare_warning_prefix(const struct cmp *c, int a, size_t i, char *out, size_t len);
/* The cumulative % of each arm's answers under each bucket edge both arms
 * share (--buckets), into t (initialised here; the caller's to
 * doc_table_free): the text's table and the page's.
 * @return 0, or -1 with err (a bucket spec the histograms cannot take). */
int compare_bucket_doc(const struct cmp *c, struct doc_table *t, char *err);
/* The unit of the summary table's latencies, and of the rounds table's. */
struct report_unit compare_summary_unit(const struct cmp *c);
struct report_unit compare_rounds_unit(const struct cmp *c);

/* cmd_compare_verbs.c: per-verb figures of a mix (nothing unless an arm
 * sent two verbs or more), side by side, as the text's table and bucket
 * tables (@return 0, or -1 with err: a bad --buckets), the JSON array
 * (the caller's to put; empty without a mix) and the HTML table. */
int compare_verbs_text(FILE *out, const struct cmp *c, char *err);
json_object *compare_verbs_json(const struct cmp *c);
void compare_verbs_html(FILE *out, const struct cmp *c);

/* --html FILE: the comparison's page (cmd_compare_html.c).
 * @return 0, or -1 with err. */
int compare_write_html(const char *path, const struct cmp *c, char *err);

#endif
