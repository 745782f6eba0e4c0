/* dist_pack: a run's figures as compact bytes for the ranks of a
 * distributed run (dist.h) to exchange: histograms as their non-zero
 * buckets, the configuration by its rows (model/config_keys.c), the rest
 * as the fixed structs themselves (every rank runs the same binary). No MPI here: it is plain data, unit-tested alone. */
#ifndef RPCBENCH_DIST_PACK_H
#define RPCBENCH_DIST_PACK_H

#include <stddef.h>

#include "base/buf.h"
#include "model/run_result.h"

/* Appends h (its non-zero buckets and sums) to b. @return 0, or -1 when
 * memory cannot be had. */
int dist_pack_hist(struct buf *b, const struct hist *h);
/* Reads a packed histogram at *pos of data (len bytes) and adds it into
 * dst (same layout), moving *pos past it. @return 0, or -1 when the bytes
 * are short or do not fit dst. */
int dist_unpack_hist_add(const unsigned char *data, size_t len, size_t *pos, struct hist *dst);

/* Appends r whole (counters, histograms, verbs, timeline, ranks) to b;
 * its configuration field by field, by the rows of model/config_keys.c.
 * @return 0, or -1 when memory cannot be had. */
int dist_pack_result(struct buf *b, const struct run_result *r);
/* Rebuilds a result from dist_pack_result's bytes into r (fresh: r is
 * then the caller's, result_free it, even on failure; its cfg's hooks are
 * NULL). @return 0, or -1 with err when the bytes do not make a result. */
int dist_unpack_result(const unsigned char *data, size_t len, struct run_result *r, char *err);

#endif
