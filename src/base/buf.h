/* buf: a growable byte buffer owned by its user.
 *
 * Buffers are reused across requests (buf_reset keeps the memory), so after
 * warm-up nothing on the hot path allocates. */
#ifndef RPCBENCH_BUF_H
#define RPCBENCH_BUF_H

#include <stddef.h>

/* A zeroed struct buf is empty and ready. The struct is its user's; data
 * is the buffer's own (malloc'd, freed by buf_free), and moves when the
 * buffer grows: do not keep pointers into it across an append. */
struct buf {
    char *data;  /* NULL until the first append */
    size_t len;  /* bytes held */
    size_t cap;  /* bytes allocated */
};

/* The appends copy their input (the caller keeps it) and leave data
 * NUL-terminated (the NUL not counted in len). All return 0 on success,
 * -1 when memory cannot be had (buf unchanged). */
/* Makes room for extra more bytes and a NUL, without changing len. */
int buf_reserve(struct buf *b, size_t extra);
int buf_append(struct buf *b, const void *p, size_t n);
int buf_appendf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int buf_append_str(struct buf *b, const char *s);
/* Drops the first n bytes (consumed input; all of them when n >= len),
 * keeping the rest and the memory. data is not re-terminated. */
void buf_consume(struct buf *b, size_t n);
/* Empties b, keeping its memory for the next use. */
static inline void buf_reset(struct buf *b) { b->len = 0; }
/* Frees data and leaves b empty and reusable (zeroed). */
void buf_free(struct buf *b);

#endif
