/* sweep_doc: the sweep's cells table as a document (sweep_out.h), built
 * once: the text and the page write it, so they say the same figures to
 * the same digits, one unit per column. */
#include "report/sweep_out.h"
#include "report/sweep_out_testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* #, the parameters, each figure and its "%", the flags */
#define MAX_COLS (1 + 5 + 2 * METRIC_N + 1)
_Static_assert(MAX_COLS <= DOC_MAX_COLS, "a sweep's table fits a document");

/* ---- one unit per column ------------------------------------------------------- */

struct col_unit {
    char head[32];   /* "p99 ms" */
    double div;      /* value / div is printed */
    int dec;
};

/* Decimals that keep about 3 significant digits of the smallest non-zero
 * value (0..3). */
static int decimals(double smallest)
{
    if (smallest <= 0)
        return 0;
    int d = 2 - (int)floor(log10(smallest));
    return d < 0 ? 0 : d > 3 ? 3 : d;
}

/* The span of figure f over all rows (known values only). */
static void span(const struct sweep_row *rows, size_t n, int f, double *mn, double *mx)
{
    *mn = 0;
    *mx = 0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            double v = k ? rows[i].max[f] : rows[i].min[f]; /* unknown: no test holds */
            if (v > 0 && (*mn == 0 || v < *mn))
                *mn = v;
            if (v > *mx)
                *mx = v;
        }
}

static int is_latency(int f)
{
    return metric_defs[f].unit == MU_MS;
}

/* The span of every latency column together: they share one unit, as the
 * text report's percentile table does (report_unit_pick over the whole
 * table), so that p50 in us never sits beside p90 in ms. */
static void latency_span(const struct sweep_row *rows, size_t n, double *mn, double *mx)
{
    *mn = 0;
    *mx = 0;
    for (int k = 0; k < metric_sweep_n(); k++) {
        int f = metric_sweep_fig(k);
        double lo, hi;
        if (!is_latency(f))
            continue;
        span(rows, n, f, &lo, &hi);
        if (lo > 0 && (*mn == 0 || lo < *mn))
            *mn = lo;
        *mx = hi > *mx ? hi : *mx;
    }
}

static void pick_unit(const struct sweep_row *rows, size_t n, int f, struct col_unit *u)
{
    const char *head = metric_defs[f].head;
    double mn, mx;
    if (is_latency(f))
        latency_span(rows, n, &mn, &mx);
    else
        span(rows, n, f, &mn, &mx);
    u->div = 1;
    u->dec = decimals(mn);
    snprintf(u->head, sizeof u->head, "%s", head);
    if (is_latency(f)) {
        struct report_unit ru = report_unit_pick(mx * 1000, mn * 1000);
        u->div = ru.div / 1000;
        u->dec = ru.dec;
        snprintf(u->head, sizeof u->head, "%s %s", head, ru.name);
    } else if (metric_defs[f].unit == MU_BYTES) {
        static const char *const names[] = {"B", "kB", "MB", "GB"};
        int i = 0;
        while (i < 3 && mx / u->div >= 999.5)
            u->div *= 1000, i++;
        u->dec = i ? decimals(mn / u->div) : 0;
        snprintf(u->head, sizeof u->head, "%s %s", head, names[i]);
    } else if (metric_defs[f].unit == MU_COUNT) {
        u->dec = 0;
    } else if (metric_defs[f].unit == MU_PCT) {
        u->dec = 1;
    } else if (metric_defs[f].unit == MU_PER_S) {
        u->dec = mx >= 100 ? 1 : 2;
    }
}

static void fmt_val(const struct col_unit *u, double v, char *out, size_t len)
{
    if (!fig_known(v))
        snprintf(out, len, "n/a");
    else
        snprintf(out, len, "%.*f", u->dec, v / u->div);
}

/* ---- the rows ---------------------------------------------------------------- */

void sweep_flags_text(const struct sweep_row *r, const char *sep, char *out, size_t len)
{
    static const char *const words[SWEEP_NFLAGS] = {"saturated", "client-bound", "cut short",
                                                    "server-bound", "late pacer",
                                                    "rate not held", "unfinished"};
    out[0] = '\0';
    if (!r->nreps)
        snprintf(out, len, "not run");
    for (unsigned k = 0; k < SWEEP_NFLAGS; k++) {
        size_t used = strlen(out);
        if (r->flags & (1u << k))
            snprintf(out + used, len - used, "%s%s", used ? sep : "", words[k]);
    }
}


