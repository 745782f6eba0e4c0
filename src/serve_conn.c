/* serve_conn: per-connection protocol handling of `rpcbench serve`.
 *
 * Life of a connection: SNIFF (first bytes pick the protocol) -> HTTP
 * (requests parsed by http-parser, answered one at a time) -> closed, or
 * CLOSING after an error answer (write shut, input drained briefly so the
 * client reads our 4xx instead of a reset).
 *
 * While a request is being answered the connection is "busy": parsing is
 * paused, reading stops and the idle timer is off (the delay timer may
 * run). Unparsed pipelined bytes wait in c->in. The answer is rendered into
 * the server's shared buffer and written from there; only what the socket
 * did not take is copied to the connection (c->out) for EV_WRITE. */
#include "serve_conn.h"

#include <errno.h>
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define HDR_ROOM 256       /* kept before a body for the status line and headers */
#define PATH_LEN 256
#define LINGER_S 2.0       /* how long an error-closed connection drains input */
#define KEEP_CAP (64 * 1024) /* per-connection buffers above this are freed when done */
#define MAX_READS 16       /* reads per event while draining a closing connection */

enum proto { PROTO_SNIFF, PROTO_HTTP, PROTO_CLOSING };
enum route { ROUTE_XMLRPC, ROUTE_JSONRPC, ROUTE_NOT_FOUND, ROUTE_BAD_METHOD };
/* What a step left behind: carry on, wait for an event, or the connection
 * is gone (freed, or closing): touch it no more. */
enum step { STEP_GO, STEP_WAIT, STEP_GONE };

struct conn {
    struct serve_ctx *ctx;
    struct conn *prev, *next;
    int fd;
    enum proto proto;
    ev_io rio, wio;
    ev_timer idle, delay;
    http_parser parser;
    struct buf in;    /* unparsed input kept while busy */
    size_t in_off;
    struct buf body;  /* the current request's body */
    struct buf out;   /* the unwritten rest of a response */
    size_t out_off;
    char path[PATH_LEN];
    size_t path_len;
    enum route route;
    int busy, keep_alive, close_after, linger;
    int fail_status;  /* 413/414 chosen by a parser callback */
    char field[8];    /* start of the header name being read, lowercased */
    size_t field_len;
    int expect_continue;
};

static enum step feed(struct conn *c, const char *p, size_t n, size_t *used);
static void resume(struct conn *c);

/* ---- life cycle ---- */

static void conn_free(struct conn *c)
{
    struct ev_loop *loop = c->ctx->loop;
    ev_io_stop(loop, &c->rio);
    ev_io_stop(loop, &c->wio);
    ev_timer_stop(loop, &c->idle);
    ev_timer_stop(loop, &c->delay);
    close(c->fd);
    if (c->prev)
        c->prev->next = c->next;
    else
        c->ctx->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->ctx->nconns--;
    buf_free(&c->in);
    buf_free(&c->body);
    buf_free(&c->out);
    free(c);
}

static void idle_restart(struct conn *c, double after)
{
    c->idle.repeat = after;
    ev_timer_again(c->ctx->loop, &c->idle);
}

/* Error answers close the connection; shutting the write side first and
 * draining for a moment lets the client read the answer even if it is
 * still sending (closing with unread input would send a reset). */
static void linger_start(struct conn *c)
{
    shutdown(c->fd, SHUT_WR);
    c->proto = PROTO_CLOSING;
    ev_io_start(c->ctx->loop, &c->rio);
    idle_restart(c, LINGER_S);
}

static void drain(struct conn *c)
{
    for (int i = 0; i < MAX_READS; i++) {
        ssize_t n = read(c->fd, c->ctx->rbuf, c->ctx->rbuf_len);
        if (n > 0)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return;
        conn_free(c);
        return;
    }
}

/* Big buffers of one request go back to the allocator, so many idle
 * connections stay small. */
static void trim(struct buf *b)
{
    if (b->cap > KEEP_CAP)
        buf_free(b);
    else
        buf_reset(b);
}

/* ---- writing ---- */

/* @return 1 all written, 0 the socket is full, -1 error. */
static int write_some(int fd, const char *p, size_t n, size_t *off)
{
    while (*off < n) {
        ssize_t w = send(fd, p + *off, n - *off, MSG_NOSIGNAL);
        if (w > 0)
            *off += (size_t)w;
        else if (w < 0 && errno == EINTR)
            continue;
        else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        else
            return -1;
    }
    return 1;
}

