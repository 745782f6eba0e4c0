/* http_head: one message's head on http-parser (http_head.h). We find the
 * blank line ourselves (so "whole" does not depend on how TCP cut the
 * bytes, and the strict checks see every line), then hand exactly the
 * head to http-parser, which reads the request or status line and the
 * headers, and stops at their end. */
#include "net/http_head.h"

#include <http_parser.h>
#include <string.h>

/* The parse's state, reached from http-parser's callbacks. */
struct walk {
    struct http_head *h;
    const char *name, *value;  /* the header being read */
    size_t nlen, vlen;
    int done;                  /* the headers ended */
};

/* The end of the head (just past its blank line) within buf[0..len), or 0. */
static size_t head_end(const char *buf, size_t len, int strict)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (buf[i] != '\n')
            continue;
        if (!strict && buf[i + 1] == '\n')
            return i + 2;
        if (i >= 1 && buf[i - 1] == '\r' && i + 2 < len && buf[i + 1] == '\r' &&
            buf[i + 2] == '\n')
            return i + 3;
    }
    return 0;
}

static int refuse(struct http_head *h, const char *why)
{
    h->why = why;
    return -1;
}

/* Each header line of the head's n bytes (from the second line on) has
 * a name of no blank before its colon: http-parser, built lenient, lets a
 * space into a name. */
static int strict_names(const char *p, size_t n, struct http_head *h)
{
    const char *end = p + n - 2; /* the blank line's CRLF */
    const char *line = (const char *)memchr(p, '\n', n) + 1;
    while (line < end) {
        const char *eol = memchr(line, '\r', (size_t)(end - line) + 1);
        const char *colon = memchr(line, ':', (size_t)(eol - line));
        if (!colon || colon == line || memchr(line, ' ', (size_t)(colon - line)) ||
            memchr(line, '\t', (size_t)(colon - line)))
            return refuse(h, "malformed header");
        line = eol + 2;
    }
    return 0;
}

/* HTTP_HEAD_STRICT's own checks over the head's n bytes. */
static int strict_lines(const char *p, size_t n, int response, struct http_head *h)
{
    if (memchr(p, '\0', n))
        return refuse(h, "a NUL in the head");
    if (n >= 2 && p[0] == '\r' && p[1] == '\n')
        return refuse(h, "an empty line, or a bare CR or LF");
    for (size_t i = 0; i + 2 < n; i++)
        if ((p[i] == '\r') != (p[i + 1] == '\n') || (i == 0 && p[0] == '\n'))
            return refuse(h, "an empty line, or a bare CR or LF");
        else if (p[i] == '\n' && (p[i + 1] == ' ' || p[i + 1] == '\t'))
            return refuse(h, "a header folded onto its next line");
    if (strict_names(p, n, h))
        return -1;
    if (response)
        return 0;
    size_t first = (size_t)((const char *)memchr(p, '\r', n) - p);
    const char *sp1 = memchr(p, ' ', first);
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', first - (size_t)(sp1 + 1 - p)) : NULL;
    if (!sp2 || sp2 == sp1 + 1 || sp1 == p || memchr(sp2 + 1, ' ', (size_t)(p + first - sp2 - 1)) ||
        memchr(p, '\t', first))
        return refuse(h, "not an HTTP/1 request line");
    return 0;
}

static struct walk *walk_of(http_parser *p)
{
    return p->data;
}

/* The header read so far to the caller. @return 0, or -1 refused. */
static int flush(struct walk *w)
{
    struct http_head *h = w->h;
    int rc = 0;
    if (w->name && h->on_field && h->on_field(h->ctx, w->name, w->nlen, w->value ? w->value : "",
                                              w->value ? w->vlen : 0)) {
        h->refused = 1;
        rc = -1;
    }
    w->name = w->value = NULL;
    w->nlen = w->vlen = 0;
    return rc;
}

static int on_url(http_parser *p, const char *at, size_t len)
{
    struct http_head *h = walk_of(p)->h;
    h->target = h->target ? h->target : at;
    h->target_len = (size_t)(at + len - h->target);
    return 0;
}

static int on_field(http_parser *p, const char *at, size_t len)
{
    struct walk *w = walk_of(p);
    if (w->value && flush(w))
        return -1;
    if (!w->name)
        w->name = at;
    w->nlen = (size_t)(at + len - w->name);
    return 0;
}

static int on_value(http_parser *p, const char *at, size_t len)
{
    struct walk *w = walk_of(p);
    if (!w->value) /* a folded value comes in pieces: one span over them */
        w->value = at;
    w->vlen = (size_t)(at + len - w->value);
    return 0;
}

static int on_headers_complete(http_parser *p)
{
    struct walk *w = walk_of(p);
    if (flush(w))
        return -1;
    w->done = 1;
    http_parser_pause(p, 1); /* the head is all we read */
    return 0;
}

static const http_parser_settings settings = {
    .on_url = on_url,
    .on_header_field = on_field,
    .on_header_value = on_value,
    .on_headers_complete = on_headers_complete,
};

/* http-parser over the head's n bytes into h. @return 0, or -1. */
static int parse(const char *p, size_t n, int flags, struct http_head *h)
{
    http_parser hp;
    struct walk w = {.h = h};
    http_parser_init(&hp, flags & HTTP_HEAD_RESPONSE ? HTTP_RESPONSE : HTTP_REQUEST);
    hp.data = &w;
    http_parser_execute(&hp, &settings, p, n);
    enum http_errno e = HTTP_PARSER_ERRNO(&hp);
    if (h->refused)
        return refuse(h, "a header refused");
    if (e == HPE_INVALID_METHOD) {
        h->bad_method = 1;
        return refuse(h, "an unknown method");
    }
    if (!w.done || (e != HPE_OK && e != HPE_PAUSED))
        return refuse(h, e != HPE_OK && e != HPE_PAUSED ? http_errno_description(e)
                                                         : "the head does not end");
    h->major = hp.http_major;
    h->minor = hp.http_minor;
    if (flags & HTTP_HEAD_RESPONSE)
        h->status = hp.status_code;
    else
        strcpy(h->method, http_method_str((enum http_method)hp.method)); /* under 16 */
    if ((flags & HTTP_HEAD_STRICT) && (h->major != 1 || h->minor > 1))
        return refuse(h, "not HTTP/1.0 or HTTP/1.1");
    return 0;
}

int http_head_parse(const char *buf, size_t len, size_t max, int flags, struct http_head *h)
{
    h->method[0] = '\0';
    h->target = NULL;
    h->target_len = 0;
    h->status = h->major = h->minor = 0;
    h->refused = h->bad_method = h->too_long = 0;
    h->why = NULL;
    size_t end = head_end(buf, len < max ? len : max, flags & HTTP_HEAD_STRICT);
    if (!end) {
        if (len < max)
            return 0;
        h->too_long = 1;
        return refuse(h, "the head is too long");
    }
    if ((flags & HTTP_HEAD_STRICT) &&
        strict_lines(buf, end, flags & HTTP_HEAD_RESPONSE, h))
        return -1;
    return parse(buf, end, flags, h) ? -1 : (int)end;
}
