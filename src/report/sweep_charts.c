/* sweep_charts: a sweep's charts, each built once as a document
 * (doc_chart.h) for both the page (html_sweep.c) and --plot's SVG
 * (sweep_plot.c): one line per group of cells sharing every varying
 * parameter but the rate, each figure's median over the repeats against
 * the offered rate (the cell number when the rate does not vary), each
 * capacity search's result marked. */
#include "report/sweep_out.h"

#include <stdlib.h>
#include <string.h>

/* One chart: what it is called and which figures it draws per line. */
struct sweep_chart_kind {
    const char *id, *title, *yname;
    int figs[2], nf;
    const char *unit;
    int dec;
};

/* Cells sharing every varying parameter but the rate: one line each. */
struct groups {
    size_t n;
    char name[SWEEP_CHARTS_LINES][200];
    double *x[SWEEP_CHARTS_LINES], *y[SWEEP_CHARTS_LINES][METRIC_N];
    size_t len[SWEEP_CHARTS_LINES];
    int by_rate;                /* x is the offered rate, else the cell number */
    int dropped;                /* cells of lines past SWEEP_CHARTS_LINES, not drawn */
    double *mem;
};

static int group_of(struct groups *g, const char *name)
{
    for (size_t i = 0; i < g->n; i++)
        if (!strcmp(g->name[i], name))
            return (int)i;
    if (g->n == SWEEP_CHARTS_LINES)
        return -1;
    snprintf(g->name[g->n], sizeof g->name[g->n], "%s", name);
    return (int)g->n++;
}

static int groups_fill(struct groups *g, const struct sweep *s)
{
    memset(g, 0, sizeof *g);
    unsigned vary = sweep_varying(s);
    g->by_rate = (vary & SWEEP_P_RATE) || s->ncells == 1;
    size_t per = s->ncells + 1;
    g->mem = calloc((size_t)SWEEP_CHARTS_LINES * (METRIC_N + 1) * per, sizeof *g->mem);
    if (!g->mem)
        return -1;
    for (int k = 0; k < SWEEP_CHARTS_LINES; k++) {
        g->x[k] = g->mem + (size_t)k * (METRIC_N + 1) * per;
        for (int f = 0; f < METRIC_N; f++)
            g->y[k][f] = g->x[k] + (size_t)(f + 1) * per;
    }
    for (size_t i = 0; i < s->ncells; i++) {
        struct sweep_row row;
        char name[200];
        sweep_params_text(&s->cells[i].p, g->by_rate ? vary & ~SWEEP_P_RATE : 0, name,
                          sizeof name);
        int k = group_of(g, name);
        g->dropped += k < 0;
        if (k < 0 || !s->cells[i].nreps || sweep_cell_row(&s->cells[i], &row))
            continue;
        size_t j = g->len[k]++;
        g->x[k][j] = g->by_rate ? s->cells[i].p.rate : (double)(i + 1);
        for (int f = 0; f < METRIC_N; f++)
            g->y[k][f][j] = row.med[f];
    }
    return 0;
}

/* Probes of a capacity search come in any order: sort each line by x. */
static void groups_sort(struct groups *g)
{
    for (size_t k = 0; k < g->n; k++)
        for (size_t i = 1; i < g->len[k]; i++)
            for (size_t j = i; j > 0 && g->x[k][j - 1] > g->x[k][j]; j--) {
                double t = g->x[k][j];
                g->x[k][j] = g->x[k][j - 1], g->x[k][j - 1] = t;
                for (int f = 0; f < METRIC_N; f++) {
                    t = g->y[k][f][j];
                    g->y[k][f][j] = g->y[k][f][j - 1], g->y[k][f][j - 1] = t;
                }
            }
}

static void marks(struct doc_chart *c, const struct sweep *s)
{
    for (size_t i = 0; i < s->ncaps && c->nmarks < DOC_CHART_MAX_MARKS; i++) {
        const struct sweep_capacity *cap = &s->caps[i];
        if (cap->max_good_rate < 0)
            continue;
        snprintf(c->mark_labels[c->nmarks], sizeof c->mark_labels[c->nmarks],
                 cap->outcome == CAPACITY_FOUND ? "capacity %.15s %.60s: %g/s"
                 : "%.15s %.60s held at %g/s", cap->proto, cap->verb, cap->max_good_rate);
        c->marks[c->nmarks++] = cap->max_good_rate;
    }
}


/* The chart of figures figs[0..nf) per line: a line's colour is the same
 * on every chart, its figures differ by dash. */
static int fig_chart(struct doc_chart *c, const struct sweep *s, const struct groups *g,
                     const struct sweep_chart_kind *k)
{
    doc_chart_init(c, k->id, k->title);
    c->yname = k->yname;
    c->xname = g->by_rate ? "offered rate" : "cell";
    c->xunit = g->by_rate ? "/s" : "";
    size_t total = 0;
    for (size_t j = 0; j < g->n; j++)
        total += g->len[j] * (size_t)(1 + k->nf);
    double *m = doc_chart_alloc(c, total);
    if (!m)
        return -1;
    for (size_t j = 0; j < g->n; j++) {
        double *x = m;
        memcpy(x, g->x[j], g->len[j] * sizeof *x);
        m += g->len[j];
        for (int f = 0; f < k->nf; f++, m += g->len[j]) {
            char name[DOC_CHART_NAME];
            snprintf(name, sizeof name, "%s%s%s", g->name[j], g->name[j][0] ? " " : "",
                     metric_defs[k->figs[f]].head);
            memcpy(m, g->y[j][k->figs[f]], g->len[j] * sizeof *m);
            struct doc_series ser = {.unit = k->unit, .x = x, .y = m, .n = g->len[j],
                                     .dec = k->dec, .hue = (int)j + 1, .dash = f};
            doc_chart_add(c, name, &ser);
        }
    }
    if (g->by_rate)
        marks(c, s);
    return 0;
}

int sweep_charts(struct doc_chart *c, int n, const struct sweep *s, int *dropped)
{
    static const struct sweep_chart_kind kinds[SWEEP_CHARTS_MAX] = {
        {"chart-sweep-lat", "Latency against the offered rate (median of the repeats), "
         "capacity marked", "ms", {METRIC_P50, METRIC_P99}, 2, "ms", 3},
        {"chart-sweep-rate", "Achieved rate", "requests/s", {METRIC_RATE}, 1, "/s", 2},
        {"chart-sweep-cpu", "Server CPU", "% of one core", {METRIC_CPU_PCT}, 1, "%", 1},
        {"chart-sweep-cpu-call", "Server CPU per call", "CPU-ms per call", {METRIC_CPU_MS}, 1,
         "ms", 3},
    };
    struct groups g;
    if (groups_fill(&g, s))
        return 0;
    groups_sort(&g);
    *dropped = g.dropped;
    int rc = 0;
    for (int k = 0; k < n && k < SWEEP_CHARTS_MAX; k++)
        rc |= fig_chart(&c[k], s, &g, &kinds[k]);
    free(g.mem);
    if (rc) {
        for (int k = 0; k < n && k < SWEEP_CHARTS_MAX; k++)
            doc_chart_free(&c[k]);
        return 0;
    }
    return n < SWEEP_CHARTS_MAX ? n : SWEEP_CHARTS_MAX;
}
