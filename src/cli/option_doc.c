/* option_doc: what is written from the option table (option_table.h):
 * every --help of run, compare and sweep, the man page rpcbench(1), and
 * the TSV dump the docs test checks the README against. A row's default,
 * range and allowed values are printed from its fields, never typed into
 * its help. */
#include "cli/option_table.h"

#include <string.h>

#include "base/units.h"
#include "base/version.h"
#include "cli/cli_args.h"
#include "cli/sweep_args.h"

#define HELP_COL 25 /* where the help of a --help entry starts */

/* What a command's --help says around its rows (tail NULL: nothing after;
 * every field is given, so clang's -Wmissing-field-initializers, in the
 * fuzz build, has nothing to say). */
static const struct {
    const char *name, *synopsis, *intro, *exit_more, *tail;
} cmd_docs[CMD_N] = {
    [CMD_SERVE] = {"serve", "rpcbench serve [options]",
                   "  Runs a simulated VDSM host: XML-RPC at POST /RPC2 (and /),\n"
                   "  JSON-RPC 2.0 at POST /jsonrpc (HTTP/1.1), and JSON-RPC over STOMP 1.2\n"
                   "  (SEND to jms.topic.vdsm_requests with reply-to), all on one port.\n",
                   "", "  Prints \"listening on HOST:PORT\" once ready; SIGINT/SIGTERM stop it.\n"},
    [CMD_AGENT] = {"agent", "rpcbench agent --token-file FILE [options]",
                   "  Samples /proc on this host for a run on another one (run's server-agent):\n"
                   "  the CPU, RSS and threads of the processes the run names, and this\n"
                   "  machine's busy, steal and load, on the run's interval grid. Read-only;\n"
                   "  answers only with the token; loopback unless --listen says otherwise.\n",
                   "", "  Prints \"listening on HOST:PORT\" once ready; SIGINT/SIGTERM stop it.\n"},
    [CMD_RECORD] = {"record", "rpcbench record --listen HOST:PORT --to URL [--out FILE] [options]",
                    "  A proxy between real clients and a real server: forwards every byte\n"
                    "  unchanged both ways (HTTP with XML-RPC or JSON-RPC, and STOMP, on one\n"
                    "  port, plain or TLS) and writes each call it sees to a recording\n"
                    "  (JSON Lines: time, connection, method, params, sizes, latency,\n"
                    "  outcome; credentials as ***). `rpcbench report FILE` summarises it.\n",
                    "",
                    "  Prints \"listening on HOST:PORT\" once ready; -d, SIGINT or SIGTERM stop\n"
                    "  it (exit 0): the recording ends with the proxy's added latency.\n"},
    [CMD_RUN] = {"run", "rpcbench run [options]", "",
                 "             3 a --threshold condition failed, or no request succeeded;\n"
                 "             130 interrupted by SIGINT, 143 by SIGTERM (128 + the signal;\n"
                 "             figures still reported)\n",
                 NULL},
    [CMD_COMPARE] = {"compare", "rpcbench compare [options] | rpcbench compare A.json B.json",
                     "",
                     "             3 arm B stopped answering while A answered, no request\n"
                     "             succeeded in an arm, a --threshold condition failed in an\n"
                     "             arm, or a --gate regression; 4 a --gate inconclusive after\n"
                     "             the last round; 130 interrupted by SIGINT, 143 by SIGTERM\n"
                     "             (128 + the signal; figures still reported)\n",
                     NULL},
    [CMD_REPORT] = {"report",
                    "rpcbench report FILE.json [FILE.json ...] [options]\n"
                    "       rpcbench report FILE.hlog [FILE.hlog ...] [--hdr-log MERGED.hlog]",
                    "  re-renders saved results (run --output) from their histograms; several files\n"
                    "  are merged into one report (histograms merged, counts and rates summed, the\n"
                    "  timelines lined up by each run's absolute start time);\n"
                    "  a saved sweep (sweep --output) gives its table, one row per cell;\n"
                    "  interval logs (run --hdr-log) are merged by absolute interval start, summed\n"
                    "  slot by slot, into one log HdrHistogram's tools read (--hdr-log FILE);\n"
                    "  without --hdr-log only the summary is printed\n",
                    "             3 a --threshold condition failed\n",
                    NULL},
    [CMD_SWEEP] = {"sweep",
                   "rpcbench sweep [any run option] [lists] [--repeat N] [--baseline SPEC]\n"
                   "                      [--output S.json] [--csv S.csv] [--plot S.svg]\n"
                   "       rpcbench sweep [any run option] --find-max COND [--rate-min R]\n"
                   "                      [--rate-max R] [--resolution P%]",
                   "  One full, duration-bounded run (with its own --warmup) per cell; the cells\n"
                   "  are the cross product of the lists (L: a comma list), in this order:\n"
                   "  --vms, --proto, --verb, --connections, --rate (the rate varies fastest).\n",
                   "             3 no request succeeded in any cell, a --threshold failed, or\n"
                   "             --find-max: even --rate-min breaks COND; 4 --find-max: --rate-max\n"
                   "             still holds (several searches: 3 before 4 before 0);\n"
                   "             130 interrupted by SIGINT, 143 by SIGTERM (what was measured is\n"
                   "             still written)\n",
                   NULL},
};

