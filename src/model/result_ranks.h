/* result_ranks: the ranks of a distributed run (result.h's rank_rec) in
 * the JSON result (report/ranks_doc.c shows them). */
#ifndef RPCBENCH_RESULT_RANKS_H
#define RPCBENCH_RESULT_RANKS_H

#include <stdio.h>
#include <json-c/json.h>

#include "model/run_result.h"

/* Adds "ranks": [{rank, host, sent, ok, errors, achieved, send_lag_p99,
 * client_cpu_pct, clock_offset_us, lost}], "clock_error_us" and
 * "client_cpu_total_pct" (the ranks' sum) to root when r has ranks (else
 * nothing). root stays the caller's. */
void result_ranks_json(json_object *root, const struct run_result *r);
/* Reads root's "ranks" and "clock_error_us" (if any) into r (fresh from
 * result_init: r owns the array then). @return 0 (also when there are
 * none), or -1 when memory cannot be had. */
int result_ranks_load(json_object *root, struct run_result *r);

#endif
