/* html_sweep: the page of a sweep (html.h). Its tables are the documents
 * the text writes too (sweep_table_doc, sweep_probes_doc), so the page
 * says the same figures to the same digits; the charts draw each cell's
 * medians. */
#include "base/file.h"
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "model/sweep.h"
#include "report/sweep_out.h"

/* The page's charts (sweep_charts: the plot draws the same). */
static void charts(FILE *out, const struct sweep *s)
{
    struct doc_chart c[SWEEP_CHARTS_PAGE];
    int dropped = 0, n = sweep_charts(c, SWEEP_CHARTS_PAGE, s, &dropped);
    if (!n)
        return;
    html_section(out, "Charts");
    if (dropped)
        fprintf(out, "<p class=\"sub\">The charts draw the first %d lines; %d more cells are in "
                     "the tables only.</p>\n", SWEEP_CHARTS_LINES, dropped);
    for (int k = 0; k < n; k++) {
        html_chart(out, &c[k]);
        doc_chart_free(&c[k]);
    }
    html_section_end(out);
}

static void warnings(FILE *out, const struct sweep *s)
{
    int any = s->interrupted;
    for (size_t i = 0; i < s->ncells; i++)
        for (size_t r = 0; r < s->cells[i].nreps; r++)
            any |= s->cells[i].reps[r].nwarnings > 0;
    if (!any)
        return;
    html_warn_open(out);
    if (s->interrupted)
        html_warn_item(out, NULL, "SIGINT ended the sweep; the cells show what was measured");
    for (size_t i = 0; i < s->ncells; i++) {
        char pre[300], p[240];
        sweep_params_text(&s->cells[i].p, sweep_varying(s), p, sizeof p);
        for (size_t r = 0; r < s->cells[i].nreps; r++) {
            snprintf(pre, sizeof pre, "cell %zu%s%s%s, repeat %zu: ", i + 1, p[0] ? " (" : "", p,
                     p[0] ? ")" : "", r + 1);
            for (size_t w = 0; w < s->cells[i].reps[r].nwarnings; w++)
                html_warn_item(out, pre, s->cells[i].reps[r].warnings[w]);
        }
    }
    html_warn_close(out);
}

/* ---- tables ---------------------------------------------------------------- */

/* The cells table and each capacity search's probes: the documents the
 * text writes too. @return 0, or -1 with err. */
static int cells_tables(FILE *out, const struct sweep *s, long baseline, char *err)
{
    struct doc_table t;
    struct doc_table_style st;
    if (sweep_table_doc(&t, &st, s, baseline, err))
        return -1;
    doc_table_html(out, &t, &st.html);
    doc_table_free(&t);
    for (size_t i = 0; i < s->ncaps; i++) {
        if (sweep_probes_doc(&t, &st, s, i, err))
            return -1;
        doc_table_html(out, &t, &st.html);
        doc_table_free(&t);
    }
    return 0;
}

/* The text's own bucket table, as it prints it (one column per cell). */
static void buckets(FILE *out, const struct sweep *s)
{
    char *buf = NULL, err[ERR_LEN];
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    const char *spec = s->cells[0].nreps ? s->cells[0].reps[0].cfg.buckets : "";
    int rc = sweep_buckets_text(m, s, spec, err);
    fclose(m);
    if (rc == 0) {
        fputs("<pre class=\"cols\" id=\"sweep-buckets\">", out);
        html_esc(out, buf);
        fputs("</pre>\n", out);
    }
    free(buf);
}

