/* cli_verdict: run's and report's --threshold and --junit: judge a result,
 * write it with its verdicts (text lines at the end, a JSON "thresholds"
 * array), the JUnit file, and the exit code the verdicts call for. */
#ifndef RPCBENCH_CLI_VERDICT_H
#define RPCBENCH_CLI_VERDICT_H

#include <stdio.h>

#include "cli/cli_args.h"
#include "judge/condition.h"
#include "report/junit.h"

/* Large: callers keep it static. */
struct verdict {
    const struct cond_list *conds; /* the caller's, only read */
    struct cond_result res[COND_MAX];
    size_t failed;
    /* "interrupted by SIGTERM after 1.20s of the planned 5s" when a signal
     * ended the run early ("" otherwise): the JUnit file's <error>. */
    char interrupted[120];
};

/* Judges r (only read) on conds (kept by pointer: it must outlive v). */
void verdict_judge(struct verdict *v, const struct cond_list *conds, const struct run_result *r);

/* Writes r to out as format f followed by the verdicts: text lines after
 * the text report, a "thresholds" array in the JSON; for the CSV formats
 * the lines go to stderr so the table stays a table. v NULL or without
 * conditions: exactly cli_write_result. @return 0, or -1 with err. */
int verdict_write(FILE *out, enum out_format f, const struct run_result *r,
                  const struct verdict *v, char *err);

/* result_save with the "thresholds" array. @return 0, or -1 with err. */
int verdict_save(const char *path, const struct run_result *r, const struct verdict *v,
                 char *err);

/* The JUnit file (classname "rpcbench.CMD", one testcase per condition,
 * and one more, "complete run", holding an <error> when a signal ended the
 * run early: its verdicts cover only part of it). @return 0, or -1 with err. */
int verdict_junit(const char *path, const char *cmd, const struct verdict *v, char *err);

/* Fills c as the "complete run" <error> case of command cmd ("run",
 * "compare") saying why (copied). */
void verdict_junit_interrupted(struct junit_case *c, const char *cmd, const char *why);

/* The page of r with the verdicts at the top (--html FILE, html.h).
 * @return 0, or -1 with err. */
int verdict_html(const char *path, const struct run_result *r, const struct verdict *v,
                 char *err);

/* The exit code from the result's own (result_exit_code: EXIT_OK,
 * EXIT_NO_SUCCESS, EXIT_SIGNAL) and the verdicts: EXIT_CONDITION_FAILED
 * when a condition failed, else code (base/exit_code.h). */
int verdict_exit(const struct verdict *v, int code);

#endif
