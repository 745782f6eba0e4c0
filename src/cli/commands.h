/* commands: the subcommands of ./rpcbench. Each takes its own argv
 * (argv[0] is the subcommand's name; still main's, only read) and
 * @return the process exit code: 0 success, 1 failure at run time, 2 bad
 * usage (one line on stderr, nothing sent); run and compare also 3 (no
 * request succeeded) and 128 + the signal (130 SIGINT, 143 SIGTERM:
 * interrupted); compare with --gate also 3 (a regression) and 4
 * (inconclusive), or --bisect's codes
 * (compare_gate.h). Each prints its own
 * errors; none may be called twice at once (getopt's globals, statics). */
#ifndef RPCBENCH_COMMANDS_H
#define RPCBENCH_COMMANDS_H

int cmd_serve(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

#endif
