/* option_table: one row per option of every subcommand (as fio's
 * struct fio_option). A row says the option's name and short flag, the
 * type of its value, where it is stored (offsetof into struct options,
 * its run_config, sweep's struct sweep_args or serve's struct
 * server_config), its default, its range or allowed values, its help, and
 * the commands that take it (and those where it takes a comma list:
 * sweep's grid). Two rows share a name only for disjoint commands (serve's
 * --vms and --seed are the server's). Everything else comes from the
 * table: getopt_long's tables (built per command), the parsing and range
 * messages, the defaults, every --help (by group), the man pages and the
 * `rpcbench help-options` dump the docs test reads. Adding an option is
 * one row in option_rows.c (and, for an odd value, one parse function).
 * Internal to cli/. */
#ifndef RPCBENCH_OPTION_TABLE_H
#define RPCBENCH_OPTION_TABLE_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "model/config_diff.h"

/* The commands the table serves; IN_ bits say which take a row. */
enum opt_cmd { CMD_RUN, CMD_COMPARE, CMD_SWEEP, CMD_REPORT, CMD_SERVE, CMD_AGENT, CMD_RECORD,
               CMD_N };
#define IN_RUN (1u << CMD_RUN)
#define IN_COMPARE (1u << CMD_COMPARE)
#define IN_SWEEP (1u << CMD_SWEEP)
#define IN_REPORT (1u << CMD_REPORT)
#define IN_SERVE (1u << CMD_SERVE)
#define IN_AGENT (1u << CMD_AGENT)
#define IN_RECORD (1u << CMD_RECORD)
#define IN_LOAD (IN_RUN | IN_COMPARE | IN_SWEEP) /* the commands that send */

enum opt_type {
    OT_FLAG,     /* no value: the int at off becomes 1 */
    OT_INT,      /* a decimal in min..max, into an int or a uint64_t (size) */
    OT_DURATION, /* units_parse_duration, min ns at least, into an int64_t */
    OT_RATE,     /* units_parse_rate, into a double per second */
    OT_SIZE,     /* units_parse_size, into a size_t of bytes */
    OT_CHOICE,   /* one of choices[0..nchoices), its index into an int (enum) */
    OT_STRING,   /* copied into a char[size] */
    OT_ARGV,     /* a const char * into argv, borrowed (serve's file names) */
    OT_CUSTOM,   /* parse() decides: the odd ones (--verb, --gate, ...) */
    OT_HELP,     /* -h, --help */
    OT_VERSION,  /* -V, --version */
};

/* The groups of --help GROUP and the man pages' OPTIONS, in their order
 * (option_doc.c names them). G_NONE is only -h and -V's: every other row
 * says its group (test_option_table fails one that does not). */
enum opt_group {
    G_NONE,
    G_TARGET,   /* what is measured: --url, --proto, --vms, serve's --listen */
    G_RATE,     /* rate and time: --rate, --duration, --stages, --rounds ... */
    G_WORKLOAD, /* what is sent: --verb, --method, --workload, --expect ... */
    G_CONN,     /* connections and TLS: -c, --cacert, auth, STOMP ... */
    G_MEASURE,  /* measurement: --server-pid, --buckets, --interval ... */
    G_VERDICT,  /* verdicts: --threshold, --gate, --find-max ... */
    G_OUTPUT,   /* outputs: --output, --format, --html, logs ... */
    G_DIST,     /* distribution: MPI, live metrics */
    G_PROFILE,  /* profile: --profile and its settings */
    G_N
};

/* One allowed value of an option and its line of help (as fio's posval):
 * "poisson", "exponential gaps, seeded by --seed". */
struct opt_value {
    const char *name, *help;
};

/* Where off points: into struct options, its cfg, the sweep_args that
 * sweep hands options_parse, serve's server_config, agent's
 * agent_config or record's record_config. */
