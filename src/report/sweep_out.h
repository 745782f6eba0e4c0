/* sweep_out: a sweep (sweep.h) for people and spreadsheets: the table
 * (one row per cell), the capacity searches with their probes, the CSV,
 * the side-by-side bucket table and the plot.
 *
 * The sweep is only read and stays the caller's. Write errors on out are
 * the caller's to check (ferror). err is ERR_LEN bytes, caller-owned. */
#ifndef RPCBENCH_SWEEP_OUT_H
#define RPCBENCH_SWEEP_OUT_H

#include <stdio.h>

#include "model/sweep.h"
#include "report/doc_table.h"
#include "report/doc_cards.h"
#include "report/doc_chart.h"

/* The table: a line naming what every cell shares, then one row per cell:
 * its number (#, as sweep_select takes it), the parameters that vary,
 * then the figures of the sweep's columns (model/metric.h's sweep_col; medians over the repeats; with more
 * than one repeat also "[min-max]"), each column in one unit, and the
 * flags (sweep_flags_text). baseline: a cell index, or -1
 * for none; with one, each figure is followed by its "% of baseline"
 * column (the baseline's own row is 100.0% wherever it has the figure)
 * and the baseline's number is marked "*".
 * @return 0, or -1 with err (baseline out of range, no memory). */
int sweep_table_text(FILE *out, const struct sweep *s, long baseline, char *err);
/* The same table as a document, for each format's writer (doc_table.h):
 * a head row, then one row per cell; the text lays it out fitted to its
 * cells, the page as table "cells" with its own caption (the writers'
 * settings into *st, the caller's). Into *t (the caller's: doc_table_free
 * it after a 0).
 * @return 0, or -1 with err (no cell, baseline out of range, no memory)
 * and nothing to free. */
int sweep_table_doc(struct doc_table *t, struct doc_table_style *st, const struct sweep *s,
                    long baseline, char *err);
/* Per capacity search: the headline ("capacity jsonrpc getAllVmStats under
 * 'p99<100ms': 64/s; first bad 68/s", "even --rate-min 1/s breaks it:
 * <reason>", "--rate-max 100000/s still holds") and the evidence table of
 * its probes in the order run (sweep_probes_doc as text). Nothing when s
 * has no search. */
void sweep_capacity_text(FILE *out, const struct sweep *s);
/* Capacity search i (< s->ncaps) as a document: the text's headline as
 * its caption, the page's shorter one (sweep_capacity_value) as st's
 * page caption, one row per probe. Into *t (the caller's: doc_table_free
 * it after a 0). @return 0, or -1 with err (no memory), nothing to free. */
int sweep_probes_doc(struct doc_table *t, struct doc_table_style *st, const struct sweep *s,
                     size_t i, char *err);
/* The page's headline into d (the caller's; initialised here): cells,
 * repeats per cell (bad when interrupted), what varies, and per capacity
 * search its outcome named as sweep_capacity_text's headline: the rate
 * (good), "under <least rate>" (bad), "over <most rate>" (no verdict),
 * "interrupted" (bad). The caller's to doc_cards_free. */
void sweep_cards_doc(const struct sweep *s, struct doc_cards *d);
/* A row's flags in words, joined by sep: "not run", "saturated",
 * "client-bound", "cut short"; "" when none. Into out (len bytes, the
 * caller's, always terminated). */
void sweep_flags_text(const struct sweep_row *r, const char *sep, char *out, size_t len);

/* A capacity probe's figures as the probe tables print them (the median
 * over its cell's repeats; "n/a" where unknown, cell "-" without one). */
struct sweep_probe_text {
    char cell[24], achieved[24], p99[24], errors[24], cpu[24];
};
/* The CSV: a header row, then one row per cell: cell number, every
 * parameter, repeats, each figure's median, _min and _max (empty when
 * unknown), flags, and with a baseline (index, -1 none; out of range is
 * taken as none) a baseline column (1 on its row) and each figure's
 * _pct_of_baseline: sweep_csv_doc written by doc_table_csv.
 * @return 0, or -1 when memory cannot be had. */
int sweep_table_csv(FILE *out, const struct sweep *s, long baseline);
/* The cumulative bucket table ("<5ms:" rows, % of each cell's answers
 * below), one column per cell from its repeats' merged latency; edges
 * from spec as run's --buckets (stats/buckets.h), taken over all cells.
 * @return 0, or -1 with err (a bad spec, no memory). */
int sweep_buckets_text(FILE *out, const struct sweep *s, const char *spec, char *err);

/* The charts (sweep_charts.c), built once for the page and the plot: one
 * line per group of cells sharing every varying parameter but the rate
 * (the first SWEEP_CHARTS_LINES groups), each figure's median against the
 * offered rate (the cell number when the rate does not vary), each
 * search's capacity marked on the rate axis. Into c[0..n): latency (p50,
 * p99), achieved rate, server CPU (the page's SWEEP_CHARTS_PAGE), then
 * server CPU per call. *dropped: how many cells are of groups past the
 * first SWEEP_CHARTS_LINES (not drawn). @return how many charts (free
 * them with doc_chart_free), or 0 (no memory). */
#define SWEEP_CHARTS_LINES 4
#define SWEEP_CHARTS_PAGE 3
#define SWEEP_CHARTS_MAX 4
int sweep_charts(struct doc_chart *c, int n, const struct sweep *s, int *dropped);

/* The plot (one standalone SVG, doc_chart_svg; sweep_plot.c):
 * sweep_charts' charts, one panel each. @return 0, or -1 with err (the
 * file cannot be written, no cell, no memory). */
int sweep_plot_svg(const char *svg_path, const struct sweep *s, char *err);

#endif
