/* sweep_csv: the sweep's table as CSV (fixed units, every parameter, for
 * spreadsheets), and the side-by-side bucket table of its cells. */
#include "report/sweep_out.h"

#include <stdlib.h>
#include <string.h>

#include "stats/buckets.h"
#include "report/report_csv.h"

/* The figures' column names in the CSV, units in the names. */
static const char *const csv_names[SF_N] = {
    "achieved_per_s", "p50_ms", "p90_ms", "p99_ms", "errors", "server_cpu_pct",
    "cpu_ms_per_call", "bytes_per_response",
};

/* ",value", or "," alone when unknown. */
static void csv_num(FILE *out, double v)
{
    if (!fig_known(v))
        fputc(',', out);
    else
        fprintf(out, ",%.6g", v);
}

static void csv_header(FILE *out, int with_base)
{
    fprintf(out, "cell,rate,connections,vms,proto,verb,repeats");
    for (int f = 0; f < SF_N; f++)
        fprintf(out, ",%s,%s_min,%s_max", csv_names[f], csv_names[f], csv_names[f]);
    fprintf(out, ",flags");
    if (with_base) {
        fprintf(out, ",baseline");
        for (int f = 0; f < SF_N; f++)
            fprintf(out, ",%s_pct_of_baseline", csv_names[f]);
    }
    fputc('\n', out);
}

/* "% of baseline" as the text table has it: 100 on the baseline's row
 * wherever it has the figure; empty where unknown or the baseline's is 0. */
static double pct(double v, double base, int is_base)
{
    if (!fig_known(v) || !fig_known(base))
        return FIG_UNKNOWN;
    if (is_base)
        return 100;
    return base == 0 ? FIG_UNKNOWN : 100 * v / base;
}

static void csv_row(FILE *out, const struct sweep *s, size_t i, const struct sweep_row *r,
                    const struct sweep_row *base)
{
    const struct sweep_params *p = &s->cells[i].p;
    fprintf(out, "%zu,%g,%d,%d,", i + 1, p->rate, p->connections, p->vms);
    report_csv_field(out, p->proto);
    fputc(',', out);
    report_csv_field(out, p->verb);
    fprintf(out, ",%zu", r->nreps);
    for (int f = 0; f < SF_N; f++) {
        csv_num(out, r->med[f]);
        csv_num(out, r->min[f]);
        csv_num(out, r->max[f]);
    }
    char flags[64];
    sweep_flags_text(r, ";", flags, sizeof flags);
    fprintf(out, ",%s", flags);
    if (base) {
        fprintf(out, ",%d", r == base);
        for (int f = 0; f < SF_N; f++)
            csv_num(out, pct(r->med[f], base->med[f], r == base));
    }
    fputc('\n', out);
}

int sweep_table_csv(FILE *out, const struct sweep *s, long baseline)
{
    struct sweep_row *rows = calloc(s->ncells ? s->ncells : 1, sizeof *rows);
    if (!rows)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->ncells; i++)
        rc = sweep_cell_row(&s->cells[i], &rows[i]);
    int with_base = baseline >= 0 && baseline < (long)s->ncells;
    if (rc == 0) {
        csv_header(out, with_base);
        for (size_t i = 0; i < s->ncells; i++)
            csv_row(out, s, i, &rows[i], with_base ? &rows[baseline] : NULL);
    }
    free(rows);
    return rc;
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
