/* conn_http: XML-RPC and JSON-RPC over HTTP/1.1 keep-alive, one request in
 * flight per connection (as these protocols are used over HTTP).
 *
 * The request bytes are rendered once per verb (http_prepare), head and
 * body whole; the dispatch stamps the id into them per send (or stamps a
 * templated call's body afresh, which the head is put before here).
 * Responses are framed by net/http_response into a per-connection body
 * buffer that is reused, so a steady run allocates nothing. With --validate cheap the body goes through check_stream, which
 * keeps only the head and the last bytes when they decide (a 2.3 MB
 * XML-RPC answer is then never copied whole). A failure fails the request
 * with its kind and reconnects.
 *
 * One request is in flight per connection (no pipelining), so bytes that
 * follow a complete answer, or come while no request is out, answer
 * nothing we asked: each such arrival is counted as a stray reply and the
 * connection is closed (its framing can no longer be trusted); the request
 * just answered keeps its own verdict. */
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "client/conn.h"
#include "client/errtext.h"
#include "net/tls.h"

/* The request's head to target t for a body of len bytes, appended to b. */
static int http_head(const struct conn_ctx *x, const struct target *t, struct buf *b, size_t len)
{
    /* --header, --user, --bearer: the lines as given, before the body's */
    return buf_appendf(b,
                       "POST %s HTTP/1.1\r\nHost: %s:%d\r\nUser-Agent: rpcbench\r\n"
                       "%sContent-Type: %s\r\nContent-Length: %zu\r\n\r\n",
                       t->path, t->host, t->port, x->headers, x->enc->content_type, len);
}

static int http_prepare(const struct conn_ctx *x, const struct target *t,
                        const struct enc_request *body, struct prepared *p, char *err)
{
    struct buf *b = &p->req.body;
    buf_reset(b);
    int rc = http_head(x, t, b, body->body.len);
    size_t head = b->len;
    if (rc || buf_append(b, body->body.data, body->body.len)) {
        snprintf(err, ERR_LEN, "out of memory rendering the request");
        return -1;
    }
    p->req.id_off = head + body->id_off;
    p->req.id_len = body->id_len;
    p->body_len = body->body.len;
    p->framed = 1;
    return 0;
}

static void http_ready(struct conn *c)
{
    conn_watch(c, EV_READ); /* an idle keep-alive socket still tells us of EOF */
    conn_ready(c);
}

static void http_on_close(struct conn *c, int kind)
{
    if (c->req.live) {
        c->req.live = 0;
        conn_request_done(&c->req, kind);
    }
}

/* Not 2xx: an error page, or an RPC error carried in an HTTP error. */
static int http_failed(const struct conn *c)
{
    unsigned st = http_response_status(&c->resp);
    return st < 200 || st > 299;
}

/* The body as it comes: counted only, fed to the cheap check, or kept
 * whole for the full decode (--validate). An error's body is kept whole
 * whatever --validate (failures only, within --max-response): it says
 * which error it is. */
static int keep_body(void *ctx, const char *at, size_t len)
{
    struct conn *c = ctx;
    if (http_failed(c))
        return buf_append(&c->body, at, len);
    switch (c->ctx->validate) {
    case VALIDATE_NONE:
        return 0;
    case VALIDATE_CHEAP:
        return check_stream_feed(&c->check, at, len);
    default:
        return buf_append(&c->body, at, len);
    }
}

/* The bytes of m as they go: m's own when framed (a verb's prepared
 * request, head and all), else a templated call's body with its head put
 * before it, in the context's scratch. @return 0, or -1 (m NULL: the
 * dispatch could not make it; out of memory). */
static int http_bytes(struct conn *c, const struct wire_msg *m, const char **at, size_t *len)
{
    struct buf *b = c->ctx->scratch;
    if (m && m->framed) {
        *at = m->data;
        *len = m->len;
        return 0;
    }
    buf_reset(b);
    if (!m || http_head(c->ctx, c->target, b, m->len) || buf_append(b, m->data, m->len))
        return -1;
    *at = b->data;
    *len = b->len;
    return 0;
}

