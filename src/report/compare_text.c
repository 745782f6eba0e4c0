/* compare_text: a comparison's text report (compare_report.h): who was
 * compared and how (compare_header_doc), the figures with their
 * intervals, the gates (compare_gates_doc), the buckets, the per-verb
 * tables (compare_verbs.c), the rounds, the thresholds and the rounds'
 * warnings. */
#include "report/compare_report.h"

#include "base/version.h"

/* The table build makes of c, as text. @return 0, or -1 with build's err. */
static int table(FILE *out, const struct comparison *c, compare_doc_builder build, char *err)
{
    struct doc_table t;
    struct doc_table_style st;
    if (build(c, &t, &st, err))
        return -1;
    doc_table_text(out, &t, &st.text);
    doc_table_free(&t);
    return 0;
}

void compare_thresholds_text(FILE *out, const struct comparison *c)
{
    if (!c->plan.thresholds.n)
        return;
    struct doc_verdicts d;
    compare_verdicts_doc(&d, c);
    for (int a = 0; a < 2; a++) {
        char group[96];
        snprintf(group, sizeof group, "arm %c (%s)", c->arm[a].letter,
                 compare_arm_name(&c->arm[a]));
        fprintf(out, "\nthresholds, %s\n", group);
        doc_verdicts_text(out, &d, group);
    }
    doc_verdicts_free(&d);
}

struct text_warnings {
    FILE *out;
    int lines;
};

/* One line of the warnings, under their heading. */
static void warning_line(void *ctx, const char *prefix, const char *text)
{
    struct text_warnings *w = ctx;
    fprintf(w->out, "%s  ! %s%s\n", w->lines++ ? "" : "\nwarnings\n", prefix, text);
}

int compare_write_text(FILE *out, const struct comparison *c, char *err)
{
    struct doc_kv head;
    compare_header_doc(c, &head);
    fprintf(out, "rpcbench %s compare\n", rpcbench_version());
    doc_kv_text(out, &head);
    doc_kv_free(&head);
    if (table(out, c, compare_summary_doc, err))
        return -1;
    if (compare_has_gates(c) && table(out, c, compare_gates_doc, err))
        return -1;
    if (table(out, c, compare_bucket_doc, err) || compare_verbs_text(out, c, err))
        return -1;
    if (table(out, c, compare_rounds_doc, err)) /* per round, with the steal */
        return -1;
    compare_thresholds_text(out, c);
    struct text_warnings w = {out, 0};
    compare_warnings_each(c, warning_line, &w);
    return 0;
}
