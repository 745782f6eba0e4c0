/* strmap: a hash map from strings (copied, owned) to a count and one
 * optional string (copied, owned), open addressing, doubling at 1/2 full.
 * The profile's stacks and functions are counted in it. */
#ifndef RPCBENCH_STRMAP_H
#define RPCBENCH_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap_entry {
    char *key;      /* NULL: a free slot */
    char *aux;      /* NULL: none */
    int64_t count;
    int64_t mark;   /* the caller's scratch (fold: the last stack counted) */
    int64_t self;
};

struct strmap {
    struct strmap_entry *slots;
    size_t cap, n;
};

/* Zeroes m: an empty map (nothing allocated until the first add). */
void strmap_init(struct strmap *m);
void strmap_free(struct strmap *m);
/* @return key's entry, added with count 0 (and aux copied when not NULL)
 * if absent, or NULL when out of memory. The pointer is valid until the
 * next add. */
struct strmap_entry *strmap_get(struct strmap *m, const char *key, const char *aux);
/* @return key's entry, or NULL when absent. */
const struct strmap_entry *strmap_find(const struct strmap *m, const char *key);

#endif
