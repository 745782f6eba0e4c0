/* verdict_files: one result with its --threshold verdicts (judge/verdict.h)
 * in the files run and report write: the saved JSON (a "thresholds"
 * array), the JUnit file and the page. The text and stdout's formats are
 * cli/cli_verdict.h's (they need the command line's --format). */
#ifndef RPCBENCH_REPORT_VERDICT_FILES_H
#define RPCBENCH_REPORT_VERDICT_FILES_H

#include <json-c/json.h>

#include "judge/verdict.h"
#include "model/result.h"
#include "report/junit.h"

/* @return r's JSON with a "thresholds" array of the verdicts when v judged
 * any (verdict_judged), else r's JSON alone; new, the caller's to
 * json_object_put (NULL only without memory). r and v only read. */
json_object *verdict_result_json(const struct run_result *r, const struct verdict *v);

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

#endif
