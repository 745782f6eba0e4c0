/* buckets: the cumulative response-time table VDSM engineers know,
 * "<3000ms: 8.3", with edges from --buckets. Nothing here allocates: the
 * edge and percentage arrays are the caller's. */
#ifndef RPCBENCH_BUCKETS_H
#define RPCBENCH_BUCKETS_H

#include <stddef.h>

#include "stats/hist.h"

#define BUCKETS_MAX 64

/* Edges in ms from spec into edges_ms (BUCKETS_MAX doubles, the
 * caller's): "auto" or "" (round edges from the minimum to the largest p99
 * of the nh histograms hs, about 20, one more above the max, rows that
 * would repeat the row before for every histogram left out; none when no
 * histogram holds a value), "START:END:STEP" or a list "1,2,5,10" (taken as
 * given). hs (borrowed) may be NULL when nh is 0.
 * @return the number of edges (0..BUCKETS_MAX), or -1 with err (ERR_LEN
 * bytes, caller-owned) for a spec that does not parse. */
int buckets_edges(const char *spec, const struct hist *const *hs, int nh, double *edges_ms,
                  char *err);

/* Cumulative % of h's values (microseconds) below each of the n edges
 * (ms) into pct[0..n), the caller's. */
void buckets_fill(const struct hist *h, const double *edges_ms, int n, double *pct);
/* One histogram's table: buckets_edges(spec, {h}) then buckets_fill, into
 * the caller's edges_ms and pct (BUCKETS_MAX each). @return the number of
 * rows, or -1 with err (a bad spec). */
int buckets_table(const char *spec, const struct hist *h, double *edges_ms, double *pct,
                  char *err);

/* Formats an edge the way the table shows it ("3000", "2.5", "0.05")
 * into out (len bytes, the caller's, NUL-terminated, cut if short). */
void buckets_format_ms(double ms, char *out, size_t len);
/* The label of the row of edge ms, as every bucket table shows it
 * ("<3000ms:"), into out (len bytes, the caller's, cut if short). */
void buckets_row_label(double ms, char *out, size_t len);

#endif
