/* conn_http: one HTTP/1.1 keep-alive connection of the load engine, one
 * request in flight at a time (as XML-RPC and JSON-RPC over HTTP are used).
 *
 * The request bytes are rendered once per verb (conn_http_prepare) and only
 * the id is stamped per send; responses are framed by http-parser into a
 * per-connection body buffer that is reused, so a steady run allocates
 * nothing. Every failure ends in conn_fail(): the request is counted with its
 * kind and the connection reconnects. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "engine_int.h"

static int on_headers_complete(http_parser *p);
static int on_body(http_parser *p, const char *at, size_t len);
static int on_message_complete(http_parser *p);

static const http_parser_settings parser_settings = {
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

int conn_http_prepare(struct engine *e, int verb, const struct enc_request *body, char *err)
{
    struct prepared *p = &e->prep[verb];
    struct buf *b = &p->req.body;
    buf_reset(b);
    int rc = buf_appendf(b,
                         "POST %s HTTP/1.1\r\nHost: %s:%d\r\nUser-Agent: rpcbench\r\n"
                         "Content-Type: %s\r\nContent-Length: %zu\r\n\r\n",
                         e->target->path, e->target->host, e->target->port,
                         e->enc->content_type, body->body.len);
    size_t head = b->len;
    if (rc || buf_append(b, body->body.data, body->body.len)) {
        snprintf(err, ERR_LEN, "out of memory rendering the request");
        return -1;
    }
    p->req.id_off = head + body->id_off;
    p->req.id_len = body->id_len;
    p->body_len = body->body.len;
    return 0;
}

static void io_cb(struct ev_loop *loop, ev_io *w, int revents);
static void timer_cb(struct ev_loop *loop, ev_timer *w, int revents);

void conn_http_init(struct engine *e, struct conn *c)
{
    memset(c, 0, sizeof *c);
    c->eng = e;
    c->fd = -1;
    c->state = CONN_DOWN;
    c->backoff_s = 0.01;
    ev_init(&c->io, io_cb);
    c->io.data = c;
    ev_init(&c->timer, timer_cb);
    c->timer.data = c;
}

static void watch(struct conn *c, int events)
{
    struct ev_loop *loop = c->eng->loop;
    if (c->io.fd == c->fd && (c->io.events & (EV_READ | EV_WRITE)) == events &&
        ev_is_active(&c->io))
        return;
    ev_io_stop(loop, &c->io);
    ev_io_set(&c->io, c->fd, events);
    ev_io_start(loop, &c->io);
}

void conn_http_close(struct conn *c)
{
    ev_io_stop(c->eng->loop, &c->io);
    ev_timer_stop(c->eng->loop, &c->timer);
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->state = CONN_DOWN;
    c->out_off = c->out.len = 0;
}

void conn_http_start(struct conn *c)
{
    char err[ERR_LEN];
    c->fd = target_connect_nb(c->eng->target, err);
    if (c->fd < 0) {
        engine_conn_backoff(c->eng, c);
        return;
    }
    c->state = CONN_CONNECTING;
    watch(c, EV_WRITE);
}

/* The request failed: count it and start over on a fresh connection. */
static void conn_fail(struct conn *c, int kind)
{
    struct engine *e = c->eng;
    conn_http_close(c);
    engine_request_done(e, c, kind, 0);
    conn_http_start(c);
}

static void connected(struct conn *c)
{
    int soerr = 0;
    socklen_t len = sizeof soerr;
    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0 || soerr) {
        conn_http_close(c);
        engine_conn_backoff(c->eng, c);
        return;
    }
    c->backoff_s = 0.01;
    c->state = CONN_IDLE;
    watch(c, EV_READ); /* an idle keep-alive socket still tells us of EOF */
    engine_conn_idle(c->eng, c);
}

