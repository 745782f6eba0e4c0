/* plot: files drawn from results, beside the text report.
 *
 * - --plot FILE.svg: one SVG by gnuplot (three panels: cumulative
 *   response-time distribution, p50/p99 over time, server CPU over time);
 *   with --plot-keep the data and the script stay beside it so
 *   `gnuplot FILE.gp` re-makes it: FILE.gp, FILE.<arm>.cdf.dat,
 *   FILE.<arm>.timeline.dat.
 * - --hdr-log FILE: HdrHistogram interval log, fed by the engine's
 *   interval hook (one histogram per interval, microseconds).
 * - --percentile-dist FILE: HdrHistogram's percentile table, in ms. */
#ifndef RPCBENCH_PLOT_H
#define RPCBENCH_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "stats/hdrlog.h"
#include "results/result.h"
#include "base/units.h"

/* Writes the data files and script for narms results (names label the
 * lines), then runs gnuplot from PATH; once the SVG is made the script and
 * data are removed unless keep (--plot-keep). Without gnuplot it prints
 * one line to stderr and returns 0: the data and script are kept.
 * @return 0, or -1 with err (a file cannot be written, gnuplot failed). */
int plot_svg(const char *svg_path, const struct run_result *const *arms,
             const char *const *names, size_t narms, int keep, char *err);

/* --hdr-log: an interval log that may span several runs (compare's
 * rounds of one arm); timestamps are wall-clock seconds since the first
 * interval's start, so the gaps between rounds show. */
struct plot_hdr_sink {
    FILE *f;
    struct hdrlog_writer w;
    int opened;            /* header written */
    int in_run;            /* run_base known for the current run */
    double log_start;      /* epoch s of the first interval */
    double run_base;       /* epoch s of the current run's measured start */
    int64_t total;         /* values written, for the caller's checks */
    int failed;
    char err[ERR_LEN];
};

/* Creates path for writing. @return 0, or -1 with err. */
int plot_hdr_open(struct plot_hdr_sink *s, const char *path, char *err);
/* Call before each run that feeds the sink. */
void plot_hdr_next_run(struct plot_hdr_sink *s);
/* The engine's interval_hook; ctx is the sink. */
void plot_hdr_hook(void *ctx, const struct interval_rec *rec, const struct hist *h,
                   double start_s, double len_s);
/* Flushes and closes. @return 0, or -1 with err (including a write error
 * met in the hook). */
int plot_hdr_close(struct plot_hdr_sink *s, char *err);

/* Writes h's percentile table (values in ms) to path. @return 0 or -1. */
int plot_percentile_dist(const char *path, const struct hist *h, char *err);

#endif
