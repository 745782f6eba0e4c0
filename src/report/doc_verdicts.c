/* doc_verdicts: the verdicts as one document, and its text (doc_verdicts.h). */
#include "report/doc_verdicts.h"

#include <stdlib.h>
#include <string.h>

void doc_verdicts_init(struct doc_verdicts *d, const char *suite)
{
    memset(d, 0, sizeof *d);
    snprintf(d->suite, sizeof d->suite, "%s", suite);
}

void doc_verdicts_free(struct doc_verdicts *d)
{
    free(d->v);
    d->v = NULL;
    d->n = d->cap = d->lost = 0;
}

struct doc_verdict *doc_verdicts_add(struct doc_verdicts *d, enum doc_vkind kind,
                                     enum doc_verdict_status status)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 8;
        void *p = realloc(d->v, cap * sizeof *d->v);
        if (!p) {
            d->lost++;
            return NULL;
        }
        d->v = p;
        d->cap = cap;
    }
    struct doc_verdict *v = &d->v[d->n++];
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->status = status;
    return v;
}

const char *doc_verdict_word(const struct doc_verdict *v)
{
    switch (v->status) {
    case DOC_PASS: return "pass";
    case DOC_FAIL: return v->kind == DOC_V_GATE ? "regression" : "FAIL";
    case DOC_INCONCLUSIVE: return "inconclusive";
    default: return "error";
    }
}

size_t doc_verdicts_count(const struct doc_verdicts *d, enum doc_vkind k, size_t *failed)
{
    size_t n = 0, bad = 0;
    for (size_t i = 0; i < d->n; i++)
        if (d->v[i].kind == k) {
            n++;
            bad += d->v[i].status != DOC_PASS;
        }
    if (failed)
        *failed = bad + d->lost;
    return n + d->lost;
}

void doc_verdicts_text(FILE *out, const struct doc_verdicts *d, const char *group)
{
    for (size_t i = 0; i < d->n; i++) {
        const struct doc_verdict *v = &d->v[i];
        if (v->kind == DOC_V_THRESHOLD && !strcmp(v->group, group))
            fprintf(out, "threshold %s: %s: %s\n", v->expr, v->detail, doc_verdict_word(v));
    }
    if (d->lost && !group[0])
        fprintf(out, "threshold verdicts: %zu lost: out of memory: error\n", d->lost);
}
