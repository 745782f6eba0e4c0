/* sweep_table: the sweep's table as text, one row per cell, and the
 * capacity searches with their evidence. */
#include "report/sweep_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define CELL_LEN 64
#define MAX_COLS (1 + 5 + 2 * SF_N + 1)

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
            double v = k ? rows[i].max[f] : rows[i].min[f];
            if (v > 0 && (*mn == 0 || v < *mn))
                *mn = v;
            if (v > *mx)
                *mx = v;
        }
}

static int is_latency(int f)
{
    return f == SF_P50 || f == SF_P90 || f == SF_P99;
}

/* The span of every latency column together: they share one unit, as the
 * text report's percentile table does (report_unit_pick over the whole
 * table), so that p50 in us never sits beside p90 in ms. */
static void latency_span(const struct sweep_row *rows, size_t n, double *mn, double *mx)
{
    *mn = 0;
    *mx = 0;
    for (int f = SF_P50; f <= SF_P99; f++) {
        double lo, hi;
        span(rows, n, f, &lo, &hi);
        if (lo > 0 && (*mn == 0 || lo < *mn))
            *mn = lo;
        *mx = hi > *mx ? hi : *mx;
    }
}

static void pick_unit(const struct sweep_row *rows, size_t n, int f, struct col_unit *u)
{
    static const char *const heads[SF_N] = {"achieved/s", "p50", "p90", "p99", "errors",
                                             "CPU %", "CPU-ms/call", "bytes/resp"};
    double mn, mx;
    if (is_latency(f))
        latency_span(rows, n, &mn, &mx);
    else
        span(rows, n, f, &mn, &mx);
    u->div = 1;
    u->dec = decimals(mn);
    snprintf(u->head, sizeof u->head, "%s", heads[f]);
    if (is_latency(f)) {
        struct report_unit ru = report_unit_pick(mx * 1000, mn * 1000);
        u->div = ru.div / 1000;
        u->dec = ru.dec;
        snprintf(u->head, sizeof u->head, "%s %s", heads[f], ru.name);
    } else if (f == SF_BYTES_RESP) {
        static const char *const names[] = {"B", "kB", "MB", "GB"};
        int i = 0;
        while (i < 3 && mx / u->div >= 999.5)
            u->div *= 1000, i++;
        u->dec = i ? decimals(mn / u->div) : 0;
        snprintf(u->head, sizeof u->head, "%s %s", heads[f], names[i]);
    } else if (f == SF_ERRORS) {
        u->dec = 0;
    } else if (f == SF_CPU_PCT) {
        u->dec = 1;
    } else if (f == SF_ACHIEVED) {
        u->dec = mx >= 100 ? 1 : 2;
    }
}

static void fmt_val(const struct col_unit *u, double v, char *out, size_t len)
{
    if (v < 0)
        snprintf(out, len, "n/a");
    else
        snprintf(out, len, "%.*f", u->dec, v / u->div);
}

/* ---- the rows ---------------------------------------------------------------- */

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

/* "% of baseline": the baseline's own row is 100.0% wherever it has the
 * figure (even 0 errors); elsewhere n/a when either is unknown or the
 * baseline's figure is 0. */
static void fmt_pct(double v, double base, int is_base, char *out, size_t len)
{
    if (v < 0 || base < 0)
        snprintf(out, len, "n/a");
    else if (is_base)
        snprintf(out, len, "100.0%%");
    else if (base == 0)
        snprintf(out, len, "n/a");
    else
        snprintf(out, len, "%.1f%%", 100 * v / base);
}

struct grid {
    char (*cell)[CELL_LEN]; /* [nrows * MAX_COLS] */
    size_t nrows, ncols;
    int left[MAX_COLS];     /* left-aligned column */
};

static char *at(struct grid *g, size_t r, size_t c)
{
    return g->cell[r * MAX_COLS + c];
}

