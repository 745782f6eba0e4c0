/* compare_html: compare --html FILE, the comparison as one page
 * (report/html.h). Its figures, ratios, intervals and verdicts come from
 * the text report's own functions (compare_report.h), so the page and the text
 * say the same. */
#include "report/compare_report.h"

#include <math.h>
#include <stdlib.h>

#include "base/file.h"
#include "report/html.h"
#include "report/run_charts.h"

static void gate_card(FILE *out, const struct comparison *c)
{
    if (c->plan.ngates == 0)
        return;
    int reg = 0, inc = 0;
    for (int g = 0; g < c->plan.ngates; g++) {
        reg |= c->gate[g].verdict == GATE_REGRESSION;
        inc |= c->gate[g].verdict == GATE_INCONCLUSIVE;
    }
    html_card(out, "h-gates", "gates", reg ? "FAIL (regression)" : inc ? "inconclusive" : "pass",
              reg || inc ? "bad" : "good");
}

static void threshold_card(FILE *out, const struct comparison *c)
{
    if (c->plan.thresholds.n == 0)
        return;
    size_t failed = compare_thresholds_failed(c);
    char v[64];
    snprintf(v, sizeof v, failed ? "FAIL (%zu of %zu)" : "pass (%zu)", failed ? failed
             : c->plan.thresholds.n * 2, c->plan.thresholds.n * 2);
    html_card(out, "h-verdict", "thresholds (both arms)", v, failed ? "bad" : "good");
}

static void headline(FILE *out, const struct comparison *c)
{
    char rounds[32];
    snprintf(rounds, sizeof rounds, "%zu%s", c->pairs, c->interrupted ? " (interrupted)" : "");
    fputs("<div class=\"cards\" id=\"headline\">\n", out);
    for (int a = 0; a < 2; a++) {
        char name[8], id[8], v[700];
        snprintf(name, sizeof name, "%c", c->arm[a].letter);
        snprintf(id, sizeof id, "h-%c", c->arm[a].letter + 'a' - 'A');
        snprintf(v, sizeof v, "%.60s: %.512s (%s)", compare_arm_name(&c->arm[a]),
                 c->arm[a].merged.target_url, c->arm[a].merged.cfg.encoding);
        html_card(out, id, name, v, NULL);
    }
    html_card(out, "h-rounds", c->saved ? "rounds per arm (saved)" : "rounds per arm", rounds,
              NULL);
    gate_card(out, c);
    threshold_card(out, c);
    fputs("</div>\n", out);
    struct config_diff d[CONFIG_DIFF_MAX];
    size_t nd = compare_config_diff(c, d);
    char diff[1024];
    config_diff_text(d, nd, diff, sizeof diff);
    if (nd == 0) {
        fputs("<p class=\"sub\">A and B are the same configuration (A/A): their differences are "
              "the noise of the setup.</p>\n", out);
    } else {
        fputs("<p class=\"sub\" id=\"differ\">A and B differ in: ", out);
        html_esc(out, diff);
        fputs("</p>\n", out);
    }
}

static void warnings(FILE *out, const struct comparison *c)
{
    int open = 0;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < c->pairs; i++)
            for (size_t w = 0; w < c->arm[a].rounds[i].nwarnings; w++) {
                char pre[32];
                if (!open++)
                    html_warn_open(out);
                compare_warning_prefix(c, a, i, pre, sizeof pre);
                html_warn_item(out, pre, c->arm[a].rounds[i].warnings[w]);
            }
    if (open)
        html_warn_close(out);
}

/* Gates and thresholds as the text report lays them out. */
static void verdict_text(FILE *out, const struct comparison *c)
{
    if (c->plan.ngates == 0 && c->plan.thresholds.n == 0)
        return;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    compare_gates_text(m, c);
    compare_thresholds_text(m, c);
    fclose(m);
    html_section(out, "Gates and thresholds");
    fputs("<pre id=\"verdicts\">", out);
    html_esc(out, buf);
    fputs("</pre>\n", out);
    html_section_end(out);
    free(buf);
}

