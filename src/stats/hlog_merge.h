/* hlog_merge: one HdrHistogram interval log from several, by absolute
 * interval start, as HdrHistogram's own tools union logs: the logs of runs
 * started separately (cron, ssh, a CI matrix) become one log, which
 * HdrHistogram's Java reader (and `rpcbench report`) reads.
 *
 * Every interval is placed in absolute time (the log's BaseTime plus its
 * start, stats/hdrlog_read.h). The merged log starts (StartTime = BaseTime)
 * at the earliest interval start; slots are as long as the longest interval
 * read (the --interval of rpcbench's logs: the last, drain interval of a
 * run is shorter) and each interval falls in the slot its start rounds to.
 * The intervals of a slot are summed bucket by bucket (exact), written at
 * the slot's start, as long as the longest of them, with the largest
 * Interval_Max of them. Each log must be in time order, as writers make
 * them; the histograms must share one layout (lowest, highest, digits). */
#ifndef RPCBENCH_HLOG_MERGE_H
#define RPCBENCH_HLOG_MERGE_H

#include <stdint.h>

#include "base/err.h"

/* What a merge found and wrote. */
struct hlog_merge_info {
    long in;        /* intervals read */
    long out;       /* intervals written (slots) */
    double start;   /* the merged log's start, s since the epoch (with no
                       interval: the earliest StartTime line, else now) */
    double step;    /* the slot length, s */
    int64_t total;  /* values counted in all intervals */
    int64_t censored; /* of them, lower bounds (the inputs' "#[Censored: N" lines) */
};

/* @return 1 when path looks like an interval log rather than a saved JSON
 * result: its name ends in ".hlog" or it begins with "#[". */
int hlog_is_log(const char *path);

/* Reads the logs paths[0..n) (n >= 1; borrowed) twice (once to find the
 * start and slot length, once to merge) and writes the merged log to
 * out_path (created or truncated; removed again on failure), or, with
 * out_path NULL, only sums them. Fills *info.
 * @return 0, or -1 with err (ERR_LEN, caller-owned) naming the file and
 * line of a bad log. */
int hlog_merge(char *const *paths, int n, const char *out_path, struct hlog_merge_info *info,
               char *err);

#endif
