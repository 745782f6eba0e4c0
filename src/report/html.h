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

#include "model/result.h"

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

#define HTML_CHART_MAX_SERIES 8

/* One line of a chart: n points (x[i], y[i]); a point whose y is negative
 * or NaN is a gap (unknown: no answer, no CPU reading). x NULL takes the
 * chart's shared x. dec: the decimals its values are given with in the
 * hover readout. axis 1 puts it on the right-hand axis. */
struct html_series {
    const char *name;
    const char *unit;   /* "ms", "/s", "%", "MB" */
    const double *x, *y;
    size_t n;
    int dec;
    int axis;
    /* 0: the colour of its place in the chart; k > 0: palette colour k - 1,
     * so that an arm (or a sweep's line) keeps one colour on every chart of
     * a page */
    int hue;
    /* 0 solid, 1 dashed, 2 dotted, 3 dash-dot: the figures of one colour
     * (p50, p99) told apart */
    int dash;
};

enum html_xaxis {
    HTML_X_LINEAR,      /* x as given */
    HTML_X_PERCENTILE   /* x = percentile (0..100), drawn on log 1/(1-p) */
};

struct html_chart {
    const char *id;      /* unique in the page */
    const char *title;
    const char *xname, *xunit; /* "t", "s"; the readout says "t = 12 s" */
    const char *yname, *y2name; /* axis titles (y2 NULL: no right axis) */
    enum html_xaxis xaxis;
    const double *x;     /* shared x of the series that give none */
    double xmin, xmax;   /* both 0: from the data */
    double shade0, shade1; /* a shaded x band (e.g. the warmup); equal: none */
    const char *shade_label;
    int nmarks;          /* marked x values (e.g. the capacity), at most 4 */
    double marks[4];
    const char *mark_labels[4];
};

/* A <figure> with the SVG, its legend, the readout line the hover fills,
 * and the values as JSON for the script (built with json-c; each number to
 * the digits the readout gives, NaN and inf as null; < > & in it as \u
 * escapes, so no label ends its <script> block). ns at most
 * HTML_CHART_MAX_SERIES. Text is laid out in CSS px (never scaled with
 * the chart), only the lines stretch to the width; a series that a later
 * one lies on wholly is drawn wider beneath it, and its legend says so. */
void html_chart(FILE *out, const struct html_chart *c, const struct html_series *s, int ns);

/* x values (percentiles, 0..100) for a latency percentile plot of h:
 * 0 up to the last the count can tell (1 - 1/count), evenly on the log
 * 1/(1-p) axis, into pct (at most max) and the latency (ms) of each into
 * ms. @return how many (0 for an empty h). */
size_t html_pct_points(const struct hist *h, double *pct, double *ms, size_t max);

/* A result's timeline as chart columns, one value per interval: t (s, at
 * its end), rate (sent/s), p50 and p99 (ms; NaN without an answer), server
 * and client CPU (%; -1 unknown), server RSS (MB; NaN unknown). One
 * allocation, freed by html_timeline_free. @return 0, or -1 (no memory). */
struct html_timeline {
    double *t, *rate, *p50, *p99, *scpu, *ccpu, *rss;
    size_t n;
};
int html_timeline_fill(const struct run_result *r, struct html_timeline *v);
void html_timeline_free(struct html_timeline *v);

/* ---- pages ----------------------------------------------------------------- */

/* The page of one run (run --html, report --html): headline, warnings,
 * charts, then every table of the text report. v: the verdicts' document
 * (only read; NULL none), its threshold verdicts the page's badge and its
 * table ("p99<5ms: p99 = 2.1ms, bound < 5ms" and the status word).
 * @return 0, or -1 with err (a bad --buckets spec; a write error). */
struct doc_verdicts;
/* A bucket grid (report.h) as a table: caption, a head row "corner,
 * names[0..ncols)", a row per edge. g and names are only read. */
struct report_bucket_grid;
void html_bucket_grid(FILE *out, const char *caption, const char *corner,
                      const char *const *names, const struct report_bucket_grid *g);
int html_write_run(const char *path, const struct run_result *r, const struct doc_verdicts *v,
                   char *err);

/* The body parts of the run page, for the pages that show runs too. The
 * percentile chart puts one line per result (names[i]) on the log
 * 1/(1-p) axis; service adds each one's service time. */
void html_pct_chart(FILE *out, const char *id, const struct run_result *const *rs,
                    const char *const *names, int n, int service);
void html_run_config(FILE *out, const struct run_result *r);
void html_run_machine(FILE *out, const struct run_result *r);
/* The timeline charts of r (rate, latency, CPU and RSS); idp makes the
 * chart ids unique. */
void html_run_timeline(FILE *out, const struct run_result *r, const char *idp);

/* The page of a sweep (sweep --html, report --html of a saved sweep):
 * capacity first, the latency against the offered rate with each
 * capacity marked, then the sweep's table as its text gives it (cells
 * with their median [min-max], "% of baseline" with a baseline: a cell
 * index, -1 none), the probes, buckets, errors and machine per cell.
 * @return 0, or -1 with err. */
struct sweep;
int html_write_sweep(const char *path, const struct sweep *s, long baseline, char *err);

#endif
