/* hdrlog: HdrHistogram's file formats, so the Java (and C) HdrHistogram
 * tools read what rpcbench writes.
 *
 * - The compressed V2 histogram encoding (base64 text, "HISTF..."), used in
 *   interval logs and in rpcbench's saved JSON results.
 * - The interval log, format 1.3 (HistogramLogWriter's layout).
 * - The percentile distribution table of outputPercentileDistribution, which
 *   wrk2 also prints.
 *
 * The zlib stream inside the encoding is compressed by zlib's deflate (at
 * its fastest level: hdrlog.c says why), as the Java and C writers do: a
 * histogram's runs of similar counts shrink to a fraction, so interval
 * logs and saved results are smaller, and zlib is linked anyway, to read
 * those writers' logs (stats/inflate.h). The base64 is OpenSSL's
 * (EVP_EncodeBlock/EVP_DecodeBlock), read strictly.
 *
 * Functions that can fail return 0 or -1 and write a one-line reason into
 * err (ERR_LEN bytes, caller-owned; ERR_LEN is in base/err.h). Histograms
 * passed in are borrowed; bufs passed out are the caller's to buf_free. */
#ifndef RPCBENCH_HDRLOG_H
#define RPCBENCH_HDRLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "stats/hist.h"

/* Appends h's compressed V2 encoding, base64, to out (no NUL counted in
 * out->len, but out->data stays NUL-terminated; out is left as it was on
 * failure). One-shot: it sets up a deflate state of its own (some 256 KiB)
 * and frees it again, every call. That suits saved results, merges and
 * tests; an interval log written while the load runs goes through
 * hdrlog_write_interval, whose writer keeps one state for its whole life.
 * @return 0, or -1 when memory cannot be had. */
int hdrlog_encode(const struct hist *h, struct buf *out);

/* Decodes base64 text (len bytes, no NUL needed) into out, which this
 * initialises with the encoded lowest/highest/sigfigs; on success the caller
 * owns it (hist_close). min, max and the sums behind mean and stddev are
 * rebuilt from the buckets, as HdrHistogram does. The base64 must be the
 * standard alphabet only, no blanks or line ends, its length a multiple
 * of 4 and '=' only as its last one or two characters ("bad base64"
 * otherwise). @return 0, or -1 on bad input (out left closed). */
int hdrlog_decode(const char *base64, size_t len, struct hist *out, char *err);

struct z_stream_s; /* zlib's z_stream, private to hdrlog.c */

/* The comment line that says how many values of the next interval are
 * lower bounds (the waits of requests unfinished at a run's end):
 * "#[Censored: N of the M values of the next interval are ...]". */
#define HDRLOG_CENSORED_MARK "#[Censored: "

/* Interval log writer. The FILE stays the caller's: hdrlog_close flushes
 * it but does not fclose it. Everything else the writer holds is its own,
 * from hdrlog_writer_open to hdrlog_close: the deflate state and the
 * scratch buffers are set up once and reused by every interval, because
 * --hdr-log writes each interval from inside the load loop, where a
 * deflate state built and torn down per call (an allocation of some
 * 256 KiB and its setup) would stall the sends behind it, and the latency
 * counted from their intended send times would show the stall. */
struct hdrlog_writer {
    FILE *f;
    double start_epoch_s;  /* written as StartTime and BaseTime */
    double max_ratio;      /* Interval_Max = max / max_ratio */
    struct z_stream_s *z;  /* the deflate state (malloc'd); NULL: not open */
    struct buf payload;    /* V2 payload of the interval being written */
    struct buf env;        /* its compressed envelope */
    struct buf scratch;    /* the envelope's base64 */
};

/* Sets up the writer's deflate state, then writes the header: format
 * version 1.3, StartTime, BaseTime (= StartTime, so interval timestamps
 * are seconds since the start), a comment line (comment may be NULL for
 * rpcbench's default one: microseconds of latency from the intended send
 * time) and the legend. max_ratio scales the Interval_Max column: 1000.0
 * shows microsecond values as milliseconds. On failure the writer holds
 * nothing to free (hdrlog_close on it is harmless, not needed).
 * @return 0, or -1 with err: "hdr log: out of memory (deflate state)"
 * when zlib cannot have the memory (nothing is written then), or a write
 * error. */
int hdrlog_writer_open(struct hdrlog_writer *w, FILE *f, double start_epoch_s,
                       double max_ratio, const char *comment, char *err);

/* One line: "<start>,<length>,<max/max_ratio>,<base64>", start in seconds
 * since the log's start. Reuses the writer's deflate state and buffers,
 * so once they have grown to the largest interval it allocates nothing.
 * @return 0, or -1 on a write or memory error, or a writer not open. */
int hdrlog_write_interval(struct hdrlog_writer *w, double start_s, double len_s,
                          const struct hist *h, char *err);

/* Frees the writer's deflate state and buffers and flushes (never closes)
 * its FILE; call it once, whatever the writes returned (again, or on a
 * writer whose open failed, it does nothing).
 * @return 0, or -1 with err if the stream had a write error. */
int hdrlog_close(struct hdrlog_writer *w, char *err);

/* The classic percentile table (HdrHistogram outputPercentileDistribution,
 * wrk2 --latency): values divided by value_scale, percentile steps that
 * halve the distance to 100 % every ticks_per_half_distance rows (5 is the
 * usual), then the Mean/StdDeviation, Max/Total count, Buckets/SubBuckets
 * footer. Mean and stddev are the exact ones hist keeps.
 * @return 0, or -1 if the stream had a write error. */
int hdrlog_write_percentiles(FILE *f, const struct hist *h, double value_scale,
                             int ticks_per_half_distance);

#endif
