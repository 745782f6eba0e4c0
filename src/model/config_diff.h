/* config_diff: what differs between the configurations of two results, so
 * that compare calls two arms an A/A only when nothing but noise separates
 * them, and otherwise names each parameter that differs. */
#ifndef RPCBENCH_CONFIG_DIFF_H
#define RPCBENCH_CONFIG_DIFF_H

#include <stddef.h>

#include "model/result.h"

#define CONFIG_DIFF_MAX 12 /* one per parameter compared */

/* One parameter that differs: its name ("verb", "connections") and each
 * side's value as a report shows it. */
struct config_diff {
    const char *name; /* static */
    char a[96], b[96];
};

/* Compares the parameters of a and b that shape what is measured: verb
 * mix, method, rate, connections, arrival, duration, URL (or the built-in
 * simulator and its size), encoding, server watched, build. Fills out
 * (CONFIG_DIFF_MAX entries, the caller's) with the ones that differ.
 * @return how many differ (0: an A/A). a and b are only read. */
size_t config_diff(const struct run_result *a, const struct run_result *b,
                   struct config_diff *out);

/* "verb (list:1 vs getAllVmStats:1), connections (1 vs 4)" into text (len
 * bytes, the caller's, always terminated; cut short at len). */
void config_diff_text(const struct config_diff *d, size_t n, char *text, size_t len);

#endif
