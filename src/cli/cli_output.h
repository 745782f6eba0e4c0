/* cli_output: a result on stdout in the --format asked, the one switch
 * run and report share (compare writes its own tables). */
#ifndef RPCBENCH_CLI_OUTPUT_H
#define RPCBENCH_CLI_OUTPUT_H

#include <stdio.h>

#include "cli/cli_args.h"
#include "model/run_result.h"

/* Writes r (only read, the caller's) to out as format f: the text report,
 * JSON, or one of the CSV tables. Write errors on out are the caller's to
 * check. @return 0, or -1 with err (ERR_LEN, caller-owned: a bucket spec
 * the result's histograms cannot take). */
int cli_write_result(FILE *out, enum out_format f, const struct run_result *r, char *err);

#endif
