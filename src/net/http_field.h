/* http_field: the name of the header http-parser is reading, which its
 * callbacks hand over in pieces (a header may straddle two reads), kept
 * lowercased and cut to the few bytes a caller compares: serve looks for
 * "expect", record for "authorization". Never a value: those are the
 * caller's business (record never reads one). */
#ifndef RPCBENCH_HTTP_FIELD_H
#define RPCBENCH_HTTP_FIELD_H

#include <stddef.h>

/* A name being read: f[cap] (the caller's, at least 2 bytes), *len its
 * bytes so far; *len == cap says a value came since (the next piece starts
 * a new name). */
/* Adds the piece at[0..n) of a header name (on_header_field), lowercased,
 * keeping at most cap - 1 bytes, NUL-terminated. */
void http_field_add(char *f, size_t cap, size_t *len, const char *at, size_t n);
/* A value was read (on_header_value): the next piece starts a new name. */
static inline void http_field_done(size_t cap, size_t *len)
{
    *len = cap;
}

#endif