static void http_send(struct conn *c, struct request *r, const struct wire_msg *m)
{
    const struct conn_ctx *x = c->ctx;
    const char *at = NULL;
    size_t len = 0;
    int bad = http_bytes(c, m, &at, &len);
    http_response_start(&c->resp, x->max_response, keep_body, c);
    check_stream_start(&c->check, x->enc, &c->body, CHECK_STREAM_HEAD);
    c->state = CONN_BUSY;
    r->live = 1;
    r->sent_ns = clock_now_ns();
    /* The shared template is restamped by the next send, so what the socket
     * does not take now is copied (rare: requests are small). */
    if (bad || conn_send_bytes(c, at, len) < 0) {
        /* A TLS server that wants a client certificate may reset before
         * our first write as well as before our first read. */
        char why[ERR_SAMPLE_LEN];
        r->sent_ns = 0; /* nothing went out: unsent */
        conn_fail(c, ERR_CLOSED, CAUSE_RESET,
                  bad ? "out of memory"
                  : conn_cert_hint(c, IO_ERROR, why, sizeof why) ? why : "reset the connection");
        return;
    }
    r->tx_bytes = (int64_t)len;
    if (r->measured)
        x->pool->stats.bytes_sent += (int64_t)len;
    ev_timer_set(&c->timer, (double)x->timeout_ns / 1e9, 0);
    ev_timer_start(x->loop, &c->timer);
    conn_watch(c, c->out.len ? EV_READ | EV_WRITE : EV_READ);
}

/* Keeps the first error of each kind in the user's terms (once per kind:
 * later errors of that kind skip it). */
static int describe(struct conn *c, int kind, const struct enc_result *r)
{
    char *slot = conn_error_slot(c, kind);
    if (!slot)
        return kind;
    const char *body = c->body.data;
    size_t len = body ? c->body.len : 0;
    char ex[96] = "";
    switch (kind) {
    case ERR_HTTP: {
        const char *reason = http_status_str((enum http_status)http_response_status(&c->resp));
        errtext_excerpt(body ? body : "", len, 60, ex, sizeof ex);
        if (!strcmp(ex, reason)) /* a body that only repeats the reason */
            ex[0] = '\0';
        conn_note_error(c, kind, "HTTP %u %s%s%s", http_response_status(&c->resp), reason,
                        ex[0] ? ": " : "", ex);
        break;
    }
    case ERR_AUTH: /* what to give, or that what was given was refused */
        conn_note_error(c, kind, "HTTP %u %s: %s", http_response_status(&c->resp),
                        http_status_str((enum http_status)http_response_status(&c->resp)),
                        c->ctx->headers[0] ? "the server refused the credentials or "
                        "headers given" : "the server wants credentials: --user USER:PASS, "
                        "--bearer TOKEN or --header");
        break;
    case ERR_FAULT:
        errtext_fault(body, len, r->fault_code, slot, ERR_SAMPLE_LEN);
        break;
    default:
        if (r->refused)
            conn_note_error(c, kind, "not a valid %s response: %s", c->ctx->enc->name,
                            r->refused);
        else if (r->status == ENC_OK && r->has_id)
            conn_note_error(c, kind, "answer id %llu where %llu was expected",
                            (unsigned long long)r->id, (unsigned long long)c->req.id);
        else if (r->status == ENC_OK) {
            errtext_excerpt(body ? body : "", len, 60, ex, sizeof ex);
            conn_note_error(c, kind, "answer without the request's id: %s", ex);
        } else
            errtext_decode(c->ctx->enc->name, body, len, slot, ERR_SAMPLE_LEN);
    }
    return kind;
}

/* An encoding with ids (JSON-RPC) answers with the request's own: an
 * answer with another id, a foreign one, null or none answers some other
 * request (or none), never this one. */
static int id_matches(const struct conn *c, const struct enc_result *r)
{
    if (!c->req.with_id)
        return 1; /* XML-RPC: no ids */
    return r->has_id && r->id == reqid_wire(c->ctx->ids, c->req.id);
}

