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

static void headline(FILE *out, const struct comparison *c)
{
    struct doc_cards cards;
    compare_cards_doc(c, &cards);
    doc_cards_html(out, &cards);
    doc_cards_free(&cards);
    struct doc_kv head;
    compare_header_doc(c, &head);
    doc_kv_html(out, &head);
    doc_kv_free(&head);
}

struct page_warnings {
    FILE *out;
    int open;
};

/* One item of the warnings' box, opened at the first. */
static void warning_item(void *ctx, const char *prefix, const char *text)
{
    struct page_warnings *w = ctx;
    if (!w->open++)
        html_warn_open(w->out);
    html_warn_item(w->out, prefix, text);
}

/* The rounds' warnings, one item per kind (compare_warnings_each). */
static void warnings(FILE *out, const struct comparison *c)
{
    struct page_warnings w = {out, 0};
    compare_warnings_each(c, warning_item, &w);
    if (w.open)
        html_warn_close(out);
}

/* In a missing table's place: a warning saying why (err, or "" unknown). */
static void missing_table(FILE *out, const char *err)
{
    html_warn_open(out);
    html_warn_item(out, "a table is missing: ", err[0] ? err : "it could not be built");
    html_warn_close(out);
}

/* The table build makes of c, on the page; one it cannot make (no
 * memory, a bucket spec the text report refused already) leaves a
 * warning in its place, never a silent gap. A builder's 1 is "nothing to
 * show" (the per-verb counts without a mix): no table, no warning. */
static void table(FILE *out, const struct comparison *c, compare_doc_builder build)
{
    struct doc_table t;
    struct doc_table_style st;
    char err[ERR_LEN] = "";
    doc_table_init(&t, 1); /* a builder may fail before its own init */
    int rc = build(c, &t, &st, err);
    if (rc == 0)
        doc_table_html(out, &t, &st.html);
    else if (rc < 0)
        missing_table(out, err);
    doc_table_free(&t);
}

/* The gates' table (compare_gates_doc, as the text's), and the
 * thresholds' lines as the text lays them out. */
static void verdicts(FILE *out, const struct comparison *c)
{
    if (!compare_has_gates(c) && c->plan.thresholds.n == 0)
        return;
    html_section(out, "Gates and thresholds");
    if (compare_has_gates(c))
        table(out, c, compare_gates_doc);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = c->plan.thresholds.n ? open_memstream(&buf, &len) : NULL;
    if (m) {
        compare_thresholds_text(m, c);
        fclose(m);
        fputs("<pre id=\"verdicts\">", out);
        html_esc(out, buf);
        fputs("</pre>\n", out);
        free(buf);
    }
    html_section_end(out);
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

/* compare --profile's B - A: its two tables (functions, modules) with the
 * sentence and each arm's profiler under the first, as the text has them;
 * or why there is no diff. */
static void profile_diff_tables(FILE *out, const struct profile_diff pd[2])
{
    if (!pd || !pd[0].taken)
        return;
    html_section(out, "Server profile, B - A");
    if (pd[0].refused[0]) {
        fputs("<p id=\"profile-diff-refused\">", out);
        html_esc(out, pd[0].refused);
        fputs("</p>\n", out);
    }
    for (int i = 0; i < 2 && !pd[0].refused[0]; i++) {
        struct doc_table t;
        struct doc_table_style st;
        char err[ERR_LEN] = "";
        if (report_profile_diff_doc(&pd[i], &t, &st, err) == 0)
            doc_table_html(out, &t, &st.html);
        else
            missing_table(out, err);
        doc_table_free(&t);
    }
    html_section_end(out);
}

/* The arms' flame graphs and their differential, from the complete rounds. */
static void flames(FILE *out, const struct comparison *c)
{
    const struct run_result *const rounds[2] = {c->arm[0].rounds, c->arm[1].rounds};
    const char *const names[2] = {compare_arm_name(&c->arm[0]), compare_arm_name(&c->arm[1])};
    html_flame_compare(out, rounds, c->pairs, names);
}

/* ---- tables ---------------------------------------------------------------- */

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
    table(out, c, compare_pct_doc);
    table(out, c, compare_bucket_doc);
    fputs("</div>\n", out);
    compare_verbs_html(out, c);
    html_section_end(out);
    html_section(out, "Rounds");
    table(out, c, compare_rounds_doc);
    html_section_end(out);
    html_section(out, "Requests and errors");
    fputs("<div class=\"tables\">\n", out);
    table(out, c, compare_counts_doc);
    table(out, c, compare_verb_counts_doc);
    fputs("</div>\n", out);
    html_section_end(out);
    arms_config(out, c);
}

int compare_write_html(const char *path, const struct comparison *c,
                       const struct profile_diff pd[2], char *err)
{
    struct doc_table summary;
    struct doc_table_style summary_style;
    if (compare_summary_doc(c, &summary, &summary_style, err))
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
    doc_table_html(out, &summary, &summary_style.html);
    doc_table_free(&summary);
    warnings(out, c);
    verdicts(out, c);
    charts(out, c);
    profile_diff_tables(out, pd);
    flames(out, c);
    tables(out, c);
    html_end(out);
    return file_close_checked(out, path, err);
}
