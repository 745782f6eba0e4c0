/* html_run: the page of one run (run --html, report --html; html.h). Its
 * figures are formatted by the text report's own functions (report.h), so
 * the page and the text say the same numbers to the same digits. */
#include "base/file.h"
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/version.h"
#include "report/report.h"
#include "report/doc_verdicts.h"
#include "report/run_charts.h"
#include "report/run_doc.h"
#include "model/server_cpu.h"
#include "stats/buckets.h"

/* The --threshold verdict's card, after the run's own (run_doc.h). */
static void verdict_card(struct doc_cards *d, const struct doc_verdicts *v)
{
    size_t failed, n = v ? doc_verdicts_count(v, DOC_V_THRESHOLD, &failed) : 0;
    if (n)
        doc_cards_verdict(d, "h-verdict", "thresholds", failed, n);
}

/* The thresholds' list: what the text's threshold lines say. */
static void verdict_table(FILE *out, const struct doc_verdicts *v)
{
    if (!v || !doc_verdicts_count(v, DOC_V_THRESHOLD, NULL))
        return;
    static const char *const heads[] = {"threshold", "verdict"};
    html_table(out, "--threshold conditions", heads, 2);
    for (size_t i = 0; i < v->n; i++) {
        char line[sizeof v->v[i].expr + sizeof v->v[i].detail + 2];
        if (v->v[i].kind != DOC_V_THRESHOLD)
            continue;
        snprintf(line, sizeof line, "%s: %s", v->v[i].expr, v->v[i].detail);
        const char *cells[2] = {line, doc_verdict_word(&v->v[i])};
        html_row(out, cells, 2);
    }
    html_table_end(out);
}

/* ---- charts ---------------------------------------------------------------- */

/* Each chart of the page (run_charts.h), as the document says. */
static void charts(FILE *out, const struct run_result *r)
{
    struct doc_chart c[RUN_CHARTS_MAX];
    int n = run_charts_of_run(c, r);
    for (int k = 0; k < n; k++)
        html_chart(out, &c[k]);
    run_charts_free(c, n);
}

/* ---- tables ---------------------------------------------------------------- */

static void count_row(FILE *out, const char *name, int64_t n, const char *note)
{
    char v[32] = "n/a";
    if (result_count_known(n))
        snprintf(v, sizeof v, "%lld", (long long)n);
    const char *cells[3] = {name, v, note ? note : ""};
    html_row(out, cells, 3);
}

static void errors_table(FILE *out, const struct run_result *r)
{
    static const char *const heads[] = {"requests", "count", "first of its kind"};
    html_table(out, "requests and errors by kind", heads, 3);
    char unsent[160];
    count_row(out, "offered", r->offered, "due in the window");
    count_row(out, "sent", r->sent, "written to the wire");
    count_row(out, "unsent", r->unsent,
              r->unsent ? report_unsent_text(r, unsent, sizeof unsent) : "never written");
    count_row(out, "ok", r->ok, NULL);
    count_row(out, "errors", r->errors, NULL);
    count_row(out, "unfinished", r->unfinished, "sent, no answer when the run was over");
    count_row(out, "queued", r->queued, "found every connection busy when due");
    /* unknown (-1, a requests log's): n/a rows */
    if (r->warmup.sent || r->warmup.unsent || r->cfg.warmup_ns > 0) {
        count_row(out, "warmup: sent", r->warmup.sent, "before the window: in no figure here");
        count_row(out, "warmup: unsent", r->warmup.unsent, NULL);
        count_row(out, "warmup: ok", r->warmup.ok, NULL);
        count_row(out, "warmup: errors", r->warmup.errors, NULL);
    }
    for (int k = 0; k < ERR_KINDS; k++) {
        char name[48];
        snprintf(name, sizeof name, "error: %s", err_kind_names[k]);
        count_row(out, name, r->err[k], r->error_samples[k]);
    }
    html_table_end(out);
}