enum opt_home { HOME_OPTIONS, HOME_CFG, HOME_SWEEP, HOME_SERVE, HOME_AGENT, HOME_RECORD };

struct options;

/* A parser of one value into o. @return 0, or -1 with err (ERR_LEN,
 * caller-owned; the option's name is put before it when missing). */
typedef int (*opt_parse_fn)(struct options *o, const char *arg, char *err);

struct opt_row {
    const char *name;        /* "connections": --connections */
    char short_opt;          /* 'c', or 0 */
    enum opt_type type;
    enum opt_home home;
    size_t off, size;        /* where the value goes, and its size (not for
                                HOME_CFG: opt_at, opt_size) */
    const char *cfg_key;     /* HOME_CFG: its field's row in model/config_keys.c */
    const char *arg;         /* the value's name in help ("N"); NULL for a flag */
    const char *def;         /* the default, as a user writes it: parsed by
                                the row itself before argv; NULL: none */
    const char *def_doc;     /* a default that is no value ("auto: ..."),
                                shown only; NULL: def */
    unsigned def_not_in;     /* IN_ bits: commands where def is not the
                                default (their help says what is) */
    long long min, max;      /* OT_INT; OT_DURATION: min in ns (0: any) */
    const char *const *choices; /* OT_CHOICE */
    int nchoices;
    opt_parse_fn parse;      /* OT_CUSTOM */
    const char *complete;    /* OT_CUSTOM: the words shell completion offers
                                for its value, blank-separated (NULL: files) */
    unsigned cmds;           /* IN_ bits: the commands that take it */
    unsigned lists;          /* IN_ bits: where it takes a comma list ... */
    opt_parse_fn parse_list; /* ... parsed by this instead */
    int repeatable;          /* may be given twice with two values: each
                                adds (--gate) or the last counts */
    int secret;              /* its value is a credential: shown as "***" */
    const char *why_only;    /* why the others refuse it: "--rounds: only
                                for compare (run makes one run)" */
    /* How compare tells two runs apart by this option (options_diff.c):
     * by default its value in run_config, read as its type says; diff
     * names another way (CK_VERBS: the verb mix); no_diff says it changes
     * nothing a run measures (an output, a label). A row run or compare
     * takes must say one or the other, or be a typed value in run_config:
     * the unit test fails otherwise, so no option is forgotten. */
    enum config_kind diff;
    int no_diff;
    enum opt_group group;    /* its --help group */
    unsigned essential;      /* IN_ bits: commands whose short --help shows it */
    /* Its values, one line of help each, shown by --help GROUP, --help all
     * and the man pages: a choice's (the same names, in the same order as
     * choices) or a custom row's (each one of its complete words). */
    const struct opt_value *values;
    int nvalues;
    const char *help;        /* lines joined by '\n', under 55 columns each */
    const char *help_in[CMD_N]; /* a command's own help, NULL: help */
};

/* @return where r's value is in o (o's), or NULL for a row without one
 * (OT_CUSTOM, or a HOME_CFG row whose cfg_key has no config_keys row:
 * test_option_table fails on that). */
char *opt_at(const struct opt_row *r, struct options *o);
/* @return the size of r's value (its config_keys row's for HOME_CFG; 0
 * when it has none). */
size_t opt_size(const struct opt_row *r);

extern const struct opt_row opt_rows[];
extern const size_t opt_nrows;
#define OPT_ROWS_MAX 128 /* the size of the per-row tables of a parse */

/* The first row named name (without "--"), or NULL: run's, compare's,
 * sweep's or report's (serve's --vms and --seed are rows of their own,
 * after them). Rows are the table's (static, const): never freed. */
const struct opt_row *opt_find(const char *name);

/* The row a getopt_long return value stands for (built by
 * opt_getopt_tables for cmd), or NULL. */
const struct opt_row *opt_from_getopt(int ch, enum opt_cmd cmd);

