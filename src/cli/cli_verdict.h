/* cli_verdict: run's and report's result with its --threshold verdicts
 * (judge/verdict.h) on stdout in the --format asked for. The files (saved
 * JSON, JUnit, page) are report/verdict_files.h's; this one stays in cli/
 * because --format's enum out_format and cli_write_result are cli's. */
#ifndef RPCBENCH_CLI_VERDICT_H
#define RPCBENCH_CLI_VERDICT_H

#include <stdio.h>

#include "cli/cli_args.h"
#include "judge/verdict.h"
#include "model/run_result.h"

/* Writes r to out as format f followed by the verdicts: text lines after
 * the text report, a "thresholds" array in the JSON; for the CSV formats
 * the lines go to stderr so the table stays a table. v NULL or without
 * conditions: exactly cli_write_result. @return 0, or -1 with err. */
int verdict_write(FILE *out, enum out_format f, const struct run_result *r,
                  const struct verdict *v, char *err);

#endif