/* Classifies a complete response: REQ_OK, or an error kind. The
 * protocol's own error (an XML-RPC <fault>, a JSON-RPC error object) is a
 * fault whatever the HTTP status (aria2 sends JSON-RPC errors with 400), so
 * both encodings count the same failure alike; any other non-2xx answer
 * ({"error":"boom"} with 500 too) is an HTTP error, quoted with its status. */
static int classify(struct conn *c)
{
    const struct conn_ctx *x = c->ctx;
    struct enc_result r = {0};
    const char *body = c->body.data ? c->body.data : ""; /* an empty body has no buffer */
    if (http_failed(c)) {
        unsigned st = http_response_status(&c->resp);
        if (c->body.len && x->enc->check_error(body, c->body.len, &r) == ENC_FAULT)
            return describe(c, ERR_FAULT, &r);
        return describe(c, st == 401 || st == 403 ? ERR_AUTH : ERR_HTTP, &r);
    }
    if (x->validate == VALIDATE_NONE)
        return REQ_OK;
    int broke = 0;
    int st = x->validate == VALIDATE_FULL
                 ? answer_decode_full(c, c->req.verb, body, c->body.len, &r, &broke)
                 : check_stream_finish(&c->check, &r);
    r.status = st;
    if (st == ENC_FAULT)
        return describe(c, ERR_FAULT, &r);
    if (st != ENC_OK || !id_matches(c, &r))
        return describe(c, ERR_DECODE, &r);
    return broke ? ERR_CHECK : REQ_OK; /* its sample noted by the check */
}

/* Bytes that answer no request of ours (see the top of the file). */
static void stray(struct conn *c)
{
    c->ctx->pool->stats.stray_replies++;
}

/* The answer is whole; reusable: the connection may carry the next request
 * (no EOF, no stray bytes after it) if the answer allows. */
static void finish(struct conn *c, int reusable)
{
    int kind = classify(c);
    int keep = reusable && http_response_keep_alive(&c->resp);
    ev_timer_stop(c->ctx->loop, &c->timer);
    c->req.live = 0;
    c->req.rx_bytes = (int64_t)c->resp.wire_seen; /* as the wire had it, head and all */
    conn_request_done(&c->req, kind);
    if (!keep) { /* the engine reopens it when a request needs it */
        conn_close_clean(c);
        return;
    }
    conn_watch(c, EV_READ);
    conn_idle(c);
}

/* Why the framing stopped: our --max-response cap, or a malformed answer. */
static void note_framing(struct conn *c, enum http_resp_outcome o)
{
    if (o == HTTP_RESP_TOO_LARGE)
        conn_note_error(c, ERR_DECODE, "answer larger than --max-response (%zu bytes)",
                        c->ctx->max_response);
    else if (o == HTTP_RESP_SINK_ERROR)
        conn_note_error(c, ERR_DECODE, "out of memory keeping the answer");
    else
        conn_note_error(c, ERR_DECODE, "malformed HTTP answer: %s",
                        http_response_error(&c->resp));
}

/* A STOMP frame where an HTTP answer was due: the URL's scheme is wrong. */
static int looks_stomp(const char *p, size_t n)
{
    static const char *const cmds[] = {"ERROR", "CONNECTED", "MESSAGE", "RECEIPT"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        size_t k = strlen(cmds[i]);
        if (n > k && !memcmp(p, cmds[i], k) && (p[k] == '\n' || p[k] == '\r'))
            return 1;
    }
    return 0;
}

/* The peer closed (st IO_EOF) or reset the connection before the answer
 * was complete; when no answer ever came, perhaps it is no HTTP server. */
static void peer_gone(struct conn *c, enum io_status st)
{
    const char *what = st == IO_EOF ? "closed" : "reset";
    char why[ERR_SAMPLE_LEN];
    if (c->peer->spoke)
        snprintf(why, sizeof why, "%s the connection before the answer was complete", what);
    else if (conn_cert_hint(c, st, why, sizeof why))
        ; /* TLS up, and dropped before any answer */
    else if (st == IO_EOF || c->ssl)
        snprintf(why, sizeof why, "%s the connection without answering: if it does not speak "
                 "HTTP (a STOMP broker?), try stomp://", what);
    else /* an OpenSSL server resets what is no TLS record; a broker waits or closes */
        snprintf(why, sizeof why, "reset the connection without answering: if it speaks TLS, "
                 "use https://; if it is a STOMP broker, stomp://");
    conn_fail(c, ERR_CLOSED, st == IO_EOF ? CAUSE_CLOSED : CAUSE_RESET, why);
}

