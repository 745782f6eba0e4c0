/* result_merge: adds one result into another, from their histograms and
 * counters (never from rounded figures), so a merged result re-renders
 * like one run. Used by compare (an arm's rounds) and report (several
 * saved files). */
#ifndef RPCBENCH_RESULT_MERGE_H
#define RPCBENCH_RESULT_MERGE_H

#include "results/result.h"

/* How result_merge combines two results:
 * SEQUENTIAL: back to back (compare's rounds of one arm): durations add,
 *   the timeline continues, the rate is the overall one.
 * CONCURRENT: at the same time (several clients' files, `report`): rates
 *   add; server CPU adds up across different servers and is taken once
 *   for the same server. Timelines line up by absolute time: when both
 *   results know their start_unix, src's intervals and samples move by
 *   the difference of the starts onto dst's timeline, which starts at the
 *   earlier of the two (dst's own move when src started first), every time
 *   snaps to the grid of dst's interval length, and those in the same slot
 *   merge. When either start is unknown (0: files saved before results
 *   were dated) intervals at the same t (within 1 ms) merge, as before;
 *   the caller may want to warn. The merged start_unix is the earliest
 *   known one. Intervals and samples come out sorted by time. */
enum result_merge { RESULT_MERGE_SEQUENTIAL, RESULT_MERGE_CONCURRENT };

/* Adds src into dst: histograms merged, counters summed, intervals,
 * samples and warnings appended or joined. dst may be fresh from
 * result_init (it then takes src's starting figures). dst stays the
 * caller's (result_free) and grows its own copies; src is only read and
 * stays the caller's. @return 0, or -1 with err (ERR_LEN, caller-owned:
 * histogram layouts differ, too many verbs, no memory); dst may then hold
 * part of src and is still safe to result_free. */
int result_merge(struct run_result *dst, const struct run_result *src, enum result_merge mode,
                 char *err);

#endif
