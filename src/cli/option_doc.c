/* option_doc: what is written from the option table (option_table.h) for
 * a terminal: every command's --help (short: the essential rows; --help
 * GROUP; --help all) and the TSV dump the docs test checks docs/ against.
 * The man pages are option_man.c's. A row's default, range and allowed
 * values are printed from its fields, never typed into its help. */
#include "cli/option_table.h"

#include <string.h>

#include "base/err.h"
#include "base/units.h"
#include "base/version.h"
#include "cli/cli_args.h"
#include "cli/sweep_args.h"

#define HELP_COL 25 /* where the help of a --help entry starts */

/* What a command's --help and its man page say around its rows (tail
 * NULL: nothing after; every field is given, so clang's
 * -Wmissing-field-initializers, in the fuzz build, has nothing to say). */
static const struct opt_cmd_doc cmd_docs[CMD_N] = {
    [CMD_SERVE] = {"serve", "rpcbench serve [options]",
                   "  Runs a simulated VDSM host: XML-RPC at POST /RPC2 (and /),\n"
                   "  JSON-RPC 2.0 at POST /jsonrpc (HTTP/1.1), and JSON-RPC over STOMP 1.2\n"
                   "  (SEND to jms.topic.vdsm_requests with reply-to), all on one port.\n",
                   "", "  Prints \"listening on HOST:PORT\" once ready; SIGINT/SIGTERM stop it.\n",
        "run the built-in simulated VDSM host",
        "# A simulated host of 150 VMs on the default port\n"
        "rpcbench serve\n"
        "# A server with a known capacity of 100 calls/s, on a free port\n"
        "rpcbench serve --listen 127.0.0.1:0 --workers 1 --delay 10ms\n"
        "# Fifty hosts for a fleet run, their URLs in a targets file\n"
        "rpcbench serve --listen 127.0.0.1:0 --hosts 50 --targets-out \\\n"
        "    hosts.txt\n"},
    [CMD_AGENT] = {"agent", "rpcbench agent --token-file FILE [options]",
                   "  Samples /proc on this host for a run on another one (run's server-agent):\n"
                   "  the CPU, RSS and threads of the processes the run names, and this\n"
                   "  machine's busy, steal and load, on the run's interval grid. Read-only;\n"
                   "  answers only with the token; loopback unless --listen says otherwise.\n",
                   "", "  Prints \"listening on HOST:PORT\" once ready; SIGINT/SIGTERM stop it.\n",
        "sample a server's CPU for runs on other hosts",
        "# On the server's host, for runs from other hosts\n"
        "rpcbench agent --token-file token --listen 0.0.0.0:9465\n"
        "# On the client's host: the run samples vdsmd over there\n"
        "rpcbench run --url https://host:54321/RPC2 --server-agent \\\n"
        "    http://host:9465 --token-file token --server-name vdsmd\n"},
    [CMD_RECORD] = {"record", "rpcbench record --listen HOST:PORT --to URL [--out FILE] [options]",
                    "  A proxy between real clients and a real server: forwards every byte\n"
                    "  unchanged both ways (HTTP with XML-RPC or JSON-RPC, and STOMP, on one\n"
                    "  port, plain or TLS) and writes each call it sees to a recording\n"
                    "  (JSON Lines: time, connection, method, params, sizes, latency,\n"
                    "  outcome; credentials as ***). `rpcbench report FILE` summarises it.\n",
                    "",
                    "  Prints \"listening on HOST:PORT\" once ready; -d, SIGINT or SIGTERM stop\n"
                    "  it (exit 0): the recording ends with the proxy's added latency.\n",
        "proxy a real client to its server and record the calls",
        "# Between VDSM's clients and VDSM, for a minute\n"
        "rpcbench record --listen 127.0.0.1:54322 \\\n"
        "    --to stomp://127.0.0.1:54321 --out engine.jsonl -d 60s\n"
        "# What it holds: calls per method, periods, sizes, latencies\n"
        "rpcbench report engine.jsonl\n"},
    [CMD_RUN] = {"run", "rpcbench run [options]", "",
                 "             3 a --threshold condition failed, or no request succeeded;\n"
                 "             130 interrupted by SIGINT, 143 by SIGTERM (128 + the signal;\n"
                 "             figures still reported)\n",
                 NULL,
        "drive a server at a fixed rate for a fixed time",
        "# The built-in simulator, XML-RPC, 50 calls/s for 20 s\n"
        "rpcbench run -p xmlrpc -R 50 -d 20s\n"
        "# Your own server: one method, its CPU per call, a page to attach\n"
        "rpcbench run --url http://127.0.0.1:8001/RPC2 --method add --params \\\n"
        "    \'[2,3]\' -R 50 -d 10s --server-name srv.py --html run.html\n"
        "# A verdict for CI\n"
        "rpcbench run --url http://vdsm:54321/jsonrpc -p jsonrpc --threshold \\\n"
        "    \'p99<100ms,errors=0\' --junit out.xml\n"},
    [CMD_COMPARE] = {"compare", "rpcbench compare [options] | rpcbench compare A.json B.json",
                     "",
                     "             3 arm B stopped answering while A answered, no request\n"
                     "             succeeded in an arm, a --threshold condition failed in an\n"
                     "             arm, or a --gate regression; 4 a --gate inconclusive after\n"
                     "             the last round; 130 interrupted by SIGINT, 143 by SIGTERM\n"
                     "             (128 + the signal; figures still reported)\n",
                     NULL,
        "A/B: two protocols or two servers, interleaved rounds",
        "# XML-RPC against JSON-RPC on the built-in simulator\n"
        "rpcbench compare --proto xmlrpc,jsonrpc --rounds 3 -R 20 -d 10s\n"
        "# Two builds of a server, gated on CPU per call (CI)\n"
        "rpcbench compare --url \\\n"
        "    http://127.0.0.1:8081/RPC2,http://127.0.0.1:8082/RPC2 \\\n"
        "    --server-pid $A,$B -R 50 -d 5s --gate cpu_ms_per_call:+10% \\\n"
        "    --junit rpcbench.xml\n"
        "# Two saved runs\n"
        "rpcbench compare A.json B.json\n"},
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
                    NULL,
        "re-render or merge saved results",
        "# Re-bucket and merge two saved runs\n"
        "rpcbench report run1.json run2.json --buckets 3000:12000:500\n"
        "# One row for a spreadsheet\n"
        "rpcbench report run.json --format csv-summary\n"},
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
                   NULL,
        "grids of runs, and capacity search under a condition",
        "# Both encodings at four rates\n"
        "rpcbench sweep --proto xmlrpc,jsonrpc --rate 5,10,20,40 -d 10s \\\n"
        "    --output S.json\n"
        "# The highest rate whose p99 stays under 100 ms with no error\n"
        "rpcbench sweep --find-max \'p99<100ms,errors=0\' --rate-min 10 \\\n"
        "    --rate-max 2000\n"},
};