const char *opt_cmd_name(enum opt_cmd cmd)
{
    return cmd_docs[cmd].name;
}

static const char *const type_names[] = {"flag",   "int",    "duration", "rate",
                                         "size",   "choice", "string",   "argv",
                                         "custom", "help",   "version"};

/* "1..10000", "constant|poisson" (sep between choices), "10ms at least",
 * or "". */
static void range_text(const struct opt_row *r, const char *sep, char *out, size_t len)
{
    out[0] = '\0';
    if (r->type == OT_INT)
        snprintf(out, len, "%lld..%lld", r->min, r->max);
    if (r->type == OT_DURATION && r->min == 1)
        snprintf(out, len, "more than 0");
    if (r->type == OT_DURATION && r->min > 1) {
        units_format_duration(r->min, out, len);
        snprintf(out + strlen(out), len - strlen(out), " at least");
    }
    for (int i = 0; r->type == OT_CHOICE && i < r->nchoices; i++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", i ? sep : "", r->choices[i]);
    }
}

static const char *default_text(const struct opt_row *r)
{
    return r->def_doc ? r->def_doc : r->def ? r->def : "";
}

/* "(1..10000; default 4)": what the fields say that the help does not.
 * A command's own help (help_in) says its values itself. */
static void suffix_text(const struct opt_row *r, enum opt_cmd cmd, char *out, size_t len)
{
    char range[200] = "";
    out[0] = '\0';
    if (r->lists & (1u << cmd))
        return; /* L: the intro says what a list is */
    if (!r->help_in[cmd])
        range_text(r, " | ", range, sizeof range);
    const char *def = r->def_not_in & (1u << cmd) ? "" : default_text(r);
    if (range[0] || def[0])
        snprintf(out, len, "(%s%s%s%s)", range, range[0] && def[0] ? "; " : "",
                 def[0] ? "default: " : "", def);
}

static const char *help_of(const struct opt_row *r, enum opt_cmd cmd)
{
    return r->help_in[cmd] ? r->help_in[cmd] : r->help;
}

/* "  -c, --connections N": the left column of an entry. */
static int entry_head(FILE *out, const struct opt_row *r, enum opt_cmd cmd)
{
    const char *arg = r->lists & (1u << cmd) ? "L" : r->arg;
    if (r->short_opt)
        return fprintf(out, "  -%c, --%s%s%s", r->short_opt, r->name, arg ? " " : "",
                       arg ? arg : "");
    return fprintf(out, "      --%s%s%s", r->name, arg ? " " : "", arg ? arg : "");
}

