/* run_charts: the charts of a run and of a comparison, each built once as
 * a document (doc_chart.h) by one function here: the pages draw them
 * (html_run.c, compare_html.c) and --plot writes the same documents, drawn
 * the same way, as one SVG file (plot.c), so the page and the file show the
 * same lines.
 *
 * Charts are built from the histograms and the interval timeline, never
 * from per-request samples, so they stay small however long the run. The
 * results and names passed in are only read; a built chart holds its own
 * copy of the values (doc_chart_free). */
#ifndef RPCBENCH_RUN_CHARTS_H
#define RPCBENCH_RUN_CHARTS_H

#include <stddef.h>

#include "model/run_result.h"
#include "report/doc_chart.h"

/* The timeline charts: achieved rate, latency (p50, p99), CPU (and the
 * server's RSS on the right-hand axis). */
#define RUN_CHARTS_TIMELINE 3

/* Every chart of a run's page, in its order, into c[0..RUN_CHARTS_MAX):
 * the percentile chart (chart-pct: latency and service), when a histogram
 * has values, then the timeline charts (chart-tl-*). @return how many
 * (c[0..n) built; 0 too without memory). */
#define RUN_CHARTS_MAX (1 + RUN_CHARTS_TIMELINE)
int run_charts_of_run(struct doc_chart *c, const struct run_result *r);
/* Every chart of a comparison's page the same way, of its two arms'
 * merged results rs[0..2) named names[0..2) ("A xmlrpc"): the percentile
 * chart (latency), then the arms' timeline charts. @return how many. */
int run_charts_of_compare(struct doc_chart *c, const struct run_result *const *rs,
                          const char *const *names);

/* Frees charts c[0..n) (doc_chart_free). */
void run_charts_free(struct doc_chart *c, int n);

#endif