/* Reads and frames what the socket has. */
static void on_readable(struct conn *c)
{
    const struct conn_ctx *x = c->ctx;
    for (;;) {
        size_t n;
        enum io_status st = conn_read(c, x->rbuf, x->rbuf_len, &n);
        if (st == IO_AGAIN)
            return;
        if (st != IO_DONE) { /* EOF or reset: maybe the end of a body without length */
            if (st == IO_EOF && http_response_eof(&c->resp) == HTTP_RESP_COMPLETE)
                finish(c, 0);
            else
                peer_gone(c, st);
            return;
        }
        if (c->req.measured)
            x->pool->stats.bytes_received += (int64_t)n;
        if (!c->peer->spoke && !c->ssl && tls_record_start(x->rbuf, n)) {
            conn_fail_wrong_protocol(c, ERR_DECODE, "answered with TLS, not plain HTTP: "
                                     "use https://");
            return;
        }
        if (!c->peer->spoke && looks_stomp(x->rbuf, n)) {
            conn_fail_wrong_protocol(c, ERR_DECODE, "answered with a STOMP frame, not HTTP: "
                                     "use stomp://");
            return;
        }
        conn_spoke(c);
        size_t used;
        enum http_resp_outcome o = http_response_feed(&c->resp, x->rbuf, n, &used);
        if (o == HTTP_RESP_COMPLETE) {
            if (used < n)
                stray(c);
            finish(c, used == n);
            return;
        }
        if (o != HTTP_RESP_PARTIAL) {
            note_framing(c, o);
            conn_fail(c, ERR_DECODE, CAUSE_PROTOCOL, NULL);
            return;
        }
    }
}

/* An idle keep-alive socket became readable: the server closed it, or sent
 * something unasked (a stray reply). No request was lost: it is reopened
 * when needed. */
static void on_idle_readable(struct conn *c)
{
    /* TLS 1.3 sends session tickets after the handshake: readable, yet no
     * application byte. Only EOF, an error or unasked data end the idle. */
    size_t n;
    enum io_status st = conn_read(c, c->ctx->rbuf, c->ctx->rbuf_len, &n);
    if (st == IO_AGAIN)
        return;
    if (st == IO_ERROR && !c->peer->spoke) /* reset before any answer */
        peer_gone(c, st);
    else if (st == IO_ERROR) /* e.g. TLS refused us: do not spin reconnecting */
        conn_fail(c, ERR_CLOSED, CAUSE_RESET, "reset the connection while it was idle");
    else {
        if (st == IO_DONE)
            stray(c);
        conn_close_clean(c);
    }
}

static void http_on_io(struct conn *c, int revents)
{
    if (c->state == CONN_IDLE) {
        on_idle_readable(c);
        return;
    }
    if ((revents & EV_WRITE) && c->out.len) {
        enum io_status st = conn_flush(c);
        if (st == IO_ERROR) {
            peer_gone(c, st);
            return;
        }
        if (st == IO_DONE)
            conn_watch(c, EV_READ);
    }
    if (revents & EV_READ)
        on_readable(c);
}

static void http_on_timer(struct conn *c)
{
    if (c->state == CONN_BUSY && c->peer->spoke)
        conn_fail(c, ERR_TIMEOUT, CAUSE_TIMEOUT, NULL);
    else if (c->state == CONN_BUSY) /* accepted, and never a byte back */
        conn_fail(c, ERR_TIMEOUT, CAUSE_TIMEOUT, "accepted the connection but sent no byte "
                  "within --timeout: is it the right port and scheme (stomp://?)");
}

const struct wire wire_http = {
    .multiplex = 0,
    .prepare = http_prepare,
    .on_ready = http_ready,
    .on_io = http_on_io,
    .send = http_send,
    .on_timer = http_on_timer,
    .on_close = http_on_close,
};