/* One row's --help entry as cmd shows it (report borrows run's). */
static void opt_usage_row(FILE *out, const struct opt_row *r, enum opt_cmd cmd)
{
    int col = entry_head(out, r, cmd);
    char suffix[300];
    suffix_text(r, cmd, suffix, sizeof suffix);
    if (col >= HELP_COL - 1) { /* a long head: its help starts on the next line */
        fputc('\n', out);
        col = 0;
    }
    const char *line = help_of(r, cmd);
    for (;;) {
        size_t n = strcspn(line, "\n");
        fprintf(out, "%*s%.*s", HELP_COL - col, "", (int)n, line);
        col = HELP_COL + (int)n;
        if (!line[n])
            break;
        fputc('\n', out);
        col = 0;
        line += n + 1;
    }
    for (const char *w = suffix; *w;) { /* word by word, within 79 columns */
        int n = (int)strcspn(w, " ");
        if (col + 1 + n > 79) {
            fprintf(out, "\n%*s", HELP_COL - 1, "");
            col = HELP_COL - 1;
        }
        fprintf(out, " %.*s", n, w);
        col += 1 + n;
        w += n + (w[n] == ' ');
    }
    fputc('\n', out);
}

void opt_usage(FILE *out, enum opt_cmd cmd)
{
    fprintf(out, "usage: %s\n%s", cmd_docs[cmd].synopsis, cmd_docs[cmd].intro);
    for (size_t i = 0; i < opt_nrows; i++)
        if (opt_rows[i].cmds & (1u << cmd))
            opt_usage_row(out, &opt_rows[i], cmd);
    if (cmd == CMD_SWEEP)
        fprintf(out, "  Limits: %d values per list, %d cells, %d runs (cells x repeats; each\n"
                "  run's histograms are kept to the end), %d searches.\n",
                SWEEP_MAX_LIST, SWEEP_MAX_CELLS, SWEEP_MAX_RUNS, SWEEP_MAX_SEARCHES);
    if (cmd_docs[cmd].tail)
        fputs(cmd_docs[cmd].tail, out);
    fputs(USAGE_EXIT_CODES, out);
    fputs(cmd_docs[cmd].exit_more, out);
}

/* ---- the TSV dump --------------------------------------------------------- */

static void commands_csv(unsigned bits, char *out, size_t len)
{
    out[0] = '\0';
    for (int c = 0; c < CMD_N; c++)
        if (bits & (1u << c)) {
            size_t used = strlen(out);
            snprintf(out + used, len - used, "%s%s", used ? "," : "", cmd_docs[c].name);
        }
}

/* A help text as one TSV cell: its lines joined by spaces. */
static void tsv_help(FILE *out, const char *h)
{
    fputc('\t', out);
    for (; h && *h; h++)
        fputc(*h == '\n' || *h == '\t' ? ' ' : *h, out);
}

void opt_tsv(FILE *out)
{
    fprintf(out, "name\tshort\ttype\tdefault\trange\tcommands\tlists\thelp");
    for (int c = 0; c < CMD_N; c++)
        fprintf(out, "\thelp_%s", cmd_docs[c].name);
    fputc('\n', out);
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        char range[200], cmds[64], lists[64];
        range_text(r, "|", range, sizeof range);
        commands_csv(r->cmds, cmds, sizeof cmds);
        commands_csv(r->lists, lists, sizeof lists);
        char flag[3] = {'-', r->short_opt, '\0'};
        fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t%s", r->name, r->short_opt ? flag : "",
                type_names[r->type], default_text(r), range, cmds, lists);
        tsv_help(out, r->help);
        for (int c = 0; c < CMD_N; c++)
            tsv_help(out, r->cmds & (1u << c) ? r->help_in[c] : NULL);
        fputc('\n', out);
    }
}

/* ---- the man page ---------------------------------------------------------- */

/* Text as roff: backslash and minus escaped, a quote or a dot that starts
 * a line made plain, '\n' kept. */
