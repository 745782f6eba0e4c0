/* doc_chart: a chart built once and drawn by each format's writer (issue
 * 25), as doc_table is for tables: the page's SVG (html.h's html_chart)
 * and --plot's standalone SVG (doc_chart_svg, the same drawing). The
 * builder says what is on the chart: its title, its axes, the x axis'
 * kind, a shaded band, marked x values, and its series with their units,
 * decimals, axis, colour and dash; a writer says only how its format
 * shows them. So the page and the SVG cannot drift apart.
 *
 * The text fields that are pointers take strings that outlive the chart
 * (literals, as every builder gives); what a builder makes up (the id,
 * the series' and marks' names) is copied into the chart. The values are
 * the chart's own when a builder takes them with doc_chart_alloc (freed
 * by doc_chart_free), or the caller's, only read, when it points at its
 * own arrays (the unit tests do). */
#ifndef RPCBENCH_DOC_CHART_H
#define RPCBENCH_DOC_CHART_H

#include <stddef.h>
#include <stdio.h>

#define DOC_CHART_MAX_SERIES 8
#define DOC_CHART_MAX_MARKS 4
#define DOC_CHART_NAME 264 /* a sweep line's parameters (200) and its figure */

enum doc_xaxis {
    DOC_X_LINEAR,      /* x as given */
    DOC_X_PERCENTILE   /* x = percentile (0..100), drawn on log 1/(1-p) */
};

/* One line of a chart: n points (x[i], y[i]); a point whose y is
 * FIG_UNKNOWN (NaN) is a gap (unknown: no answer, no CPU reading). x NULL takes the
 * chart's shared x. dec: the decimals its values are given with. axis 1
 * puts it on the right-hand axis. */
struct doc_series {
    char name[DOC_CHART_NAME];
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

struct doc_chart {
    char id[64];         /* unique in the page (and in --plot's file) */
    const char *title;
    const char *xname, *xunit; /* "t", "s"; the readout says "t = 12 s" */
    const char *yname, *y2name; /* axis titles (y2 NULL: no right axis) */
    enum doc_xaxis xaxis;
    const double *x;     /* shared x of the series that give none */
    double xmin, xmax;   /* both 0: from the data */
    double shade0, shade1; /* a shaded x band (e.g. the warmup); equal: none */
    const char *shade_label;
    int nmarks;          /* marked x values (e.g. the capacity) */
    double marks[DOC_CHART_MAX_MARKS];
    char mark_labels[DOC_CHART_MAX_MARKS][160];
    struct doc_series s[DOC_CHART_MAX_SERIES];
    int ns;
    double *mem;         /* the values doc_chart_alloc gave, or NULL */
};

/* Clears c (the caller's) for a chart with id (copied) and title. */
void doc_chart_init(struct doc_chart *c, const char *id, const char *title);
/* Adds a series named name (copied, cut to DOC_CHART_NAME - 1 bytes), the
 * rest of it as given (its name in s is ignored). @return the series in c,
 * or NULL when c has DOC_CHART_MAX_SERIES already (nothing added). */
struct doc_series *doc_chart_add(struct doc_chart *c, const char *name,
                                 const struct doc_series *s);
/* n doubles (zeroed) for c's values, freed with c: one block per chart.
 * @return them, or NULL (no memory, or c has its block already). */
double *doc_chart_alloc(struct doc_chart *c, size_t n);
/* Frees c's values (not c, which is the caller's); c stays valid, empty
 * of series. */
void doc_chart_free(struct doc_chart *c);
/* @return 1 when y is a gap (FIG_UNKNOWN, base/figure.h), else 0. */
int doc_chart_gap(double y);
/* @return 1 when series s has a point to draw (not all gaps), else 0. */
int doc_series_drawn(const struct doc_series *s);
/* Where x lies on an axis of kind a: x itself, or for a percentile
 * log10(100 / (100 - x)) (0 at 0 %, 1 at 90 %, 2 at 99 %, ...). */
double doc_chart_xpos(enum doc_xaxis a, double x);
/* The label of a percentile axis' tick at log 1/(1-p) = k ("0%", "90%",
 * "99.9%"), into out (len bytes, the caller's). */
void doc_chart_pct_label(int k, char *out, size_t len);

/* ---- a standalone SVG (chart_svg.c) ----------------------------------------- */

/* Charts c[0..n) (n >= 1, only read) as one SVG file at path (created or
 * truncated): title, then a panel per chart, in order: its title, its
 * plot area as html_chart draws it (a <g> with the chart's id, a path
 * per series with data-series its name), its legend. Runs no program.
 * @return 0, or -1 with err (ERR_LEN, the caller's: no chart, the file
 * cannot be written). */
int doc_chart_svg(const char *path, const struct doc_chart *c, int n, const char *title,
                  char *err);

#endif