/* getopt_long's tables for cmd into longs (room for OPT_ROWS_MAX + 1,
 * the caller's) and shorts (room for 64): the rows cmd takes and, so that
 * they are refused by name, those of run and compare (not for serve, whose
 * options are the server's). val is 256 + the row's index, or its short
 * letter. */
void opt_getopt_tables(enum opt_cmd cmd, struct option *longs, char *shorts);

/* Parses arg for row r into o as cmd takes it (a list where r->lists
 * says so). @return 0, or -1 with err naming the option ("--connections:
 * '0' is not an integer in 1..10000", "--rounds: only for compare"). */
int opt_apply(const struct opt_row *r, struct options *o, enum opt_cmd cmd, const char *arg,
              char *err);

/* Sets the def of every row cmd takes in o (already zeroed, with its
 * o->sweep or o->serve for cmd's own rows). @return 0, or -1 with err: a
 * default its own row refuses (a bug in the table). */
int opt_defaults(struct options *o, enum opt_cmd cmd, char *err);

/* The parsers of the odd rows (OT_CUSTOM, and the lists of sweep), as
 * opt_parse_fn: options_values.c for run's and compare's, sweep_args.c
 * for sweep's. */
int opt_parse_proto(struct options *o, const char *arg, char *err);
int opt_parse_verb(struct options *o, const char *arg, char *err);
int opt_parse_method(struct options *o, const char *arg, char *err);
int opt_parse_workload(struct options *o, const char *arg, char *err);
int opt_parse_pacer_window(struct options *o, const char *arg, char *err);
int opt_parse_header(struct options *o, const char *arg, char *err);
int opt_parse_user(struct options *o, const char *arg, char *err);
int opt_parse_bearer(struct options *o, const char *arg, char *err);
int opt_parse_stomp_login(struct options *o, const char *arg, char *err);
int opt_parse_config(struct options *o, const char *arg, char *err);
int opt_parse_expect(struct options *o, const char *arg, char *err);
/* options_stages.c: --stages into o->cfg.stages (each checked alone). */
int opt_parse_stages(struct options *o, const char *arg, char *err);
/* options_replay.c: --speed N (a factor > 0). */
int opt_parse_speed(struct options *o, const char *arg, char *err);
/* options_auth.c: one Authorization at most, and HTTP's options only
 * over HTTP, STOMP's only over STOMP (c's url, "" the simulator: HTTP).
 * @return 0, or -1 with err (never quoting a secret). */
struct run_config;
int options_check_auth(const struct run_config *c, char *err);
int opt_parse_buckets(struct options *o, const char *arg, char *err);
int opt_parse_percentiles(struct options *o, const char *arg, char *err);
int opt_parse_cpu_sat(struct options *o, const char *arg, char *err);
int opt_parse_rounds(struct options *o, const char *arg, char *err);
int opt_parse_gate(struct options *o, const char *arg, char *err);
int opt_parse_threshold(struct options *o, const char *arg, char *err);
int sweep_list_rate(struct options *o, const char *arg, char *err);
int opt_list_conns(struct options *o, const char *arg, char *err);
int sweep_list_vms(struct options *o, const char *arg, char *err);
int sweep_list_proto(struct options *o, const char *arg, char *err);
int sweep_list_verb(struct options *o, const char *arg, char *err);
int sweep_opt_csv(struct options *o, const char *arg, char *err);
int sweep_opt_find_max(struct options *o, const char *arg, char *err);
int sweep_opt_rate_min(struct options *o, const char *arg, char *err);
int sweep_opt_rate_max(struct options *o, const char *arg, char *err);
int sweep_opt_resolution(struct options *o, const char *arg, char *err);
int serve_opt_listen(struct options *o, const char *arg, char *err);
int serve_opt_delay(struct options *o, const char *arg, char *err);
int agent_opt_listen(struct options *o, const char *arg, char *err);

