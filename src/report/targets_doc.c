/* targets_doc: a --targets run's hosts as one table, the text's and the
 * page's. A fleet may have 1,000 hosts: the table keeps the worst
 * TARGETS_SHOWN (errors and unfinished first, then the slowest p99), and
 * its note sums up all of them; every host's row is in --output's JSON
 * ("targets"). */
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>

#define TARGETS_SHOWN 10

static void heads(struct doc_table *t, struct doc_table_style *st)
{
    static const char *const h[] = {"target", "rate/s", "start", "sent", "unsent", "ok", "errors",
                                    "unfinished", "p50", "p99"};
    static const int w[] = {-34, 8, 8, 7, 7, 7, 7, 11, 10, 10};
    for (int c = 0; c < 10; c++) {
        snprintf(t->heads[c], sizeof t->heads[c], "%s", h[c]);
        t->width[c] = w[c];
    }
    st->text.max[0] = 34;
    snprintf(t->id, sizeof t->id, "targets");
    snprintf(st->html.caption, sizeof st->html.caption, "Targets (the worst %d)", TARGETS_SHOWN);
}

/* Worse first: more errors and unfinished, then a higher p99. */
static int worse(const void *a, const void *b)
{
    const struct target_result *x = *(const struct target_result *const *)a;
    const struct target_result *y = *(const struct target_result *const *)b;
    int64_t fx = x->errors + x->unfinished + x->unsent, fy = y->errors + y->unfinished + y->unsent;
    if (fx != fy)
        return fx > fy ? -1 : 1;
    int64_t px = hist_percentile(&x->latency, 99.0);
    int64_t py = hist_percentile(&y->latency, 99.0);
    return px > py ? -1 : px < py;
}

static int add_row(struct doc_table *t, const struct target_result *k, char *err)
{
    char v[9][32];
    snprintf(v[0], sizeof v[0], "%.2f", k->rate);
    snprintf(v[1], sizeof v[1], "%.2fs", k->start_s);
    snprintf(v[2], sizeof v[2], "%lld", (long long)k->sent);
    snprintf(v[3], sizeof v[3], "%lld", (long long)k->unsent);
    snprintf(v[4], sizeof v[4], "%lld", (long long)k->ok);
    snprintf(v[5], sizeof v[5], "%lld", (long long)k->errors);
    snprintf(v[6], sizeof v[6], "%lld", (long long)k->unfinished);
    report_fmt_us((double)hist_percentile(&k->latency, 50.0), v[7], sizeof v[7]);
    report_fmt_us((double)hist_percentile(&k->latency, 99.0), v[8], sizeof v[8]);
    if (!k->latency.total_count) { /* no success (or a file saved without the counts) */
        snprintf(v[7], sizeof v[7], "-");
        snprintf(v[8], sizeof v[8], "-");
    }
    const char *cells[10] = {k->url, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
    return doc_table_add_row(t, cells, NULL,
                             k->errors + k->unfinished + k->unsent ? DOC_ROW_MARKED : 0, err);
}

int report_targets_doc(const struct run_result *r, struct doc_table *t,
                       struct doc_table_style *st, char *err)
{
    doc_table_init(t, 10);
    doc_table_style_init(st);
    heads(t, st);
    if (!r->ntargets)
        return 0;
    const struct target_result **order = malloc(r->ntargets * sizeof *order);
    if (!order) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    int64_t lo = INT64_MAX, hi = 0, bad = 0;
    for (size_t i = 0; i < r->ntargets; i++) {
        order[i] = &r->targets[i];
        lo = r->targets[i].sent < lo ? r->targets[i].sent : lo;
        hi = r->targets[i].sent > hi ? r->targets[i].sent : hi;
        bad += r->targets[i].errors + r->targets[i].unfinished + r->targets[i].unsent > 0;
    }
    qsort(order, r->ntargets, sizeof *order, worse);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->ntargets && i < TARGETS_SHOWN; i++)
        rc = add_row(t, order[i], err);
    free(order);
    snprintf(t->notes, sizeof t->notes, "targets     %zu (%s); sent %lld to %lld each; %lld with "
             "errors, unfinished or unsent; every target's row is in --output's JSON", r->ntargets,
             r->ntargets > TARGETS_SHOWN ? "the worst 10 shown" : "all shown", (long long)lo,
             (long long)hi, (long long)bad);
    return rc;
}
