/* rec_wire: whole messages out of a forwarded connection's streams (see
 * rec_wire.h). HTTP requests are framed by http-parser as serve frames
 * them (pausing on each message's last byte), responses by net's
 * http_response as the client frames them, STOMP frames by net's
 * stomp_parse: no parser of our own here. */
#include "record/rec_wire.h"

#include <string.h>
#include <strings.h>

#include "base/err.h"
#include "net/stomp.h"

/* A response body's framing never stops for its size here: the body is
 * kept up to max_msg and only counted past it. */
#define FRAME_ANY ((size_t)1 << 40)

static void lose(struct rec_wire *w, enum rec_dir dir, const char *why)
{
    struct rec_stream *s = &w->s[dir];
    if (s->lost)
        return;
    s->lost = 1;
    buf_free(&s->acc);
    w->ev->lost(w->ctx, dir, why);
}

/* Keeps body bytes up to max_msg; past it, only says so. @return 0, or -1
 * out of memory. */
static int keep(struct rec_stream *s, size_t max, const char *at, size_t len)
{
    if (s->acc.len + len > max) {
        s->truncated = 1;
        len = s->acc.len < max ? max - s->acc.len : 0;
    }
    return len ? buf_append(&s->acc, at, len) : 0;
}

static struct rec_wire *wire_of(http_parser *p)
{
    return p->data;
}

static int on_begin(http_parser *p)
{
    struct rec_stream *s = &wire_of(p)->s[REC_UP];
    s->first_ns = s->now_ns;
    s->where_len = 0;
    s->auth = 0;
    s->truncated = 0;
    buf_reset(&s->acc);
    return 0;
}

static int on_url(http_parser *p, const char *at, size_t len)
{
    struct rec_stream *s = &wire_of(p)->s[REC_UP];
    size_t room = sizeof s->where - 1 - s->where_len;
    len = len < room ? len : room;
    memcpy(s->where + s->where_len, at, len);
    s->where_len += len;
    return 0;
}

/* Only whether an Authorization header is there: its value is never read. */
static int on_field(http_parser *p, const char *at, size_t len)
{
    struct rec_stream *s = &wire_of(p)->s[REC_UP];
    if (s->field_len == sizeof s->field) /* a new field after a value */
        s->field_len = 0;
    for (size_t i = 0; i < len && s->field_len < sizeof s->field - 1; i++)
        s->field[s->field_len++] = (char)(at[i] | 0x20);
    s->field[s->field_len] = '\0';
    return 0;
}

static int on_value(http_parser *p, const char *at, size_t len)
{
    (void)at;
    (void)len;
    struct rec_stream *s = &wire_of(p)->s[REC_UP];
    if (!strcmp(s->field, "authorization"))
        s->auth = 1;
    s->field_len = sizeof s->field;
    return 0;
}

static int on_body(http_parser *p, const char *at, size_t len)
{
    struct rec_wire *w = wire_of(p);
    return keep(&w->s[REC_UP], w->max_msg, at, len);
}

static int on_complete(http_parser *p)
{
    wire_of(p)->s[REC_UP].done = 1;
    http_parser_pause(p, 1); /* hand this one over before the next begins */
    return 0;
}

static const http_parser_settings req_settings = {
    .on_message_begin = on_begin,
    .on_url = on_url,
    .on_header_field = on_field,
    .on_header_value = on_value,
    .on_body = on_body,
    .on_message_complete = on_complete,
};

static void hand_request(struct rec_wire *w, struct rec_stream *s)
{
    s->where[s->where_len] = '\0';
    struct rec_msg m = {.body = s->acc.data, .body_len = s->acc.len, .truncated = s->truncated,
                        .wire_bytes = s->wire, .first_ns = s->first_ns, .last_ns = s->now_ns,
                        .where = s->where, .auth = s->auth};
    s->wire = 0;
    s->done = 0;
    w->ev->call(w->ctx, &m);
}

static void feed_requests(struct rec_wire *w, const char *p, size_t n)
{
    struct rec_stream *s = &w->s[REC_UP];
    size_t off = 0;
    while (off < n && !s->lost) {
        size_t k = http_parser_execute(&s->hp, &req_settings, p + off, n - off);
        off += k;
        s->wire += k;
        if (s->done) {
            hand_request(w, s);
            http_parser_pause(&s->hp, 0);
        } else if (HTTP_PARSER_ERRNO(&s->hp) != HPE_OK || k == 0) {
            lose(w, REC_UP, "not an HTTP request");
        }
    }
}

static int resp_sink(void *ctx, const char *at, size_t len)
{
    struct rec_wire *w = ctx;
    return keep(&w->s[REC_DOWN], w->max_msg, at, len);
}

static void restart_response(struct rec_wire *w, struct rec_stream *s)
{
    http_response_start(&s->resp, FRAME_ANY, resp_sink, w);
    buf_reset(&s->acc);
    s->truncated = 0;
}

static void hand_response(struct rec_wire *w, struct rec_stream *s)
{
    struct rec_msg m = {.body = s->acc.data, .body_len = s->acc.len, .truncated = s->truncated,
                        .wire_bytes = s->resp.wire_seen, .first_ns = s->first_ns,
                        .last_ns = s->now_ns, .status = http_response_status(&s->resp)};
    w->ev->answer(w->ctx, &m);
    restart_response(w, s);
}

