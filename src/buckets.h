/* buckets: the cumulative response-time table VDSM engineers know,
 * "<3000ms: 8.3", with edges from --buckets. */
#ifndef RPCBENCH_BUCKETS_H
#define RPCBENCH_BUCKETS_H

#include <stddef.h>

#include "hist.h"

#define BUCKETS_MAX 64

/* Edges in ms from spec: "auto" (about 20 round edges spanning [lo_us, hi_us]),
 * "START:END:STEP" or a list "1,2,5,10". @return count, or -1 with err. */
int buckets_edges(const char *spec, int64_t lo_us, int64_t hi_us, double *edges_ms,
                  char *err);

/* Cumulative % of h below each edge. */
void buckets_fill(const struct hist *h, const double *edges_ms, int n, double *pct);

/* Formats an edge the way the table shows it: "3000", "2.5", "0.05". */
void buckets_format_ms(double ms, char *out, size_t len);

#endif
