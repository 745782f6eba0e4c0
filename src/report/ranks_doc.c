/* ranks_doc: a distributed run's ranks (dist.h) as one table, the text's
 * and the page's: each rank's counts, rate, send lag, CPU and clock
 * offset, then the job's total client CPU and how well the clocks are
 * known. */
#include "report/report.h"

#include <stdio.h>

static void heads(struct doc_table *t, struct doc_table_style *st)
{
    static const char *const h[] = {"rank", "host", "sent", "unsent", "ok", "errors",
                                    "achieved/s", "lag p99", "cpu %", "clock us", ""};
    static const int w[] = {-5, -20, 8, 7, 8, 7, 10, 9, 8, 11, 0};
    for (int c = 0; c < 11; c++) {
        snprintf(t->heads[c], sizeof t->heads[c], "%s", h[c]);
        t->width[c] = w[c];
    }
    st->text.max[1] = 20;
    t->gap[10] = 1; /* "  LOST" after the clock */
    snprintf(t->id, sizeof t->id, "ranks");
    snprintf(st->html.caption, sizeof st->html.caption, "MPI ranks");
}

int report_ranks_doc(const struct run_result *r, struct doc_table *t,
                     struct doc_table_style *st, char *err)
{
    doc_table_init(t, 11);
    doc_table_style_init(st);
    heads(t, st);
    double total = 0;
    int known = 0;
    for (size_t i = 0; i < r->nranks; i++) {
        const struct rank_rec *k = &r->ranks[i];
        char v[10][32];
        snprintf(v[0], sizeof v[0], "%d", k->rank);
        snprintf(v[2], sizeof v[2], "%lld", (long long)k->sent);
        snprintf(v[3], sizeof v[3], "%lld", (long long)k->unsent);
        snprintf(v[4], sizeof v[4], "%lld", (long long)k->ok);
        snprintf(v[5], sizeof v[5], "%lld", (long long)k->errors);
        snprintf(v[6], sizeof v[6], "%.2f", k->achieved);
        snprintf(v[7], sizeof v[7], "%.3fms", k->send_lag_p99_ms);
        if (fig_known(k->client_cpu_pct)) /* the column says "cpu %" */
            snprintf(v[8], sizeof v[8], "%.1f", k->client_cpu_pct);
        else
            snprintf(v[8], sizeof v[8], "n/a");
        snprintf(v[9], sizeof v[9], "%.1f", k->clock_offset_us);
        const char *cells[11] = {v[0], k->host, v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
                                 k->lost ? "LOST" : ""};
        if (doc_table_add_row(t, cells, NULL, k->lost ? DOC_ROW_MARKED : 0, err))
            return -1;
        if (fig_known(k->client_cpu_pct)) {
            total += k->client_cpu_pct;
            known++;
        }
    }
    char cpu[16];
    report_fmt_pct(known ? total : FIG_UNKNOWN, cpu, sizeof cpu);
    snprintf(t->notes, sizeof t->notes, "ranks       %zu; client CPU %s of a core in total; "
             "clock offsets known to %.1f us", r->nranks, cpu, r->clock_error_us);
    return 0;
}
