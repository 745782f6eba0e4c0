/* serve_http: HTTP/1.x on a serve connection (see serve_conn.h): the
 * serve_http wire table.
 *
 * Requests are parsed by http-parser, one at a time: parsing pauses at each
 * complete request until its response (possibly delayed by --delay) is
 * fully written, so pipelined requests are answered in order.
 *
 * While a request is being answered the connection is "busy": parsing is
 * paused, reading stops and the idle timer is off (the delay timer may
 * run). Unparsed pipelined bytes wait in c->in. The answer is rendered into
 * the server's shared buffer and written from there; only what the socket
 * did not take is copied to the connection (c->out) for EV_WRITE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net/http_field.h"
#include "server/serve_conn_int.h"

#define HDR_ROOM 256 /* kept before a body for the status line and headers */

static enum step feed(struct sconn *c, const char *p, size_t n, size_t *used);
static enum step resume(struct sconn *c);

/* The answer went out: close, or get ready for the next request. */
static enum step finish(struct sconn *c)
{
    c->busy = 0;
    sconn_trim(&c->out);
    c->out_off = 0;
    sconn_trim(&c->body);
    if (c->close_after) {
        if (c->linger)
            sconn_linger_start(c);
        else
            sconn_free(c);
        return STEP_GONE;
    }
    http_parser_pause(&c->parser, 0);
    sconn_reading(c, 1);
    sconn_idle_restart(c, c->ctx->idle_s);
    return STEP_GO;
}

/* Sends p[0..n) straight from the shared buffer; what the socket does not
 * take now is copied to c->out and finished on EV_WRITE. */
static enum step send_response(struct sconn *c, const char *p, size_t n)
{
    size_t off = 0;
    enum io_status st = sock_write_all(c->fd, c->ssl, p, n, &off);
    if (st == IO_ERROR) {
        sconn_free(c);
        return STEP_GONE;
    }
    if (st == IO_DONE)
        return finish(c);
    buf_reset(&c->out);
    if (buf_append(&c->out, p + off, n - off) < 0) {
        sconn_free(c);
        return STEP_GONE;
    }
    c->out_off = 0;
    ev_io_start(c->ctx->loop, &c->wio);
    sconn_idle_restart(c, c->ctx->idle_s); /* a client that never reads is dropped */
    return STEP_WAIT;
}

/* Puts the status line and headers right before the body rendered at
 * ctx->out[HDR_ROOM..], so the whole response is one contiguous write. */
static enum step respond(struct sconn *c, int status, const char *reason, const char *ctype,
                         const char *extra)
{
    struct buf *o = c->ctx->out;
    size_t blen = o->len - HDR_ROOM;
    const char *conn_hdr = c->close_after ? "Connection: close\r\n"
                           : c->parser.http_minor == 0 ? "Connection: keep-alive\r\n"
                                                       : "";
    char h[HDR_ROOM];
    int n;
    if (status == 204)
        n = snprintf(h, sizeof h, "HTTP/1.1 204 No Content\r\n%s\r\n", conn_hdr);
    else
        n = snprintf(h, sizeof h,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s%s\r\n",
                     status, reason, ctype, blen, conn_hdr, extra);
    if (n < 0 || n >= HDR_ROOM) { /* cannot happen with our short headers */
        sconn_free(c);
        return STEP_GONE;
    }
    memcpy(o->data + HDR_ROOM - n, h, (size_t)n);
    return send_response(c, o->data + HDR_ROOM - n, (size_t)n + blen);
}

/* Empties the shared buffer, leaving room for the headers. */
static int out_begin(struct serve_ctx *ctx)
{
    buf_reset(ctx->out);
    if (buf_reserve(ctx->out, HDR_ROOM + 1) < 0)
        return -1;
    ctx->out->len = HDR_ROOM;
    return 0;
}

static enum step respond_text(struct sconn *c, int status, const char *reason, const char *extra)
{
    if (out_begin(c->ctx) < 0 || buf_appendf(c->ctx->out, "%s\n", reason) < 0) {
        sconn_free(c);
        return STEP_GONE;
    }
    return respond(c, status, reason, "text/plain", extra);
}

/* Answers broken input and closes. */
static enum step fail(struct sconn *c, int status)
{
    static const struct { int status; const char *reason; } reasons[] = {
        {400, "Bad Request"}, {413, "Payload Too Large"}, {414, "URI Too Long"}};
    const char *reason = "Bad Request";
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (reasons[i].status == status)
            reason = reasons[i].reason;
    c->ctx->bad_requests++;
    c->busy = 1;
    c->close_after = c->linger = 1;
    ev_io_stop(c->ctx->loop, &c->rio);
    ev_timer_stop(c->ctx->loop, &c->delay);
    return respond_text(c, status, reason, "");
}

/* ---- answering ---- */

