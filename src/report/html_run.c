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

/* The thresholds' list as a table: what the text's threshold lines say,
 * into t and st (the caller's: doc_table_free t after a 0).
 * @return 0, or -1 with err (no memory). */
static int verdicts_doc(const struct doc_verdicts *v, struct doc_table *t,
                        struct doc_table_style *st, char *err)
{
    doc_table_init(t, 2);
    doc_table_style_init(st);
    t->cell_len = (int)(sizeof v->v->expr + sizeof v->v->detail + 2); /* a line, whole */
    snprintf(t->heads[0], DOC_CELL_LEN, "threshold");
    snprintf(t->heads[1], DOC_CELL_LEN, "verdict");
    snprintf(st->html.caption, sizeof st->html.caption, "--threshold conditions");
    for (size_t i = 0; i < v->n; i++) {
        char line[sizeof v->v[i].expr + sizeof v->v[i].detail + 2];
        if (v->v[i].kind != DOC_V_THRESHOLD)
            continue;
        snprintf(line, sizeof line, "%s: %s", v->v[i].expr, v->v[i].detail);
        const char *cells[2] = {line, doc_verdict_word(&v->v[i])};
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

/* The thresholds' table, when there are any; one it cannot build leaves
 * a warning in its place. */
static void verdict_table(FILE *out, const struct doc_verdicts *v)
{
    if (!v || !doc_verdicts_count(v, DOC_V_THRESHOLD, NULL))
        return;
    struct doc_table t;
    struct doc_table_style st;
    char err[ERR_LEN];
    if (verdicts_doc(v, &t, &st, err)) {
        html_warn_open(out);
        html_warn_item(out, "the thresholds' table is missing: ", err);
        html_warn_close(out);
        return;
    }
    doc_table_html(out, &t, &st.html);
    doc_table_free(&t);
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
    doc_table_html(out, &d->errors, &d->errors_style.html);
    if (d->mix) {
        doc_table_html(out, &d->verbs, &d->verbs_style.html);
        doc_table_html(out, &d->verb_grid, &d->verb_grid_style.html);
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