/* ---- charts ---------------------------------------------------------------- */

static void charts(FILE *out, const struct comparison *c)
{
    const struct run_result *rs[2] = {&c->arm[0].merged, &c->arm[1].merged};
    char na[80], nb[80];
    snprintf(na, sizeof na, "A %.60s", compare_arm_name(&c->arm[0]));
    snprintf(nb, sizeof nb, "B %.60s", compare_arm_name(&c->arm[1]));
    const char *names[2] = {na, nb};
    html_section(out, "Charts");
    struct doc_chart ch[RUN_CHARTS_MAX];
    int n = run_charts_of_compare(ch, rs, names);
    for (int k = 0; k < n; k++)
        html_chart(out, &ch[k]);
    run_charts_free(ch, n);
    html_section_end(out);
}

/* ---- tables ---------------------------------------------------------------- */

static void pct_table(FILE *out, const struct comparison *c)
{
    const struct run_result *A = &c->arm[0].merged, *B = &c->arm[1].merged;
    const struct hist *hs[4] = {&A->latency, &B->latency, &A->service, &B->service};
    double mn = 0, mx = 0;
    for (int i = 0; i < 4; i++)
        report_unit_span(hs[i], &mn, &mx);
    struct report_unit u = report_unit_pick(mx, mn);
    static const char *const heads[] = {"percentile", "A latency", "B latency", "A service",
                                        "B service"};
    html_table(out, "merged rounds; latency from the intended send time, service from the "
               "actual write", heads, 5);
    for (size_t i = 0; i <= A->cfg.npcts; i++) {
        int mean = i == A->cfg.npcts;
        double p = mean ? 0 : A->cfg.pcts[i];
        char v[5][32] = {"mean"};
        if (!mean)
            snprintf(v[0], sizeof v[0], "p%g", p);
        for (int k = 0; k < 4; k++)
            report_unit_fmt(&u, hs[k]->total_count > 0,
                            mean ? hist_mean(hs[k]) : (double)hist_percentile(hs[k], p), v[k + 1],
                            sizeof v[k + 1]);
        const char *cells[5] = {v[0], v[1], v[2], v[3], v[4]};
        html_row(out, cells, 5);
    }
    html_table_end(out);
}

static void bucket_table(FILE *out, const struct comparison *c)
{
    struct doc_table t;
    char err[ERR_LEN];
    if (compare_bucket_doc(c, &t, err))
        return; /* the text report said why already */
    doc_table_html(out, &t);
    doc_table_free(&t);
}

/* One row of the rounds table: B's rows say their p99 as % of A's in the
 * same round (the pairing the interval is made of). */
static void rounds_table(FILE *out, const struct comparison *c)
{
    struct doc_table t;
    char err[ERR_LEN];
    if (compare_rounds_doc(c, &t, err) == 0) /* else no memory: the table is left out */
        doc_table_html(out, &t);
    doc_table_free(&t);
}

static void count_row(FILE *out, const char *name, int64_t a, int64_t b)
{
    char va[32], vb[32];
    snprintf(va, sizeof va, "%lld", (long long)a);
    snprintf(vb, sizeof vb, "%lld", (long long)b);
    const char *cells[3] = {name, va, vb};
    html_row(out, cells, 3);
}

static void errors_table(FILE *out, const struct comparison *c)
{
    const struct run_result *A = &c->arm[0].merged, *B = &c->arm[1].merged;
    const char *heads[3] = {"requests", compare_arm_name(&c->arm[0]),
                            compare_arm_name(&c->arm[1])};
    html_table(out, "requests and errors by kind (merged rounds)", heads, 3);
    count_row(out, "sent", A->sent, B->sent);
    count_row(out, "ok", A->ok, B->ok);
    count_row(out, "errors", A->errors, B->errors);
    count_row(out, "unfinished", A->unfinished, B->unfinished);
    if (A->warmup.sent || B->warmup.sent) /* the server got them: in no figure */
        count_row(out, "warmup sent", A->warmup.sent, B->warmup.sent);
    for (int k = 0; k < ERR_KINDS; k++) {
        char name[48];
        snprintf(name, sizeof name, "error: %s", err_kind_names[k]);
        count_row(out, name, A->err[k], B->err[k]);
    }
    html_table_end(out);
}

