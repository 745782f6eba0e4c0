/* verdict_files: one result with its --threshold verdicts (judge/verdict.h)
 * in the files run and report write: the saved JSON (a "thresholds"
 * array), the JUnit file and the page, the latter two (and the text's
 * lines) from the verdicts' document (verdict_doc). The text and stdout's
 * formats are cli/cli_verdict.h's (they need the command line's --format). */
#ifndef RPCBENCH_REPORT_VERDICT_FILES_H
#define RPCBENCH_REPORT_VERDICT_FILES_H

#include <json-c/json.h>

#include "judge/verdict.h"
#include "model/run_result.h"
#include "report/doc_verdicts.h"

/* @return r's JSON with a "thresholds" array of the verdicts when v judged
 * any (verdict_judged), else r's JSON alone; new, the caller's to
 * json_object_put (NULL only without memory). r and v only read. */
json_object *verdict_result_json(const struct run_result *r, const struct verdict *v);

/* result_save with the "thresholds" array. @return 0, or -1 with err. */
int verdict_save(const char *path, const struct run_result *r, const struct verdict *v,
                 char *err);

/* Builds the verdicts' document of command cmd ("run", "report") into *d
 * (the caller's): one threshold verdict per condition of v (NULL or
 * without conditions: none), classname "rpcbench.CMD", and one more,
 * "complete run", a DOC_ERROR when a signal ended the run early (its
 * verdicts cover only part of it). v only read; d the caller's to
 * doc_verdicts_free. */
void verdict_doc(struct doc_verdicts *d, const char *cmd, const struct verdict *v);

/* Adds to d the "complete run" DOC_ERROR of command cmd ("run",
 * "compare") saying why (copied). */
void verdict_doc_interrupted(struct doc_verdicts *d, const char *cmd, const char *why);

/* The JUnit file of verdict_doc's document. @return 0, or -1 with err. */
int verdict_junit(const char *path, const char *cmd, const struct verdict *v, char *err);

/* The page of r with the verdicts at the top (--html FILE, html.h).
 * @return 0, or -1 with err. */
int verdict_html(const char *path, const struct run_result *r, const struct verdict *v,
                 char *err);

#endif
