/* buckets: the cumulative response-time table VDSM engineers know,
 * "<3000ms: 8.3", with edges from --buckets. */
#ifndef RPCBENCH_BUCKETS_H
#define RPCBENCH_BUCKETS_H

#include <stddef.h>

#include "stats/hist.h"

#define BUCKETS_MAX 64

/* Edges in ms from spec: "auto" (round edges from the minimum to the
 * largest p99 of the nh histograms hs, about 20, one more above the max,
 * rows that would repeat the row before for every histogram left out; none
 * when no histogram holds a value), "START:END:STEP" or a list "1,2,5,10"
 * (taken as given). hs may be NULL when nh is 0. @return count, or -1 with
 * err. */
int buckets_edges(const char *spec, const struct hist *const *hs, int nh, double *edges_ms,
                  char *err);

/* Cumulative % of h below each edge. */
void buckets_fill(const struct hist *h, const double *edges_ms, int n, double *pct);

/* Formats an edge the way the table shows it: "3000", "2.5", "0.05". */
void buckets_format_ms(double ms, char *out, size_t len);

#endif