/* The answer went out: close, or get ready for the next request. */
static enum step finish(struct conn *c)
{
    c->busy = 0;
    trim(&c->out);
    c->out_off = 0;
    trim(&c->body);
    if (c->close_after) {
        if (c->linger)
            linger_start(c);
        else
            conn_free(c);
        return STEP_GONE;
    }
    http_parser_pause(&c->parser, 0);
    ev_io_start(c->ctx->loop, &c->rio);
    idle_restart(c, c->ctx->idle_s);
    return STEP_GO;
}

/* Sends p[0..n) straight from the shared buffer; what the socket does not
 * take now is copied to c->out and finished on EV_WRITE. */
static enum step send_response(struct conn *c, const char *p, size_t n)
{
    size_t off = 0;
    int r = write_some(c->fd, p, n, &off);
    if (r < 0) {
        conn_free(c);
        return STEP_GONE;
    }
    if (r == 1)
        return finish(c);
    buf_reset(&c->out);
    if (buf_append(&c->out, p + off, n - off) < 0) {
        conn_free(c);
        return STEP_GONE;
    }
    c->out_off = 0;
    ev_io_start(c->ctx->loop, &c->wio);
    idle_restart(c, c->ctx->idle_s); /* a client that never reads is dropped */
    return STEP_WAIT;
}

/* Puts the status line and headers right before the body rendered at
 * ctx->out[HDR_ROOM..], so the whole response is one contiguous write. */
static enum step respond(struct conn *c, int status, const char *reason, const char *ctype,
                         const char *extra)
{
    struct buf *o = &c->ctx->out;
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
        conn_free(c);
        return STEP_GONE;
    }
    memcpy(o->data + HDR_ROOM - n, h, (size_t)n);
    return send_response(c, o->data + HDR_ROOM - n, (size_t)n + blen);
}

/* Empties the shared buffer, leaving room for the headers. */
static int out_begin(struct serve_ctx *ctx)
{
    buf_reset(&ctx->out);
    if (buf_reserve(&ctx->out, HDR_ROOM + 1) < 0)
        return -1;
    ctx->out.len = HDR_ROOM;
    return 0;
}

static enum step respond_text(struct conn *c, int status, const char *reason, const char *extra)
{
    if (out_begin(c->ctx) < 0 || buf_appendf(&c->ctx->out, "%s\n", reason) < 0) {
        conn_free(c);
        return STEP_GONE;
    }
    return respond(c, status, reason, "text/plain", extra);
}

/* Answers broken input and closes. */
static enum step fail(struct conn *c, int status)
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

static enum step answer(struct conn *c)
{
    struct serve_ctx *ctx = c->ctx;
    if (c->route == ROUTE_NOT_FOUND)
        return respond_text(c, 404, "Not Found", "");
    if (c->route == ROUTE_BAD_METHOD)
        return respond_text(c, 405, "Method Not Allowed", "Allow: POST\r\n");
    const struct encoder *enc = c->route == ROUTE_XMLRPC ? &enc_xmlrpc : &enc_jsonrpc;
    int r = out_begin(ctx) < 0 ? VDSM_NOMEM
                               : vdsm_api_handle(&ctx->api, enc, c->body.data ? c->body.data : "",
                                                 c->body.len, &ctx->out);
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
    struct conn *c = w->data;
    if (answer(c) == STEP_GO)
        resume(c);
}

/* A complete request: stop reading and answer, now or after --delay. */
static enum step begin_answer(struct conn *c)
{
    struct serve_ctx *ctx = c->ctx;
    c->busy = 1;
    ctx->requests++;
    ev_io_stop(ctx->loop, &c->rio);
    ev_timer_stop(ctx->loop, &c->idle);
    int64_t d = delay_next(&ctx->delay);
    if (d <= 0)
        return answer(c);
    ev_timer_set(&c->delay, (double)d / 1e9, 0.0);
    ev_timer_start(ctx->loop, &c->delay);
    return STEP_WAIT;
}

/* ---- HTTP parsing ---- */

static int on_message_begin(http_parser *p)
{
    struct conn *c = p->data;
    c->path_len = 0;
    c->fail_status = 0;
    c->expect_continue = 0;
    c->field_len = 0;
    buf_reset(&c->body);
    return 0;
}

static int on_url(http_parser *p, const char *at, size_t len)
{
    struct conn *c = p->data;
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
    struct conn *c = p->data;
    if (c->field_len == sizeof c->field) /* a new field after a value */
        c->field_len = 0;
    for (size_t i = 0; i < len && c->field_len < sizeof c->field - 1; i++)
        c->field[c->field_len++] = (char)(at[i] | 0x20);
    c->field[c->field_len] = '\0';
    return 0;
}

static int on_header_value(http_parser *p, const char *at, size_t len)
{
    struct conn *c = p->data;
    if (!strcmp(c->field, "expect") && len >= 12 && !strncasecmp(at, "100-continue", 12))
        c->expect_continue = 1;
    c->field_len = sizeof c->field; /* the next field callback starts afresh */
    return 0;
}

