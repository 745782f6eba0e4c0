/* cli_args: the command-line pieces every subcommand shares (serve, run,
 * compare, report), so an option that two subcommands take is parsed,
 * checked and named in one place, and a bad value gives the same one-line
 * message whichever subcommand got it.
 *
 * Functions that can fail return 0 or -1 and write a one-line reason into
 * err (ERR_LEN bytes, caller-owned) that starts with the option's name
 * ("--percentiles: 150 is not in 0..100 ..."). Nothing here allocates:
 * strings passed in stay the caller's. */
#ifndef RPCBENCH_CLI_ARGS_H
#define RPCBENCH_CLI_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "judge/condition.h"

/* The line every subcommand's --help ends with: the codes of
 * base/exit_code.h that every command gives. */
#define USAGE_EXIT_CODES "exit status: 0 ok, 1 failure at run time, 2 bad usage (nothing sent)\n"

/* --junit needs something to judge: nconds --threshold conditions (and,
 * for compare, --gates). @return 0, or -1 with err. */
int cli_check_junit(const char *junit, size_t nconds, char *err);

/* --format (run, compare, report). text; json; csv: the timeline (one row
 * per interval); csv-summary: one row of the run's figures; csv-buckets:
 * the cumulative bucket table. */
enum out_format {
    FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV, FORMAT_CSV_SUMMARY, FORMAT_CSV_BUCKETS,
    FORMAT_CSV_TARGETS
};

/* The --format names, in enum order; OUT_FORMATS of them. */
#define OUT_FORMATS 6
extern const char *const out_format_names[OUT_FORMATS];

/* A decimal integer s in lo..hi into *out (untouched on error).
 * @return 0, or -1 with err "OPT: 'S' is not an integer in LO..HI". */
int cli_parse_int(const char *opt, const char *s, long long lo, long long hi, long long *out,
                  char *err);

/* Copies s with its NUL into dst (len bytes). @return 0, or -1 with err
 * "OPT: value too long" (dst untouched). */
int cli_copy(char *dst, size_t len, const char *opt, const char *s, char *err);

/* The index in names[0..n) of the one equal to s into *out.
 * @return 0, or -1 with err "OPT: unknown value 'S' (NAME, NAME, ...)". */
int cli_parse_choice(const char *opt, const char *s, const char *const *names, int n, int *out,
                     char *err);

/* --percentiles: "50,90,99.9", strictly increasing, each in 0..100, at
 * most max, into pcts[0..*n). @return 0, or -1 with err (pcts and *n may
 * then hold part of the list: do not use them). */
int cli_parse_percentiles(const char *s, double *pcts, size_t max, size_t *n, char *err);

/* --buckets: copies spec into dst (len bytes) once buckets_edges accepts
 * it ("auto", START:END:STEP, a list). @return 0, or -1 with err. */
int cli_parse_buckets(const char *spec, char *dst, size_t len, char *err);

/* Puts "OPT: " before err (in place) unless err starts with opt already. */
void cli_name_error(const char *opt, char *err);

/* An input file: path must be readable now ("" passes: not given).
 * opt NULL names the path alone, for positional files.
 * @return 0, or -1 with err "OPT: cannot read 'PATH': why" or
 * "PATH: cannot read: why". */
int cli_check_readable(const char *opt, const char *path, char *err);

/* A listener's --tls-cert, --tls-key and --tls-ca (serve's, agent's; NULL:
 * not given): the key and the CA only with a certificate, each readable.
 * @return 0, or -1 with err. */
int cli_check_tls_files(const char *cert, const char *key, const char *ca, char *err);

/* A file written after the run ends: not a directory, and its directory
 * writable now ("" passes: not given). @return 0, or -1 with err naming opt. */
int cli_check_out_path(const char *opt, const char *path, char *err);

/* --plot-keep needs --plot (plot "" when not given).
 * @return 0, or -1 with err. */
int cli_check_plot_keep(int keep, const char *plot, char *err);

/* What getopt_long returned '?' (unknown option) or ':' (missing value)
 * for, as one line into err: "unknown option '--x' (see --help)".
 * optind is getopt's, after the call; argv is the command's. */
void cli_getopt_error(int ch, char *const *argv, int optind_now, char *err);

/* --threshold COND (repeatable): appends the conditions of the comma list
 * s to l (condition.h has the grammar). @return 0, or -1 with err
 * "--threshold: 'COND': why (the accepted form)"; l keeps what it had. */
int cli_parse_threshold(const char *s, struct cond_list *l, char *err);

/* --version: "rpcbench VERSION\n" on stdout. */
void cli_print_version(void);

#endif
