/* sweep_plot: a sweep's curves with gnuplot, one line per series (the
 * cells that share every varying parameter but the rate): latency (p50,
 * p99), server CPU, CPU-ms per call and achieved rate against the offered
 * rate, with each capacity search's result marked on the rate axis. */
#include "report/sweep_out.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "report/plot_gp.h"

#define SWEEP_PLOT_MAX_SERIES 64

struct series {
    char title[200];  /* "proto=xmlrpc"; "" when only the rate varies */
    size_t *cells;    /* [n], by offered rate */
    size_t n;
    size_t npoints;   /* cells run (the rows of its data file) */
    char dat[600];
};

struct splot {
    char base[512], gp[600];
    struct series ser[SWEEP_PLOT_MAX_SERIES];
    size_t nser;
    int by_rate;      /* x is the offered rate; else the cell number */
    struct sweep_row *rows;
};

/* ---- series ------------------------------------------------------------------- */

static const struct sweep *sort_sweep; /* qsort has no context argument */

static int by_rate(const void *a, const void *b)
{
    double x = sort_sweep->cells[*(const size_t *)a].p.rate;
    double y = sort_sweep->cells[*(const size_t *)b].p.rate;
    return (x > y) - (x < y);
}

/* Puts cell i into the series its key names, a new one if none has it. */
static int place(struct splot *sp, const struct sweep *s, size_t i, const char *key, char *err)
{
    size_t k = 0;
    while (k < sp->nser && strcmp(sp->ser[k].title, key))
        k++;
    if (k == SWEEP_PLOT_MAX_SERIES) {
        snprintf(err, ERR_LEN, "--plot: more than %d series; sweep fewer parameters at once",
                 SWEEP_PLOT_MAX_SERIES);
        return -1;
    }
    struct series *se = &sp->ser[k];
    if (k == sp->nser) {
        sp->nser++;
        snprintf(se->title, sizeof se->title, "%s", key);
        se->cells = calloc(s->ncells, sizeof *se->cells);
        char base[sizeof sp->base]; /* not sp's own: snprintf must not read its target */
        memcpy(base, sp->base, sizeof base);
        snprintf(se->dat, sizeof se->dat, "%s.s%zu.dat", base, k + 1);
        if (!se->cells) {
            snprintf(err, ERR_LEN, "out of memory");
            return -1;
        }
    }
    se->cells[se->n++] = i;
    return 0;
}

static int make_series(struct splot *sp, const struct sweep *s, char *err)
{
    unsigned vary = sweep_varying(s);
    sp->by_rate = (vary & SWEEP_P_RATE) != 0;
    for (size_t i = 0; i < s->ncells; i++) {
        char key[200] = "";
        if (sp->by_rate)
            sweep_params_text(&s->cells[i].p, vary & ~SWEEP_P_RATE, key, sizeof key);
        if (place(sp, s, i, key, err))
            return -1;
    }
    sort_sweep = s;
    for (size_t k = 0; sp->by_rate && k < sp->nser; k++)
        qsort(sp->ser[k].cells, sp->ser[k].n, sizeof *sp->ser[k].cells, by_rate);
    return 0;
}

/* ---- data --------------------------------------------------------------------- */

static void dat_num(FILE *f, double v)
{
    if (v < 0)
        fprintf(f, " NaN"); /* unknown: gnuplot leaves a gap */
    else
        fprintf(f, " %.6g", v);
}

static int write_dat(const struct splot *sp, const struct sweep *s, struct series *se,
                     char *err)
{
    FILE *f = file_create(se->dat, err);
    if (!f)
        return -1;
    fprintf(f, "# x offered_per_s p50_ms p99_ms server_cpu_pct cpu_ms_per_call "
               "achieved_per_s cell   (rpcbench sweep, medians over the repeats)\n");
    for (size_t j = 0; j < se->n; j++) {
        size_t i = se->cells[j];
        const struct sweep_row *r = &sp->rows[i];
        if (r->nreps == 0)
            continue;
        se->npoints++;
        fprintf(f, "%.6g %.6g", sp->by_rate ? s->cells[i].p.rate : (double)(i + 1),
                s->cells[i].p.rate);
        dat_num(f, r->med[SF_P50]);
        dat_num(f, r->med[SF_P99]);
        dat_num(f, r->med[SF_CPU_PCT]);
        dat_num(f, r->med[SF_CPU_MS_CALL]);
        dat_num(f, r->med[SF_ACHIEVED]);
        fprintf(f, " %zu\n", i + 1);
    }
    return file_close_checked(f, se->dat, err);
}

