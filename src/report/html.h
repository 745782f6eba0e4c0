/* html: the self-contained HTML page of a run, a comparison or a sweep
 * (--html FILE): one file with inline CSS, SVG charts drawn here and a
 * small inline script for the hover readout; nothing is fetched at view
 * time. This header has the page frame and the pieces every kind of page
 * shares (escaping, tables, charts); html_run.c, html_sweep.c and
 * compare_html.c write the pages.
 *
 * Charts are drawn from the histograms and the interval timeline, never
 * from per-request samples, so a page stays small however long the run.
 * Every function writes to out; write errors are the caller's to check
 * (ferror, or file_close_checked). Strings passed in are only read. */
#ifndef RPCBENCH_HTML_H
#define RPCBENCH_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "model/run_result.h"
#include "report/doc_chart.h"

/* The document up to <main>: doctype, title (escaped), inline CSS, an empty
 * data: icon (no favicon request), and the page's <h1>. */
void html_begin(FILE *out, const char *title);
/* The hover script and the end of the document. */
void html_end(FILE *out);

/* s with & < > " ' escaped (NULL writes nothing). */
void html_esc(FILE *out, const char *s);
/* <h2>title</h2> (escaped) opening a <section>; html_section_end closes it. */
void html_section(FILE *out, const char *title);
void html_section_end(FILE *out);

/* A table: html_table(out, caption, heads, n) then html_row per row, then
 * html_table_end. Cells are escaped; the first column is a row heading,
 * the others are right-aligned (figures). The table scrolls sideways in
 * its own box when wider than the window. */
void html_table(FILE *out, const char *caption, const char *const *heads, int n);
void html_row(FILE *out, const char *const *cells, int n);
void html_table_end(FILE *out);

/* The warnings of r (nothing when it has none), each prefixed by prefix
 * (NULL: none), in a prominent box. */
void html_warnings(FILE *out, const struct run_result *r, const char *prefix);
/* The same box piece by piece: open, one item per line (prefix NULL: none),
 * close. */
void html_warn_open(FILE *out);
void html_warn_item(FILE *out, const char *prefix, const char *text);
void html_warn_close(FILE *out);

/* ---- charts ---------------------------------------------------------------- */

/* The chart document c (doc_chart.h, only read) as a <figure> with the
 * SVG, its legend, the readout line the hover fills, and the values as
 * JSON for the script (built with json-c; each number to the digits the
 * readout gives, NaN and inf as null; < > & in it as \u escapes, so no
 * label ends its <script> block). Text is laid out in CSS px (never
 * scaled with the chart), only the lines stretch to the width; a series
 * that a later one lies on wholly is drawn wider beneath it, and its
 * legend says so. */
void html_chart(FILE *out, const struct doc_chart *c);
/* The room a chart's plot area takes and needs around it, px. */
struct html_chart_box {
    int pad_top, pad_right, pad_bottom, pad_left; /* the labels' */
    double height;                                /* the area's */
};
/* c's plot area's box into *b (the caller's). */
void html_chart_box(const struct doc_chart *c, struct html_chart_box *b);
/* What html_chart draws in c's plot area (only read), for a standalone
 * SVG (chart_svg.c): grid, ticks, axis titles, shading, marks, each
 * series' path (class "sN dN", data-series its name) and dots, as
 * elements of an <svg> viewport of html_chart_box's height (x in % of its
 * width). No hover script, no readout. */
void html_chart_area(FILE *out, const struct doc_chart *c);
/* Series k's colour and dash classes ("s3 d1") into out (len bytes). */
void html_chart_class(const struct doc_chart *c, int k, char *out, size_t len);

/* ---- flame graphs (html_flame.c) -------------------------------------------- */

/* r's profile as a flame graph in its own section (nothing when r has no
 * profile tree). r is only read. */
void html_flame_run(FILE *out, const struct run_result *r);
/* A comparison's: A's and B's (each frame the mean of its rounds' CPU-ms
 * per call; arm[a] is arm a's first n rounds) and the differential (B's
 * shape coloured by B - A), in one section; nothing when no round has a
 * profile tree. Only reads its arguments. */
void html_flame_compare(FILE *out, const struct run_result *const arm[2], size_t n,
                        const char *const names[2]);

/* ---- pages ----------------------------------------------------------------- */

/* The page of one run (run --html, report --html): headline, warnings,
 * charts, then every table of the text report. v: the verdicts' document
 * (only read; NULL none), its threshold verdicts the page's badge and its
 * table ("p99<5ms: p99 = 2.1ms, bound < 5ms" and the status word).
 * @return 0, or -1 with err (a bad --buckets spec; a write error). */
struct doc_verdicts;
int html_write_run(const char *path, const struct run_result *r, const struct doc_verdicts *v,
                   char *err);

/* The body parts of the run page, for the pages that show runs too. */
void html_run_config(FILE *out, const struct run_result *r);
void html_run_machine(FILE *out, const struct run_result *r);

/* The page of a sweep (sweep --html, report --html of a saved sweep):
 * capacity first, the latency against the offered rate with each
 * capacity marked, then the sweep's table as its text gives it (cells
 * with their median [min-max], "% of baseline" with a baseline: a cell
 * index, -1 none), the probes, buckets, errors and machine per cell.
 * @return 0, or -1 with err. */
struct sweep;
int html_write_sweep(const char *path, const struct sweep *s, long baseline, char *err);

#endif
