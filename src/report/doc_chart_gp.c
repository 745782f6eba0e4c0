/* doc_chart_gp: a chart document (doc_chart.h) as gnuplot data and one
 * panel of a multiplot script, for --plot: the same lines as the page's
 * chart, in the same colours.
 *
 * A series' dash (p50 solid, p99 dashed on the page) is drawn here by line
 * width and point shape, not by gnuplot's dashtype: some SVG renderers
 * draw gnuplot's dashed paths with stray segments (plot.c said so before
 * the charts were documents). */
#include "report/doc_chart.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/file.h"
#include "report/plot_gp.h"

/* The page's light palette (html.c's --c0..--c7), so a hue is one colour
 * in both. */
static const char *const palette[DOC_CHART_MAX_SERIES] = {
    "#1f6fd1", "#d6452a", "#2a9d3a", "#8e44ad", "#e08a00", "#00838f", "#6d4c41", "#c2185b",
};

/* The points of s: "x y" (percentile charts add the percentile), a blank
 * line where a gap breaks the line (one, however long the gap: two would
 * start gnuplot's next block). */
static void block(FILE *f, const struct doc_chart *c, const struct doc_series *s)
{
    const double *x = s->x ? s->x : c->x;
    int pen = 0;
    fputs("# ", f);
    fputs(s->name, f);
    fputc('\n', f);
    for (size_t i = 0; i < s->n; i++) {
        if (doc_chart_gap(s->y[i])) {
            if (pen)
                fputc('\n', f);
            pen = 0;
            continue;
        }
        fprintf(f, "%.10g %.10g", doc_chart_xpos(c->xaxis, x[i]), s->y[i]);
        if (c->xaxis == DOC_X_PERCENTILE)
            fprintf(f, " %.10g", x[i]);
        fputc('\n', f);
        pen = 1;
    }
}

int doc_chart_gp_data(const struct doc_chart *c, const char *path, char *err)
{
    FILE *f = file_create(path, err);
    if (!f)
        return -1;
    fprintf(f, "# %s   (rpcbench; one block per line, x y%s)\n", c->title,
            c->xaxis == DOC_X_PERCENTILE ? " percentile, x on the log 1/(1-p) axis" : "");
    int nb = 0;
    for (int k = 0; k < c->ns; k++) {
        if (!doc_series_drawn(&c->s[k]))
            continue;
        fputs(nb++ ? "\n\n" : "", f);
        block(f, c, &c->s[k]);
    }
    return file_close_checked(f, path, err);
}

/* ---- the panel ------------------------------------------------------------- */

/* The x axis: its title, the percentile axis' ticks (one per ten-fold,
 * labelled as the page labels them), the shaded band's start in range. */
static void x_axis(FILE *gp, const struct doc_chart *c)
{
    char t[160];
    snprintf(t, sizeof t, "%s%s%s%s", c->xname ? c->xname : "", c->xunit && c->xunit[0] ? " (" :
             "", c->xunit && c->xunit[0] ? c->xunit : "", c->xunit && c->xunit[0] ? ")" : "");
    fputs("set xlabel ", gp);
    plot_gp_str(gp, t);
    fputc('\n', gp);
    if (c->xaxis == DOC_X_PERCENTILE) {
        double hi = 0;
        for (int k = 0; k < c->ns; k++)
            for (size_t i = 0; i < c->s[k].n; i++) {
                double v = doc_chart_xpos(c->xaxis, c->s[k].x ? c->s[k].x[i] : c->x[i]);
                hi = v > hi ? v : hi;
            }
        int top = (int)ceil(hi - 1e-9) < 2 ? 2 : (int)ceil(hi - 1e-9);
        fprintf(gp, "set xrange [0:%d]\nset xtics (", top);
        for (int k = 0; k <= top; k++) {
            char lab[32];
            doc_chart_pct_label(k, lab, sizeof lab);
            /* a tick's label is a format to gnuplot: its % doubled */
            fprintf(gp, "%s'%.*s%%%%' %d", k ? ", " : "", (int)strlen(lab) - 1, lab, k);
        }
        fputs(")\n", gp);
    } else if (c->xmin != c->xmax) {
        fprintf(gp, "set xrange [%.10g:%.10g]\n", c->xmin, c->xmax);
    } else if (c->shade0 != c->shade1) {
        fprintf(gp, "set xrange [%.10g:*]\n", c->shade0 < c->shade1 ? c->shade0 : c->shade1);
    }
}

/* The y axes from 0 (a flat line must not sit on the frame), the right
 * one only when a series is on it. */