const char *opt_cmd_name(enum opt_cmd cmd)
{
    return cmd_docs[cmd].name;
}

const struct opt_cmd_doc *opt_cmd_doc(enum opt_cmd cmd)
{
    return &cmd_docs[cmd];
}

/* The groups in --help's order: the word --help takes, and the title. */
static const struct {
    const char *word, *title;
} groups[G_N] = {
    [G_NONE] = {"", ""},
    [G_TARGET] = {"target", "target"},
    [G_RATE] = {"rate", "rate and time"},
    [G_WORKLOAD] = {"workload", "workload"},
    [G_CONN] = {"connections", "connections and TLS"},
    [G_MEASURE] = {"measurement", "measurement"},
    [G_VERDICT] = {"verdicts", "verdicts"},
    [G_OUTPUT] = {"outputs", "outputs"},
    [G_DIST] = {"distribution", "distribution"},
    [G_PROFILE] = {"profile", "profile"},
};

const char *opt_group_word(enum opt_group g)
{
    return groups[g].word;
}

const char *opt_group_title(enum opt_group g)
{
    return groups[g].title;
}

static const char *const type_names[] = {"flag",   "int",    "duration", "rate",
                                         "size",   "choice", "string",   "argv",
                                         "custom", "help",   "version"};

void opt_range_text(const struct opt_row *r, const char *sep, char *out, size_t len)
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

