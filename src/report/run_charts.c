#include "report/run_charts.h"
#include "report/run_charts_testing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PCT_POINTS 96

size_t run_chart_pct_points(const struct hist *h, double *pct, double *ms, size_t max)
{
    if (!h->total_count || max < 2)
        return 0;
    /* up to the last percentile the count resolves, in equal log steps */
    double top = log10((double)h->total_count), per = 12;
    size_t n = (size_t)ceil(top * per) + 1;
    n = n < 2 ? 2 : n > max ? max : n;
    for (size_t i = 0; i < n; i++) {
        double k = top * (double)i / (double)(n - 1);
        pct[i] = 100 - 100 / pow(10, k);
        ms[i] = (double)hist_percentile(h, pct[i]) / 1000;
    }
    return n;
}

/* The latency-by-percentile chart, id id: one line per result (names[i],
 * in result i's colour; n at most DOC_CHART_MAX_SERIES), on the log
 * 1/(1-p) axis; service adds each one's service time (dashed).
 * @return 0 (c->ns 0 when no histogram has a value: nothing to draw), or
 * -1 (no memory; c empty). */
static int run_chart_pct(struct doc_chart *c, const char *id, const struct run_result *const *rs,
                  const char *const *names, int n, int service)
{
    doc_chart_init(c, id, "Latency by percentile (log 1/(1-p) axis; from the histograms)");
    c->xname = "percentile";
    c->yname = "ms";
    c->xaxis = DOC_X_PERCENTILE;
    double *m = doc_chart_alloc(c, 2 * DOC_CHART_MAX_SERIES * PCT_POINTS);
    if (!m)
        return -1;
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= service && c->ns < DOC_CHART_MAX_SERIES; k++) {
            const struct hist *h = k ? &rs[i]->service : &rs[i]->latency;
            double *x = m + (size_t)c->ns * 2 * PCT_POINTS, *y = x + PCT_POINTS;
            size_t np = run_chart_pct_points(h, x, y, PCT_POINTS);
            if (!np)
                continue;
            char label[DOC_CHART_NAME];
            snprintf(label, sizeof label, "%.60s%s%s", names[i], names[i][0] ? " " : "",
                     k ? "service" : "latency");
            /* one colour per result, as on the other charts; service dashed */
            struct doc_series s = {.unit = "ms", .x = x, .y = y, .n = np, .dec = 3,
                                   .hue = i + 1, .dash = k};
            doc_chart_add(c, label, &s);
        }
    return 0;
}

/* ---- timelines ------------------------------------------------------------- */

enum tl_col { TL_T, TL_RATE, TL_OFFERED, TL_P50, TL_P99, TL_SCPU, TL_CCPU, TL_RSS };

/* One figure of a timeline chart. group: the arms' charts give every arm
 * its figures of group 0, then every arm those of group 1 (the RSS on the
 * right-hand axis comes last). watched: only for a run that sampled the
 * server. */
struct tl_fig {
    const char *what, *unit;
    enum tl_col col;
    int dec, axis, hue, dash, group, watched;
};

/* Interval i's value of column k: t (s, at its end), rate (sent/s), the
 * rate the schedule offered (/s), p50
 * and p99 (ms; NaN without an answer), server and client CPU (%; -1
 * unknown), server RSS (MB; NaN unknown). */
static double tl_value(const struct run_result *r, size_t i, enum tl_col k)
{
    const struct interval_rec *x = &r->intervals[i];
    double len = x->t - (i ? r->intervals[i - 1].t : 0);
    switch (k) {
    case TL_T: return x->t;
    case TL_RATE: return len > 0 ? (double)x->sent / len : NAN;
    case TL_OFFERED: return x->offered;
    case TL_P50: return x->p50_ms; /* FIG_UNKNOWN: no answer, no latency */
    case TL_P99: return x->p99_ms;
    case TL_SCPU: return x->server_cpu_pct;      /* FIG_UNKNOWN (NaN): not sampled */
    case TL_CCPU: return x->client_cpu_pct;
    default:
        return r->nwatched ? x->server_rss_kb * 1024 / 1e6 : FIG_UNKNOWN;
    }
}

/* dst[0..intervals) with column k of r. @return dst. */
static const double *tl_fill(double *dst, const struct run_result *r, enum tl_col k)
{
    for (size_t i = 0; i < r->nintervals; i++)
        dst[i] = tl_value(r, i, k);
    return dst;
}

