/* options: the command line of `run`, `compare`, `sweep` and `report`.
 *
 * Options that name one arm of a comparison (--url, --proto, --server-pid,
 * --label) are kept as given, "A" or "A,B"; options_arm() resolves them
 * for arm 0 or 1. Everything else fills the run_config both arms share. */
#ifndef RPCBENCH_OPTIONS_H
#define RPCBENCH_OPTIONS_H

#include <stdio.h>

#include "base/units.h"
#include "cli/cli_args.h"
#include "judge/compare_gate.h"
#include "cli/option_table.h"
#include "model/run_result.h"
#include "profile/session.h"

struct sweep_args;
struct server_config;
struct agent_config;

/* Large: callers keep it static. positional points into the argv given to
 * options_parse, which must outlive it. */
struct options {
    struct run_config cfg;   /* shared by both arms */
    char url[1024];
    char encoding[64];       /* --proto/-p: xmlrpc | jsonrpc, "A" or "A,B" */
    char server_pid[256], label[160];
    char output[512];        /* --output FILE (JSON) */
    char plot[512];          /* --plot FILE.svg */
    int plot_keep;           /* --plot-keep: no effect since --plot needs no gnuplot
                                (no script nor data to keep); accepted for old scripts */
    char html[512];          /* --html FILE: the self-contained page */
    int encoding_given;      /* --proto was on the command line */
    int verb_given;          /* --verb was on the command line */
    int method_given;        /* --method was */
    int workload_checks;     /* a --workload line has its own "expect" */
    char hdr_log[512];       /* --hdr-log FILE */
    char pct_dist[512];      /* --percentile-dist FILE */
    char requests_log[512];  /* --requests-log FILE[.gz] (run: written; report: read) */
    char metrics_listen[128]; /* --metrics-listen HOST:PORT */
    int64_t metrics_linger_ns; /* --metrics-linger D */
    int64_t longest_round_ns;  /* compare --longest-round D; 0: 4 x -d */
    struct cond_list thresholds; /* --threshold (run) */
    char junit[512];         /* --junit FILE (run) */
    char rank_output[256];   /* --rank-output PREFIX (under mpirun) */
    char server_host[128];   /* --server-host H (under mpirun) */
    enum out_format format;
    int compare;             /* parsed for compare */
    int conns[2];            /* compare: -c N or -c A,B, each arm's (0: not given:
                                both arms 1, options_arm) */
    int rounds;              /* compare: K, or auto's maximum */
    int rounds_auto;         /* --rounds auto[:MAX]: stop when every gate is decided */
    struct gate gates[GATES_MAX]; /* --gate, repeatable */
    int ngates;
    int bisect;              /* --bisect: exit codes for git bisect run */
    char baseline[256];      /* --baseline SPEC (sweep, report): a cell */
    unsigned char given[OPT_ROWS_MAX]; /* given[i]: opt_rows[i] was on the
                                          command line */
    char config[512];        /* --config FILE: the job file, "" none */
    int in_job;              /* options_apply_job is applying the file */
    char **positional;       /* compare A.json B.json */
    int npositional;
    struct sweep_args *sweep; /* sweep's own options and lists (HOME_SWEEP
                                 rows), the caller's; NULL for run, compare */
    struct server_config *serve; /* serve's (HOME_SERVE rows), the caller's */
    struct agent_config *agent;  /* agent's (HOME_AGENT rows), the caller's */
    struct profile_opts profile; /* --profile, --profiler, --profile-* */
};

/* Parses and checks every option of cmd (argv[0] = the command name) in
 * one getopt_long pass over the table (option_table.h) into o, which
 * this fills from the defaults first: nothing is sent before this
 * returns 0. For CMD_SWEEP, sweep (the caller's, zeroed here) gets
 * sweep's own options and lists; NULL otherwise. CMD_COMPARE and
 * CMD_REPORT take files after the options (o->positional, pointing into
 * argv, which must outlive o). Uses getopt's globals.
 * After a usage error the flags of the rest of argv are still set
 * (o->bisect). @return 0, 1 when --help or --version was printed on
 * stdout, or -1 with err (ERR_LEN, caller-owned; one line naming the
 * option and what it accepts) for bad usage. */
int options_parse(int argc, char **argv, enum opt_cmd cmd, struct sweep_args *sweep,
                  struct options *o, char *err);

/* options_parse for `serve`: its rows (option_rows.c) into sc (the
 * caller's, filled from their defaults first; its file names point into
 * argv, which must outlive it); run's checks are not made. Uses getopt's
 * globals and a static struct options (not reentrant). @return 0, 1 when
 * --help or --version was printed on stdout, or -1 with err. */
int options_parse_serve(int argc, char **argv, struct server_config *sc, char *err);
/* The same for `agent`, into ac (the caller's). */
int options_parse_agent(int argc, char **argv, struct agent_config *ac, char *err);

/* @return 1 when the option named name (opt_rows) was on the command
 * line, else 0. */
int options_given(const struct options *o, const char *name);

/* Fills cfg (the caller's; overwritten whole, o only read) for arm
 * (0 = A, 1 = B) from the pairable options and checks
 * what depends on the arm (protocol, URL, verbs). Without --proto a
 * stomp:// URL gets jsonrpc, its only encoding.
 * @return 0, or -1 with err (e.g. "--server-pid: 'x' is not a pid"). */
int options_arm(const struct options *o, int arm, struct run_config *cfg, char *err);

/* Parses a verb mix "list:4,getAllVmStats:1" into cfg's verbs (at most
 * RUN_MAX_VERBS, weights 1..1000). @return 0, or -1 with err naming
 * --verb (cfg's verbs then partly filled). */
int options_parse_verbs(const char *s, struct run_config *cfg, char *err);

/* Under mpirun (dist.h): hands dist the options it keeps (--rank-output,
 * --server-host) and, on every rank but 0, drops the options that write
 * files, which are rank 0's alone. */
void options_distribute(struct options *o);

/* options_check.c: the checks that need no network, run by options_parse
 * and options_arm. @return 0, or -1 with err. */
int options_check(const struct options *o, char *err);
int options_check_arm(const struct run_config *cfg, char *err);
/* options_workload.c: options_check_workload refuses --workload with
 * --verb, --method or --params; options_workload_arm refuses an XML-RPC
 * arm a workload with named params. @return 0, or -1 with err. */
int options_check_workload(const struct options *o, char *err);
int options_workload_arm(const struct run_config *cfg, char *err);

/* options_stages.c: with --stages, refuses --rate and --duration beside
 * them and sets o->cfg's duration_ns (the stages' sum) and rate (their
 * mean offered rate); without, nothing. @return 0, or -1 with err. */
int options_stages_finish(struct options *o, char *err);

#endif
