/* report_text: the text report of a run, a person's reading of it: the
 * header section, the bucket and percentile tables, the requests,
 * transport and machine sections, the per-verb tables, the ranks and the
 * warnings. Every part is a document built in report.c or
 * report_sections.c; this file only orders them (report.h). */
#include <stdio.h>

#include "base/version.h"
#include "model/result_ranks.h"
#include "report/report.h"

/* A mix's response times per verb, on one set of edges. */
static int per_verb_buckets(FILE *out, const struct run_result *r, char *err)
{
    const struct hist *hs[RUN_MAX_VERBS];
    const char *names[RUN_MAX_VERBS];
    for (size_t i = 0; i < r->nverbs; i++) {
        hs[i] = &r->verbs[i].latency;
        names[i] = r->verbs[i].name;
    }
    static struct report_bucket_grid g; /* large; one thread writes reports */
    if (report_bucket_grid(r->cfg.buckets, hs, (int)r->nverbs, &g, err))
        return -1;
    report_bucket_grid_text(out, "response time %", names, &g);
    return 0;
}

int report_text(FILE *out, const struct run_result *r, char *err)
{
    struct doc_kv d[REPORT_SECTIONS];
    report_sections(r, d);
    fprintf(out, "rpcbench %s\n", rpcbench_version());
    doc_kv_text(out, &d[0]);
    if (report_table(out, r, report_bucket_doc, doc_table_text, err))
        return -1;
    if (report_table(out, r, report_pct_doc, doc_table_text, err))
        return -1;
    for (int i = 1; i < REPORT_SECTIONS; i++)
        doc_kv_text(out, &d[i]);
    if (report_table(out, r, report_verb_doc, doc_table_text, err))
        return -1;
    if (r->nverbs > 1 && per_verb_buckets(out, r, err))
        return -1;
    report_ranks(out, r);
    if (r->nwarnings) {
        fprintf(out, "\nwarnings\n");
        for (size_t i = 0; i < r->nwarnings; i++)
            fprintf(out, "  ! %s\n", r->warnings[i]);
    }
    return 0;
}