void html_bucket_grid(FILE *out, const char *caption, const char *corner,
                      const char *const *names, const struct report_bucket_grid *g)
{
    const char *heads[REPORT_GRID_COLS + 1] = {corner};
    char cap[256];
    for (int k = 0; k < g->ncols; k++)
        heads[k + 1] = names[k];
    snprintf(cap, sizeof cap, g->note[0] ? "%s (%s)" : "%s", caption, g->note);
    html_table(out, cap, heads, g->ncols + 1);
    for (int i = 0; i < g->nrows; i++) {
        const char *cells[REPORT_GRID_COLS + 1] = {g->label[i]};
        for (int k = 0; k < g->ncols; k++)
            cells[k + 1] = g->cell[i][k];
        html_row(out, cells, g->ncols + 1);
    }
    html_table_end(out);
}

void html_run_config(FILE *out, const struct run_result *r)
{
    struct doc_kv d;
    report_config_doc(r, &d);
    doc_kv_html(out, &d);
    doc_kv_free(&d);
}

void html_run_machine(FILE *out, const struct run_result *r)
{
    struct doc_kv d;
    report_machine_doc(r, &d);
    doc_kv_html(out, &d);
    doc_kv_free(&d);
}

/* The tables, in the page's sections: the run's document (run_doc.h),
 * and the page's own table of the errors' first words. */
static void run_tables(FILE *out, const struct run_doc *d)
{
    if (d->stages.nrows) {
        html_section(out, "Stages");
        doc_table_html(out, &d->stages, &d->stages_style.html);
        html_section_end(out);
    }
    html_section(out, "Latency");
    fputs("<div class=\"tables\">\n", out);
    doc_table_html(out, &d->pcts, &d->pcts_style.html);
    doc_table_html(out, &d->buckets, &d->buckets_style.html);
    fputs("</div>\n", out);
    html_section_end(out);
    html_section(out, "Requests, errors and transport");
    fputs("<div class=\"tables\">\n", out);
    errors_table(out, d->r);
    if (d->mix) {
        doc_table_html(out, &d->verbs, &d->verbs_style.html);
        html_bucket_grid(out, "cumulative % of each verb's answers under each edge",
                         "response time", d->verb_names, &d->verb_grid);
    }
    doc_kv_html(out, &d->requests);
    doc_kv_html(out, &d->transport);
    if (d->ranks.nrows)
        doc_table_html(out, &d->ranks, &d->ranks_style.html);
    if (d->targets.nrows)
        doc_table_html(out, &d->targets, &d->targets_style.html);
    if (d->r->profile.taken)
        doc_table_html(out, &d->profile, &d->profile_style.html);
    if (d->profile_modules.nrows)
        doc_table_html(out, &d->profile_modules, &d->profile_modules_style.html);
    fputs("</div>\n", out);
    html_section_end(out);
    html_flame_run(out, d->r);
    html_section(out, "Configuration and machine");
    fputs("<div class=\"tables\">\n", out);
    doc_kv_html(out, &d->config);
    doc_kv_html(out, &d->machine);
    fputs("</div>\n", out);
    html_section_end(out);
}

int html_write_run(const char *path, const struct run_result *r, const struct doc_verdicts *v,
                   char *err)
{
    struct run_doc *d = run_doc_new(r, err);
    if (!d)
        return -1;
    FILE *out = file_create(path, err);
    if (!out) {
        run_doc_free(d);
        return -1;
    }
    char title[700];
    snprintf(title, sizeof title, "rpcbench run: %.60s, %.512s",
             r->cfg.label[0] ? r->cfg.label : r->cfg.encoding, r->target_url);
    html_begin(out, title);
    verdict_card(&d->cards, v);
    doc_cards_html(out, &d->cards);
    html_warnings(out, r, NULL);
    verdict_table(out, v);
    html_section(out, "Charts");
    charts(out, r);
    html_section_end(out);
    run_tables(out, d);
    html_end(out);
    run_doc_free(d);
    return file_close_checked(out, path, err);
}
