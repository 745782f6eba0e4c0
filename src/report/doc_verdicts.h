/* doc_verdicts: the verdicts of a run or a compare (--threshold
 * conditions, --gate, a run cut short) as one document, built once by one
 * builder (verdict_doc, compare_verdicts_doc) and written by each format's
 * writer: the text's threshold lines, the page's verdict table and badge,
 * the JUnit file. The builder says what each verdict is and measured; a
 * writer says only how its format shows it, so that the JUnit file cannot
 * say "pass" where the text says "FAIL" (issue 25). */
#ifndef RPCBENCH_DOC_VERDICTS_H
#define RPCBENCH_DOC_VERDICTS_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

/* What a verdict says. */
enum doc_verdict_status {
    DOC_PASS,
    DOC_FAIL,         /* a condition failed, a gate found a regression */
    DOC_INCONCLUSIVE, /* a gate the rounds could not decide: no pass either */
    DOC_ERROR,        /* not judged to its end: a signal cut the run short */
};

/* What a verdict judges. */
enum doc_vkind { DOC_V_THRESHOLD, DOC_V_GATE, DOC_V_RUN };

/* A verdict's detail, whole: a failures rule's counts, test and bursts
 * line runs past 256 bytes, and a cut one lost what would decide it. */
#define DOC_DETAIL_LEN 640

struct doc_verdict {
    enum doc_vkind kind;
    enum doc_verdict_status status;
    char expr[128];      /* as written: "p99<100ms", "p99:+10%", "complete run" */
    char name[160];      /* its testcase's: "p99<100ms", "A p99<5s", "gate p99:+10%" */
    char classname[64];  /* its testcase's class: "rpcbench.run" */
    char group[96];      /* whose: "arm A (xmlrpc)" ("" the one result's) */
    char detail[DOC_DETAIL_LEN]; /* the measured value and the bound: "p99 = 8.167ms,
                                    bound < 5000ms"; a DOC_ERROR's why */
};

/* One document of n verdicts, in the order they are written; as many as
 * the builder adds (allocated: doc_verdicts_free). */
struct doc_verdicts {
    char suite[64]; /* the JUnit testsuite's name: "rpcbench run thresholds" */
    size_t n, cap;
    struct doc_verdict *v; /* n, the document's own */
    size_t lost;    /* verdicts no memory could hold: every writer counts them
                       as errors, never a silent pass */
};

/* Clears d (the caller's) with its suite's name (copied). Allocates
 * nothing; a d already built must be doc_verdicts_free'd first. */
void doc_verdicts_init(struct doc_verdicts *d, const char *suite);
/* Frees d's verdicts (not d); d is then empty, its suite kept. */
void doc_verdicts_free(struct doc_verdicts *d);
/* The next verdict of d (d's own, valid until d is added to or freed),
 * zeroed, its kind and status set; NULL without memory (d->lost counts
 * it). */
struct doc_verdict *doc_verdicts_add(struct doc_verdicts *d, enum doc_vkind kind,
                                     enum doc_verdict_status status);
/* The status as every format writes it: "pass", "FAIL", "regression" (a
 * gate's failure), "inconclusive", "error". A static string. */
const char *doc_verdict_word(const struct doc_verdict *v);
/* @return the verdicts of d of kind k, and into *failed (NULL: not
 * counted) how many of them are not DOC_PASS; the lost count as failed
 * verdicts of every kind. */
size_t doc_verdicts_count(const struct doc_verdicts *d, enum doc_vkind k, size_t *failed);

/* The text: "threshold EXPR: DETAIL: WORD", a line per threshold verdict
 * of group (only read; "" the one result's); then, of the one result's,
 * a line saying how many verdicts were lost, if any. */
void doc_verdicts_text(FILE *out, const struct doc_verdicts *d, const char *group);

/* The JUnit file at path (created or truncated): one testsuite, one
 * testcase per verdict, every text XML-escaped (characters XML 1.0 cannot
 * hold become "\xHH"). A passed verdict's message ("GROUP: DETAIL: WORD",
 * without "GROUP: " when it has none) is its system-out, a failed or
 * inconclusive one's a <failure type="threshold"> (a gate's "regression" or
 * "inconclusive", the run's "run"), a DOC_ERROR's detail
 * an <error type="interrupted">; the lost, if any, one testcase with an
 * <error type="lost">. junit.c.
 * @return 0, or -1 with err (ERR_LEN, caller-owned): cannot write. */
int doc_verdicts_junit(const char *path, const struct doc_verdicts *d, char *err);

#endif