/* Writes what is left of the request; 0 when done, 1 pending, -1 error. */
static int flush_out(struct conn *c, const char *data, size_t len)
{
    while (c->out_off < len) {
        ssize_t n = send(c->fd, data + c->out_off, len - c->out_off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 1;
        if (n <= 0)
            return -1;
        c->out_off += (size_t)n;
        if (c->req.measured)
            c->eng->res->bytes_sent += n;
    }
    return 0;
}

void conn_http_send(struct conn *c)
{
    struct engine *e = c->eng;
    struct prepared *p = &e->prep[c->req.verb];
    enc_stamp_id(&p->req, c->req.id);
    http_parser_init(&c->parser, HTTP_RESPONSE);
    c->parser.data = c;
    c->message_done = c->too_large = 0;
    buf_reset(&c->body);
    c->state = CONN_BUSY;
    c->out_off = 0;
    buf_reset(&c->out);
    c->req.sent_ns = clock_now_ns();
    int rc = flush_out(c, p->req.body.data, p->req.body.len);
    ev_timer_set(&c->timer, (double)e->cfg->timeout_ns / 1e9, 0);
    ev_timer_start(e->loop, &c->timer);
    if (rc < 0) {
        conn_fail(c, ERR_CLOSED);
        return;
    }
    if (rc > 0) {
        /* The shared template gets restamped by the next send: keep a copy
         * of the rest (rare: requests are small). */
        buf_append(&c->out, p->req.body.data, p->req.body.len);
        watch(c, EV_READ | EV_WRITE);
        return;
    }
    watch(c, EV_READ);
}

static int on_headers_complete(http_parser *p)
{
    struct conn *c = p->data;
    if (p->content_length != ULLONG_MAX && p->content_length > c->eng->cfg->max_response) {
        c->too_large = 1;
        return -1;
    }
    return 0;
}

static int on_body(http_parser *p, const char *at, size_t len)
{
    struct conn *c = p->data;
    if (c->body.len + len > c->eng->cfg->max_response) {
        c->too_large = 1;
        return -1;
    }
    if (c->eng->cfg->validate == VALIDATE_NONE)
        c->body.len += len; /* count only: nothing is kept */
    else if (buf_append(&c->body, at, len))
        return -1;
    return 0;
}

static int on_message_complete(http_parser *p)
{
    ((struct conn *)p->data)->message_done = 1;
    return 0;
}

/* Classifies a complete response: -1 ok, or an error kind. */
static int classify(struct conn *c)
{
    struct engine *e = c->eng;
    if (c->parser.status_code < 200 || c->parser.status_code > 299)
        return ERR_HTTP;
    if (e->cfg->validate == VALIDATE_NONE)
        return -1;
    struct enc_result r = {0};
    int st = e->cfg->validate == VALIDATE_FULL
                 ? e->enc->decode_response(c->body.data, c->body.len, &r)
                 : e->enc->check_response(c->body.data, c->body.len, &r);
    if (st == ENC_FAULT)
        return ERR_FAULT;
    if (st != ENC_OK || (r.has_id && r.id != c->req.id))
        return ERR_DECODE;
    return -1;
}

static void finish(struct conn *c, size_t rx)
{
    struct engine *e = c->eng;
    int kind = classify(c);
    int keep = http_should_keep_alive(&c->parser);
    ev_timer_stop(e->loop, &c->timer);
    engine_request_done(e, c, kind, rx);
    if (!keep || c->state != CONN_BUSY) {
        conn_http_close(c);
        conn_http_start(c);
        return;
    }
    c->state = CONN_IDLE;
    watch(c, EV_READ);
    engine_conn_idle(e, c);
}

/* Reads and frames what the socket has. */
static void on_readable(struct conn *c)
{
    size_t rx = 0;
    for (;;) {
        ssize_t n = recv(c->fd, c->eng->rbuf, sizeof c->eng->rbuf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n <= 0) { /* EOF or reset: maybe the end of a body without length */
            if (n == 0)
                http_parser_execute(&c->parser, &parser_settings, NULL, 0);
            if (c->message_done) {
                c->state = CONN_DOWN;
                finish(c, rx);
            } else {
                conn_fail(c, ERR_CLOSED);
            }
            return;
        }
        rx += (size_t)n;
        if (c->req.measured)
            c->eng->res->bytes_received += n;
        size_t used = http_parser_execute(&c->parser, &parser_settings, c->eng->rbuf, (size_t)n);
        if (c->parser.http_errno != HPE_OK || used != (size_t)n) {
            if (c->message_done && used == (size_t)n)
                break;
            conn_fail(c, ERR_DECODE);
            return;
        }
        if (c->message_done)
            break;
    }
    if (c->message_done)
        finish(c, rx);
}

/* An idle keep-alive socket became readable: the server closed it (or sent
 * something unasked). Reconnect quietly: no request was lost. */
static void on_idle_readable(struct conn *c)
{
    struct engine *e = c->eng;
    for (struct conn **pp = &e->idle; *pp; pp = &(*pp)->next_idle)
        if (*pp == c) {
            *pp = c->next_idle;
            break;
        }
    conn_http_close(c);
    conn_http_start(c);
}

static void io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    struct conn *c = w->data;
    switch (c->state) {
    case CONN_CONNECTING:
        connected(c);
        return;
    case CONN_IDLE:
        on_idle_readable(c);
        return;
    case CONN_BUSY:
        if ((revents & EV_WRITE) && c->out_off < c->out.len) {
            int rc = flush_out(c, c->out.data, c->out.len);
            if (rc < 0) {
                conn_fail(c, ERR_CLOSED);
                return;
            }
            if (rc == 0)
                watch(c, EV_READ);
        }
        if (revents & EV_READ)
            on_readable(c);
        return;
    default:
        return;
    }
}

static void timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct conn *c = w->data;
    if (c->state == CONN_BACKOFF) {
        c->state = CONN_DOWN;
        c->eng->nbackoff--;
        conn_http_start(c);
        return;
    }
    if (c->state == CONN_BUSY)
        conn_fail(c, ERR_TIMEOUT);
}