/* Every cell's row, malloc'd (the caller frees it); NULL without memory. */
static struct sweep_row *all_rows(const struct sweep *s)
{
    struct sweep_row *rows = calloc(s->ncells ? s->ncells : 1, sizeof *rows);
    for (size_t i = 0; rows && i < s->ncells; i++)
        if (sweep_cell_row(&s->cells[i], &rows[i])) {
            free(rows);
            return NULL;
        }
    return rows;
}

/* "% of baseline": the baseline's own row is 100.0% wherever it has the
 * figure (even 0 errors); elsewhere n/a when either is unknown or the
 * baseline's figure is 0. */
static void fmt_pct(double v, double base, int is_base, char *out, size_t len)
{
    if (!fig_known(v) || !fig_known(base))
        snprintf(out, len, "n/a");
    else if (is_base)
        snprintf(out, len, "100.0%%");
    else if (base == 0)
        snprintf(out, len, "n/a");
    else
        snprintf(out, len, "%.1f%%", 100 * v / base);
}

/* The heads (with the column units into units) and the alignment.
 * @return the columns. */
static int heads(struct doc_table *t, unsigned vary, long baseline, const struct sweep_row *rows,
                  size_t n, struct col_unit *units)
{
    int c = 0;
    t->width[c] = -1; /* "5*" */
    snprintf(t->heads[c++], DOC_CELL_LEN, "#");
    for (unsigned k = 0; k < 5; k++)
        if (vary & (1u << k)) {
            t->width[c] = -1;
            snprintf(t->heads[c++], DOC_CELL_LEN, "%s", sweep_param_names[k]);
        }
    for (int k = 0; k < metric_sweep_n(); k++) {
        pick_unit(rows, n, metric_sweep_fig(k), &units[k]);
        t->width[c] = 1;
        snprintf(t->heads[c++], DOC_CELL_LEN, "%.31s", units[k].head);
        if (baseline >= 0) {
            t->width[c] = 1;
            snprintf(t->heads[c++], DOC_CELL_LEN, "%%");
        }
    }
    t->width[c] = -1;
    snprintf(t->heads[c++], DOC_CELL_LEN, "flags");
    for (int k = 1; k < c; k++)
        t->gap[k] = 1; /* two blanks between columns */
    return c;
}

static int body_row(struct doc_table *t, const struct sweep *s, size_t i, unsigned vary,
                    long baseline, const struct sweep_row *rows, const struct col_unit *units,
                    char *err)
{
    char cell[MAX_COLS][DOC_CELL_LEN];
    const char *cells[MAX_COLS];
    const struct sweep_row *r = &rows[i];
    int c = 0;
    snprintf(cell[c++], DOC_CELL_LEN, "%zu%s", i + 1, (long)i == baseline ? "*" : "");
    for (unsigned k = 0; k < 5; k++)
        if (vary & (1u << k))
            sweep_param_value(&s->cells[i].p, 1u << k, cell[c++], DOC_CELL_LEN);
    for (int k = 0; k < metric_sweep_n(); k++) {
        enum metric f = metric_sweep_fig(k);
        char med[24], lo[24], hi[24];
        fmt_val(&units[k], r->med[f], med, sizeof med);
        fmt_val(&units[k], r->min[f], lo, sizeof lo);
        fmt_val(&units[k], r->max[f], hi, sizeof hi);
        if (r->nreps > 1 && fig_known(r->med[f]))
            snprintf(cell[c++], DOC_CELL_LEN, "%.18s [%.18s-%.18s]", med, lo, hi);
        else
            snprintf(cell[c++], DOC_CELL_LEN, "%s", med);
        if (baseline >= 0)
            fmt_pct(r->med[f], rows[baseline].med[f], (long)i == baseline, cell[c++],
                    DOC_CELL_LEN);
    }
    sweep_flags_text(r, ",", cell[c++], DOC_CELL_LEN);
    for (int k = 0; k < c; k++)
        cells[k] = cell[k];
    return doc_table_add(t, cells, err);
}

/* The page's caption: what every cell shares, and what the figures are. */
static void captions(struct doc_table_style *st, const struct sweep *s, long baseline)
{
    char same[400];
    sweep_params_text(&s->cells[0].p, SWEEP_P_ALL & ~sweep_varying(s), same, sizeof same);
    snprintf(st->html.caption, sizeof st->html.caption, "one row per cell%s%s%s%s",
             same[0] ? "; in every cell: " : "", same,
             s->repeats > 1 ? "; the median of the repeats [min-max]" : "",
             baseline >= 0 ? "; * the baseline, each % column the figure before it as a "
                             "percentage of the baseline's" : "");
}

