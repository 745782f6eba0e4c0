/* commands: the subcommands of ./rpcbench. Each takes its own argv
 * (argv[0] is the subcommand's name) and returns the process exit code:
 * 0 success, 1 failure at run time, 2 bad usage. */
#ifndef RPCBENCH_COMMANDS_H
#define RPCBENCH_COMMANDS_H

int cmd_serve(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
