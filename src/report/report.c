/* report: the helpers every run output shares (units, percentages, sizes,
 * the bucket grid), the run's table documents (buckets, percentiles,
 * verbs) and the timeline CSV (report.h). */
#include "report/report.h"

#include <math.h>
#include <string.h>

#include "stats/buckets.h"
#include "model/server_cpu.h"

void report_fmt_us(double us, char *out, size_t len)
{
    if (us < 1000)
        snprintf(out, len, "%.0fus", us);
    else if (us < 1e6)
        snprintf(out, len, "%.*fms", us < 1e4 ? 2 : 1, us / 1000);
    else
        snprintf(out, len, "%.2fs", us / 1e6);
}

/* ---- units: one per table, chosen from the figures it shows ------------- */

struct report_unit report_unit_pick(double max_us, double min_us)
{
    struct report_unit u = {"us", 1, 0};
    if (max_us >= 1e6)
        u = (struct report_unit){"s", 1e6, 0};
    else if (max_us >= 1000)
        u = (struct report_unit){"ms", 1000, 0};
    if (u.div > 1 && min_us > 0) {
        int d = 2 - (int)floor(log10(min_us / u.div));
        u.dec = d < 0 ? 0 : d > 3 ? 3 : d;
    }
    return u;
}

void report_unit_span(const struct hist *h, double *mn, double *mx)
{
    if (!h->total_count)
        return;
    double lo = (double)h->min, hi = (double)h->max;
    if (lo > 0 && (*mn <= 0 || lo < *mn))
        *mn = lo;
    if (lo <= 0 && *mn <= 0) {
        double p = (double)hist_percentile(h, 50); /* zeros print as 0 anyway */
        if (p > 0)
            *mn = p;
    }
    if (hi > *mx)
        *mx = hi;
}

/* A figure the table's unit would show with fewer than 2 significant
 * digits: the decimals follow the table's smallest figure, at most 3, so a
 * 0.22 ms median in a table of seconds would read 0.000s. */
static int too_small_for(const struct report_unit *u, double us)
{
    return us > 0 && us / u->div < 10 * pow(10, -u->dec);
}

void report_unit_fmt(const struct report_unit *u, int have, double us, char *out, size_t len)
{
    if (!have)
        snprintf(out, len, "n/a");
    else if (too_small_for(u, us))
        report_fmt_us(us, out, len); /* its own unit: no measured figure reads 0 */
    else
        snprintf(out, len, "%.*f%s", u->dec, us / u->div, u->name);
}

int report_latency_fmt(const struct report_unit *u, const struct hist *h, const struct censor *cs,
                       int mean, double us, char *out, size_t len)
{
    char v[32];
    int have = h->total_count > 0;
    int lower = have && result_lower_bound(cs, mean, us);
    report_unit_fmt(u, have, us, v, sizeof v);
    snprintf(out, len, "%s%s", lower ? RESULT_LOWER_BOUND_MARK : "", v);
    return lower ? (int)strlen(RESULT_LOWER_BOUND_MARK) - 1 : 0;
}

/* "≥: a lower bound: 216 requests unfinished, ..." (the text and HTML
 * reports' note under a latency table) into out; "" when cs has nothing
 * censored. */
static void report_censor_note(const struct censor *cs, char *out, size_t len)
{
    char least[32] = "";
    if (cs->n <= 0) {
        out[0] = '\0';
        return;
    }
    report_fmt_us((double)cs->min_us, least, sizeof least);
    snprintf(out, len, RESULT_LOWER_BOUND_MARK ": a lower bound: %lld requests unfinished or unsent, "
             "each counted as its wait when the run ended (the least %s); a figure at or above "
             "that may be higher", (long long)cs->n, least);
}

void report_fmt_bytes(double bytes, char *out, size_t len)
{
    static const char *const names[] = {"B", "kB", "MB", "GB", "TB"};
    int i = 0;
    while (i < 4 && bytes >= 999.5)
        bytes /= 1000, i++;
    if (i == 0)
        snprintf(out, len, "%.0f B", bytes);
    else
        snprintf(out, len, "%.*f %s", bytes < 9.995 ? 2 : bytes < 99.95 ? 1 : 0, bytes,
                 names[i]);
}

