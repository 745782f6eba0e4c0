/* fold_flame: a fold's stacks as the flame graph's tree (fold.h's
 * fold_flame), pruned so a saved result stays small: every prefix of
 * every stack is counted once, those under the share are left out, and
 * what remains is written callers first, siblings in name order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/fold_int.h"

/* Counts every prefix of the stack key (count samples) into m: count is
 * the prefix's total, self the samples whose whole stack it is.
 * @return 0, or -1 (out of memory). */
static int add_prefixes(struct strmap *m, const char *key, int64_t count)
{
    char *buf = strdup(key);
    if (!buf)
        return -1;
    for (char *p = buf;; p++) {
        if (*p != ';' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        struct strmap_entry *e = strmap_get(m, buf, NULL);
        *p = c;
        if (!e) {
            free(buf);
            return -1;
        }
        e->count += count;
        if (c == '\0') {
            e->self += count;
            break;
        }
    }
    free(buf);
    return 0;
}

/* The busiest first; of equal ones the shorter, so a caller comes before
 * its callee and a cut never keeps a frame without its caller. */
static int by_total(const void *a, const void *b)
{
    const struct strmap_entry *x = *(const struct strmap_entry *const *)a;
    const struct strmap_entry *y = *(const struct strmap_entry *const *)b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    size_t lx = strlen(x->key), ly = strlen(y->key);
    return lx < ly ? -1 : lx > ly;
}

/* Frame by frame: ';' sorts before any byte of a name (they have no
 * controls), so a stack comes right before its callees: pre-order. */
static int by_path(const void *a, const void *b)
{
    const unsigned char *x = (const unsigned char *)(*(const struct strmap_entry *const *)a)->key;
    const unsigned char *y = (const unsigned char *)(*(const struct strmap_entry *const *)b)->key;
    for (;; x++, y++) {
        unsigned cx = *x == ';' ? 1 : *x, cy = *y == ';' ? 1 : *y;
        if (cx != cy)
            return cx < cy ? -1 : 1;
        if (!cx)
            return 0;
    }
}

/* kept[0..n) (in pre-order) into s->flame after its root: frame k is
 * kept[k - 1], its caller the nearest open frame whose stack prefixes it. */
static void emit(struct strmap_entry **kept, size_t n, struct profile_summary *s)
{
    int open[PROFILE_MAX_FLAME]; /* the callers of the frame being written */
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        const char *key = kept[i]->key;
        while (depth) {
            const char *up = kept[open[depth - 1] - 1]->key;
            size_t len = strlen(up);
            if (!strncmp(key, up, len) && key[len] == ';')
                break;
            depth--;
        }
        struct profile_flame_node *f = &s->flame[s->nflame];
        const char *leaf = strrchr(key, ';');
        snprintf(f->func, sizeof f->func, "%s", leaf ? leaf + 1 : key);
        f->parent = depth ? open[depth - 1] : 0;
        f->self = kept[i]->self;
        f->total = kept[i]->count;
        open[depth++] = s->nflame++;
    }
}

/* The prefixes of m over min samples, at most max, in pre-order, into
 * *out (malloc'd; the entries point into m). @return their count, or -1
 * (out of memory). */
static long keep(const struct strmap *m, int64_t min, size_t max, struct strmap_entry ***out)
{
    struct strmap_entry **kept = malloc((m->n + 1) * sizeof *kept);
    if (!kept)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key && m->slots[i].count >= min)
            kept[n++] = &m->slots[i];
    if (n > max) {
        qsort(kept, n, sizeof *kept, by_total);
        n = max;
    }
    qsort(kept, n, sizeof *kept, by_path);
    *out = kept;
    return (long)n;
}

int fold_flame(const struct fold *f, double min_share, struct profile_summary *s)
{
    struct strmap m;
    strmap_init(&m);
    s->nflame = 0;
    for (size_t i = 0; i < f->stacks.cap; i++)
        if (f->stacks.slots[i].key && add_prefixes(&m, f->stacks.slots[i].key,
                                                   f->stacks.slots[i].count)) {
            strmap_free(&m);
            return -1;
        }
    int64_t min = (int64_t)(min_share * (double)f->samples);
    struct strmap_entry **kept = NULL;
    long n = keep(&m, min > 0 ? min : 1, PROFILE_MAX_FLAME - 1, &kept);
    if (n >= 0) {
        s->flame[0] = (struct profile_flame_node){.func = "all", .parent = -1,
                                                  .total = f->samples};
        s->nflame = 1;
        emit(kept, (size_t)n, s);
    }
    free(kept);
    strmap_free(&m);
    return n < 0 ? -1 : 0;
}
