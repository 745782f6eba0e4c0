/* cmd_report_sweep: `rpcbench report S.json` on a saved sweep: the table
 * (with --baseline), the capacity searches, --buckets, --format csv|json,
 * --plot and --output. */
#ifndef RPCBENCH_CMD_REPORT_SWEEP_H
#define RPCBENCH_CMD_REPORT_SWEEP_H

#include <json-c/json.h>

#include "cli/cli_args.h"

/* What report's options ask of a sweep; strings "" when not given, all
 * borrowed. */
struct report_sweep_opts {
    enum out_format format;
    const char *baseline;    /* --baseline SPEC (sweep_select's) */
    const char *buckets;     /* --buckets SPEC: the side-by-side bucket table */
    const char *plot;        /* --plot FILE.svg */
    const char *output;      /* --output FILE: the sweep saved again */
    const char *html;        /* --html FILE: the sweep's page */
};

/* Renders the sweep in root (parsed from path; borrowed) to stdout.
 * Errors go to stderr as one line. @return the exit code (base/exit_code.h):
 * EXIT_OK, EXIT_RUN_FAILED (the file does not load, an output cannot be
 * written), EXIT_USAGE (a bad --baseline or an option a sweep does not
 * take). */
int cmd_report_sweep(json_object *root, const char *path, const struct report_sweep_opts *o);

#endif