const char *opt_default_text(const struct opt_row *r)
{
    return r->def_doc ? r->def_doc : r->def ? r->def : "";
}

/* The names of the commands of bits, ',' between, into out. */
static void opt_commands_csv(unsigned bits, char *out, size_t len)
{
    out[0] = '\0';
    for (int c = 0; c < CMD_N; c++)
        if (bits & (1u << c)) {
            size_t used = strlen(out);
            snprintf(out + used, len - used, "%s%s", used ? "," : "", cmd_docs[c].name);
        }
}

/* A row --help lists in a group (not -h or -V, which close every help). */
static int listed(const struct opt_row *r, enum opt_cmd cmd)
{
    return (r->cmds & (1u << cmd)) && r->group != G_NONE;
}

#define SMALL_ROWS 16 /* a command with this many rows at most shows them all */

/* Whether cmd's rows are so few that its --help shows them all: 1 or 0. */
static int opt_cmd_is_small(enum opt_cmd cmd)
{
    int n = 0;
    for (size_t i = 0; i < opt_nrows; i++)
        n += listed(&opt_rows[i], cmd);
    return n <= SMALL_ROWS;
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
        opt_range_text(r, " | ", range, sizeof range);
    const char *def = r->def_not_in & (1u << cmd) ? "" : opt_default_text(r);
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

/* The words of text (its '\n' as blanks) from column col, each line within
 * 79 columns, a new one indented to indent. @return the column reached. */
static int words(FILE *out, int col, int indent, const char *text)
{
    for (const char *w = text; *w;) {
        int n = (int)strcspn(w, " \n");
        if (col + 1 + n > 79) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        }
        fprintf(out, " %.*s", n, w);
        col += 1 + n;
        w += n;
        w += strspn(w, " \n");
    }
    return col;
}

/* Each of r's values on a line of its own, under its entry. */
static void value_lines(FILE *out, const struct opt_row *r)
{
    int width = 0;
    for (int i = 0; i < r->nvalues; i++)
        width = (int)strlen(r->values[i].name) > width ? (int)strlen(r->values[i].name) : width;
    for (int i = 0; i < r->nvalues; i++) {
        int col = fprintf(out, "%*s%-*s ", HELP_COL + 1, "", width, r->values[i].name);
        words(out, col - 1, HELP_COL + width + 2, r->values[i].help);
        fputc('\n', out);
    }
}

/* One row's --help entry as cmd shows it (report borrows run's); with
 * values, each value's line too. */
static void opt_usage_row(FILE *out, const struct opt_row *r, enum opt_cmd cmd, int values)
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
    words(out, col, HELP_COL - 1, suffix);
    fputc('\n', out);
    if (values && !(r->lists & (1u << cmd)))
        value_lines(out, r);
}

/* The rows of group g that cmd takes (essential ones only, if so),
 * under the group's title. @return how many. */
static int group_rows(FILE *out, enum opt_cmd cmd, enum opt_group g, int essential, int values)
{
    int n = 0;
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        if (!listed(r, cmd) || r->group != g || (essential && !(r->essential & (1u << cmd))))
            continue;
        if (!n++ && !essential)
            fprintf(out, "%s (--help %s):\n", groups[g].title, groups[g].word);
        opt_usage_row(out, r, cmd, values);
    }
    return n;
}

