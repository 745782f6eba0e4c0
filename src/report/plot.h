/* plot: files drawn from results, beside the text report.
 *
 * - --plot FILE.svg: one SVG by gnuplot, a panel per chart of the page
 *   (run_charts.h, the same documents: latency by percentile, achieved
 *   rate, p50/p99 and CPU over time); with --plot-keep the data and the
 *   script stay beside it so `gnuplot FILE.gp` re-makes it: FILE.gp and
 *   FILE.<chart id>.dat (FILE.chart-pct.dat, FILE.chart-tl-lat.dat, ...).
 *
 * The HdrHistogram files (--hdr-log, --percentile-dist) are
 * hdrlog_sink.h's. */
#ifndef RPCBENCH_PLOT_H
#define RPCBENCH_PLOT_H

#include <stddef.h>

#include "model/result.h"
#include "base/units.h"

/* Writes the data files and script for narms results (1: a run; 2: a
 * comparison's arms A and B; names label the lines), then runs gnuplot from PATH; once the SVG is made the script and
 * data are removed unless keep (--plot-keep). Without gnuplot it prints
 * one line to stderr and returns 0: the data and script are kept.
 * The results and names are only read and stay the caller's.
 * @return 0, or -1 with err (ERR_LEN, caller-owned: narms not 1 or 2, no
 * memory, a file cannot be written, gnuplot failed). */
int plot_svg(const char *svg_path, const struct run_result *const *arms,
             const char *const *names, size_t narms, int keep, char *err);

#endif
