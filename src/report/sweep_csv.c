/* sweep_csv: the sweep's table as CSV (fixed units, every parameter, for
 * spreadsheets), and the side-by-side bucket table of its cells. */
#include "report/sweep_out.h"

#include <stdlib.h>
#include <string.h>

#include "stats/buckets.h"
#include "base/err.h"
#include "report/report_csv.h"

/* The next column, headed fmt's (one %s: name), its raw values of kind
 * (the figures: 6 digits, as %g). */
static void head(struct doc_table *t, int *c, enum doc_raw kind, const char *fmt,
                 const char *name)
{
    snprintf(t->heads[*c], DOC_CELL_LEN, fmt, name);
    t->raw_kind[*c] = kind;
    t->raw_dec[*c] = 6;
    ++*c;
}

_Static_assert(7 + 3 * METRIC_N + 2 + METRIC_N <= DOC_MAX_COLS, "a sweep's CSV fits a document");

/* The columns: the cell's parameters, each figure's median, min and max,
 * the flags, and with a baseline whether it is the row and each figure's
 * % of the baseline's. */
static void csv_heads(struct doc_table *t, int with_base)
{
    static const char *const params[] = {"cell", "rate", "connections", "vms", "proto",
                                         "verb", "repeats"};
    static const enum doc_raw kind[] = {DOC_RAW_INT, DOC_RAW_G, DOC_RAW_INT, DOC_RAW_INT,
                                        DOC_RAW_NONE, DOC_RAW_NONE, DOC_RAW_INT};
    int c = 0;
    for (int k = 0; k < 7; k++)
        head(t, &c, kind[k], "%s", params[k]);
    for (int k = 0; k < metric_sweep_n(); k++) { /* the figures' keys, units in them */
        const char *key = metric_defs[metric_sweep_fig(k)].json_key;
        head(t, &c, DOC_RAW_G, "%s", key);
        head(t, &c, DOC_RAW_G, "%s_min", key);
        head(t, &c, DOC_RAW_G, "%s_max", key);
    }
    head(t, &c, DOC_RAW_NONE, "%s", "flags");
    if (!with_base)
        return;
    head(t, &c, DOC_RAW_INT, "%s", "baseline");
    for (int k = 0; k < metric_sweep_n(); k++)
        head(t, &c, DOC_RAW_G, "%s_pct_of_baseline", metric_defs[metric_sweep_fig(k)].json_key);
}

/* "% of baseline" as the text table has it: 100 on the baseline's row
 * wherever it has the figure; unknown where unknown or the baseline's is 0. */
static double pct(double v, double base, int is_base)
{
    if (!fig_known(v) || !fig_known(base))
        return FIG_UNKNOWN;
    if (is_base)
        return 100;
    return base == 0 ? FIG_UNKNOWN : 100 * v / base;
}

/* Cell i's row (r its figures, base the baseline's or NULL). */
static int csv_row(struct doc_table *t, const struct sweep *s, size_t i,
                   const struct sweep_row *r, const struct sweep_row *base, char *err)
{
    const struct sweep_params *p = &s->cells[i].p;
    double v[DOC_MAX_COLS];
    const char *text[DOC_MAX_COLS] = {NULL};
    char flags[64];
    int c = 0;
    v[c++] = (double)(i + 1), v[c++] = p->rate, v[c++] = p->connections, v[c++] = p->vms;
    text[c++] = p->proto;
    text[c++] = p->verb;
    v[c++] = (double)r->nreps;
    for (int k = 0; k < metric_sweep_n(); k++) {
        enum metric f = metric_sweep_fig(k);
        v[c++] = r->med[f], v[c++] = r->min[f], v[c++] = r->max[f];
    }
    sweep_flags_text(r, ";", flags, sizeof flags);
    text[c++] = flags;
    if (base) {
        v[c++] = r == base;
        for (int k = 0; k < metric_sweep_n(); k++) {
            enum metric f = metric_sweep_fig(k);
            v[c++] = pct(r->med[f], base->med[f], r == base);
        }
    }
    return doc_table_add_raw(t, text, v, err);
}

/* That table as a document (doc_table.h), each cell with its raw value
 * (figures to 6 digits, unknown empty), into t (the caller's:
 * doc_table_free it after a 0). @return 0, or -1 with err (no memory;
 * nothing to free). */