/* ---- the script ----------------------------------------------------------------- */

/* "xmlrpc p50", or "p50" alone when only the rate varies. */
static void line_title(FILE *f, const struct series *se, const char *what)
{
    char t[240];
    snprintf(t, sizeof t, "%s%s%s", se->title, se->title[0] && what[0] ? " " : "", what);
    plot_gp_str(f, t[0] ? t : "cells");
}

/* One line per series of column col; thin with open points when thin. */
static void lines(FILE *f, const struct splot *sp, int col, const char *what, int thin,
                  int *first)
{
    for (size_t k = 0; k < sp->nser; k++) {
        if (!sp->ser[k].npoints)
            continue; /* no cell of it was run: gnuplot would only warn */
        fprintf(f, "%s", *first ? "plot " : ", \\\n     ");
        plot_gp_str(f, sp->ser[k].dat);
        fprintf(f, " using 1:%d with linespoints lc %zu lw %d pt %d ps 0.6 title ", col, k + 1,
                thin ? 1 : 2, thin ? 6 : 7);
        line_title(f, &sp->ser[k], what);
        *first = 0;
    }
}

/* The span of figure fig over the cells run (0, 0 when none). */
static void fig_span(const struct splot *sp, const struct sweep *s, int fig, double *lo,
                     double *hi)
{
    *lo = *hi = 0;
    for (size_t i = 0; i < s->ncells; i++) {
        double v = sp->rows[i].med[fig];
        if (v > 0 && (*lo == 0 || v < *lo))
            *lo = v;
        *hi = v > *hi ? v : *hi;
    }
}

static void panel(FILE *f, const struct splot *sp, const struct sweep *s, int fig,
                  const char *title, const char *ylabel)
{
    double lo, hi;
    fig_span(sp, s, fig, &lo, &hi);
    fprintf(f, "\nset title ");
    plot_gp_str(f, title);
    fprintf(f, "\nset ylabel ");
    plot_gp_str(f, ylabel);
    fprintf(f, "\n");
    if (hi <= 0 && fig != SF_ACHIEVED) {
        plot_placeholder(f, fig == SF_P99 ? "no answered requests" : "server CPU not sampled");
        return;
    }
    /* the hockey stick's blade dwarfs its handle on a linear axis */
    int logy = fig == SF_P99 && lo > 0 && hi / lo > 50;
    fprintf(f, "%s", logy ? "set logscale y\n" : "set yrange [0:*]\n");
    int first = 1;
    if (fig == SF_P99) {
        lines(f, sp, 3, "p50", 0, &first);
        lines(f, sp, 4, "p99", 1, &first);
    } else if (fig == SF_ACHIEVED) {
        lines(f, sp, 7, "achieved", 0, &first);
        size_t k = 0;
        while (!sp->ser[k].npoints) /* sweep_plot_svg_keep saw a cell run */
            k++;
        fprintf(f, ", \\\n     ");
        plot_gp_str(f, sp->ser[k].dat);
        fprintf(f, " using 1:2 with lines lc rgb 'gray' lw 1 title 'offered'");
    } else {
        lines(f, sp, fig == SF_CPU_PCT ? 5 : 6, "", 0, &first);
    }
    fprintf(f, "\nunset logscale y\nset autoscale y\n");
}

/* Each search's capacity, a line at its rate on every panel. */
static void capacity_marks(FILE *f, const struct sweep *s)
{
    int n = 0;
    for (size_t i = 0; i < s->ncaps; i++) {
        const struct sweep_capacity *c = &s->caps[i];
        if (c->max_good_rate < 0)
            continue;
        n++;
        fprintf(f, "set arrow %d from %.6g, graph 0 to %.6g, graph 1 nohead lc rgb '#cc0000' "
                   "lw 1 front\n", n, c->max_good_rate, c->max_good_rate);
        char t[200];
        snprintf(t, sizeof t, "capacity %s %s %g/s", c->proto, c->verb, c->max_good_rate);
        fprintf(f, "set label %d ", n);
        plot_gp_str(f, t);
        /* low, right of the line: the key holds the top left */
        fprintf(f, " at %.6g, graph 0.04 left offset 0.5,%d tc rgb '#cc0000' front\n",
                c->max_good_rate, n - 1);
    }
}