/* One run's chart of figures f[0..nf) over its shared t. */
static int tl_chart(struct doc_chart *c, const struct run_result *r, const char *id,
                    const char *title, const char *yname, const char *y2name,
                    const struct tl_fig *f, int nf)
{
    size_t n = r->nintervals;
    doc_chart_init(c, id, title);
    double *m = doc_chart_alloc(c, n * (size_t)(nf + 1));
    if (!m)
        return -1;
    c->xname = "t", c->xunit = "s", c->yname = yname, c->y2name = y2name;
    c->x = tl_fill(m, r, TL_T);
    c->shade0 = -(double)r->cfg.warmup_ns / 1e9;
    c->shade_label = "warmup (not recorded)";
    for (int k = 0; k < nf; k++) {
        struct doc_series s = {.unit = f[k].unit, .y = tl_fill(m + (size_t)(k + 1) * n, r,
                               f[k].col), .n = n, .dec = f[k].dec, .axis = f[k].axis,
                               .hue = f[k].hue, .dash = f[k].dash};
        doc_chart_add(c, f[k].what, &s);
    }
    return 0;
}

/* One run's timeline charts into c[0..RUN_CHARTS_TIMELINE), ids idp-rate,
 * idp-lat, idp-cpu, over the intervals' shared t, the warmup shaded.
 * @return RUN_CHARTS_TIMELINE, or 0 (no intervals, or no memory: c
 * empty). */
static int run_chart_timeline(struct doc_chart *c, const struct run_result *r, const char *idp)
{
    /* --stages: what the schedule offered beside what went out */
    static const struct tl_fig rate[2] = {{"achieved rate", "/s", TL_RATE, 1, 0, 0, 0, 0, 0},
                                          {"offered", "/s", TL_OFFERED, 1, 0, 0, 1, 0, 0}};
    static const struct tl_fig lat[2] = {{"p50", "ms", TL_P50, 3, 0, 1, 0, 0, 0},
                                         {"p99", "ms", TL_P99, 3, 0, 1, 1, 0, 0}};
    static const struct tl_fig cpu[3] = {{"server CPU", "%", TL_SCPU, 1, 0, 0, 0, 0, 0},
                                         {"client CPU", "%", TL_CCPU, 1, 0, 0, 0, 0, 0},
                                         {"server RSS", "MB", TL_RSS, 1, 1, 0, 0, 0, 0}};
    if (!r->nintervals)
        return 0;
    char id[RUN_CHARTS_TIMELINE][64];
    static const char *const sfx[RUN_CHARTS_TIMELINE] = {"rate", "lat", "cpu"};
    for (int k = 0; k < RUN_CHARTS_TIMELINE; k++)
        snprintf(id[k], sizeof id[k], "%.50s-%s", idp, sfx[k]);
    int rc = tl_chart(&c[0], r, id[0], r->cfg.nstages ? "Achieved and offered rate per interval"
                      : "Achieved rate per interval", "requests/s", NULL, rate,
                      r->cfg.nstages ? 2 : 1);
    rc |= tl_chart(&c[1], r, id[1], "Latency per interval (p50, p99)", "ms", NULL, lat, 2);
    rc |= tl_chart(&c[2], r, id[2], r->nwatched ? "CPU (% of one core) and server RSS"
                   : "Client CPU (% of one core; server not sampled)", "% of one core",
                   r->nwatched ? "MB" : NULL, cpu, r->nwatched ? 3 : 2);
    if (rc) {
        run_charts_free(c, RUN_CHARTS_TIMELINE);
        return 0;
    }
    return RUN_CHARTS_TIMELINE;
}

/* The arms' chart of figures f[0..nf): every arm's, in its own colour
 * (hue a + 1), over its own t. */
