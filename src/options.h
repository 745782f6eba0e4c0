/* options: the command line shared by `run` and `compare`.
 *
 * Options that name one arm of a comparison (--url, --proto, --server-pid,
 * --label) are kept as given, "A" or "A,B"; options_arm() resolves them
 * for arm 0 or 1. Everything else fills the run_config both arms share. */
#ifndef RPCBENCH_OPTIONS_H
#define RPCBENCH_OPTIONS_H

#include <stdio.h>

#include "result.h"
#include "units.h"

enum out_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV };

struct options {
    struct run_config cfg;   /* shared by both arms */
    char url[1024], proto[64], server_pid[256], label[160];
    char output[512];        /* --output FILE (JSON) */
    char plot[512];          /* --plot FILE.svg */
    char hdr_log[512];       /* --hdr-log FILE */
    char pct_dist[512];      /* --percentile-dist FILE */
    enum out_format format;
    int compare;             /* parsed for compare */
    int rounds;              /* compare */
    char **positional;       /* compare A.json B.json */
    int npositional;
};

/* Parses argv (argv[0] = the command name). compare = 1 accepts the
 * compare-only options. @return 0, 1 when --help was printed, or -1 with
 * err for bad usage. */
int options_parse(int argc, char **argv, int compare, struct options *o, char *err);

/* Fills cfg for arm (0 = A, 1 = B) from the pairable options.
 * @return 0, or -1 with err (e.g. "--server-pid: 'x' is not a pid"). */
int options_arm(const struct options *o, int arm, struct run_config *cfg, char *err);

/* Parses a verb mix "list:4,getAllVmStats:1" into cfg. */
int options_parse_verbs(const char *s, struct run_config *cfg, char *err);

void options_usage(FILE *out, int compare);

#endif
