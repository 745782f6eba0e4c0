/* hdrlog_sink: the HdrHistogram files rpcbench writes beside its report
 * (the encodings themselves are stats/hdrlog.h).
 *
 * - --hdr-log FILE: an interval log, fed by the engine's interval hook
 *   (one histogram per interval, microseconds), then, once each run is
 *   over, one interval of its censored values (hdrlog_sink_run_done), so
 *   the log holds every value the report's latency histogram does.
 * - --percentile-dist FILE: HdrHistogram's percentile table, in ms.
 *
 * Functions that can fail return 0 or -1 and write a one-line reason into
 * err (ERR_LEN bytes, caller-owned). */
#ifndef RPCBENCH_HDRLOG_SINK_H
#define RPCBENCH_HDRLOG_SINK_H

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "stats/hdrlog.h"
#include "stats/hist.h"
#include "model/run_result.h"

/* --hdr-log: an interval log that may span several runs (compare's
 * rounds of one arm); timestamps are wall-clock seconds since the first
 * interval's start, so the gaps between rounds show. The caller owns the
 * struct (it may be static: it is large); the sink owns its FILE from
 * hdrlog_sink_open to hdrlog_sink_close. */
struct hdrlog_sink {
    FILE *f;               /* NULL when not open */
    struct hdrlog_writer w;
    int opened;            /* header written */
    int in_run;            /* run_base known for the current run */
    double log_start;      /* epoch s of the first interval */
    double run_base;       /* epoch s of the current run's measured start */
    const struct run_result *res; /* the run being fed (borrowed), whose
                                     start_unix dates it; NULL: estimated */
    struct hist run_sum;   /* the current run's intervals added up (counts
                              NULL until its first interval) */
    double last_end;       /* s since log_start: the last interval's end */
    int64_t total;         /* values written, for the caller's checks */
    int64_t censored;      /* of them, lower bounds (hdrlog_sink_run_done) */
    int failed;            /* a write failed: later intervals are dropped */
    char err[ERR_LEN];     /* why it failed */
};

/* Clears s and creates path for writing (the header waits for the first
 * interval). @return 0, or -1 with err (s->f stays NULL: nothing to close). */
int hdrlog_sink_open(struct hdrlog_sink *s, const char *path, char *err);

/* Call before each run that feeds the sink, so its timestamps start from
 * that run's measured start: res is the result the run fills (borrowed
 * until the next call or close; only its start_unix is read, once the
 * first interval closes). With res NULL, or a run that recorded no start,
 * the start is estimated from the wall clock at the first interval's end.
 * The log's StartTime and BaseTime are the first run's measured start (in
 * seconds since the epoch), so `rpcbench report` and HdrHistogram's tools
 * can place every interval in absolute time.
 * @return the hooks for that run (engine_run) that write its intervals
 * to s (on_interval, hdrlog_sink_hook); with s NULL (no --hdr-log), no
 * hooks, and nothing else is done. */
struct run_hooks hdrlog_sink_next_run(struct hdrlog_sink *s, const struct run_result *res);

/* Call once a run that hdrlog_sink_next_run began is over, with its
 * result (only read): writes what res's latency histogram holds beyond
 * the intervals written for that run, the waits of the requests still
 * unfinished at its end (res->censored, recorded once the last interval
 * had closed), as one more interval, after a comment line
 * "#[Censored: N ...]" that says its N values are lower bounds. The line
 * is untagged because HistogramLogProcessor reads only untagged lines by
 * default (and rpcbench's own reader takes no Tag=): a tag would drop the
 * very values that keep the log from under-counting. Nothing is written
 * when nothing is censored. With s NULL, does nothing.
 * @return 0, or -1 when the write fails (kept in s for hdrlog_sink_close,
 * as the hook's failures are) or the intervals do not add up to a part of
 * res's histogram. */
int hdrlog_sink_run_done(struct hdrlog_sink *s, const struct run_result *res);

/* Writes the header if no interval came (an empty log is still valid),
 * flushes and closes the FILE. Safe on a sink that failed to open.
 * @return 0, or -1 with err (including a write error met in the hook). */
int hdrlog_sink_close(struct hdrlog_sink *s, char *err);

/* Writes h's percentile table (values in ms, HdrHistogram's
 * outputPercentileDistribution layout) to path, created or truncated; h
 * is only read. @return 0, or -1 with err. */
int hdrlog_percentile_dist(const char *path, const struct hist *h, char *err);

#endif