int sweep_table_doc(struct doc_table *t,
                    struct doc_table_style *st, const struct sweep *s, long baseline, char *err)
{
    if (baseline >= (long)s->ncells || baseline < -1) {
        snprintf(err, ERR_LEN, "baseline cell %ld: the sweep has %zu cells", baseline + 1,
                 s->ncells);
        return -1;
    }
    if (s->ncells == 0) {
        snprintf(err, ERR_LEN, "the sweep has no cell");
        return -1;
    }
    struct sweep_row *rows = all_rows(s);
    if (!rows) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    unsigned vary = sweep_varying(s);
    struct col_unit units[METRIC_N];
    doc_table_init(t, MAX_COLS);
    doc_table_style_init(st);
    t->ncols = heads(t, vary, baseline, rows, s->ncells, units);
    st->text.fit = st->text.tight = st->html.left = 1;
    snprintf(t->id, sizeof t->id, "cells");
    captions(st, s, baseline);
    int rc = 0;
    for (size_t i = 0; i < s->ncells && rc == 0; i++)
        rc = body_row(t, s, i, vary, baseline, rows, units, err);
    free(rows);
    return rc;
}

/* ---- capacity ------------------------------------------------------------------ */

/* A capacity search's outcome in short, as the page's card and its probe
 * table's caption say it: "64/s", "under 1/s", "over 100000/s",
 * "interrupted"; into out (len bytes, the caller's). */
static void sweep_capacity_value(const struct sweep_capacity *c, char *out, size_t len)
{
    switch (c->outcome) {
    case CAPACITY_FOUND: snprintf(out, len, "%g/s", c->max_good_rate); break;
    case CAPACITY_MIN_BREAKS:
        snprintf(out, len, "under %g/s", c->nprobes ? c->probes[0].rate : c->first_bad_rate);
        break;
    case CAPACITY_MAX_HOLDS: snprintf(out, len, "over %g/s", c->max_good_rate); break;
    default: snprintf(out, len, "interrupted");
    }
}

/* "capacity xmlrpc ping under 'p99<50ms'": the text's headline, the
 * page's caption and card say which search by these words. */
static void cap_name(const struct sweep_capacity *c, char *out, size_t len)
{
    snprintf(out, len, "capacity %s %s under '%s'", c->proto, c->verb, c->condition);
}

/* The text's headline ("capacity P V under 'C': 64/s; first bad 68/s") and
 * the page's ("capacity P V under 'C': 64/s; first bad 68/s", "under 2/s",
 * "over 100/s"). */
static void probe_captions(struct doc_table *t, struct doc_table_style *st,
                           const struct sweep_capacity *c)
{
    char what[440], v[64], bad[48] = ""; /* what: proto, verb and condition whole */
    cap_name(c, what, sizeof what - 2);
    strcat(what, ": ");
    const char *first_reason = c->nprobes ? c->probes[0].reason : "";
    if (c->outcome == CAPACITY_FOUND)
        snprintf(t->caption, sizeof t->caption, "%s%g/s; first bad %g/s", what,
                 c->max_good_rate, c->first_bad_rate);
    else if (c->outcome == CAPACITY_MIN_BREAKS)
        snprintf(t->caption, sizeof t->caption, "%seven --rate-min %g/s breaks it: %s", what,
                 c->nprobes ? c->probes[0].rate : c->first_bad_rate, first_reason);
    else if (c->outcome == CAPACITY_MAX_HOLDS)
        snprintf(t->caption, sizeof t->caption, "%s--rate-max %g/s still holds", what,
                 c->max_good_rate);
    else {
        char held[40] = "", broke[40] = "";
        if (c->max_good_rate >= 0)
            snprintf(held, sizeof held, "; %g/s held", c->max_good_rate);
        if (c->first_bad_rate >= 0)
            snprintf(broke, sizeof broke, "; %g/s broke it", c->first_bad_rate);
        snprintf(t->caption, sizeof t->caption, "%sinterrupted%s%s", what, held, broke);
    }
    sweep_capacity_value(c, v, sizeof v);
    if (c->first_bad_rate >= 0)
        snprintf(bad, sizeof bad, "; first bad %g/s", c->first_bad_rate);
    snprintf(st->html.caption, sizeof st->html.caption, "%s%s%s", what, v, bad);
}