static void feed_responses(struct rec_wire *w, const char *p, size_t n)
{
    struct rec_stream *s = &w->s[REC_DOWN];
    size_t off = 0;
    while (off < n && !s->lost) {
        size_t used = 0;
        if (s->resp.wire_seen == 0)
            s->first_ns = s->now_ns;
        enum http_resp_outcome o = http_response_feed(&s->resp, p + off, n - off, &used);
        off += used;
        if (o == HTTP_RESP_COMPLETE)
            hand_response(w, s);
        else if (o != HTTP_RESP_PARTIAL)
            lose(w, REC_DOWN, "not an HTTP response");
    }
}

/* Whether f has a header called key (its value never read). */
static int has_header(const struct stomp_frame *f, const char *key)
{
    size_t n = strlen(key);
    for (size_t i = 0; i < f->nheaders; i++)
        if (f->headers[i].key_len == n && !memcmp(f->headers[i].key, key, n))
            return 1;
    return 0;
}

/* One STOMP frame f of dir, wire bytes long. */
static void stomp_frame(struct rec_wire *w, enum rec_dir dir, const struct stomp_frame *f,
                        size_t wire)
{
    struct rec_stream *s = &w->s[dir];
    char dest[REC_WHERE_LEN] = "";
    struct rec_msg m = {.stomp = 1, .body = f->body, .body_len = f->body_len,
                        .wire_bytes = wire, .first_ns = s->first_ns, .last_ns = s->now_ns,
                        .where = dest};
    if (dir == REC_UP && (stomp_is(f, "CONNECT") || stomp_is(f, "STOMP"))) {
        if (has_header(f, "passcode"))
            w->ev->passcode(w->ctx);
    } else if (dir == REC_UP && stomp_is(f, "SEND")) {
        if (stomp_header(f, "destination", dest, sizeof dest) < 0)
            dest[0] = '\0';
        w->ev->call(w->ctx, &m);
    } else if (dir == REC_DOWN && stomp_is(f, "MESSAGE")) {
        w->ev->answer(w->ctx, &m);
    }
}

static void feed_stomp(struct rec_wire *w, enum rec_dir dir, const char *p, size_t n)
{
    struct rec_stream *s = &w->s[dir];
    char err[ERR_LEN];
    if (s->acc.len == 0)
        s->first_ns = s->now_ns;
    if (buf_append(&s->acc, p, n) < 0) {
        lose(w, dir, "out of memory");
        return;
    }
    size_t off = 0;
    while (!s->lost && off < s->acc.len) {
        struct stomp_frame f;
        ssize_t k = stomp_parse(s->acc.data + off, s->acc.len - off, w->max_msg, &f, err);
        if (k < 0)
            lose(w, dir, "not a STOMP frame, or one over the size limit");
        if (k <= 0)
            break;
        if (f.command_len)
            stomp_frame(w, dir, &f, (size_t)k);
        off += (size_t)k;
        s->first_ns = s->now_ns; /* what is left came in this read */
    }
    if (!s->lost)
        buf_consume(&s->acc, off);
}

/* The stream's own parser, once the client's first bytes chose the wire. */
static void feed_decided(struct rec_wire *w, enum rec_dir dir, const char *p, size_t n)
{
    if (w->kind == SNIFF_STOMP)
        feed_stomp(w, dir, p, n);
    else if (dir == REC_UP)
        feed_requests(w, p, n);
    else
        feed_responses(w, p, n);
}

void rec_wire_init(struct rec_wire *w, size_t max_msg, const struct rec_wire_events *ev,
                   void *ctx)
{
    memset(w, 0, sizeof *w);
    w->kind = SNIFF_MORE;
    w->max_msg = max_msg;
    w->ev = ev;
    w->ctx = ctx;
    http_parser_init(&w->s[REC_UP].hp, HTTP_REQUEST);
    w->s[REC_UP].hp.data = w;
    restart_response(w, &w->s[REC_DOWN]);
}

/* The client's first bytes, until serve's sniffing decides: then they and
 * the rest of this read go to the wire's parser. @return 1 when decided. */
static int sniff(struct rec_wire *w, const char **p, size_t *n)
{
    size_t k = *n < sizeof w->head - w->nhead ? *n : sizeof w->head - w->nhead;
    memcpy(w->head + w->nhead, *p, k);
    w->nhead += k;
    *p += k;
    *n -= k;
    w->kind = sniff_kind(w->head, w->nhead);
    if (w->kind == SNIFF_MORE)
        return 0;
    feed_decided(w, REC_UP, w->head, w->nhead);
    return 1;
}

void rec_wire_feed(struct rec_wire *w, enum rec_dir dir, const char *p, size_t n,
                   int64_t now_ns)
{
    struct rec_stream *s = &w->s[dir];
    if (s->lost || n == 0)
        return;
    s->now_ns = now_ns;
    if (w->kind == SNIFF_MORE) {
        if (dir == REC_DOWN) { /* the server spoke first: neither HTTP nor STOMP */
            lose(w, dir, "the server spoke before the client");
            return;
        }
        if (!sniff(w, &p, &n))
            return;
    }
    if (n)
        feed_decided(w, dir, p, n);
}

void rec_wire_eof(struct rec_wire *w, enum rec_dir dir, int64_t now_ns)
{
    struct rec_stream *s = &w->s[dir];
    if (s->lost || w->kind != SNIFF_HTTP || dir != REC_DOWN || s->resp.wire_seen == 0)
        return;
    s->now_ns = now_ns;
    if (http_response_eof(&s->resp) == HTTP_RESP_COMPLETE)
        hand_response(w, s);
}

void rec_wire_free(struct rec_wire *w)
{
    buf_free(&w->s[REC_UP].acc);
    buf_free(&w->s[REC_DOWN].acc);
}