static int arms_chart(struct doc_chart *c, const struct run_result *const *rs,
                      const char *const *names, int n, const struct tl_fig *f, int nf)
{
    size_t per[2] = {0, 0}, total = 0;
    for (int a = 0; a < n && a < 2; a++)
        total += per[a] = rs[a]->nintervals * (size_t)(nf + 1);
    double *m = doc_chart_alloc(c, total);
    if (!m)
        return -1;
    double *base[2] = {m, m + per[0]}; /* each arm's t, then its figures */
    for (int a = 0; a < n && a < 2; a++)
        tl_fill(base[a], rs[a], TL_T);
    for (int g = 0; g < 2; g++)
        for (int a = 0; a < n && a < 2; a++)
            for (int k = 0; k < nf; k++) {
                if (f[k].group != g || (f[k].watched && !rs[a]->nwatched))
                    continue;
                size_t ni = rs[a]->nintervals;
                double *y = base[a] + (size_t)(k + 1) * ni;
                struct doc_series s = {.unit = f[k].unit, .x = base[a], .y = tl_fill(y, rs[a],
                                       f[k].col), .n = ni, .dec = f[k].dec, .axis = f[k].axis,
                                       .hue = a + 1, .dash = f[k].dash};
                char name[DOC_CHART_NAME];
                snprintf(name, sizeof name, "%s %s", names[a], f[k].what);
                doc_chart_add(c, name, &s);
            }
    return 0;
}

/* The arms' timeline charts of a comparison into c[0..RUN_CHARTS_TIMELINE),
 * ids chart-rate, chart-lat, chart-cpu: each arm (names[a], "A xmlrpc";
 * n at most 2) in its own colour on every chart, its figures told apart
 * by dash, each over its own t (its rounds end to end). @return
 * RUN_CHARTS_TIMELINE, or 0 (no memory: c empty). */
static int run_chart_arms_timeline(struct doc_chart *c, const struct run_result *const *rs,
                            const char *const *names, int n)
{
    static const struct tl_fig rate[1] = {{"rate", "/s", TL_RATE, 1, 0, 0, 0, 0, 0}};
    static const struct tl_fig lat[2] = {{"p50", "ms", TL_P50, 3, 0, 0, 0, 0, 0},
                                         {"p99", "ms", TL_P99, 3, 0, 0, 1, 0, 0}};
    static const struct tl_fig cpu[3] = {{"server CPU", "%", TL_SCPU, 1, 0, 0, 0, 0, 1},
                                         {"client CPU", "%", TL_CCPU, 1, 0, 0, 1, 0, 0},
                                         {"server RSS", "MB", TL_RSS, 1, 1, 0, 2, 1, 1}};
    doc_chart_init(&c[0], "chart-rate", "Achieved rate per interval (each arm's rounds end to "
                   "end; warmups not recorded)");
    doc_chart_init(&c[1], "chart-lat", "Latency per interval (p50, p99)");
    doc_chart_init(&c[2], "chart-cpu", "CPU per interval, and server RSS");
    static const char *const yname[RUN_CHARTS_TIMELINE] = {"requests/s", "ms", "% of one core"};
    for (int k = 0; k < RUN_CHARTS_TIMELINE; k++)
        c[k].xname = "t", c[k].xunit = "s", c[k].yname = yname[k];
    c[2].y2name = "MB";
    int rc = arms_chart(&c[0], rs, names, n, rate, 1);
    rc |= arms_chart(&c[1], rs, names, n, lat, 2);
    rc |= arms_chart(&c[2], rs, names, n, cpu, 3);
    if (rc) {
        run_charts_free(c, RUN_CHARTS_TIMELINE);
        return 0;
    }
    return RUN_CHARTS_TIMELINE;
}

void run_charts_free(struct doc_chart *c, int n)
{
    for (int k = 0; k < n; k++)
        doc_chart_free(&c[k]);
}

/* The percentile chart into c[0] when it has a line, then the timeline
 * charts from c[1] (none: n_tl 0). @return how many, packed from c[0]. */
static int pack(struct doc_chart *c, int pct_ok, int n_tl)
{
    if (pct_ok == 0 && c[0].ns > 0)
        return 1 + n_tl;
    doc_chart_free(&c[0]);
    for (int k = 0; k < n_tl; k++)
        c[k] = c[k + 1]; /* the values are on the heap: moving the chart keeps them */
    return n_tl;
}

int run_charts_of_run(struct doc_chart *c, const struct run_result *r)
{
    const struct run_result *rs[1] = {r};
    const char *names[1] = {""};
    int ok = run_chart_pct(&c[0], "chart-pct", rs, names, 1, 1);
    return pack(c, ok, run_chart_timeline(&c[1], r, "chart-tl"));
}

int run_charts_of_compare(struct doc_chart *c, const struct run_result *const *rs,
                          const char *const *names)
{
    int ok = run_chart_pct(&c[0], "chart-pct", rs, names, 2, 0);
    return pack(c, ok, run_chart_arms_timeline(&c[1], rs, names, 2));
}