static int write_script(const struct splot *sp, const struct sweep *s, const char *svg,
                        char *err)
{
    FILE *f = file_create(sp->gp, err);
    if (!f)
        return -1;
    fprintf(f, "# rpcbench sweep plot; re-make with: gnuplot %s\n", sp->gp);
    fprintf(f, "set terminal svg size 900,1400 dynamic noenhanced font 'sans,11' "
               "background rgb 'white'\nset output ");
    plot_gp_str(f, svg);
    fprintf(f, "\nset grid\nset key top left\nset xlabel '%s'\n",
            sp->by_rate ? "offered rate (requests/s)" : "cell (as the table numbers them)");
    if (sp->by_rate)
        capacity_marks(f, s);
    else
        fprintf(f, "set xtics 1\n");
    fprintf(f, "set multiplot layout 4,1 title 'rpcbench sweep: %zu cells'\n", s->ncells);
    panel(f, sp, s, SF_P99, "latency (from the intended send time)", "ms");
    panel(f, sp, s, SF_CPU_PCT, "server CPU", "% of one core");
    panel(f, sp, s, SF_CPU_MS_CALL, "server CPU per call", "CPU-ms per call");
    panel(f, sp, s, SF_ACHIEVED, "achieved against offered", "requests/s");
    fprintf(f, "\nunset multiplot\nset output\n");
    return file_close_checked(f, sp->gp, err);
}

/* ---- the whole -------------------------------------------------------------------- */

static int draw(struct splot *sp, const struct sweep *s, const char *svg, int keep, char *err)
{
    size_t len = strlen(svg);
    if (len > 4 && !strcmp(svg + len - 4, ".svg"))
        len -= 4;
    snprintf(sp->base, sizeof sp->base, "%.*s", (int)len, svg);
    snprintf(sp->gp, sizeof sp->gp, "%s.gp", sp->base);
    if (make_series(sp, s, err))
        return -1;
    for (size_t k = 0; k < sp->nser; k++)
        if (write_dat(sp, s, &sp->ser[k], err))
            return -1;
    if (write_script(sp, s, svg, err))
        return -1;
    if (!plot_have_gnuplot()) {
        fprintf(stderr, "gnuplot not found: apt-get install gnuplot-nox, then gnuplot %s\n",
                sp->gp);
        return 0;
    }
    int rc = plot_run_gnuplot(sp->gp, err);
    if (rc == 0 && !keep) {
        for (size_t k = 0; k < sp->nser; k++)
            unlink(sp->ser[k].dat);
        unlink(sp->gp);
    }
    return rc;
}

int sweep_plot_svg_keep(const char *svg_path, const struct sweep *s, int keep, char *err)
{
    size_t run = 0;
    for (size_t i = 0; i < s->ncells; i++)
        run += s->cells[i].nreps > 0;
    if (run == 0) {
        snprintf(err, ERR_LEN, "--plot: no cell was measured");
        return -1;
    }
    struct splot *sp = calloc(1, sizeof *sp);
    struct sweep_row *rows = calloc(s->ncells, sizeof *rows);
    int rc = -1;
    if (!sp || !rows)
        snprintf(err, ERR_LEN, "out of memory");
    else {
        sp->rows = rows;
        rc = 0;
        for (size_t i = 0; rc == 0 && i < s->ncells; i++)
            rc = sweep_cell_row(&s->cells[i], &rows[i]);
        if (rc)
            snprintf(err, ERR_LEN, "out of memory");
        else
            rc = draw(sp, s, svg_path, keep, err);
    }
    for (size_t k = 0; sp && k < sp->nser; k++)
        free(sp->ser[k].cells);
    free(sp);
    free(rows);
    return rc;
}

int sweep_plot_svg(const char *svg_path, const struct sweep *s, char *err)
{
    return sweep_plot_svg_keep(svg_path, s, 0, err);
}
