/* hdrlog_read: reads HdrHistogram interval logs (HistogramLogWriter's
 * format, 1.x), so `rpcbench report` can merge the logs of separate runs.
 *
 * Every interval is placed in absolute time as HistogramLogReader does:
 * its timestamp plus the log's BaseTime; a log without a BaseTime line has
 * relative timestamps (taken from its StartTime) when they lie more than a
 * year before the StartTime, else absolute ones; a log without a StartTime
 * takes its first timestamp. Comment and legend lines are skipped. Tagged
 * intervals ("Tag=...") are refused. Histograms are the compressed V2
 * encoding hdrlog_decode reads (stats/hdrlog.h).
 *
 * Errors are one line naming the log and its line: "a.hlog:7: why", in
 * err (ERR_LEN bytes, caller-owned). */
#ifndef RPCBENCH_HDRLOG_READ_H
#define RPCBENCH_HDRLOG_READ_H

#include <stdio.h>

#include "base/err.h"
#include "stats/hist.h"

/* A reader of one log. The FILE and name stay the caller's (borrowed until
 * hdrlog_reader_close, which frees only the line buffer). */
struct hdrlog_reader {
    FILE *f;
    const char *name;      /* for messages: the path, usually */
    long line;             /* of the last line read */
    double start_time;     /* StartTime, s since the epoch */
    double base_time;      /* what timestamps are relative to */
    int have_start, have_base;
    int64_t censored;      /* lower bounds its "#[Censored: N ..." lines
                              announce (hdrlog.h), summed so far */
    char *buf;             /* getline's */
    size_t cap;
};

/* One interval: where it sits and what it holds. */
struct hdrlog_interval {
    double start;   /* absolute, s since the epoch */
    double len;     /* s */
    double max;     /* the Interval_Max column, as written */
    long line;      /* where it was read */
};

/* Starts reading f (at its current position). Never fails. */
void hdrlog_reader_open(struct hdrlog_reader *r, FILE *f, const char *name);

/* Reads the next interval into *iv; with h non-NULL, also decodes its
 * histogram into *h (initialised here; the caller's to hist_close after
 * a return of 1), else the payload is left unread (a quick scan).
 * @return 1 with an interval, 0 at the end of the log, -1 with err on a
 * bad line or a read error (nothing to close). */
int hdrlog_read_interval(struct hdrlog_reader *r, struct hdrlog_interval *iv, struct hist *h,
                         char *err);

/* Frees the line buffer; the FILE stays open. Safe twice. */
void hdrlog_reader_close(struct hdrlog_reader *r);

#endif