static void verb_rows(FILE *out, const struct comparison *c, int a, const struct report_unit *u)
{
    const struct run_result *r = &c->arm[a].merged;
    for (size_t i = 0; i < r->nverbs; i++) {
        const struct verb_result *v = &r->verbs[i];
        char arm[4], n[3][32], p50[32], p99[32];
        int have = v->latency.total_count > 0;
        snprintf(arm, sizeof arm, "%c", c->arm[a].letter);
        snprintf(n[0], sizeof n[0], "%lld", (long long)v->requests);
        snprintf(n[1], sizeof n[1], "%lld", (long long)v->ok);
        snprintf(n[2], sizeof n[2], "%lld", (long long)v->errors);
        report_unit_fmt(u, have, (double)hist_percentile(&v->latency, 50), p50, sizeof p50);
        report_unit_fmt(u, have, (double)hist_percentile(&v->latency, 99), p99, sizeof p99);
        const char *cells[7] = {v->name, arm, n[0], n[1], n[2], p50, p99};
        html_row(out, cells, 7);
    }
}

static void verbs_table(FILE *out, const struct comparison *c)
{
    if (c->arm[0].merged.nverbs < 2 && c->arm[1].merged.nverbs < 2)
        return;
    double lo = 0, hi = 0;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < c->arm[a].merged.nverbs; i++)
            report_unit_span(&c->arm[a].merged.verbs[i].latency, &lo, &hi);
    struct report_unit u = report_unit_pick(hi, lo);
    static const char *const heads[] = {"verb", "arm", "requests", "ok", "errors", "p50", "p99"};
    html_table(out, "per verb", heads, 7);
    verb_rows(out, c, 0, &u);
    verb_rows(out, c, 1, &u);
    html_table_end(out);
}

static void arms_config(FILE *out, const struct comparison *c)
{
    html_section(out, "Configuration and machine");
    for (int a = 0; a < 2; a++) {
        fprintf(out, "<h3>%c: ", c->arm[a].letter);
        html_esc(out, compare_arm_name(&c->arm[a]));
        fputs("</h3>\n<div class=\"tables\">\n", out);
        html_run_config(out, &c->arm[a].merged);
        html_run_machine(out, &c->arm[a].merged);
        fputs("</div>\n", out);
    }
    html_section_end(out);
}

static void tables(FILE *out, const struct comparison *c)
{
    html_section(out, "Latency");
    fputs("<div class=\"tables\">\n", out);
    pct_table(out, c);
    bucket_table(out, c);
    fputs("</div>\n", out);
    compare_verbs_html(out, c);
    html_section_end(out);
    html_section(out, "Rounds");
    rounds_table(out, c);
    html_section_end(out);
    html_section(out, "Requests and errors");
    fputs("<div class=\"tables\">\n", out);
    errors_table(out, c);
    verbs_table(out, c);
    fputs("</div>\n", out);
    html_section_end(out);
    arms_config(out, c);
}

int compare_write_html(const char *path, const struct comparison *c, char *err)
{
    struct doc_table summary;
    if (compare_summary_doc(c, &summary, err))
        return -1;
    FILE *out = file_create(path, err);
    if (!out) {
        doc_table_free(&summary);
        return -1;
    }
    char title[200];
    snprintf(title, sizeof title, "rpcbench compare: A %.60s vs B %.60s",
             compare_arm_name(&c->arm[0]), compare_arm_name(&c->arm[1]));
    html_begin(out, title);
    headline(out, c);
    doc_table_html(out, &summary);
    doc_table_free(&summary);
    warnings(out, c);
    verdict_text(out, c);
    charts(out, c);
    tables(out, c);
    html_end(out);
    return file_close_checked(out, path, err);
}
