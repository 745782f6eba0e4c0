/* option_man: the man pages, written in roff from the option table and
 * the commands' docs (option_table.h): rpcbench(1), which lists the
 * commands, and one page per command, rpcbench-CMD(1), with its options
 * by group. A command added to enum opt_cmd and cmd_docs gets its page
 * from the loop over CMD_N, with nothing else to write. */
#include "cli/option_table.h"

#include <string.h>

#include "base/version.h"
#include "cli/cli_args.h"

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

/* Text written for a terminal (indented lines) as one roff paragraph:
 * its runs of blanks and newlines as one blank, skip bytes left out. */
static void roff_flow(FILE *out, const char *s, size_t skip)
{
    char flat[2048];
    size_t n = 0;
    for (s += strlen(s) > skip ? skip : strlen(s); *s && n + 1 < sizeof flat; s++)
        if (!(*s == ' ' || *s == '\n') || (n && flat[n - 1] != ' '))
            flat[n++] = *s == '\n' ? ' ' : *s;
    while (n && flat[n - 1] == ' ')
        n--;
    flat[n] = '\0';
    roff_span(out, "", flat, "\n");
}

static void page_head(FILE *out, const char *title, const char *name, const char *what)
{
    fprintf(out, ".TH %s 1 \"\" \"rpcbench %s\" \"User Commands\"\n.nh\n.ad l\n", title,
            rpcbench_version());
    roff_span(out, ".SH NAME\n", name, " \\- ");
    roff_span(out, "", what, "\n");
}

/* A command's synopsis lines, without --help's indents. */
static void synopsis(FILE *out, enum opt_cmd cmd)
{
    for (const char *l = opt_cmd_doc(cmd)->synopsis; *l;) {
        l += strspn(l, " ");
        size_t n = strcspn(l, "\n");
        char line[200];
        snprintf(line, sizeof line, "%.*s", (int)n, l);
        roff_span(out, strncmp(line, "rpcbench", 8) ? "    " : "", line, "\n.br\n");
        l += n + (l[n] == '\n');
    }
}

/* One option as cmd takes it: its head, its help, what the fields say,
 * then a line per value. */
static void man_row(FILE *out, const struct opt_row *r, enum opt_cmd cmd)
{
    char range[200];
    int list = !!(r->lists & (1u << cmd));
    fputs(".TP\n", out);
    if (r->short_opt)
        fprintf(out, "\\fB\\-%c\\fR, ", r->short_opt);
    roff_span(out, "\\fB\\-\\-", r->name, "\\fR");
    if (r->arg)
        roff_span(out, " \\fI", list ? "L" : r->arg, "\\fR");
    roff_span(out, "\n", r->help_in[cmd] ? r->help_in[cmd] : r->help, "\n.br\n");
    opt_range_text(r, ", ", range, sizeof range);
    if (list)
        fputs("A comma list: one cell per value.", out);
    if (range[0] && !list)
        roff_span(out, r->type == OT_CHOICE ? "Values: " : "Range: ", range, ". ");
    if (opt_default_text(r)[0] && !(r->def_not_in & (1u << cmd)))
        roff_span(out, "Default: ", opt_default_text(r), ".");
    fputs("\n", out);
    size_t width = 0;
    for (int v = 0; v < r->nvalues && !list; v++)
        width = strlen(r->values[v].name) > width ? strlen(r->values[v].name) : width;
    if (width)
        fputs(".RS\n", out);
    for (int v = 0; v < r->nvalues && !list; v++) {
        fprintf(out, ".TP %zun\n", width + 2);
        roff_span(out, "\\fB", r->values[v].name, "\\fR\n");
        roff_span(out, "", r->values[v].help, "\n");
    }
    if (width)
        fputs(".RE\n", out);
}

/* The examples: "# what" lines as paragraphs, the others as commands. */
static void examples(FILE *out, const char *s)
{
    int in_cmd = 0;
    while (*s) {
        size_t n = strcspn(s, "\n");
        char line[200];
        snprintf(line, sizeof line, "%.*s", (int)n, s);
        int what = !strncmp(line, "# ", 2);
        if (what && in_cmd)
            fputs(".fi\n.RE\n", out);
        if (what)
            roff_span(out, ".PP\n", line + 2, ":\n.RS 4\n.nf\n");
        else
            roff_span(out, "", line, "\n");
        in_cmd = 1;
        s += n + (s[n] == '\n');
    }
    if (in_cmd)
        fputs(".fi\n.RE\n", out);
}

/* A command's one line; its name when its docs have none (a command
 * added to the table without it still gets a page). */
static const char *what_of(const struct opt_cmd_doc *d)
{
    return d->what ? d->what : d->name;
}

/* SEE ALSO: the other pages, and the manual by topic. */
static void see_also(FILE *out, int except)
{
    fputs(".SH SEE ALSO\n", out);
    if (except >= 0)
        fputs("\\fBrpcbench\\fR(1), ", out);
    for (int c = 0; c < CMD_N; c++)
        if (c != except)
            fprintf(out, "\\fBrpcbench\\-%s\\fR(1), ", opt_cmd_name((enum opt_cmd)c));
    fputs("\\fBrpcbench\\-files\\fR(5).\n.PP\nThe manual by topic: README.md and "
          "docs/ "
          "(measurement, compare\\-and\\-gates, workloads, servers, profiles, "
          "distributed, "
          "files, development), installed under share/doc/rpcbench.\n",
          out);
}