/* The header row (row 0) and the column units. */
static void header(struct grid *g, const struct sweep *s, unsigned vary, long baseline,
                   const struct sweep_row *rows, struct col_unit *units)
{
    size_t c = 0;
    g->left[c] = 1; /* "5*" */
    snprintf(at(g, 0, c++), CELL_LEN, "#");
    for (unsigned k = 0; k < 5; k++)
        if (vary & (1u << k)) {
            g->left[c] = 1;
            snprintf(at(g, 0, c++), CELL_LEN, "%s", sweep_param_names[k]);
        }
    for (int f = 0; f < SF_N; f++) {
        pick_unit(rows, s->ncells, f, &units[f]);
        snprintf(at(g, 0, c++), CELL_LEN, "%.31s", units[f].head);
        if (baseline >= 0)
            snprintf(at(g, 0, c++), CELL_LEN, "%%");
    }
    g->left[c] = 1;
    snprintf(at(g, 0, c++), CELL_LEN, "flags");
    g->ncols = c;
}

static void body_row(struct grid *g, const struct sweep *s, size_t i, unsigned vary,
                     long baseline, const struct sweep_row *rows, const struct col_unit *units)
{
    const struct sweep_row *r = &rows[i];
    size_t c = 0, row = i + 1;
    snprintf(at(g, row, c++), CELL_LEN, "%zu%s", i + 1, (long)i == baseline ? "*" : "");
    for (unsigned k = 0; k < 5; k++)
        if (vary & (1u << k))
            sweep_param_value(&s->cells[i].p, 1u << k, at(g, row, c++), CELL_LEN);
    for (int f = 0; f < SF_N; f++) {
        char med[24], lo[24], hi[24];
        fmt_val(&units[f], r->med[f], med, sizeof med);
        fmt_val(&units[f], r->min[f], lo, sizeof lo);
        fmt_val(&units[f], r->max[f], hi, sizeof hi);
        if (r->nreps > 1 && r->med[f] >= 0)
            snprintf(at(g, row, c++), CELL_LEN, "%.18s [%.18s-%.18s]", med, lo, hi);
        else
            snprintf(at(g, row, c++), CELL_LEN, "%s", med);
        if (baseline >= 0)
            fmt_pct(r->med[f], rows[baseline].med[f], (long)i == baseline, at(g, row, c++),
                    CELL_LEN);
    }
    sweep_flags_text(r, ",", at(g, row, c++), CELL_LEN);
}

static void print_grid(FILE *out, struct grid *g)
{
    size_t w[MAX_COLS] = {0};
    for (size_t r = 0; r < g->nrows; r++)
        for (size_t c = 0; c < g->ncols; c++) {
            size_t n = strlen(at(g, r, c));
            w[c] = n > w[c] ? n : w[c];
        }
    char line[MAX_COLS * (CELL_LEN + 2) + 1];
    for (size_t r = 0; r < g->nrows; r++) {
        size_t used = 0;
        for (size_t c = 0; c < g->ncols; c++)
            used += (size_t)snprintf(line + used, sizeof line - used,
                                     g->left[c] ? "%s%-*s" : "%s%*s", c ? "  " : "",
                                     (int)w[c], at(g, r, c));
        while (used && line[used - 1] == ' ')
            used--; /* no trailing blanks when the flags are empty */
        fprintf(out, "%.*s\n", (int)used, line);
    }
}

/* "6 cells x 3 repeats; the same in every cell: connections=1, ...". */
static void preamble(FILE *out, const struct sweep *s, unsigned vary)
{
    char same[400];
    sweep_params_text(&s->cells[0].p, SWEEP_P_ALL & ~vary, same, sizeof same);
    fprintf(out, "sweep: %zu cell%s x %zu repeat%s%s%s%s\n", s->ncells,
            s->ncells == 1 ? "" : "s", s->repeats, s->repeats == 1 ? "" : "s",
            same[0] ? "; in every cell: " : "", same, s->interrupted ? "; INTERRUPTED" : "");
}

