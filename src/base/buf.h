/* buf: a growable byte buffer owned by its user.
 *
 * Buffers are reused across requests (buf_reset keeps the memory), so after
 * warm-up nothing on the hot path allocates. */
#ifndef RPCBENCH_BUF_H
#define RPCBENCH_BUF_H

#include <stddef.h>

struct buf {
    char *data;
    size_t len;
    size_t cap;
};

/* All return 0 on success, -1 when memory cannot be had (buf unchanged). */
int buf_reserve(struct buf *b, size_t extra);
int buf_append(struct buf *b, const void *p, size_t n);
int buf_appendf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int buf_append_str(struct buf *b, const char *s);
/* Drops the first n bytes (consumed input), keeping the rest. */
void buf_consume(struct buf *b, size_t n);
static inline void buf_reset(struct buf *b) { b->len = 0; }
void buf_free(struct buf *b);

#endif