/* VDSM's routes: XML-RPC at /RPC2 and /, JSON-RPC at /jsonrpc. The body
 * size is checked here, before any of it is read. */
static int on_headers_complete(http_parser *p)
{
    struct conn *c = p->data;
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
        if (send(c->fd, go, sizeof go - 1, MSG_NOSIGNAL) < 0)
            c->expect_continue = 0;
    }
    return 0;
}

static int on_body(http_parser *p, const char *at, size_t len)
{
    struct conn *c = p->data;
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
    struct conn *c = p->data;
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
static enum step feed(struct conn *c, const char *p, size_t n, size_t *used)
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

/* ---- reading ---- */

/* The one place that decides, from its first bytes, what a new connection
 * speaks (as VDSM's protocol detector does on port 54321). Today it is
 * always HTTP: anything that is not HTTP gets the parser's 400. A later
 * issue adds here: 0x16 (a TLS handshake record) -> TLS, then sniff again
 * on the plaintext; a STOMP command line ("CONNECT", "STOMP") -> STOMP. */
static enum proto sniff(const char *p, size_t n)
{
    (void)p;
    (void)n;
    return PROTO_HTTP;
}

/* Feeds freshly read bytes; keeps what a busy connection did not parse. */
static void on_input(struct conn *c, const char *p, size_t n)
{
    size_t used;
    /* Older bytes go first. (Cannot happen today: a connection with bytes
     * waiting is busy, and a busy connection does not read.) */
    if (c->in.len > c->in_off) {
        if (buf_append(&c->in, p, n) < 0) {
            conn_free(c);
            return;
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
        return;
    if (from_in) {
        c->in_off += used;
    } else if (used < n && buf_append(&c->in, p + used, n - used) < 0) {
        conn_free(c);
        return;
    }
    if (c->in_off == c->in.len) {
        trim(&c->in);
        c->in_off = 0;
    }
}

/* After an answer: parse the pipelined bytes that waited in c->in. */
static void resume(struct conn *c)
{
    size_t used;
    if (c->in.len == c->in_off)
        return;
    if (feed(c, c->in.data + c->in_off, c->in.len - c->in_off, &used) == STEP_GONE)
        return;
    c->in_off += used;
    if (c->in_off == c->in.len) {
        trim(&c->in);
        c->in_off = 0;
    }
}

/* One read per event: libev is level-triggered and calls again while bytes
 * wait, and c may be freed by what the bytes cause. */
static void on_readable(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    (void)revents;
    struct conn *c = w->data;
    if (c->proto == PROTO_CLOSING) {
        drain(c);
        return;
    }
    ssize_t n = read(c->fd, c->ctx->rbuf, c->ctx->rbuf_len);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) { /* EOF (maybe mid-request: nothing to answer) or error */
        conn_free(c);
        return;
    }
    if (c->proto == PROTO_SNIFF)
        c->proto = sniff(c->ctx->rbuf, (size_t)n);
    on_input(c, c->ctx->rbuf, (size_t)n);
}

static void on_writable(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)revents;
    struct conn *c = w->data;
    size_t before = c->out_off;
    int r = write_some(c->fd, c->out.data, c->out.len, &c->out_off);
    if (r < 0) {
        conn_free(c);
        return;
    }
    if (r == 0) {
        if (c->out_off > before) /* slow but reading: not idle */
            idle_restart(c, c->ctx->idle_s);
        return;
    }
    ev_io_stop(loop, &c->wio);
    if (finish(c) == STEP_GO)
        resume(c);
}

static void on_idle(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    conn_free(w->data);
}

int serve_conn_start(struct serve_ctx *ctx, int fd)
{
    struct conn *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return -1;
    }
    c->ctx = ctx;
    c->fd = fd;
    c->proto = PROTO_SNIFF;
    http_parser_init(&c->parser, HTTP_REQUEST);
    c->parser.data = c;
    ev_io_init(&c->rio, on_readable, fd, EV_READ);
    ev_io_init(&c->wio, on_writable, fd, EV_WRITE);
    ev_init(&c->idle, on_idle);
    ev_init(&c->delay, on_delay);
    c->rio.data = c->wio.data = c->idle.data = c->delay.data = c;
    c->next = ctx->conns;
    if (ctx->conns)
        ctx->conns->prev = c;
    ctx->conns = c;
    ctx->nconns++;
    ev_io_start(ctx->loop, &c->rio);
    idle_restart(c, ctx->idle_s);
    return 0;
}

void serve_conn_close_all(struct serve_ctx *ctx)
{
    while (ctx->conns)
        conn_free(ctx->conns);
}
