/* verdict: run's and report's --threshold judged on one result, and the
 * exit code the verdicts call for. Writing them (text, JSON, JUnit, the
 * page) is report/verdict_files.h's and cli/cli_verdict.h's. */
#ifndef RPCBENCH_JUDGE_VERDICT_H
#define RPCBENCH_JUDGE_VERDICT_H

#include <stddef.h>

#include "judge/condition.h"
#include "model/run_result.h"

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

/* @return 1 when v is not NULL and has conditions to report, else 0. */
int verdict_judged(const struct verdict *v);

/* The exit code from the result's own (result_exit_code: EXIT_OK,
 * EXIT_NO_SUCCESS, EXIT_SIGNAL) and the verdicts: EXIT_CONDITION_FAILED
 * when a condition failed, else code (base/exit_code.h). */
int verdict_exit(const struct verdict *v, int code);

#endif