static int sweep_csv_doc(const struct sweep *s, long baseline, struct doc_table *t, char *err)
{
    struct sweep_row *rows = calloc(s->ncells ? s->ncells : 1, sizeof *rows);
    if (!rows) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->ncells; i++)
        if ((rc = sweep_cell_row(&s->cells[i], &rows[i])))
            snprintf(err, ERR_LEN, "cell %zu: out of memory", i + 1);
    int with_base = baseline >= 0 && baseline < (long)s->ncells;
    doc_table_init(t, 7 + 3 * metric_sweep_n() + 1 + (with_base ? 1 + metric_sweep_n() : 0));
    csv_heads(t, with_base);
    for (size_t i = 0; rc == 0 && i < s->ncells; i++)
        rc = csv_row(t, s, i, &rows[i], with_base ? &rows[baseline] : NULL, err);
    free(rows);
    if (rc)
        doc_table_free(t);
    return rc ? -1 : 0;
}

int sweep_table_csv(FILE *out, const struct sweep *s, long baseline)
{
    struct doc_table t;
    char err[ERR_LEN];
    if (sweep_csv_doc(s, baseline, &t, err))
        return -1;
    doc_table_csv(out, &t);
    doc_table_free(&t);
    return 0;
}

/* ---- buckets --------------------------------------------------------------------- */

/* Each cell's repeats merged into hs[i] (initialised here; hist_close them). */
static int merge_cells(const struct sweep *s, struct hist *hs, char *err)
{
    for (size_t i = 0; i < s->ncells; i++) {
        if (hist_init_latency(&hs[i])) {
            snprintf(err, ERR_LEN, "out of memory");
            return -1;
        }
        for (size_t k = 0; k < s->cells[i].nreps; k++)
            if (hist_merge(&hs[i], &s->cells[i].reps[k].latency)) {
                snprintf(err, ERR_LEN, "cell %zu: its repeats' histograms differ in range", i + 1);
                return -1;
            }
    }
    return 0;
}

static void bucket_rows(FILE *out, const struct sweep *s, const struct hist *hs,
                        const double *edges, int n, double *pct_all)
{
    fprintf(out, "\n%-16s", "response time");
    for (size_t i = 0; i < s->ncells; i++) {
        char h[24];
        snprintf(h, sizeof h, "#%zu", i + 1);
        fprintf(out, " %7s", h);
        buckets_fill(&hs[i], edges, n, pct_all + i * BUCKETS_MAX);
    }
    fputc('\n', out);
    if (n == 0)
        fprintf(out, "(no successful answer in any cell: nothing to bucket)\n");
    for (int e = 0; e < n; e++) {
        char edge[32], row[48];
        buckets_format_ms(edges[e], edge, sizeof edge);
        snprintf(row, sizeof row, "<%sms:", edge);
        fprintf(out, "%-16s", row);
        for (size_t i = 0; i < s->ncells; i++) {
            if (hs[i].total_count)
                fprintf(out, " %7.1f", pct_all[i * BUCKETS_MAX + (size_t)e]);
            else
                fprintf(out, " %7s", "n/a");
        }
        fputc('\n', out);
    }
    fprintf(out, "(%% of each cell's answers below the edge, all its repeats; columns are "
                 "the table's cell numbers)\n");
}

int sweep_buckets_text(FILE *out, const struct sweep *s, const char *spec, char *err)
{
    size_t n = s->ncells ? s->ncells : 1;
    struct hist *hs = calloc(n, sizeof *hs);
    const struct hist **ptrs = calloc(n, sizeof *ptrs);
    double *pct_all = calloc(n * BUCKETS_MAX, sizeof *pct_all);
    double edges[BUCKETS_MAX];
    int rc = -1;
    if (!hs || !ptrs || !pct_all)
        snprintf(err, ERR_LEN, "out of memory");
    else if (merge_cells(s, hs, err) == 0) {
        for (size_t i = 0; i < s->ncells; i++)
            ptrs[i] = &hs[i];
        int ne = buckets_edges(spec, ptrs, (int)s->ncells, edges, err);
        if (ne >= 0) {
            bucket_rows(out, s, hs, edges, ne, pct_all);
            rc = 0;
        }
    }
    for (size_t i = 0; hs && i < s->ncells; i++)
        hist_close(&hs[i]);
    free(hs);
    free(ptrs);
    free(pct_all);
    return rc;
}
