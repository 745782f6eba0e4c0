/* fold_calls: which functions of a fold call which (fold.h's fold_calls),
 * for compare --profile's sentence, which must not count a caller and
 * its callee twice. */
#include <stdlib.h>
#include <string.h>

#include "profile/fold_int.h"

/* Adds count to calls[i * n + j] for each pair of the candidates'
 * indices in at[0..k), root first, where i is above j. */
static void mark_pairs(const size_t *at, size_t k, size_t n, int64_t count, int64_t *calls)
{
    for (size_t p = 0; p < k; p++)
        for (size_t q = p + 1; q < k; q++)
            if (at[p] != at[q])
                calls[at[p] * n + at[q]] += count;
}

/* The candidates' indices (idx's counts) along stack key (modified),
 * root first, into at (FOLD_MAX_DEPTH). @return their count. */
static size_t candidates_on(const struct strmap *idx, char *key, size_t *at)
{
    size_t k = 0;
    char *save = NULL;
    for (char *t = strtok_r(key, ";", &save); t && k < FOLD_MAX_DEPTH;
         t = strtok_r(NULL, ";", &save)) {
        const struct strmap_entry *e = strmap_find(idx, t);
        if (e)
            at[k++] = (size_t)e->count;
    }
    return k;
}

int fold_calls(const struct fold *f, const char *const *names, size_t n, int64_t *calls)
{
    static size_t at[FOLD_MAX_DEPTH]; /* large: off the stack */
    struct strmap idx;
    int rc = 0;
    strmap_init(&idx);
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct strmap_entry *e = strmap_get(&idx, names[i], NULL);
        if (!e)
            rc = -1;
        else
            e->count = (int64_t)i;
    }
    for (size_t i = 0; rc == 0 && i < f->stacks.cap; i++) {
        if (!f->stacks.slots[i].key)
            continue;
        char *key = strdup(f->stacks.slots[i].key);
        if (!key) {
            rc = -1;
            break;
        }
        mark_pairs(at, candidates_on(&idx, key, at), n, f->stacks.slots[i].count, calls);
        free(key);
    }
    strmap_free(&idx);
    return rc;
}