static void y_axes(FILE *gp, const struct doc_chart *c)
{
    fputs("set ylabel ", gp);
    plot_gp_str(gp, c->yname ? c->yname : "");
    /* headroom, as the page has: a line at the top would hide in the frame */
    fputs("\nset yrange [0:*]\nset offsets 0, 0, graph 0.05, 0\n", gp);
    if (c->y2name) {
        fputs("set y2label ", gp);
        plot_gp_str(gp, c->y2name);
        fputs("\nset y2range [0:*]\nset y2tics\nset ytics nomirror\n", gp);
    }
}

/* The shaded band and the marked x values, with their labels. */
static void shade_and_marks(FILE *gp, const struct doc_chart *c)
{
    if (c->shade0 != c->shade1) {
        fprintf(gp, "set object 1 rect from %.10g, graph 0 to %.10g, graph 1 behind "
                    "fc rgb '#e8e8e8' fs solid noborder\nset label 1 ", c->shade0, c->shade1);
        plot_gp_str(gp, c->shade_label ? c->shade_label : "");
        /* low, where the lines rarely are: the title sits on the top */
        fprintf(gp, " at %.10g, graph 0.04 left offset 0.5,0 front\n", c->shade0);
    }
    for (int i = 0; i < c->nmarks && i < DOC_CHART_MAX_MARKS; i++) {
        double x = doc_chart_xpos(c->xaxis, c->marks[i]);
        fprintf(gp, "set arrow %d from %.10g, graph 0 to %.10g, graph 1 nohead "
                    "lc rgb '#cc0000' lw 1 front\nset label %d ", i + 1, x, x, i + 2);
        plot_gp_str(gp, c->mark_labels[i]);
        /* low, right of the line */
        fprintf(gp, " at %.10g, graph 0.04 left offset 0.5,%d tc rgb '#cc0000' front\n", x, i);
    }
}

/* The span of the drawn values on axis (for "lies on": within 1/300 of
 * it, about a pixel of a panel). */
static double axis_span(const struct doc_chart *c, int axis)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < c->ns; k++)
        for (size_t i = 0; c->s[k].axis == axis && i < c->s[k].n; i++)
            if (!doc_chart_gap(c->s[k].y[i])) {
                lo = fmin(lo, c->s[k].y[i]);
                hi = fmax(hi, c->s[k].y[i]);
            }
    return hi > lo ? hi - lo : fabs(hi) + 1;
}

/* 1 when series a lies wholly on b: same axis, x and gaps, every y
 * within tol. */
static int lies_on(const struct doc_chart *c, const struct doc_series *a,
                   const struct doc_series *b, double tol)
{
    if (a->axis != b->axis || a->n != b->n)
        return 0;
    const double *xa = a->x ? a->x : c->x, *xb = b->x ? b->x : c->x;
    size_t drawn = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (doc_chart_gap(a->y[i]) != doc_chart_gap(b->y[i]) || (xa && xb && xa[i] != xb[i]))
            return 0;
        if (!doc_chart_gap(a->y[i]) && fabs(a->y[i] - b->y[i]) > tol)
            return 0;
        drawn += !doc_chart_gap(a->y[i]);
    }
    return drawn > 0;
}

/* How many later series lie on series k, drawn after it: each would hide
 * it, so it is drawn wider by that many steps and its key says under
 * which (*over, the first of them; -1 none), as the page does. */
static int lying_on(const struct doc_chart *c, int k, int *over)
{
    double tol = axis_span(c, c->s[k].axis) / 300;
    int n = 0;
    *over = -1;
    for (int j = k + 1; j < c->ns; j++)
        if (doc_series_drawn(&c->s[j]) && lies_on(c, &c->s[k], &c->s[j], tol)) {
            *over = *over < 0 ? j : *over;
            n++;
        }
    return n;
}

/* Series k's line: the page's colour, its dash as width and point shape
 * (solid: wide, filled circles; the others thin, open circle, square,
 * triangle), a point every few so a long line stays a line. */
static void line(FILE *gp, const struct doc_chart *c, int k, int block_no, const char *dat)
{
    static const int pt[4] = {7, 6, 4, 8};
    const struct doc_series *s = &c->s[k];
    int hue = (s->hue > 0 ? s->hue - 1 : k) % DOC_CHART_MAX_SERIES, dash = s->dash & 3;
    int over, under = lying_on(c, k, &over);
    size_t every = s->n / 24 + 1;
    fprintf(gp, "%s", block_no ? ", \\\n     " : "plot ");
    plot_gp_str(gp, dat);
    fprintf(gp, " index %d using 1:2%s with linespoints lc rgb '%s' lw %d pt %d ps 0.5 pi %zu "
                "title ", block_no, s->axis ? " axes x1y2" : "", palette[hue],
            (dash ? 1 : 2) + 4 * under, pt[dash], every);
    char title[DOC_CHART_NAME + 80];
    snprintf(title, sizeof title, "%s%s%s%s", s->name, under ? " (under " : "",
             under ? c->s[over].name : "", under ? ")" : "");
    plot_gp_str(gp, title);
}