void opt_man_cmd(FILE *out, enum opt_cmd cmd)
{
    const struct opt_cmd_doc *d = opt_cmd_doc(cmd);
    char title[40], name[40];
    snprintf(name, sizeof name, "rpcbench-%s", d->name);
    for (size_t i = 0; i <= strlen(name); i++)
        title[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
    page_head(out, title, name, what_of(d));
    fputs(".SH SYNOPSIS\n", out);
    synopsis(out, cmd);
    roff_span(out, ".SH DESCRIPTION\n\\fBrpcbench ", d->name, "\\fR: ");
    roff_span(out, "", what_of(d), ".\n");
    if (d->intro[0])
        roff_flow(out, d->intro, 0);
    if (d->tail)
        roff_flow(out, d->tail, 0);
    fprintf(out,
            ".PP\n\\fBrpcbench %s \\-\\-help\\fR shows the essential options, "
            "\\fB\\-\\-help\\fR \\fIGROUP\\fR one group of those below, and "
            "\\fB\\-\\-help all\\fR all of them.\n.SH OPTIONS\n",
            d->name);
    for (int g = G_NONE + 1; g < G_N; g++) {
        int n = 0;
        for (size_t i = 0; i < opt_nrows; i++) {
            const struct opt_row *r = &opt_rows[i];
            if (!(r->cmds & (1u << cmd)) || r->group != (enum opt_group)g)
                continue;
            if (!n++)
                fprintf(out, ".SS \"%s (\\-\\-help %s)\"\n", opt_group_title((enum opt_group)g),
                        opt_group_word((enum opt_group)g));
            man_row(out, r, cmd);
        }
    }
    fputs(".SS general\n.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR "
          "[\\fIGROUP\\fR|\\fBall\\fR]\n"
          "The essential options, one group's, or all.\n.TP\n\\fB\\-V\\fR, "
          "\\fB\\-\\-version\\fR\nThe version, its commit, and whether MPI is "
          "built in.\n",
          out);
    fputs(".SH EXAMPLES\n", out);
    char help[80];
    snprintf(help, sizeof help, "# Its options, by group\nrpcbench %s --help all\n", d->name);
    examples(out, d->examples ? d->examples : help);
    fputs(".SH EXIT STATUS\n", out);
    roff_flow(out, USAGE_EXIT_CODES, strlen("exit status:"));
    if (d->exit_more[0]) {
        fputs(".br\n", out); /* the command's own codes, on a line of their own */
        roff_flow(out, d->exit_more, 0);
    }
    see_also(out, (int)cmd);
}

void opt_man(FILE *out)
{
    page_head(out, "RPCBENCH", "rpcbench", "load generator for XML-RPC and JSON-RPC servers");
    fputs(".SH SYNOPSIS\n\\fBrpcbench\\fR \\fICOMMAND\\fR [\\fIoptions\\fR]\n.br\n"
          "\\fBrpcbench\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR "
          "[\\fIGROUP\\fR|\\fBall\\fR]\n"
          ".SH DESCRIPTION\nrpcbench drives an RPC server at a fixed rate for a "
          "fixed time, "
          "over XML\\-RPC or JSON\\-RPC (over HTTP, or over STOMP as oVirt's VDSM "
          "speaks it, "
          "with or without TLS), and reports response\\-time histograms measured "
          "from each "
          "request's intended send time, together with the server's CPU per call. "
          "It compares "
          "two encodings or two builds of a server A/B, in interleaved rounds with "
          "confidence "
          "intervals, and gates regressions in CI.\n.PP\nEvery command checks all "
          "its options "
          "before it sends anything: a mistake is one line naming the option, and "
          "exit 2.\n"
          ".SH COMMANDS\n",
          out);
    for (int c = 0; c < CMD_N; c++) {
        const struct opt_cmd_doc *d = opt_cmd_doc((enum opt_cmd)c);
        fprintf(out, ".TP\n\\fBrpcbench\\-%s\\fR(1)\n", d->name);
        roff_span(out, "", what_of(d), ".\n");
    }
    fputs(".SH OPTIONS\nEach command's page lists its options by group: ", out);
    for (int g = G_NONE + 1; g < G_N; g++)
        fprintf(out, "%s\\fB%s\\fR", g > G_NONE + 1 ? ", " : "",
                opt_group_title((enum opt_group)g));
    fputs(". \\fBrpcbench\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR \\fIGROUP\\fR "
          "shows one "
          "group, \\fB\\-\\-help all\\fR every option.\n.SH EXAMPLES\n",
          out);
    examples(out, "# Compare XML-RPC and JSON-RPC on the built-in simulator\n"
                  "rpcbench compare --proto xmlrpc,jsonrpc -R 5 -d 8s\n"
                  "# Drive your own server at 50 calls/s and sample its CPU\n"
                  "rpcbench run --url http://127.0.0.1:8001/RPC2 --method add \\\n"
                  "    --params '[2,3]' -R 50 -d 10s --server-name srv.py\n");
    fputs(".SH EXIT STATUS\n", out);
    roff_flow(out, USAGE_EXIT_CODES, strlen("exit status:"));
    fputs("Each command adds its own (3: a condition failed, or no request "
          "succeeded; 4: "
          "undecided; 130 and 143: interrupted by SIGINT or SIGTERM): see its "
          "page.\n",
          out);
    see_also(out, -1);
}
