/* run_doc: one run, one document, every format (run_doc.h). */
#include "report/run_doc.h"

#include <stdlib.h>

#include "base/err.h"
#include "base/units.h"
#include "base/version.h"
#include "model/metric.h"

/* A mix's cumulative % per verb, on one set of edges: a column per verb,
 * or for the REPORT_GRID_COLS with the most requests when there are more
 * (the per-verb table has them all). @return 0, or -1 with err. */
static int verb_grid(struct run_doc *d, char *err)
{
    const struct run_result *r = d->r;
    const struct hist *hs[RUN_MAX_VERBS];
    const char *names[RUN_MAX_VERBS];
    int64_t req[RUN_MAX_VERBS];
    size_t idx[RUN_MAX_VERBS];
    for (size_t i = 0; i < r->nverbs; i++)
        req[i] = r->verbs[i].requests;
    size_t n = report_busiest(req, r->nverbs, REPORT_GRID_COLS, idx);
    for (size_t i = 0; i < n; i++) {
        hs[i] = &r->verbs[idx[i]].latency;
        names[i] = r->verbs[idx[i]].name;
    }
    char note[128] = "";
    if (n < r->nverbs)
        snprintf(note, sizeof note,
                 "the %u verbs with the most requests of %u; the table above has them all",
                 (unsigned)n, (unsigned)r->nverbs);
    struct report_grid_words w = {"response time %", "response time",
                                  "cumulative % of each verb's answers under each edge", note};
    return report_bucket_grid_doc(r->cfg.buckets, hs, names, (int)n, &w, &d->verb_grid,
                                  &d->verb_grid_style, err);
}

/* A row of the errors table: n ("n/a" unknown, a requests log's) and note. */
static int count_row(struct doc_table *t, const char *name, int64_t n, const char *note,
                     char *err)
{
    char v[32] = "n/a";
    if (result_count_known(n))
        snprintf(v, sizeof v, "%lld", (long long)n);
    const char *cells[3] = {name, v, note ? note : ""};
    return doc_table_add(t, cells, err);
}

/* The warmup's rows, when the run had one. @return 0, or -1 with err. */
static int warmup_rows(struct doc_table *t, const struct run_result *r, char *err)
{
    if (!r->warmup.sent && !r->warmup.unsent && r->cfg.warmup_ns <= 0)
        return 0;
    return count_row(t, "warmup: sent", r->warmup.sent, "before the window: in no figure here",
                     err) ||
           count_row(t, "warmup: unsent", r->warmup.unsent, NULL, err) ||
           count_row(t, "warmup: ok", r->warmup.ok, NULL, err) ||
           count_row(t, "warmup: errors", r->warmup.errors, NULL, err) ? -1 : 0;
}

/* The page's requests and errors by kind, each kind with its first
 * error's words (the text says them in its requests section).
 * @return 0, or -1 with err (no memory). */
static int errors_doc(const struct run_result *r, struct doc_table *t,
                      struct doc_table_style *st, char *err)
{
    static const char *const heads[] = {"requests", "count", "first of its kind"};
    doc_table_init(t, 3);
    doc_table_style_init(st);
    t->cell_len = ERR_SAMPLE_LEN; /* a first error, whole */
    for (int c = 0; c < 3; c++)
        snprintf(t->heads[c], DOC_CELL_LEN, "%s", heads[c]);
    snprintf(st->html.caption, sizeof st->html.caption, "requests and errors by kind");
    char unsent[160];
    if (count_row(t, "offered", r->offered, "due in the window", err) ||
        count_row(t, "sent", r->sent, "written to the wire", err) ||
        count_row(t, "unsent", r->unsent,
                  r->unsent ? report_unsent_text(r, unsent, sizeof unsent) : "never written",
                  err) ||
        count_row(t, "ok", r->ok, NULL, err) || count_row(t, "errors", r->errors, NULL, err) ||
        count_row(t, "unfinished", r->unfinished, "sent, no answer when the run was over",
                  err) ||
        count_row(t, "queued", r->queued, "found every connection busy when due", err) ||
        warmup_rows(t, r, err))
        return -1;
    for (int k = 0; k < ERR_KINDS; k++) {
        char name[48];
        snprintf(name, sizeof name, "error: %s", err_kind_names[k]);
        if (count_row(t, name, r->err[k], r->error_samples[k], err))
            return -1;
    }
    return 0;
}

/* Metric m of r as the tables write it (report_fmt_metric). */
static void metric_cell(const struct run_result *r, int m, char *out, size_t len)
{
    double v = metric_defs[m].value(r);
    struct report_unit u = report_unit_pick(v * 1000, v * 1000);
    report_fmt_metric(m, v, &u, out, len);
}

/* A latency card: percentile p as the percentile table's row of it. */
static void pct_card(struct doc_cards *d, const struct run_result *r, const char *id,
                     const char *name, double p)
{
    struct report_unit u = report_pct_unit(r);
    char v[48];
    report_latency_fmt(&u, &r->latency, &r->censored, 0,
                       (double)hist_percentile(&r->latency, p), v, sizeof v);
    doc_cards_add(d, id, name, DOC_STATUS_NONE, v);
}

