/* fuzz_http_head: net/http_head.c, the one reader of HTTP heads from the
 * network (the agent's requests, the metrics scrapes, the agent's answers
 * to a run), fed the stream as a connection reads it (in reads of a given
 * size, each parse over everything read so far) and in one read: both
 * must agree (complete or not, the head's length, refused or not, the
 * fields), and what is accepted must respect the documented bounds: the
 * head within max and the buffer, every header and the target inside it,
 * and under HTTP_HEAD_STRICT no NUL, bare CR or LF, or folded header.
 *
 * Byte 0: the read size (0: everything at once, else 1..255 bytes per
 * read). Byte 1: flags (bit 0 HTTP_HEAD_STRICT, bit 1 HTTP_HEAD_RESPONSE),
 * and bits 2..7 the head's max as (n + 1) * 64 bytes. The rest is the
 * byte stream. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/http_head.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a parse saw of its headers, to compare two parses. */
struct seen {
    const char *buf;
    size_t len;
    size_t nfields;
    uint32_t sum;      /* of the fields' offsets and lengths */
};

static int on_field(void *ctx, const char *name, size_t nlen, const char *v, size_t vlen)
{
    struct seen *s = ctx;
    /* every field lies inside the bytes parsed */
    if (name < s->buf || name + nlen > s->buf + s->len || v + vlen > s->buf + s->len ||
        (vlen && v < s->buf))
        abort();
    s->nfields++;
    s->sum = s->sum * 31 + (uint32_t)(name - s->buf) + (uint32_t)nlen * 7 + (uint32_t)vlen;
    return 0;
}

/* Parses as a connection would read it, step bytes a read. */
static int as_read(const char *p, size_t n, size_t step, size_t max, int flags,
                   struct http_head *h, struct seen *s)
{
    size_t have = 0;
    int rc = 0;
    while (rc == 0 && have < n && have < max) {
        size_t take = step && n - have > step ? step : n - have;
        have += take;
        *s = (struct seen){.buf = p, .len = have};
        *h = (struct http_head){.on_field = on_field, .ctx = s};
        rc = http_head_parse(p, have, max, flags, h);
    }
    if (rc > 0) {
        if ((size_t)rc > have || (size_t)rc > max || h->why != NULL)
            abort();
        if (!(flags & HTTP_HEAD_RESPONSE) &&
            (!h->target || h->target < p || h->target + h->target_len > p + rc ||
             memchr(h->method, '\0', sizeof h->method) == NULL))
            abort();
        if ((flags & HTTP_HEAD_STRICT) && (memchr(p, '\0', (size_t)rc) || h->major != 1 ||
                                           h->minor > 1))
            abort();
    }
    if (rc < 0 && !h->why)
        abort();
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int flags = data[1] & 3;
    size_t max = (size_t)((data[1] >> 2) + 1) * 64;
    const char *p = (const char *)data + 2;
    size_t n = size - 2;
    struct http_head a, b;
    struct seen sa, sb;
    int ra = as_read(p, n, data[0], max, flags, &a, &sa);
    int rb = as_read(p, n, 0, max, flags, &b, &sb);
    /* a head is whole at its blank line however TCP cut it */
    if (ra != rb || (ra > 0 && (sa.nfields != sb.nfields || sa.sum != sb.sum ||
                                a.status != b.status || strcmp(a.method, b.method) ||
                                a.target_len != b.target_len)))
        abort();
    return 0;
}
