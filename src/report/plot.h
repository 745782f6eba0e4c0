/* plot: files drawn from results, beside the text report.
 *
 * - --plot FILE.svg: one standalone SVG, a panel per chart of the page
 *   (run_charts.h, the same documents drawn by the page's own writer:
 *   latency by percentile, achieved rate, p50/p99 and CPU over time).
 *
 * The HdrHistogram files (--hdr-log, --percentile-dist) are
 * hdrlog_sink.h's. */
#ifndef RPCBENCH_PLOT_H
#define RPCBENCH_PLOT_H

#include <stddef.h>

#include "model/run_result.h"
#include "base/units.h"

/* Writes the SVG of narms results (1: a run; 2: a comparison's arms A
 * and B; names label the lines) at svg_path (doc_chart_svg). The results
 * and names are only read and stay the caller's.
 * @return 0, or -1 with err (ERR_LEN, caller-owned: narms not 1 or 2, no
 * memory, the file cannot be written). */
int plot_svg(const char *svg_path, const struct run_result *const *arms,
             const char *const *names, size_t narms, char *err);

#endif
