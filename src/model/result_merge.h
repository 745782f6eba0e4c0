/* result_merge: adds one result into another, from their histograms and
 * counters (never from rounded figures), so a merged result re-renders
 * like one run. Used by compare (an arm's rounds) and report (several
 * saved files). */
#ifndef RPCBENCH_RESULT_MERGE_H
#define RPCBENCH_RESULT_MERGE_H

#include "model/run_result.h"

/* How result_merge combines two results:
 * SEQUENTIAL: back to back (compare's rounds of one arm, or saved runs
 *   that never overlapped): durations add, the timeline continues, the
 *   rate is the overall one, server CPU adds up.
 * CONCURRENT: at the same time (several clients' files, `report`): with
 *   both starts known the duration is the span of the two windows and the
 *   rate the requests over it (the sum of the rates when the windows
 *   coincide); otherwise the longer duration and the rates added. Server
 *   CPU adds up across different servers and is taken once for the same
 *   server. Timelines line up by absolute time: when both
 *   results know their start_unix, src's intervals and samples move by
 *   the difference of the starts onto dst's timeline, which starts at the
 *   earlier of the two (dst's own move when src started first), every time
 *   snaps to the grid of dst's interval length, and those in the same slot
 *   merge. When either start is unknown (0: files saved before results
 *   were dated) intervals at the same t (within 1 ms) merge, as before;
 *   the caller may want to warn. The merged start_unix is the earliest
 *   known one. Intervals and samples come out sorted by time. */
/* CONSECUTIVE: runs that never overlapped (saved files, `report`): the
 *   timelines line up by absolute time as CONCURRENT's (a gap between
 *   them), the figures are SEQUENTIAL's. */
enum result_merge { RESULT_MERGE_SEQUENTIAL, RESULT_MERGE_CONCURRENT, RESULT_MERGE_CONSECUTIVE };

/* The mode's name: "sequential", "concurrent", "consecutive" ("?" for
 * none), as the JSON's "merged.how" spells it. */
const char *result_merge_name(int how);
/* @return the mode a name spells, or -1. */
int result_merge_from_name(const char *name);

/* Adds src into dst: histograms merged, counters summed, intervals,
 * samples and warnings appended or joined. dst may be fresh from
 * result_init (it then takes src's starting figures). dst stays the
 * caller's (result_free) and grows its own copies; src is only read and
 * stays the caller's. @return 0, or -1 with err (ERR_LEN, caller-owned:
 * histogram layouts differ, too many verbs, no memory); dst may then hold
 * part of src and is still safe to result_free. */
int result_merge(struct run_result *dst, const struct run_result *src, enum result_merge mode,
                 char *err);

/* How n measured windows [start[i], start[i] + dur[i]) (seconds since the
 * epoch; 0: unknown) lie in time, for `report` to merge them as they ran.
 * Taken in start order, each window either overlaps the ones before it
 * (their union) or starts after they all ended:
 * UNKNOWN: a start is unknown (nothing to go by);
 * OVERLAP: every window overlaps the ones before it (side by side:
 *   CONCURRENT, which takes the rate over the span, never a sum);
 * APART: none does (one after the other: CONSECUTIVE);
 * MIXED: some do and some do not.
 * order (n entries, caller's) gets the indexes in start order; *common the
 * time, s, that all windows share (0 when some never meet). */
enum result_timing { RESULT_TIMING_UNKNOWN, RESULT_TIMING_OVERLAP, RESULT_TIMING_APART,
                     RESULT_TIMING_MIXED };
enum result_timing result_timing(const double *start, const double *dur, size_t n,
                                 size_t *order, double *common);

#endif
