/* report_stages: a --stages run's table, one row per stage (issue 26):
 * what the stage offered, what it achieved, its latency and errors, and
 * the server's CPU over it. Built once (run_doc); the text and the page
 * write it. */
#include "report/report.h"

#include <stdio.h>

#include "base/units.h"

#define STAGE_COLS 12

/* A stage's rate: units_format_rate's, but 0 is a rate here ("max" there). */
static void stage_rate(double r, char *out, size_t len)
{
    if (r > 0)
        units_format_rate(r, out, len);
    else
        snprintf(out, len, "0/s");
}

void report_stage_rates(const struct run_stage *st, char *out, size_t len)
{
    char a[32], b[32];
    stage_rate(st->from, a, sizeof a);
    stage_rate(st->to, b, sizeof b);
    if (st->from == st->to)
        snprintf(out, len, "%s", a);
    else
        snprintf(out, len, "%s-%s", a, b);
}

static void heads(struct doc_table *t)
{
    static const char *const h[STAGE_COLS] = {"stage", "time", "offered", "achieved", "ok",
                                              "errors", "unfinished", "p50", "p90", "p99",
                                              "server CPU", "CPU-ms/call"};
    static const int w[STAGE_COLS] = {-6, -10, -16, 9, 7, 6, 10, 9, 9, 9, 10, 11};
    static const char *const ids[STAGE_COLS] = {"n", "time", "offered", "rate", "ok", "errors",
                                                "unfinished", "p50", "p90", "p99", "cpu",
                                                "cpu-ms"};
    for (int c = 0; c < STAGE_COLS; c++) {
        snprintf(t->col_id[c], sizeof t->col_id[c], "%s", ids[c]);
        snprintf(t->heads[c], DOC_CELL_LEN, "%s", h[c]);
        t->width[c] = w[c];
    }
    snprintf(t->caption, sizeof t->caption, "stages");
    snprintf(t->legend, sizeof t->legend, "each request counts in the stage its intended send "
             "time falls in; achieved = sent (written) over the time the stage ran; CPU-ms/call "
             "over the calls answered while it ran");
    snprintf(t->id, sizeof t->id, "stages");
}

/* Stage i's row, its latencies in unit u. @return doc_table_add_row's. */
static int stage_row(const struct run_result *r, size_t i, const struct report_unit *u,
                     struct doc_table *t, char *err)
{
    const struct run_stage *st = &r->cfg.stages[i];
    const struct stage_result *s = &r->stages[i];
    const struct censor none = {0};
    double t0 = (double)result_stage_start(&r->cfg, i) / 1e9, len = (double)st->duration_ns / 1e9;
    char id[16], name[8], when[32], off[72], ach[24], ok[24], errs[24], unf[24], p[3][40];
    char cpu[16], ms[24];
    snprintf(id, sizeof id, "stage%zu", i + 1);
    snprintf(name, sizeof name, "%zu", i + 1);
    snprintf(when, sizeof when, "%g-%gs", t0, t0 + len);
    report_stage_rates(st, off, sizeof off);
    snprintf(ach, sizeof ach, "%.2f/s", result_stage_achieved(r, i));
    snprintf(ok, sizeof ok, "%lld", (long long)s->ok);
    snprintf(errs, sizeof errs, "%lld", (long long)s->errors);
    snprintf(unf, sizeof unf, "%lld", (long long)(s->unfinished + s->unsent));
    static const double pcts[3] = {50, 90, 99};
    for (int k = 0; k < 3; k++)
        report_latency_fmt(u, &s->latency, &none, 0,
                           (double)hist_percentile(&s->latency, pcts[k]), p[k], sizeof p[k]);
    report_fmt_pct(s->server_cpu_pct, cpu, sizeof cpu);
    double per = result_stage_cpu_per_call(r, i);
    if (!fig_known(per))
        snprintf(ms, sizeof ms, "n/a");
    else
        snprintf(ms, sizeof ms, "%.3f", per);
    const char *cells[STAGE_COLS] = {name, when, off,  ach,  ok,  errs,
                                     unf,  p[0], p[1], p[2], cpu, ms};
    return doc_table_add_row(t, cells, id, 0, err);
}

int report_stage_doc(const struct run_result *r, struct doc_table *t,
                     struct doc_table_style *st, char *err)
{
    doc_table_init(t, STAGE_COLS);
    doc_table_style_init(st);
    if (!r->nstages)
        return 0;
    heads(t);
    snprintf(t->cell_ids, sizeof t->cell_ids, "st");
    double lo = 0, hi = 0;
    for (size_t i = 0; i < r->nstages; i++)
        report_unit_span(&r->stages[i].latency, &lo, &hi);
    struct report_unit u = report_unit_pick(hi, lo);
    for (size_t i = 0; i < r->nstages; i++)
        if (stage_row(r, i, &u, t, err))
            return -1;
    return 0;
}
