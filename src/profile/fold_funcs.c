/* fold_funcs: the function table of a fold (fold.h): self and total
 * samples per function, and the summary's rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/fold_int.h"

/* Counts one stack's samples into f->funcs: its leaf's self, and each
 * distinct frame's total once (mark = the stack's number, so recursion
 * counts once). */
static int index_stack(struct fold *f, char *key, int64_t count, int64_t stack_no)
{
    char *save = NULL, *leaf = NULL;
    for (char *t = strtok_r(key, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
        struct strmap_entry *e = strmap_get(&f->funcs, t, NULL);
        if (!e)
            return -1;
        if (e->mark != stack_no) {
            e->mark = stack_no;
            e->count += count;
        }
        leaf = t;
    }
    if (leaf)
        strmap_get(&f->funcs, leaf, NULL)->self += count;
    return 0;
}

int fold_index(struct fold *f)
{
    if (f->indexed)
        return 0;
    strmap_free(&f->funcs);
    int64_t no = 0;
    for (size_t i = 0; i < f->stacks.cap; i++) {
        const struct strmap_entry *s = &f->stacks.slots[i];
        if (!s->key)
            continue;
        char *key = strdup(s->key);
        int rc = key ? index_stack(f, key, s->count, ++no) : -1;
        free(key);
        if (rc)
            return -1;
    }
    f->indexed = 1;
    return 0;
}

double fold_share(const struct fold *f, const char *name, int self)
{
    const struct strmap_entry *e = strmap_find(&f->funcs, name);
    if (!e || f->samples <= 0)
        return 0;
    return (double)(self ? e->self : e->count) / (double)f->samples;
}

int fold_functions(const struct fold *f, struct fold_func **out, size_t *n)
{
    if (fold_index((struct fold *)f))
        return -1;
    *n = 0;
    *out = malloc((f->funcs.n ? f->funcs.n : 1) * sizeof **out);
    if (!*out)
        return -1;
    for (size_t i = 0; i < f->funcs.cap; i++) {
        const struct strmap_entry *e = &f->funcs.slots[i];
        if (!e->key)
            continue;
        const struct strmap_entry *m = strmap_find(&f->modules, e->key);
        (*out)[(*n)++] = (struct fold_func){.name = e->key, .module = m ? m->aux : "",
                                            .self = e->self, .total = e->count};
    }
    return 0;
}

static int by_self(const void *a, const void *b)
{
    const struct fold_func *x = a, *y = b;
    if (x->self != y->self)
        return x->self < y->self ? 1 : -1;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return strcmp(x->name, y->name);
}

static int by_total(const void *a, const void *b)
{
    const struct fold_func *x = a, *y = b;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return by_self(a, b);
}

static void fill_row(struct profile_row *r, const struct fold_func *fn, int64_t all, double per)
{
    snprintf(r->func, sizeof r->func, "%s", fn->name);
    snprintf(r->module, sizeof r->module, "%s", fn->module);
    r->self_pct = 100.0 * (double)fn->self / (double)all;
    r->total_pct = 100.0 * (double)fn->total / (double)all;
    r->self_ms = isfinite(per) ? r->self_pct / 100.0 * per : NAN;
    r->total_ms = isfinite(per) ? r->total_pct / 100.0 * per : NAN;
}

/* The rows of f into rows (max of them), *nrows set: see fold_summarise. */
static int summarise(const struct fold *f, double cpu_ms_per_call, struct profile_row *rows,
                     int max, int *nrows)
{
    struct fold_func *fn;
    size_t n;
    *nrows = 0;
    if (f->samples <= 0)
        return 0;
    if (fold_functions(f, &fn, &n))
        return -1;
    /* half the rows by self, half by total (callers whose callees cost) */
    const size_t half = (size_t)max / 2;
    qsort(fn, n, sizeof *fn, by_self);
    for (size_t i = 0; i < n; i++)
        fn[i].keep = i < half;
    qsort(fn, n, sizeof *fn, by_total);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (fn[i].keep || i < half)
            fn[kept++] = fn[i];
    qsort(fn, kept, sizeof *fn, by_self);
    for (size_t i = 0; i < kept && *nrows < max; i++)
        fill_row(&rows[(*nrows)++], &fn[i], f->samples, cpu_ms_per_call);
    free(fn);
    return 0;
}

int fold_summarise(const struct fold *f, double cpu_ms_per_call, int top,
                   struct profile_summary *s)
{
    s->top = top;
    return summarise(f, cpu_ms_per_call, s->rows, PROFILE_MAX_ROWS, &s->nrows);
}

int fold_summarise_modules(const struct fold *f, double cpu_ms_per_call,
                           struct profile_summary *s)
{
    struct fold *m = fold_new();
    s->nmodules = 0;
    int rc = !m || fold_by_module(f, m) ||
             summarise(m, cpu_ms_per_call, s->modules, PROFILE_MAX_MODULES, &s->nmodules);
    fold_free(m);
    return rc ? -1 : 0;
}