static void notes(FILE *out, const struct sweep *s, const struct sweep_row *rows, long baseline)
{
    unsigned any = 0;
    for (size_t i = 0; i < s->ncells; i++)
        any |= rows[i].flags;
    if (s->ncells && s->cells[0].nreps > 1)
        fprintf(out, "figures: the median of the repeats [min-max]\n");
    if (baseline >= 0) {
        char p[300];
        sweep_params_text(&s->cells[baseline].p, SWEEP_P_ALL, p, sizeof p);
        fprintf(out, "*: the baseline, cell %ld (%s); each %% column is the figure before it "
                     "as a percentage of the baseline's\n", baseline + 1, p);
    }
    if (any & SWEEP_SATURATED)
        fprintf(out, "saturated: the server reached --cpu-saturation\n");
    if (any & SWEEP_SERVER_BOUND)
        fprintf(out, "server-bound: every connection was busy for %g%% of the sends or more: "
                     "the server answers slower than the rate (or raise --connections)\n",
                RESULT_QUEUED_PCT);
    if (any & SWEEP_CLIENT_BOUND)
        fprintf(out, "client-bound: the client used over %d%% of a core; such a cell measures "
                     "the client too\n", RESULT_CLIENT_BUSY_PCT);
    if (any & SWEEP_LATE_PACER)
        fprintf(out, "late pacer: the client, idle, sent late (send lag p99 over 1ms): the "
                     "machine held it back; the latencies include it\n");
    if (any & SWEEP_RATE_NOT_HELD)
        fprintf(out, "rate not held: under 99%% of the rate, with neither side measurably "
                     "the cause\n");
    if (any & SWEEP_CUT_SHORT)
        fprintf(out, "cut short: SIGINT ended a run early; its figures cover what it measured\n");
    if (any & SWEEP_UNFINISHED)
        fprintf(out, "unfinished: a run left requests unanswered; its latencies count their "
                     "waits, lower bounds (see run's report)\n");
    if (s->interrupted)
        fprintf(out, "interrupted: SIGINT ended the sweep; the cells show what was measured\n");
}

/* Fills g (its cells calloc'd: free g->cell) and *rows (malloc'd: free)
 * with the table of s: a header row, then one row per cell.
 * @return 0, or -1 with err (a baseline out of range, no memory). */