/* What closes every help: -h and -V, sweep's limits, the tail, the exit codes. */
static void usage_end(FILE *out, enum opt_cmd cmd)
{
    fprintf(out, "  -h, --help [GROUP|all]  this help, one group's options, or every option\n"
                 "  -V, --version           the version, its commit, and whether MPI is in\n");
    if (cmd == CMD_SWEEP)
        fprintf(out, "  Limits: %d values per list, %d cells, %d runs (cells x repeats; each\n"
                "  run's histograms are kept to the end), %d searches.\n",
                SWEEP_MAX_LIST, SWEEP_MAX_CELLS, SWEEP_MAX_RUNS, SWEEP_MAX_SEARCHES);
    if (cmd_docs[cmd].tail)
        fputs(cmd_docs[cmd].tail, out);
    fputs(USAGE_EXIT_CODES, out);
    fputs(cmd_docs[cmd].exit_more, out);
}

/* "target, rate, workload, ...": the words of the groups cmd has. */
static void group_words(FILE *out, enum opt_cmd cmd)
{
    char list[200] = "";
    for (int g = G_NONE + 1; g < G_N; g++) {
        int has = 0;
        for (size_t i = 0; i < opt_nrows && !has; i++)
            has = listed(&opt_rows[i], cmd) && opt_rows[i].group == (enum opt_group)g;
        size_t used = strlen(list);
        if (has)
            snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", groups[g].word);
    }
    fputc(' ', out);
    words(out, 1, 1, list);
    fputc('\n', out);
}

void opt_usage(FILE *out, enum opt_cmd cmd)
{
    int small = opt_cmd_is_small(cmd);
    fprintf(out, "usage: %s\n%s", cmd_docs[cmd].synopsis, cmd_docs[cmd].intro);
    if (!small) {
        fprintf(out, "essential options:\n");
        for (int g = G_NONE + 1; g < G_N; g++)
            group_rows(out, cmd, (enum opt_group)g, 1, 0);
    }
    for (int g = G_NONE + 1; small && g < G_N; g++)
        group_rows(out, cmd, (enum opt_group)g, 0, 0);
    fprintf(out, "%s (--help GROUP, or --help all):\n",
            small ? "the groups" : "more options, by group");
    group_words(out, cmd);
    usage_end(out, cmd);
}

int opt_usage_topic(FILE *out, enum opt_cmd cmd, const char *topic, char *err)
{
    int all = !strcmp(topic, "all");
    enum opt_group one = G_NONE;
    for (int g = G_NONE + 1; g < G_N; g++)
        if (!strcmp(topic, groups[g].word))
            one = (enum opt_group)g;
    if (!all && one == G_NONE) {
        snprintf(err, ERR_LEN, "--help: '%.40s' is not a group: target, rate, workload, "
                 "connections, measurement, verdicts, outputs, distribution, profile, or all",
                 topic);
        return -1;
    }
    if (!all) {
        if (!group_rows(out, cmd, one, 0, 1))
            fprintf(out, "%s: no %s options (rpcbench %s --help all: every option)\n",
                    cmd_docs[cmd].name, groups[one].title, cmd_docs[cmd].name);
        return 0;
    }
    fprintf(out, "usage: %s\n%s", cmd_docs[cmd].synopsis, cmd_docs[cmd].intro);
    for (int g = G_NONE + 1; g < G_N; g++)
        group_rows(out, cmd, (enum opt_group)g, 0, 1);
    usage_end(out, cmd);
    return 0;
}

/* ---- the TSV dump --------------------------------------------------------- */

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
    fputs("\tgroup\tvalues\n", out);
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        char range[200], cmds[64], lists[64];
        opt_range_text(r, "|", range, sizeof range);
        opt_commands_csv(r->cmds, cmds, sizeof cmds);
        opt_commands_csv(r->lists, lists, sizeof lists);
        char flag[3] = {'-', r->short_opt, '\0'};
        fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t%s", r->name, r->short_opt ? flag : "",
                type_names[r->type], opt_default_text(r), range, cmds, lists);
        tsv_help(out, r->help);
        for (int c = 0; c < CMD_N; c++)
            tsv_help(out, r->cmds & (1u << c) ? r->help_in[c] : NULL);
        fprintf(out, "\t%s\t", groups[r->group].word);
        for (int v = 0; v < r->nvalues; v++)
            fprintf(out, "%s%s", v ? "|" : "", r->values[v].name);
        fputc('\n', out);
    }
}

