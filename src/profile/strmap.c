/* strmap: see strmap.h. */
#include "profile/strmap.h"

#include <stdlib.h>
#include <string.h>

void strmap_init(struct strmap *m)
{
    memset(m, 0, sizeof *m);
}

void strmap_free(struct strmap *m)
{
    for (size_t i = 0; i < m->cap; i++) {
        free(m->slots[i].key);
        free(m->slots[i].aux);
    }
    free(m->slots);
    strmap_init(m);
}

/* FNV-1a: short keys, no adversary (our own profiler's names). */
static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static size_t slot_of(const struct strmap_entry *slots, size_t cap, const char *key)
{
    size_t i = hash(key) & (cap - 1);
    while (slots[i].key && strcmp(slots[i].key, key) != 0)
        i = (i + 1) & (cap - 1);
    return i;
}

static int grow(struct strmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 256;
    struct strmap_entry *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            s[slot_of(s, cap, m->slots[i].key)] = m->slots[i];
    free(m->slots);
    m->slots = s;
    m->cap = cap;
    return 0;
}

struct strmap_entry *strmap_get(struct strmap *m, const char *key, const char *aux)
{
    if ((m->n + 1) * 2 > m->cap && grow(m))
        return NULL;
    struct strmap_entry *e = &m->slots[slot_of(m->slots, m->cap, key)];
    if (e->key)
        return e;
    if (!(e->key = strdup(key)) || (aux && !(e->aux = strdup(aux)))) {
        free(e->key);
        e->key = NULL;
        return NULL;
    }
    m->n++;
    return e;
}

const struct strmap_entry *strmap_find(const struct strmap *m, const char *key)
{
    if (!m->cap)
        return NULL;
    const struct strmap_entry *e = &m->slots[slot_of(m->slots, m->cap, key)];
    return e->key ? e : NULL;
}