static enum step answer(struct sconn *c)
{
    struct serve_ctx *ctx = c->ctx;
    if (c->route == ROUTE_NOT_FOUND)
        return respond_text(c, 404, "Not Found", "");
    if (c->route == ROUTE_BAD_METHOD)
        return respond_text(c, 405, "Method Not Allowed", "Allow: POST\r\n");
    const struct encoder *enc = c->route == ROUTE_XMLRPC ? &enc_xmlrpc : &enc_jsonrpc;
    int r = out_begin(ctx) < 0 ? VDSM_NOMEM
                               : vdsm_api_handle(&ctx->api, enc, c->body.data ? c->body.data : "",
                                                 c->body.len, ctx->out);
    if (r == VDSM_NO_REPLY)
        return respond(c, 204, "No Content", "", "");
    if (r != VDSM_REPLY) {
        c->close_after = 1;
        return respond_text(c, 500, "Internal Server Error", "");
    }
    return respond(c, 200, "OK", enc->content_type, "");
}

static void on_delay(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct sconn *c = w->data;
    if (answer(c) == STEP_GO)
        resume(c);
}

/* A complete request: stop reading and answer, now or after --delay. */
static enum step begin_answer(struct sconn *c)
{
    struct serve_ctx *ctx = c->ctx;
    c->busy = 1;
    ev_io_stop(ctx->loop, &c->rio);
    ev_timer_stop(ctx->loop, &c->idle);
    /* A JSON-RPC batch is many requests, answered once the slowest is done. */
    int64_t d = sconn_batch_delay(ctx, c->route == ROUTE_JSONRPC ? &enc_jsonrpc : &enc_xmlrpc,
                                  c->body.data, c->body.len);
    if (d <= 0)
        return answer(c);
    ev_timer_set(&c->delay, (double)d / 1e9, 0.0);
    ev_timer_start(ctx->loop, &c->delay);
    return STEP_WAIT;
}

/* ---- HTTP parsing ---- */

static int on_message_begin(http_parser *p)
{
    struct sconn *c = p->data;
    c->path_len = 0;
    c->fail_status = 0;
    c->expect_continue = 0;
    c->field_len = 0;
    buf_reset(&c->body);
    return 0;
}

static int on_url(http_parser *p, const char *at, size_t len)
{
    struct sconn *c = p->data;
    if (len >= PATH_LEN - c->path_len) {
        c->fail_status = 414;
        return -1;
    }
    memcpy(c->path + c->path_len, at, len);
    c->path_len += len;
    return 0;
}

/* Only "Expect" matters to us: curl sends "Expect: 100-continue" before a
 * large body and waits a second for the go-ahead. */
static int on_header_field(http_parser *p, const char *at, size_t len)
{
    struct sconn *c = p->data;
    http_field_add(c->field, sizeof c->field, &c->field_len, at, len);
    return 0;
}

static int on_header_value(http_parser *p, const char *at, size_t len)
{
    struct sconn *c = p->data;
    if (!strcmp(c->field, "expect") && len >= 12 && !strncasecmp(at, "100-continue", 12))
        c->expect_continue = 1;
    http_field_done(sizeof c->field, &c->field_len);
    return 0;
}

/* VDSM's routes: XML-RPC at /RPC2 and /, JSON-RPC at /jsonrpc. The body
 * size is checked here, before any of it is read. */
static int on_headers_complete(http_parser *p)
{
    struct sconn *c = p->data;
    c->path[c->path_len] = '\0';
    size_t n = strcspn(c->path, "?");
    if ((n == 5 && !memcmp(c->path, "/RPC2", 5)) || (n == 1 && c->path[0] == '/'))
        c->route = ROUTE_XMLRPC;
    else if (n == 8 && !memcmp(c->path, "/jsonrpc", 8))
        c->route = ROUTE_JSONRPC;
    else
        c->route = ROUTE_NOT_FOUND;
    if (c->route != ROUTE_NOT_FOUND && p->method != HTTP_POST)
        c->route = ROUTE_BAD_METHOD;
    if ((p->flags & F_CONTENTLENGTH) && p->content_length > c->ctx->max_body) {
        c->fail_status = 413;
        return -1;
    }
    if (c->expect_continue) { /* small, best effort: the client proceeds anyway */
        static const char go[] = "HTTP/1.1 100 Continue\r\n\r\n";
        size_t off = 0;
        if (sock_write_all(c->fd, c->ssl, go, sizeof go - 1, &off) != IO_DONE)
            c->expect_continue = 0;
    }
    return 0;
}

static int on_body(http_parser *p, const char *at, size_t len)
{
    struct sconn *c = p->data;
    if (len > c->ctx->max_body - c->body.len) { /* chunked bodies are counted here */
        c->fail_status = 413;
        return -1;
    }
    if (c->route == ROUTE_NOT_FOUND || c->route == ROUTE_BAD_METHOD) {
        c->body.len += len; /* counted, not kept */
        return 0;
    }
    return buf_append(&c->body, at, len) < 0 ? -1 : 0;
}