/* ---- sections ---------------------------------------------------------- */

int report_bucket_doc(const struct run_result *r, struct doc_table *t,
                      struct doc_table_style *st, char *err)
{
    const struct hist *h = &r->latency;
    double edges[BUCKETS_MAX], pct[BUCKETS_MAX];
    int n = buckets_table(r->cfg.buckets, h, edges, pct, err);
    if (n < 0)
        return -1;
    doc_table_init(t, 2);
    doc_table_style_init(st);
    snprintf(t->heads[0], DOC_CELL_LEN, "response time");
    snprintf(t->heads[1], DOC_CELL_LEN, "percentage");
    snprintf(st->text.head, sizeof st->text.head, "response time: percentage");
    snprintf(t->caption, sizeof t->caption, "average=n/a min=n/a max=n/a (no successful response)");
    if (h->total_count) {
        struct report_unit u = report_unit_pick(1000, (double)(h->min > 0 ? h->min : 1));
        const struct censor *cs = &r->censored;
        const char *mark = RESULT_LOWER_BOUND_MARK;
        snprintf(t->caption, sizeof t->caption, "average=%s%.*fms min=%s%.*fms max=%s%.*fms",
                 cs->n > 0 ? mark : "", u.dec, hist_mean(h) / 1000,
                 result_censored_at(cs, (double)h->min) ? mark : "", u.dec,
                 (double)h->min / 1000, result_censored_at(cs, (double)h->max) ? mark : "",
                 u.dec, (double)h->max / 1000);
    }
    for (int i = 0; i < n; i++) {
        char row[48], v[16] = "n/a"; /* explicit --buckets: a share of nothing is no figure */
        buckets_row_label(edges[i], row, sizeof row);
        if (h->total_count)
            snprintf(v, sizeof v, "%.1f", pct[i]);
        const char *cells[2] = {row, v};
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

struct report_unit report_pct_unit(const struct run_result *r)
{
    double mn = 0, mx = 0;
    report_unit_span(&r->latency, &mn, &mx);
    report_unit_span(&r->service, &mn, &mx);
    return report_unit_pick(mx, mn);
}

int report_pct_doc(const struct run_result *r, struct doc_table *t,
                   struct doc_table_style *st, char *err)
{
    static const char *const heads[3] = {"percentile", "latency", "service"};
    static const int widths[3] = {-10, 12, 12};
    const struct hist *lat = &r->latency, *svc = &r->service;
    doc_table_init(t, 3);
    doc_table_style_init(st);
    for (int c = 0; c < 3; c++) {
        snprintf(t->heads[c], DOC_CELL_LEN, "%s", heads[c]);
        t->width[c] = widths[c];
    }
    snprintf(t->legend, sizeof t->legend,
             "latency counts from the intended send time; service from the actual write");
    report_censor_note(&r->censored, t->warning, sizeof t->warning);
    struct report_unit u = report_pct_unit(r);
    for (size_t i = 0; i <= r->cfg.npcts; i++) { /* the last row: the mean */
        int mean = i == r->cfg.npcts;
        double p = mean ? 0 : r->cfg.pcts[i];
        char name[16] = "mean", a[40], b[32];
        if (!mean)
            snprintf(name, sizeof name, "p%g", p);
        report_latency_fmt(&u, lat, &r->censored, mean,
                           mean ? hist_mean(lat) : (double)hist_percentile(lat, p), a, sizeof a);
        report_unit_fmt(&u, svc->total_count > 0,
                        mean ? hist_mean(svc) : (double)hist_percentile(svc, p), b, sizeof b);
        const char *cells[3] = {name, a, b};
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

const char *report_fmt_pct(double v, char *buf, size_t len)
{
    snprintf(buf, len, !fig_known(v) ? "n/a" : "%.1f%%", v);
    return buf;
}

/* The grid's heads and the words around it (report_grid_words). */
static void grid_words(struct doc_table *t, struct doc_table_style *st,
                       const char *const *names, const struct report_grid_words *w)
{
    snprintf(t->heads[0], DOC_CELL_LEN, "%s", w->title);
    snprintf(st->html.first_head, sizeof st->html.first_head, "%s", w->corner);
    t->width[0] = -16;
    for (int k = 1; k < t->ncols; k++) {
        snprintf(t->heads[k], DOC_CELL_LEN, "%s", names[k - 1]);
        int len = (int)strlen(t->heads[k]);
        t->width[k] = len < 8 ? 8 : len;
    }
    snprintf(t->legend, sizeof t->legend, "%s", w->note);
    snprintf(st->html.caption, sizeof st->html.caption, w->note[0] ? "%s (%s)" : "%s",
             w->caption, w->note);
}

int report_bucket_grid_doc(const char *spec, const struct hist *const *hs,
                           const char *const *names, int n, const struct report_grid_words *w,
                           struct doc_table *t, struct doc_table_style *st, char *err)
{
    double edges[BUCKETS_MAX], pct[REPORT_GRID_COLS][BUCKETS_MAX];
    int ncols = n < REPORT_GRID_COLS ? n : REPORT_GRID_COLS;
    int nrows = buckets_edges(spec, hs, ncols, edges, err);
    if (nrows < 0)
        return -1;
    doc_table_init(t, ncols + 1);
    doc_table_style_init(st);
    grid_words(t, st, names, w);
    for (int k = 0; k < ncols; k++)
        buckets_fill(hs[k], edges, nrows, pct[k]);
    for (int i = 0; i < nrows; i++) {
        char label[24], v[REPORT_GRID_COLS][16];
        const char *cells[REPORT_GRID_COLS + 1] = {label};
        buckets_row_label(edges[i], label, sizeof label);
        for (int k = 0; k < ncols; k++) { /* no answer: no share */
            snprintf(v[k], sizeof v[k], hs[k]->total_count ? "%.1f" : "n/a", pct[k][i]);
            cells[k + 1] = v[k];
        }
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

size_t report_busiest(const int64_t *counts, size_t n, size_t k, size_t *idx)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t above = 0; /* entries that rank before i */
        for (size_t j = 0; j < n && above < k; j++)
            above += counts[j] > counts[i] || (counts[j] == counts[i] && j < i);
        if (above < k)
            idx[m++] = i;
    }
    return m;
}

int report_verb_doc(const struct run_result *r, struct doc_table *t,
                    struct doc_table_style *st, char *err)
{
    static const char *const heads[8] = {"verb", "requests", "ok", "errors", "unfinished",
                                         "unsent", "p50", "p99"};
    static const int widths[8] = {-16, 8, 8, 8, 10, 8, 10, 10};
    doc_table_init(t, 8);
    doc_table_style_init(st);
    if (r->nverbs < 2)
        return 1;
    snprintf(st->html.caption, sizeof st->html.caption, "per verb");
    for (int c = 0; c < 8; c++) {
        snprintf(t->heads[c], DOC_CELL_LEN, "%s", heads[c]);
        t->width[c] = widths[c];
    }
    double lo = 0, hi = 0;
    for (size_t i = 0; i < r->nverbs; i++)
        report_unit_span(&r->verbs[i].latency, &lo, &hi);
    struct report_unit u = report_unit_pick(hi, lo);
    for (size_t i = 0; i < r->nverbs; i++) {
        const struct verb_result *v = &r->verbs[i];
        char n[5][24], a[40], b[40];
        const int64_t k[5] = {v->requests, v->ok, v->errors, v->unfinished, v->unsent};
        for (int c = 0; c < 5; c++)
            snprintf(n[c], sizeof n[c], "%lld", (long long)k[c]);
        report_latency_fmt(&u, &v->latency, &v->censored, 0,
                           (double)hist_percentile(&v->latency, 50), a, sizeof a);
        report_latency_fmt(&u, &v->latency, &v->censored, 0,
                           (double)hist_percentile(&v->latency, 99), b, sizeof b);
        const char *cells[8] = {v->name, n[0], n[1], n[2], n[3], n[4], a, b};
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