void sweep_probe_text(const struct sweep *s, const struct sweep_probe *p,
                      struct sweep_probe_text *t)
{
    struct sweep_row r;
    int have = p->cell < s->ncells && sweep_cell_row(&s->cells[p->cell], &r) == 0;
    snprintf(t->cell, sizeof t->cell, "-");
    snprintf(t->achieved, sizeof t->achieved, "n/a");
    snprintf(t->p99, sizeof t->p99, "n/a");
    snprintf(t->errors, sizeof t->errors, "n/a");
    snprintf(t->cpu, sizeof t->cpu, "n/a");
    if (!have)
        return;
    snprintf(t->cell, sizeof t->cell, "%zu", p->cell + 1);
    if (fig_known(r.med[METRIC_RATE]))
        snprintf(t->achieved, sizeof t->achieved, "%.2f", r.med[METRIC_RATE]);
    if (fig_known(r.med[METRIC_P99])) /* ms, three digits, and never "1.23e+03" */
        snprintf(t->p99, sizeof t->p99, "%.*f", r.med[METRIC_P99] >= 100 ? 0 : r.med[METRIC_P99] >= 10 ? 1
                                                : r.med[METRIC_P99] >= 1 ? 2 : 3, r.med[METRIC_P99]);
    if (fig_known(r.med[METRIC_ERRORS]))
        snprintf(t->errors, sizeof t->errors, "%.0f", r.med[METRIC_ERRORS]);
    if (fig_known(r.med[METRIC_CPU_PCT]))
        snprintf(t->cpu, sizeof t->cpu, "%.1f", r.med[METRIC_CPU_PCT]);
}

int sweep_probes_doc(struct doc_table *t,
                     struct doc_table_style *st, const struct sweep *s, size_t i, char *err)
{
    static const char *const head[9] = {"probe", "cell", "rate/s", "held", "achieved/s",
                                        "p99 ms", "errors", "CPU %", "reason"};
    static const int width[9] = {5, 5, 10, -5, 11, 9, 7, 6, 0};
    const struct sweep_capacity *c = &s->caps[i];
    doc_table_init(t, 9);
    doc_table_style_init(st);
    t->cell_len = RUN_WARNING_LEN; /* the reason, whole */
    for (int k = 0; k < 9; k++) {
        snprintf(t->heads[k], DOC_CELL_LEN, "%s", head[k]);
        t->width[k] = width[k];
    }
    t->gap[8] = 1;
    probe_captions(t, st, c);
    for (size_t k = 0; k < c->nprobes; k++) {
        const struct sweep_probe *p = &c->probes[k];
        struct sweep_probe_text x;
        char n[24], rate[32];
        sweep_probe_text(s, p, &x);
        snprintf(n, sizeof n, "%zu", k + 1);
        snprintf(rate, sizeof rate, "%g", p->rate);
        const char *cells[9] = {n, x.cell, rate, p->pass ? "pass" : "FAIL", x.achieved, x.p99,
                                x.errors, x.cpu, p->pass ? "" : p->reason};
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

/* ---- the headline cards ------------------------------------------------------ */

/* A search's card: good when found, no verdict when the most rate held
 * (a bound), bad when even the least rate broke it or it was cut short. */
static void cap_card(struct doc_cards *d, const struct sweep_capacity *c, size_t i)
{
    char name[DOC_CARD_NAME], id[DOC_CARD_ID], v[64];
    cap_name(c, name, sizeof name);
    snprintf(id, sizeof id, "h-cap-%zu", i + 1);
    sweep_capacity_value(c, v, sizeof v);
    enum doc_status st = c->outcome == CAPACITY_FOUND ? DOC_STATUS_GOOD
                         : c->outcome == CAPACITY_MAX_HOLDS ? DOC_STATUS_NONE : DOC_STATUS_BAD;
    doc_cards_add(d, id, name, st, v);
}

void sweep_cards_doc(const struct sweep *s, struct doc_cards *d)
{
    char varies[200] = "", v[48];
    unsigned vary = sweep_varying(s);
    for (unsigned k = 0; k < 5; k++)
        if (vary & (1u << k))
            snprintf(varies + strlen(varies), sizeof varies - strlen(varies), "%s%s",
                     varies[0] ? ", " : "", sweep_param_names[k]);
    doc_cards_init(d);
    snprintf(v, sizeof v, "%zu", s->ncells);
    doc_cards_add(d, "h-cells", "cells", DOC_STATUS_NONE, v);
    snprintf(v, sizeof v, "%zu%s", s->repeats, s->interrupted ? " (interrupted)" : "");
    doc_cards_add(d, "h-repeats", "repeats per cell",
                  s->interrupted ? DOC_STATUS_BAD : DOC_STATUS_NONE, v);
    doc_cards_add(d, "h-varies", "varies", DOC_STATUS_NONE, varies[0] ? varies : "nothing");
    for (size_t i = 0; i < s->ncaps; i++)
        cap_card(d, &s->caps[i], i);
}
