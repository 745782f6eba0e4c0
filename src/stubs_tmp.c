/* Temporary stubs while the subcommands are being written. */
#include <stdio.h>
#include "commands.h"
int cmd_compare(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "compare: not yet\n"); return 2; }
int cmd_report(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "report: not yet\n"); return 2; }