static void headline(struct doc_cards *d, const struct run_result *r)
{
    char rt[32], ra[48], errs[48], cpu[48];
    if (r->closed_loop)
        snprintf(rt, sizeof rt, "closed loop");
    else
        units_format_rate(r->cfg.rate, rt, sizeof rt);
    metric_cell(r, METRIC_RATE, ra, sizeof ra);
    metric_cell(r, METRIC_ERRORS, errs, sizeof errs);
    metric_cell(r, METRIC_CPU_MS, cpu, sizeof cpu);
    doc_cards_init(d);
    char fleet[320];
    snprintf(fleet, sizeof fleet, "%zu targets from %s", r->ntargets, r->cfg.targets_file);
    doc_cards_add(d, "h-target", "target", DOC_STATUS_NONE,
                  r->cfg.targets_file[0] && r->ntargets ? fleet : r->target_url);
    doc_cards_add(d, "h-proto", "protocol", DOC_STATUS_NONE, r->cfg.encoding);
    doc_cards_add(d, "h-rate-target", "rate target", DOC_STATUS_NONE, rt);
    doc_cards_add(d, "h-rate", "rate achieved", DOC_STATUS_NONE, ra);
    pct_card(d, r, "h-p50", "p50 latency", 50);
    pct_card(d, r, "h-p99", "p99 latency", 99);
    doc_cards_add(d, "h-errors", "errors", r->errors ? DOC_STATUS_BAD : DOC_STATUS_NONE, errs);
    doc_cards_add(d, "h-cpu-ms", "server CPU-ms/call", DOC_STATUS_NONE, cpu);
}

struct run_doc *run_doc_new(const struct run_result *r, char *err)
{
    struct run_doc *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, ERR_LEN, "out of memory");
        return NULL;
    }
    d->r = r;
    report_config_doc(r, &d->config);
    report_requests_doc(r, &d->requests);
    report_transport_doc(r, &d->transport);
    report_machine_doc(r, &d->machine);
    headline(&d->cards, r);
    int verbs = 1;
    if (report_bucket_doc(r, &d->buckets, &d->buckets_style, err) ||
        report_pct_doc(r, &d->pcts, &d->pcts_style, err) ||
        report_stage_doc(r, &d->stages, &d->stages_style, err) ||
        (verbs = report_verb_doc(r, &d->verbs, &d->verbs_style, err)) < 0 ||
        (verbs == 0 && verb_grid(d, err)) || report_ranks_doc(r, &d->ranks, &d->ranks_style, err) ||
        report_targets_doc(r, &d->targets, &d->targets_style, err) ||
        report_profile_doc(r, &d->profile, &d->profile_style, err) ||
        report_profile_modules_doc(r, &d->profile_modules, &d->profile_modules_style, err) ||
        errors_doc(r, &d->errors, &d->errors_style, err)) {
        run_doc_free(d);
        return NULL;
    }
    d->mix = verbs == 0;
    return d;
}

void run_doc_free(struct run_doc *d)
{
    if (!d)
        return;
    doc_table_free(&d->buckets);
    doc_table_free(&d->pcts);
    doc_table_free(&d->verbs);
    doc_table_free(&d->ranks);
    doc_table_free(&d->targets);
    doc_table_free(&d->stages);
    doc_table_free(&d->profile);
    doc_table_free(&d->profile_modules);
    doc_table_free(&d->verb_grid);
    doc_table_free(&d->errors);
    doc_kv_free(&d->config);
    doc_kv_free(&d->requests);
    doc_kv_free(&d->transport);
    doc_kv_free(&d->machine);
    doc_cards_free(&d->cards);
    free(d);
}

/* The text report: the version, the configuration, the bucket and
 * percentile tables, the requests, transport and machine sections, then
 * a mix's tables, the ranks and the warnings. */
static void run_doc_text(FILE *out, const struct run_doc *d)
{
    const struct run_result *r = d->r;
    fprintf(out, "rpcbench %s\n", rpcbench_version());
    doc_kv_text(out, &d->config);
    doc_table_text(out, &d->buckets, &d->buckets_style.text);
    doc_table_text(out, &d->pcts, &d->pcts_style.text);
    if (d->stages.nrows)
        doc_table_text(out, &d->stages, &d->stages_style.text);
    doc_kv_text(out, &d->requests);
    doc_kv_text(out, &d->transport);
    doc_kv_text(out, &d->machine);
    if (d->mix) {
        doc_table_text(out, &d->verbs, &d->verbs_style.text);
        doc_table_text(out, &d->verb_grid, &d->verb_grid_style.text);
    }
    if (d->ranks.nrows)
        doc_table_text(out, &d->ranks, &d->ranks_style.text);
    if (d->targets.nrows)
        doc_table_text(out, &d->targets, &d->targets_style.text);
    if (r->profile.taken)
        doc_table_text(out, &d->profile, &d->profile_style.text);
    if (d->profile_modules.nrows)
        doc_table_text(out, &d->profile_modules, &d->profile_modules_style.text);
    if (r->nwarnings) {
        fprintf(out, "\nwarnings\n");
        for (size_t i = 0; i < r->nwarnings; i++)
            fprintf(out, "  ! %s\n", r->warnings[i]);
    }
}

int report_text(FILE *out, const struct run_result *r, char *err)
{
    struct run_doc *d = run_doc_new(r, err);
    if (!d)
        return -1;
    run_doc_text(out, d);
    run_doc_free(d);
    return 0;
}