/* options_job.c: --config FILE (a job file, one "name = value" a line)
 * applied to o for cmd: each option the command line did not give
 * (o->given). @return 0, or -1 with err naming the file and line. */
int options_apply_job(struct options *o, enum opt_cmd cmd, const char *path, char *err);
/* Appends "--name value" (a secret row's value as "***", quoted when it
 * has blanks) to o->cfg's options_given, or options_from_job while the
 * job file is applied: how the run was asked for. */
void options_note_given(struct options *o, const struct opt_row *r, const char *arg);

/* options_diff.c: the fields compare compares (config_diff.h), one per
 * row that run or compare takes and that changes a run, in the table's
 * order (rows read the same way, such as --verb and --method, once), into
 * out (CONFIG_FIELDS_MAX, the caller's). @return how many, or -1 with err
 * naming a row that says neither how to compare it nor that it need not
 * be (a bug in the table). */
int options_diff_fields(struct config_field *out, char *err);

/* option_doc.c: what is written from the table. */

/* cmd's name as typed ("run"): static. */
const char *opt_cmd_name(enum opt_cmd cmd);

/* What a command's --help and man page say around its rows: static. */
struct opt_cmd_doc {
    const char *name;      /* "run" */
    const char *synopsis;  /* usage lines, '\n' between, without "usage: " */
    const char *intro;     /* what it does, lines indented by 2 ("" none) */
    const char *exit_more; /* its own exit codes, after USAGE_EXIT_CODES */
    const char *tail;      /* after the options (NULL: nothing) */
    const char *what;      /* one line: the man page's NAME, rpcbench's list */
    const char *examples;  /* "# what it does\n" then its command lines */
};
const struct opt_cmd_doc *opt_cmd_doc(enum opt_cmd cmd);

/* Shared by --help and the man pages (option_doc.c). A row's range or
 * allowed values ("1..10000", "constant<sep>poisson", "10ms at least") or
 * "", into out. */
void opt_range_text(const struct opt_row *r, const char *sep, char *out, size_t len);
/* Its default as shown (def_doc, else def, else ""): static. */
const char *opt_default_text(const struct opt_row *r);

/* cmd's --help: usage line, the essential rows (all of them for a command
 * with few), the names of the groups, exit codes. */
void opt_usage(FILE *out, enum opt_cmd cmd);

/* cmd's --help TOPIC: topic "all" (every row, by group, with the values'
 * help) or a group's word ("target", "rate", ...: that group). @return 0,
 * or -1 with err when topic is neither (nothing written). */
int opt_usage_topic(FILE *out, enum opt_cmd cmd, const char *topic, char *err);

/* A group's word ("rate", as --help takes it) and its title ("rate and
 * time"): static. */
const char *opt_group_word(enum opt_group g);
const char *opt_group_title(enum opt_group g);

/* The man page rpcbench(1), in roff (`rpcbench help-man`): the commands
 * and what every page shares. */
void opt_man(FILE *out);

/* The man page rpcbench-CMD(1) of a command (`rpcbench help-man CMD`):
 * DESCRIPTION, OPTIONS by group, EXAMPLES, EXIT STATUS, SEE ALSO. */
void opt_man_cmd(FILE *out, enum opt_cmd cmd);

/* One TSV line per row (`rpcbench help-options`): name, short, type,
 * default, range or choices ('|' between), commands and list-in (',' between),
 * help (its lines joined by spaces), then one column per command
 * (help_run, ...): that command's own help, empty when it has none, then
 * its group's word and its values ('|' between); a header line first. */
void opt_tsv(FILE *out);

/* option_completion.c: the bash completion script (`rpcbench
 * help-completion`; make writes build/rpcbench.bash-completion with it):
 * the commands, each one's options, and the words each option's value
 * takes (a choice's values, a custom row's complete; comma lists
 * completed after their last comma); file names for any other value. */
void opt_completion(FILE *out);

#endif
