/* run_doc: the run's report as one document (issue 25). Everything a
 * person reads of a run is built here once, from the result: the
 * key-value sections (report_sections.c), the bucket, percentile and
 * per-verb tables (report.c), a mix's per-verb bucket grid and the page's
 * headline cards, each with its figures rounded, in their unit, marked as
 * lower bounds. The writers
 * choose only the order, the layout and the escaping: run_doc_text (the
 * text report) and html_run.c (the page, which adds its charts and its
 * table of the errors' first words). */
#ifndef RPCBENCH_RUN_DOC_H
#define RPCBENCH_RUN_DOC_H

#include <stdio.h>

#include "report/doc_cards.h"
#include "report/report.h"

struct run_doc {
    const struct run_result *r;                  /* the caller's, only read */
    struct doc_kv config, requests, transport, machine;
    struct doc_table buckets, pcts, verbs;
    struct doc_table ranks;                      /* a distributed run's (nrows 0: none) */
    struct doc_table stages;                     /* --stages: a row each (else none) */
    struct doc_table targets;                    /* --targets: the worst hosts (else none) */
    struct doc_table profile;                    /* --profile's top functions */
    struct doc_table profile_modules;            /* and its modules */
    /* each table's writer settings, as its builder returned them */
    struct doc_table_style buckets_style, pcts_style, verbs_style, ranks_style, stages_style,
        targets_style, profile_style, profile_modules_style, verb_grid_style, errors_style;
    int mix;                                     /* two verbs or more: verbs and grid */
    struct doc_table verb_grid;                  /* a mix's cumulative %, per verb */
    struct doc_table errors;                     /* the page's requests and errors by kind */
    /* the headline: target, protocol, rates, p50 and p99 (as the
     * percentile table writes them), errors (bad when any), CPU-ms/call;
     * the page adds its --threshold verdict (doc_cards_verdict) */
    struct doc_cards cards;
};

/* Builds r's document. @return it (malloc'd: run_doc_free), or NULL with
 * err (ERR_LEN bytes, the caller's: a --buckets spec the histograms
 * cannot take, or no memory). r must outlive it. */
struct run_doc *run_doc_new(const struct run_result *r, char *err);
/* Frees d and its tables (NULL is nothing). */
void run_doc_free(struct run_doc *d);

#endif
