/* rpcbench: drive an RPC server at a fixed rate for a fixed time and report
 * honest latency histograms with the server's CPU. See README.md. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exit_code.h"
#include "cli/commands.h"
#include "cli/cli_args.h"
#include "cli/option_table.h"
#include "client/spawn.h"
#include "dist/dist.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
} commands[] = {
    {"serve", cmd_serve, "run the built-in simulated VDSM host"},
    {"run", cmd_run, "drive a server at a fixed rate for a fixed time"},
    {"compare", cmd_compare, "A/B: two protocols or two servers, interleaved rounds"},
    {"sweep", cmd_sweep, "grids of runs, and capacity search under a condition"},
    {"report", cmd_report, "re-render or merge saved results"},
    {"agent", cmd_agent, "sample a server's CPU for runs on other hosts"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: rpcbench <command> [options]   (rpcbench <command> --help [GROUP|all])\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].what);
    fprintf(out, "\n  -V, --version  the version\n  %s", USAGE_EXIT_CODES);
}

/* `rpcbench help-man CMD`: the page rpcbench-CMD(1) (make writes
 * build/man/rpcbench-CMD.1 with it, for every command help-man-list
 * names). @return the exit code. */
static int help_man_cmd(const char *name)
{
    for (int c = 0; c < CMD_N; c++)
        if (!strcmp(name, opt_cmd_name((enum opt_cmd)c))) {
            opt_man_cmd(stdout, (enum opt_cmd)c);
            return fflush(stdout) ? EXIT_RUN_FAILED : EXIT_OK;
        }
    fprintf(stderr, "rpcbench: help-man: no command '%s'\n", name);
    return EXIT_USAGE;
}

/* The commands that have a man page, one a line (`rpcbench help-man-list`). */
static void man_list(FILE *out)
{
    for (int c = 0; c < CMD_N; c++)
        fprintf(out, "%s\n", opt_cmd_name((enum opt_cmd)c));
}

/* A command under MPI (dist.h; a single process otherwise): only rank 0
 * prints (RPCBENCH_RANK_STDERR=1 keeps the other ranks' stderr, to debug),
 * and every rank exits with rank 0's code. `serve` never starts MPI: the
 * simulator a run spawns is no rank. */
static int run_distributed(int (*fn)(int, char **), int argc, char **argv)
{
    const char *launch = dist_foreign_launch(); /* N copies would each report the whole */
    if (launch) {
        fprintf(stderr, "rpcbench: this rpcbench was built without MPI: make MPI=1 "
                "(%s: started by an MPI launcher)\n", launch);
        return EXIT_USAGE;
    }
    if (dist_init(&argc, &argv)) {
        fprintf(stderr, "rpcbench: MPI did not start\n");
        return EXIT_RUN_FAILED;
    }
    if (!dist_is_root()) {
        if (!freopen("/dev/null", "w", stdout) ||
            (!getenv("RPCBENCH_RANK_STDERR") && !freopen("/dev/null", "w", stderr)))
            return dist_finish(EXIT_RUN_FAILED);
    }
    return dist_finish(fn(argc - 1, argv + 1));
}

int main(int argc, char **argv)
{
    /* A peer that closes mid-write must give EPIPE, not kill the run. */
    signal(SIGPIPE, SIG_IGN);
    if (strchr(argv[0], '/'))
        spawn_self = argv[0]; /* run starts `serve` from the same file */
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    /* hidden: the option table as roff (make writes build/man/ with it:
     * rpcbench.1, and rpcbench-CMD.1 for each command of help-man-list),
     * as TSV (tests/it_docs.py checks docs/ against it) and as
     * bash completion (make writes build/rpcbench.bash-completion) */
    if (!strcmp(argv[1], "help-man") && argc > 2)
        return help_man_cmd(argv[2]);
    void (*from_table)(FILE *) = !strcmp(argv[1], "help-man")        ? opt_man
                                 : !strcmp(argv[1], "help-options")    ? opt_tsv
                                 : !strcmp(argv[1], "help-completion") ? opt_completion
                                 : !strcmp(argv[1], "help-man-list")   ? man_list
                                                                       : NULL;
    if (from_table) {
        from_table(stdout);
        return fflush(stdout) ? EXIT_RUN_FAILED : EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        cli_print_version();
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return strcmp(argv[1], "serve") && strcmp(argv[1], "agent")
                       ? run_distributed(commands[i].fn, argc, argv)
                       : commands[i].fn(argc - 1, argv + 1); /* never ranks */
    fprintf(stderr, "rpcbench: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