static int on_message_complete(http_parser *p)
{
    struct sconn *c = p->data;
    c->keep_alive = http_should_keep_alive(p);
    /* Our 405 carries a body, which a HEAD client would not read. */
    c->close_after = !c->keep_alive || p->method == HTTP_HEAD;
    if (c->route == ROUTE_NOT_FOUND || c->route == ROUTE_BAD_METHOD)
        c->body.len = 0;
    http_parser_pause(p, 1); /* one request at a time: answer, then go on */
    return 0;
}

static const http_parser_settings settings = {
    .on_message_begin = on_message_begin,
    .on_url = on_url,
    .on_header_field = on_header_field,
    .on_header_value = on_header_value,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

/* Parses p[0..n), answering each complete request as it appears.
 * *used gets the bytes consumed (meaningful with STEP_WAIT). */
static enum step feed(struct sconn *c, const char *p, size_t n, size_t *used)
{
    size_t off = 0;
    *used = 0;
    while (off < n) {
        size_t k = http_parser_execute(&c->parser, &settings, p + off, n - off);
        off += k;
        enum http_errno e = HTTP_PARSER_ERRNO(&c->parser);
        if (e == HPE_OK && k == 0)
            return fail(c, 400); /* stuck: an upgrade or CONNECT we do not speak */
        if (e == HPE_OK && off < n)
            return fail(c, 400);
        if (e == HPE_OK)
            break;
        if (e != HPE_PAUSED)
            return fail(c, c->fail_status ? c->fail_status : 400);
        enum step s = begin_answer(c);
        if (s == STEP_GONE)
            return s;
        if (c->busy) {
            *used = off;
            return STEP_WAIT;
        }
    }
    *used = off;
    return STEP_GO;
}

/* Feeds freshly read bytes; keeps what a busy connection did not parse. */
static enum step http_input(struct sconn *c, const char *p, size_t n)
{
    size_t used;
    /* Older bytes go first. (Cannot happen today: a connection with bytes
     * waiting is busy, and a busy connection does not read.) */
    if (c->in.len > c->in_off) {
        if (buf_append(&c->in, p, n) < 0) {
            sconn_free(c);
            return STEP_GONE;
        }
        p = c->in.data + c->in_off;
        n = c->in.len - c->in_off;
    } else {
        buf_reset(&c->in);
        c->in_off = 0;
    }
    int from_in = c->in.len > 0;
    enum step s = feed(c, p, n, &used);
    if (s == STEP_GONE)
        return s;
    if (from_in) {
        c->in_off += used;
    } else if (used < n && buf_append(&c->in, p + used, n - used) < 0) {
        sconn_free(c);
        return STEP_GONE;
    }
    if (c->in_off == c->in.len) {
        sconn_trim(&c->in);
        c->in_off = 0;
    }
    return s;
}

/* After an answer: parse the pipelined bytes that waited in c->in. */
static enum step resume(struct sconn *c)
{
    size_t used;
    if (c->in.len == c->in_off)
        return STEP_GO;
    enum step s = feed(c, c->in.data + c->in_off, c->in.len - c->in_off, &used);
    if (s == STEP_GONE)
        return s;
    c->in_off += used;
    if (c->in_off == c->in.len) {
        sconn_trim(&c->in);
        c->in_off = 0;
    }
    return s;
}

/* ---- the wire table ---- */

static enum step http_written(struct sconn *c)
{
    enum step s = finish(c);
    return s == STEP_GO ? resume(c) : s;
}

static int http_start(struct sconn *c)
{
    http_parser_init(&c->parser, HTTP_REQUEST);
    c->parser.data = c;
    ev_init(&c->delay, on_delay);
    c->delay.data = c;
    return 0;
}

/* Writing an answer restarted the idle timer already (serve_conn.c). */
static void http_progress(struct sconn *c)
{
    (void)c;
}

/* No complete request, or an answer not read, for --idle-timeout. */
static void http_idle(struct sconn *c)
{
    sconn_free(c);
}

static void http_close(struct sconn *c)
{
    ev_timer_stop(c->ctx->loop, &c->delay);
    buf_free(&c->body);
}

/* Only STOMP connections subscribe, so nothing queues on an HTTP one; if it
 * ever did, writing it out is all there is to do. */
static void http_queued(struct sconn *c)
{
    if (!ev_is_active(&c->wio))
        ev_io_start(c->ctx->loop, &c->wio);
}

const struct serve_proto serve_http = {
    .start = http_start,
    .input = http_input,
    .written = http_written,
    .progress = http_progress,
    .idle = http_idle,
    .close = http_close,
    .queued = http_queued,
};