void doc_chart_gp_panel(FILE *gp, const struct doc_chart *c, const char *dat)
{
    fputs("\nset title ", gp);
    plot_gp_str(gp, c->title ? c->title : "");
    fputc('\n', gp);
    x_axis(gp, c);
    y_axes(gp, c);
    int nb = 0;
    for (int k = 0; k < c->ns; k++)
        nb += doc_series_drawn(&c->s[k]);
    if (!nb) {
        plot_placeholder(gp, "nothing measured");
    } else {
        shade_and_marks(gp, c);
        fputs("set key below\n", gp); /* never over the lines */
        for (int k = 0, b = 0; k < c->ns; k++)
            if (doc_series_drawn(&c->s[k]))
                line(gp, c, k, b++, dat);
        fputc('\n', gp);
    }
    /* as found, for the next panel */
    fputs("unset object 1; unset arrow; unset label; unset y2label; unset y2tics\n"
          "set offsets; set ytics mirror; set xtics autofreq; set autoscale x; set autoscale y; "
          "set autoscale y2\n", gp);
}

/* ---- the whole SVG ---------------------------------------------------------- */

#define GP_MAX_CHARTS 8

struct gp_files {
    char base[512];                 /* FILE.svg without ".svg" */
    char dat[GP_MAX_CHARTS][600];   /* FILE.<chart id>.dat */
    char gp[600];
};

static void name_files(struct gp_files *pf, const char *svg, const struct doc_chart *c, int n)
{
    size_t len = strlen(svg);
    if (len > 4 && !strcmp(svg + len - 4, ".svg"))
        len -= 4;
    snprintf(pf->base, sizeof pf->base, "%.*s", (int)len, svg);
    for (int k = 0; k < n; k++) {
        char id[64];
        plot_safe_name(c[k].id, id, sizeof id);
        snprintf(pf->dat[k], sizeof pf->dat[k], "%s.%s.dat", pf->base, id);
    }
    snprintf(pf->gp, sizeof pf->gp, "%s.gp", pf->base);
}

static int write_script(const struct gp_files *pf, const char *svg, const struct doc_chart *c,
                        int n, const char *title, char *err)
{
    FILE *f = file_create(pf->gp, err);
    if (!f)
        return -1;
    fprintf(f, "# rpcbench plot; re-make with: gnuplot %s\n", pf->gp);
    fprintf(f, "set terminal svg size 900,%d dynamic noenhanced font 'sans,11' "
               "background rgb 'white'\nset output ", 100 + 380 * n); /* the keys below */
    plot_gp_str(f, svg);
    fprintf(f, "\nset grid\nset multiplot layout %d,1 title ", n);
    plot_gp_str(f, title);
    fprintf(f, "\n");
    for (int k = 0; k < n; k++)
        doc_chart_gp_panel(f, &c[k], pf->dat[k]);
    fprintf(f, "\nunset multiplot\nset output\n");
    return file_close_checked(f, pf->gp, err);
}

int doc_chart_gp_svg(const char *svg, const struct doc_chart *c, int n, const char *title,
                     int keep, char *err)
{
    static struct gp_files pf; /* large: keep it off the stack */
    if (n < 1 || n > GP_MAX_CHARTS) {
        snprintf(err, ERR_LEN, "--plot: 1..%d charts", GP_MAX_CHARTS);
        return -1;
    }
    name_files(&pf, svg, c, n);
    for (int k = 0; k < n; k++)
        if (doc_chart_gp_data(&c[k], pf.dat[k], err))
            return -1;
    if (write_script(&pf, svg, c, n, title, err))
        return -1;
    if (!plot_have_gnuplot()) {
        fprintf(stderr, "gnuplot not found: apt-get install gnuplot-nox, then gnuplot %s\n",
                pf.gp);
        return 0;
    }
    int rc = plot_run_gnuplot(pf.gp, err);
    for (int k = 0; rc == 0 && !keep && k <= n; k++)
        unlink(k < n ? pf.dat[k] : pf.gp); /* made: the inputs go, unless --plot-keep */
    return rc;
}