/* Run r of cell i as a row of the runs table. @return 0, or -1 with err. */
static int rep_row(struct doc_table *t, size_t i, size_t r, const struct run_result *x,
                   char *err)
{
    char c[24], rep[24], n[4][32], steal[16] = "n/a", load[16] = "n/a", busy[16],
        kinds[200] = "";
    snprintf(c, sizeof c, "%zu", i + 1);
    snprintf(rep, sizeof rep, "%zu", r + 1);
    snprintf(n[0], sizeof n[0], "%lld", (long long)x->sent);
    snprintf(n[1], sizeof n[1], "%lld", (long long)x->ok);
    snprintf(n[2], sizeof n[2], "%lld", (long long)x->errors);
    for (int k = 0; k < ERR_KINDS; k++)
        if (x->err[k])
            snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s %lld",
                     kinds[0] ? ", " : "", err_kind_names[k], (long long)x->err[k]);
    if (fig_known(x->machine_steal_pct))
        snprintf(steal, sizeof steal, "%.1f%%", x->machine_steal_pct);
    if (fig_known(x->loadavg1))
        snprintf(load, sizeof load, "%.2f", x->loadavg1);
    report_fmt_pct(x->machine_busy_pct, busy, sizeof busy);
    const char *cells[9] = {c, rep, n[0], n[1], n[2], kinds, busy, steal, load};
    return doc_table_add(t, cells, err);
}

/* Every run of s: its requests, errors by kind and machine, into t and
 * st (the caller's: doc_table_free t after a 0). @return 0, or -1 with
 * err (no memory). */
static int runs_doc(const struct sweep *s, struct doc_table *t, struct doc_table_style *st,
                    char *err)
{
    static const char *const heads[] = {"cell", "repeat", "sent", "ok", "errors",
                                        "errors by kind", "machine busy", "steal", "load"};
    doc_table_init(t, 9);
    doc_table_style_init(st);
    t->cell_len = 200; /* the kinds, whole */
    for (int c = 0; c < 9; c++)
        snprintf(t->heads[c], DOC_CELL_LEN, "%s", heads[c]);
    snprintf(st->html.caption, sizeof st->html.caption,
             "every run: requests, errors by kind, and the machine");
    for (size_t i = 0; i < s->ncells; i++)
        for (size_t r = 0; r < s->cells[i].nreps; r++)
            if (rep_row(t, i, r, &s->cells[i].reps[r], err))
                return -1;
    return 0;
}

static int tables(FILE *out, const struct sweep *s, long baseline, char *err)
{
    html_section(out, "Cells");
    if (cells_tables(out, s, baseline, err))
        return -1;
    html_section_end(out);
    html_section(out, "Response time buckets (cumulative %, per cell)");
    buckets(out, s);
    html_section_end(out);
    html_section(out, "Runs, errors and machine");
    struct doc_table t;
    struct doc_table_style st;
    if (runs_doc(s, &t, &st, err))
        return -1;
    doc_table_html(out, &t, &st.html);
    doc_table_free(&t);
    html_section_end(out);
    for (size_t i = 0; i < s->ncells; i++)
        if (s->cells[i].nreps) { /* what every cell shares, from the first run */
            html_section(out, "Configuration (of the first cell)");
            html_run_config(out, &s->cells[i].reps[0]);
            html_section_end(out);
            break;
        }
    return 0;
}

int html_write_sweep(const char *path, const struct sweep *s, long baseline, char *err)
{
    if (s->ncells == 0) {
        snprintf(err, ERR_LEN, "--html: the sweep has no cell");
        return -1;
    }
    FILE *out = file_create(path, err);
    if (!out)
        return -1;
    char title[120];
    snprintf(title, sizeof title, "rpcbench sweep: %zu cell%s x %zu repeat%s", s->ncells,
             s->ncells == 1 ? "" : "s", s->repeats, s->repeats == 1 ? "" : "s");
    html_begin(out, title);
    struct doc_cards cards;
    sweep_cards_doc(s, &cards);
    doc_cards_html(out, &cards);
    doc_cards_free(&cards);
    warnings(out, s);
    charts(out, s);
    int rc = tables(out, s, baseline, err);
    html_end(out);
    if (rc) {
        fclose(out);
        return -1;
    }
    return file_close_checked(out, path, err);
}
