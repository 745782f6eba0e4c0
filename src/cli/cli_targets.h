/* cli_targets: --targets FILE (a fleet), read and checked before anything
 * is sent, for run, compare and sweep alike: a usage error names the file
 * and the line. Internal to cli/. */
#ifndef RPCBENCH_CLI_TARGETS_H
#define RPCBENCH_CLI_TARGETS_H

#include "client/targets_file.h"
#include "model/run_result.h"

/* Reads cfg->targets_file into tf (the caller's, zeroed here; free with
 * targets_file_free whatever the outcome; empty without --targets) and
 * fits cfg to it: the first target stands as cfg's url, the longest of
 * the hosts' stages= is the window unless dur_given, and a host gets one
 * connection unless conns_given. url_given: --url was on the command
 * line, which a fleet refuses. @return 0, or -1 with err. */
int cli_targets_load(struct run_config *cfg, int url_given, int dur_given, int conns_given,
                     struct targets_file *tf, char *err);

/* @return 1 when the first host of the targets file at path is a
 * stomp:// or stomps:// URL (its fleet speaks JSON-RPC only), else 0
 * (unreadable files are cli_targets_load's to refuse). */
int cli_targets_stomp(const char *path);

#endif