static void roff_text(FILE *out, const char *s)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", out);
        bol = *s == '\n';
        if (*s == '\\')
            fputs("\\e", out);
        else if (*s == '-')
            fputs("\\-", out);
        else if (*s == '\'')
            fputs("\\(aq", out);
        else
            fputc(*s, out);
    }
}

/* pre, text as roff, post. */
static void roff_span(FILE *out, const char *pre, const char *text, const char *post)
{
    fputs(pre, out);
    roff_text(out, text);
    fputs(post, out);
}

/* One option: its head, its help, each command's own help where it has
 * one, then what the fields say. */
static void man_row(FILE *out, const struct opt_row *r)
{
    char range[200], cmds[64], lists[64];
    fputs(".TP\n", out);
    if (r->short_opt)
        fprintf(out, "\\fB\\-%c\\fR, ", r->short_opt);
    roff_span(out, "\\fB\\-\\-", r->name, "\\fR");
    if (r->arg)
        roff_span(out, " \\fI", r->arg, "\\fR");
    roff_span(out, "\n", r->help, "\n.br\n");
    for (int c = 0; c < CMD_N; c++) /* where a command says it its own way */
        if (r->help_in[c] && (r->cmds & (1u << c))) {
            fprintf(out, "In \\fB%s\\fR: ", cmd_docs[c].name);
            roff_span(out, "", r->help_in[c], "\n.br\n");
        }
    range_text(r, ", ", range, sizeof range);
    commands_csv(r->cmds, cmds, sizeof cmds);
    commands_csv(r->lists, lists, sizeof lists);
    roff_span(out, "Commands: ", cmds, lists[0] ? "" : ".");
    if (lists[0])
        roff_span(out, "; a comma list in ", lists, ".");
    if (range[0])
        roff_span(out, r->type == OT_CHOICE ? " Values: " : " Range: ", range, ".");
    if (default_text(r)[0])
        roff_span(out, " Default: ", default_text(r), ".");
    commands_csv(r->def_not_in, cmds, sizeof cmds);
    if (cmds[0])
        roff_span(out, " Not the default in ", cmds, " (see its \\-\\-help).");
    fputs("\n", out);
}

void opt_man(FILE *out)
{
    fprintf(out, ".TH RPCBENCH 1 \"\" \"rpcbench %s\" \"User Commands\"\n.nh\n.ad l\n",
            rpcbench_version());
    fputs(".SH NAME\nrpcbench \\- load generator for XML\\-RPC and JSON\\-RPC servers\n"
          ".SH SYNOPSIS\n", out);
    fputs(".nf\n", out);
    for (int c = 0; c < CMD_N; c++) /* --help's indents are not roff's */
        for (const char *l = cmd_docs[c].synopsis; *l;) {
            l += strspn(l, " ");
            size_t n = strcspn(l, "\n");
            char line[200];
            snprintf(line, sizeof line, "%.*s", (int)n, l);
            roff_span(out, strncmp(line, "rpcbench", 8) ? "    " : "", line, "\n");
            l += n + (l[n] == '\n');
        }
    fputs(".fi\n", out);
    fputs(".SH DESCRIPTION\n\\fBrun\\fR drives a server at a fixed rate for a fixed time; "
          "\\fBcompare\\fR runs two arms in interleaved rounds; \\fBsweep\\fR runs a grid of "
          "runs, or searches for the capacity under a condition; \\fBreport\\fR re-renders "
          "or merges saved results. See README.md.\n"
          ".SH OPTIONS\n", out);
    for (size_t i = 0; i < opt_nrows; i++)
        man_row(out, &opt_rows[i]);
    fputs(".SH EXIT STATUS\n0 ok, 1 failure at run time, 2 bad usage (nothing sent), 3 a "
          "condition failed or no request succeeded, 4 inconclusive; 130 SIGINT, 143 "
          "SIGTERM.\n", out);
}
