/* commands: the subcommands of ./rpcbench. Each takes its own argv
 * (argv[0] is the subcommand's name; still main's, only read) and
 * @return the process exit code (base/exit_code.h): EXIT_OK, EXIT_RUN_FAILED
 * (failure at run time), EXIT_USAGE (one line on stderr, nothing sent);
 * run, compare and sweep also EXIT_NO_SUCCESS (no request succeeded),
 * EXIT_CONDITION_FAILED (a --threshold) and EXIT_SIGNAL (130 SIGINT, 143
 * SIGTERM: interrupted); report EXIT_CONDITION_FAILED; compare with --gate
 * also EXIT_REGRESSION and EXIT_INCONCLUSIVE, or with --bisect the
 * EXIT_BISECT_ codes; sweep --find-max EXIT_MIN_BREAKS and EXIT_MAX_HOLDS.
 * Each prints its own errors; none may be called twice at once (getopt's
 * globals, statics). */
#ifndef RPCBENCH_COMMANDS_H
#define RPCBENCH_COMMANDS_H

int cmd_serve(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_record(int argc, char **argv);

#endif
