/* run_doc: one run, one document, every format (run_doc.h). */
#include "report/run_doc.h"

#include <stdlib.h>

#include "base/err.h"
#include "base/version.h"
#include "model/result_ranks.h"

/* A mix's cumulative % per verb, on one set of edges. @return 0, or -1
 * with err. */
static int verb_grid(struct run_doc *d, char *err)
{
    const struct run_result *r = d->r;
    const struct hist *hs[RUN_MAX_VERBS];
    for (size_t i = 0; i < r->nverbs; i++) {
        hs[i] = &r->verbs[i].latency;
        d->verb_names[i] = r->verbs[i].name;
    }
    return report_bucket_grid(r->cfg.buckets, hs, (int)r->nverbs, &d->verb_grid, err);
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
    int verbs = 1;
    if (report_bucket_doc(r, &d->buckets, err) || report_pct_doc(r, &d->pcts, err) ||
        (verbs = report_verb_doc(r, &d->verbs, err)) < 0 ||
        (verbs == 0 && verb_grid(d, err))) {
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
    free(d);
}

void run_doc_text(FILE *out, const struct run_doc *d)
{
    const struct run_result *r = d->r;
    fprintf(out, "rpcbench %s\n", rpcbench_version());
    doc_kv_text(out, &d->config);
    doc_table_text(out, &d->buckets);
    doc_table_text(out, &d->pcts);
    doc_kv_text(out, &d->requests);
    doc_kv_text(out, &d->transport);
    doc_kv_text(out, &d->machine);
    if (d->mix) {
        doc_table_text(out, &d->verbs);
        report_bucket_grid_text(out, "response time %", d->verb_names, &d->verb_grid);
    }
    report_ranks(out, r);
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