static int build_grid(const struct sweep *s, long baseline, struct grid *g,
                      struct sweep_row **rows, char *err)
{
    if (baseline >= (long)s->ncells || baseline < -1) {
        snprintf(err, ERR_LEN, "baseline cell %ld: the sweep has %zu cells", baseline + 1,
                 s->ncells);
        return -1;
    }
    memset(g, 0, sizeof *g);
    g->nrows = s->ncells + 1;
    *rows = all_rows(s);
    g->cell = calloc(g->nrows * MAX_COLS, sizeof *g->cell);
    if (!*rows || !g->cell) {
        free(*rows);
        free(g->cell);
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    unsigned vary = sweep_varying(s);
    struct col_unit units[SF_N];
    header(g, s, vary, baseline, *rows, units);
    for (size_t i = 0; i < s->ncells; i++)
        body_row(g, s, i, vary, baseline, *rows, units);
    return 0;
}

int sweep_table_text(FILE *out, const struct sweep *s, long baseline, char *err)
{
    if (s->ncells == 0 && baseline == -1) {
        fprintf(out, "sweep: no cell was measured\n");
        return 0;
    }
    struct grid g;
    struct sweep_row *rows;
    if (build_grid(s, baseline, &g, &rows, err))
        return -1;
    preamble(out, s, sweep_varying(s));
    print_grid(out, &g);
    notes(out, s, rows, baseline);
    free(rows);
    free(g.cell);
    return 0;
}

/* ---- capacity ------------------------------------------------------------------ */

/* "capacity xmlrpc ping under 'p99<50ms'": the text's headline and the
 * page's card say which search by these words. */
static void cap_name(const struct sweep_capacity *c, char *out, size_t len)
{
    snprintf(out, len, "capacity %s %s under '%s'", c->proto, c->verb, c->condition);
}

static void headline(FILE *out, const struct sweep_capacity *c)
{
    char name[DOC_CARD_NAME];
    cap_name(c, name, sizeof name);
    fprintf(out, "\n%s: ", name);
    const char *first_reason = c->nprobes ? c->probes[0].reason : "";
    switch (c->outcome) {
    case CAPACITY_FOUND:
        fprintf(out, "%g/s; first bad %g/s\n", c->max_good_rate, c->first_bad_rate);
        break;
    case CAPACITY_MIN_BREAKS:
        fprintf(out, "even --rate-min %g/s breaks it: %s\n",
                c->nprobes ? c->probes[0].rate : c->first_bad_rate, first_reason);
        break;
    case CAPACITY_MAX_HOLDS:
        fprintf(out, "--rate-max %g/s still holds\n", c->max_good_rate);
        break;
    default:
        fprintf(out, "interrupted");
        if (c->max_good_rate >= 0)
            fprintf(out, "; %g/s held", c->max_good_rate);
        if (c->first_bad_rate >= 0)
            fprintf(out, "; %g/s broke it", c->first_bad_rate);
        fprintf(out, "\n");
    }
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
    if (r.med[SF_ACHIEVED] >= 0)
        snprintf(t->achieved, sizeof t->achieved, "%.2f", r.med[SF_ACHIEVED]);
    if (r.med[SF_P99] >= 0) /* ms, three digits, and never "1.23e+03" */
        snprintf(t->p99, sizeof t->p99, "%.*f", r.med[SF_P99] >= 100 ? 0 : r.med[SF_P99] >= 10 ? 1
                                                : r.med[SF_P99] >= 1 ? 2 : 3, r.med[SF_P99]);
    if (r.med[SF_ERRORS] >= 0)
        snprintf(t->errors, sizeof t->errors, "%.0f", r.med[SF_ERRORS]);
    if (r.med[SF_CPU_PCT] >= 0)
        snprintf(t->cpu, sizeof t->cpu, "%.1f", r.med[SF_CPU_PCT]);
}

static void probe_line(FILE *out, const struct sweep *s, size_t k, const struct sweep_probe *p)
{
    struct sweep_probe_text t;
    sweep_probe_text(s, p, &t);
    fprintf(out, "%5zu %5s %10g %-5s %11s %9s %7s %6s", k + 1, t.cell, p->rate,
            p->pass ? "pass" : "FAIL", t.achieved, t.p99, t.errors, t.cpu);
    if (!p->pass)
        fprintf(out, "  %s", p->reason);
    fputc('\n', out);
}

void sweep_capacity_text(FILE *out, const struct sweep *s)
{
    for (size_t i = 0; i < s->ncaps; i++) {
        const struct sweep_capacity *c = &s->caps[i];
        headline(out, c);
        fprintf(out, "%5s %5s %10s %-5s %11s %9s %7s %6s  %s\n", "probe", "cell", "rate/s",
                "held", "achieved/s", "p99 ms", "errors", "CPU %", "reason");
        for (size_t k = 0; k < c->nprobes; k++)
            probe_line(out, s, k, &c->probes[k]);
    }
}

void sweep_capacity_value(const struct sweep_capacity *c, char *out, size_t len)
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

/* ---- the same cells for other renderings ------------------------------------ */

int sweep_table_each(const struct sweep *s, long baseline, sweep_row_fn fn, void *ctx,
                     char *err)
{
    if (s->ncells == 0) {
        snprintf(err, ERR_LEN, "the sweep has no cell");
        return -1;
    }
    struct grid g;
    struct sweep_row *rows;
    if (build_grid(s, baseline, &g, &rows, err))
        return -1;
    const char *cells[MAX_COLS];
    for (size_t r = 0; r < g.nrows; r++) {
        for (size_t c = 0; c < g.ncols; c++)
            cells[c] = at(&g, r, c);
        fn(ctx, r, cells, g.left, g.ncols);
    }
    free(rows);
    free(g.cell);
    return 0;
}
