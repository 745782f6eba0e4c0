/* conn_stomp: JSON-RPC over STOMP 1.2, as oVirt Engine talks to VDSM.
 *
 * CONNECT (accept-version 1.2, heart-beats), SUBSCRIBE to a reply queue of
 * this connection's own (replies go to every subscriber of a destination),
 * then SEND requests with reply-to; MESSAGE replies are matched to requests
 * by JSON-RPC id, so many requests are in flight on one connection and the
 * open-loop schedule is never throttled by them. The engine keeps the
 * requests in a request_ring, which finds them by id and times them out.
 *
 * The dispatch hands each request's body, its id stamped; the SEND frame
 * is put round it here per send (stomp_send), from the command and headers
 * rendered once per login (send_head). Why not a whole frame per verb and
 * connection, stamped in place as before: the body is the dispatch's to
 * decide (its id, a template's values), and a second copy of every id slot
 * per connection would have to be kept in step with it. The price is one
 * copy of a small body into the shared scratch buffer per send, grown
 * once, never allocated again: less than the write's system call. */
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/safetext.h"
#include "client/conn.h"
#include "client/errtext.h"
#include "net/stomp.h"
#include "net/tls.h"

/* Offered both ways: "we can beat every 10 s, beat us every 10 s". VDSM
 * takes our figure as its deadline for us (and sends its own beats at our
 * second); we beat after 5 s of silence, so a run that sends every few
 * seconds never beats at all, and a slower one beats once per 5 s idle. */
#define STOMP_HEARTBEAT_MS 10000
#define STOMP_DEFAULT_DESTINATION "jms.topic.vdsm_requests"

static int stomp_prepare(const struct conn_ctx *x, const struct target *t,
                         const struct enc_request *body, struct prepared *p, char *err)
{
    (void)x;
    (void)t;
    buf_reset(&p->req.body);
    if (buf_append(&p->req.body, body->body.data, body->body.len)) {
        snprintf(err, ERR_LEN, "out of memory rendering the request");
        return -1;
    }
    p->req.id_off = body->id_off;
    p->req.id_len = body->id_len;
    p->body_len = body->body.len;
    p->framed = 0; /* the SEND frame is each connection's (stomp_send) */
    return 0;
}

/* Named from the run's random tag, not the pid: runs on other hosts (MPI
 * ranks) may share a pid, and a broker delivers to every subscriber of a
 * destination. */
static void reply_queue(const struct conn *c, char *out, size_t len)
{
    snprintf(out, len, "jms.queue.rpcbench.%s.%d", c->ctx->ids->tag, c->idx);
}

static int send_frame(struct conn *c, const char *command, const char *const *kv)
{
    struct buf *b = c->ctx->scratch;
    buf_reset(b);
    if (stomp_render(b, command, kv, NULL, 0))
        return -1;
    return conn_send_bytes(c, b->data, b->len);
}

static void arm_timer(struct conn *c, double s)
{
    ev_timer_stop(c->ctx->loop, &c->timer);
    ev_timer_set(&c->timer, s, 0);
    ev_timer_start(c->ctx->loop, &c->timer);
}

static void stomp_ready(struct conn *c)
{
    char hb[32];
    snprintf(hb, sizeof hb, "%d,%d", STOMP_HEARTBEAT_MS, STOMP_HEARTBEAT_MS);
    const struct conn_ctx *x = c->ctx;
    const char *kv[] = {"accept-version", "1.2", "host", c->target->host,
                        "heart-beat", hb, /* --stomp-login, or the end */
                        x->stomp_login[0] ? "login" : NULL, x->stomp_login,
                        "passcode", x->stomp_passcode, NULL};
    c->state = CONN_LOGIN;
    c->leaving = 0;
    c->last_rx_ns = clock_now_ns();
    if (send_frame(c, "CONNECT", kv) < 0) {
        /* a TLS server that wants a client certificate may reset before
         * our CONNECT is written as well as after */
        char why[ERR_SAMPLE_LEN];
        conn_fail(c, ERR_HANDSHAKE, CAUSE_RESET,
                  conn_cert_hint(c, IO_ERROR, why, sizeof why)
                      ? why : "does not speak STOMP: it reset the connection before CONNECT");
        return;
    }
    conn_watch(c, c->out.len ? EV_READ | EV_WRITE : EV_READ);
    arm_timer(c, conn_setup_deadline_s(c)); /* login deadline */
}

/* The command and headers of c's SEND frames, once per login (reply-to
 * is the connection's own): every request's frame begins with them. */
static int build_send_head(struct conn *c)
{
    char queue[64];
    reply_queue(c, queue, sizeof queue);
    const struct conn_ctx *x = c->ctx;
    const char *dest = x->stomp_destination[0] ? x->stomp_destination
                                               : STOMP_DEFAULT_DESTINATION;
    const char *kv[] = {"destination", dest, "content-type", "application/json",
                        "reply-to", queue, NULL};
    buf_reset(&c->send_head);
    return stomp_render_headers(&c->send_head, "SEND", kv);
}

/* Heart-beat periods from CONNECTED's "sx,sy" against ours (STOMP 1.2 §
 * Heart-beating): we send every max(ours, sy), expect every max(sx, ours).
 * Periods are clamped (stomp_heartbeat_parse), so the products fit.
 * @return 0, or -1 when the header is there but is not "sx,sy". */
static int negotiate(struct conn *c, const struct stomp_frame *f)
{
    char hb[256]; /* absent (or longer than this): no beats either way */
    long sx = 0, sy = 0;
    if (stomp_header(f, "heart-beat", hb, sizeof hb) >= 0 &&
        stomp_heartbeat_parse(hb, &sx, &sy) < 0)
        return -1;
    long mine = STOMP_HEARTBEAT_MS;
    c->hb_send_ns = sy > 0 ? (int64_t)(sy > mine ? sy : mine) * NS_PER_MS : 0;
    c->hb_recv_ns = sx > 0 ? (int64_t)(sx > mine ? sx : mine) * NS_PER_MS : 0;
    return 0;
}

/* Beats go after half the negotiated period of silence, as common clients
 * do: VDSM closes a connection the moment a period passes without a byte
 * (10.01 s after the last one, with no grace), so a beat sent only once the
 * period had passed lost the race. The server is given up after three of
 * its periods. The timer wakes when the next of these is due. */
static void heartbeat_timer(struct conn *c)
{
    int64_t now = clock_now_ns(), next = INT64_MAX;
    if (c->hb_send_ns) /* bytes still queued are on their way: look again later */
        next = c->out.len ? now + c->hb_send_ns / 10 : c->last_tx_ns + c->hb_send_ns / 2;
    if (c->hb_recv_ns && c->last_rx_ns + 3 * c->hb_recv_ns < next)
        next = c->last_rx_ns + 3 * c->hb_recv_ns;
    if (next == INT64_MAX) {
        ev_timer_stop(c->ctx->loop, &c->timer);
        return;
    }
    double s = (double)(next - now) / 1e9;
    arm_timer(c, s > 0.001 ? s : 0.001);
}

static void logged_in(struct conn *c, const struct stomp_frame *f)
{
    char queue[64], id[48];
    reply_queue(c, queue, sizeof queue);
    snprintf(id, sizeof id, "rpcbench-%s-%d", c->ctx->ids->tag, c->idx);
    const char *kv[] = {"destination", queue, "id", id, "ack", "auto", NULL};
    if (negotiate(c, f) < 0) { /* a malformed CONNECTED: counted as a bad frame */
        c->ctx->pool->stats.stomp_bad_frames++;
        conn_fail(c, ERR_DECODE, CAUSE_PROTOCOL, "sent a CONNECTED frame with a heart-beat "
                  "that is not \"sx,sy\"");
        return;
    }
    conn_spoke(c);
    if (build_send_head(c) || send_frame(c, "SUBSCRIBE", kv) < 0) {
        conn_fail(c, ERR_CLOSED, CAUSE_RESET, NULL);
        return;
    }
    heartbeat_timer(c);
    conn_ready(c);
}

/* m's body in c's SEND frame, in the context's scratch (see the top of
 * the file). @return 0, or -1 (m NULL: the dispatch could not make it;
 * out of memory). */
static int frame_bytes(struct conn *c, const struct wire_msg *m, const char **at, size_t *len)
{
    struct buf *b = c->ctx->scratch;
    buf_reset(b);
    if (!m || buf_append(b, c->send_head.data, c->send_head.len) ||
        stomp_render_end(b, m->data, m->len))
        return -1;
    *at = b->data;
    *len = b->len;
    return 0;
}

static void stomp_send(struct conn *c, struct request *r, const struct wire_msg *m)
{
    const struct conn_ctx *x = c->ctx;
    const char *frame = NULL;
    size_t len = 0;
    int bad = frame_bytes(c, m, &frame, &len);
    r->live = 1;
    r->sent_ns = clock_now_ns(); /* the one stamp of its write */
    if (bad || conn_send_bytes(c, frame, len) < 0) {
        r->sent_ns = 0; /* nothing went out: unsent */
        conn_fail(c, ERR_CLOSED, CAUSE_RESET, bad ? "out of memory" : "reset the connection");
        return;
    }
    r->tx_bytes = (int64_t)len;
    if (r->measured)
        x->pool->stats.bytes_sent += (int64_t)len;
    conn_watch(c, c->out.len ? EV_READ | EV_WRITE : EV_READ);
}

/* A reply: which request, and how did it go. */
static void on_message(struct conn *c, const struct stomp_frame *f, size_t frame_len)
{
    const struct conn_ctx *x = c->ctx;
    struct enc_result res = {0};
    int st = x->enc->check_response(f->body, f->body_len, &res);
    struct request *r =
        res.has_id ? request_ring_find(x->ring, reqid_counter(x->ids, res.id)) : NULL;
    if (!r) {
        x->pool->stats.stray_replies++; /* late (timed out), unknown or id-less */
        return;
    }
    int broke = 0;
    if (st == ENC_OK && x->validate == VALIDATE_FULL)
        st = answer_decode_full(c, r->verb, f->body, f->body_len, &res, &broke);
    int kind = st == ENC_OK ? (broke ? ERR_CHECK : REQ_OK)
               : st == ENC_FAULT ? ERR_FAULT : ERR_DECODE;
    char *slot = conn_error_slot(c, kind);
    if (kind == ERR_FAULT && slot)
        errtext_fault(f->body, f->body_len, res.fault_code, slot, ERR_SAMPLE_LEN);
    else if (kind == ERR_DECODE && res.refused)
        conn_note_error(c, kind, "not a valid %s response: %s", x->enc->name, res.refused);
    else if (kind == ERR_DECODE && slot)
        errtext_decode(x->enc->name, f->body, f->body_len, slot, ERR_SAMPLE_LEN);
    if (r->measured)
        x->pool->stats.bytes_received += (int64_t)frame_len;
    r->live = 0;
    r->rx_bytes = (int64_t)frame_len;
    conn_request_done(r, kind);
}

/* Keeps the ERROR frame's message header (unescaped first, as STOMP 1.2
 * says), else (absent, or longer than 1 KiB) an excerpt of its body, made
 * safe: the broker's bytes may hold anything, line breaks and terminal
 * escapes included. */
static void on_error_frame(struct conn *c, const struct stomp_frame *f)
{
    struct conn_stats *s = &c->ctx->pool->stats;
    char msg[1024];
    ssize_t n = stomp_header(f, "message", msg, sizeof msg);
    s->stomp_errors++;
    if (n >= 0)
        safetext(msg, (size_t)n, s->stomp_error, sizeof s->stomp_error, 0);
    else
        errtext_excerpt(f->body, f->body_len, 120, s->stomp_error, sizeof s->stomp_error);
}

/* An ERROR frame: in answer to CONNECT the login was refused; later, the
 * broker ends the connection with it. */
static void error_frame(struct conn *c, const struct stomp_frame *f)
{
    char why[ERR_SAMPLE_LEN];
    on_error_frame(c, f);
    const char *msg = c->ctx->pool->stats.stomp_error;
    if (c->state == CONN_LOGIN) {
        snprintf(why, sizeof why, "refused the login: %.120s", msg[0] ? msg : "(no message)");
        conn_fail(c, ERR_HANDSHAKE, CAUSE_LOGIN, why);
    } else {
        snprintf(why, sizeof why, "sent an ERROR frame: %.120s", msg);
        conn_fail(c, ERR_CLOSED, CAUSE_PROTOCOL, why);
    }
}

/* Handles one parsed frame; returns -1 when the connection is gone. */
static int on_frame(struct conn *c, const struct stomp_frame *f, size_t len)
{
    if (stomp_is(f, "ERROR")) {
        error_frame(c, f);
        return -1;
    }
    if (c->state == CONN_LOGIN) {
        if (!stomp_is(f, "CONNECTED")) {
            char why[96]; /* a command is at most a few capitals (stomp_parse) */
            snprintf(why, sizeof why, "does not speak STOMP: it answered CONNECT with %.*s",
                     (int)(f->command_len < 32 ? f->command_len : 32), f->command);
            conn_fail(c, ERR_HANDSHAKE, CAUSE_NOT_STOMP, why);
            return -1;
        }
        logged_in(c, f);
        return c->state == CONN_IDLE ? 0 : -1;
    }
    if (stomp_is(f, "MESSAGE"))
        on_message(c, f, len);
    else if (stomp_is(f, "RECEIPT"))
        c->receipt_done = 1;
    return 0;
}

/* Bytes that are no STOMP frame (err: stomp_parse's reason) at at: in
 * answer to CONNECT the peer speaks something else (an HTTP server answers
 * "HTTP/1.1 400"); later, a broken frame, counted as a bad frame. */
static void bad_input(struct conn *c, const char *at, size_t len, const char *err)
{
    char ex[48], why[ERR_SAMPLE_LEN];
    errtext_excerpt(at, len, 40, ex, sizeof ex);
    if (c->state == CONN_LOGIN) {
        snprintf(why, sizeof why, "does not speak STOMP: it answered CONNECT with \"%s\" (%.40s)",
                 ex, err);
        conn_fail(c, ERR_HANDSHAKE, CAUSE_NOT_STOMP, why);
        return;
    }
    c->ctx->pool->stats.stomp_bad_frames++;
    snprintf(why, sizeof why, "sent a malformed STOMP frame (%.40s): \"%s\"", err, ex);
    conn_fail(c, ERR_DECODE, CAUSE_PROTOCOL, why);
}

/* Parses every whole frame that c->in holds. @return 0, or -1 when the
 * connection is gone (failed, or closed by a frame). */
static int parse_input(struct conn *c)
{
    char err[ERR_LEN];
    size_t off = 0;
    if (c->state == CONN_LOGIN && !c->ssl && tls_record_start(c->in.data, c->in.len)) {
        conn_fail_wrong_protocol(c, ERR_HANDSHAKE, "answered CONNECT with TLS, not plain STOMP: "
                                 "use stomps://");
        return -1;
    }
    while (off < c->in.len) {
        struct stomp_frame f;
        ssize_t n = stomp_parse(c->in.data + off, c->in.len - off,
                                c->ctx->max_response, &f, err);
        if (n == 0)
            break;
        if (n < 0) {
            bad_input(c, c->in.data + off, c->in.len - off, err);
            return -1;
        }
        off += (size_t)n;
        if (f.command_len && on_frame(c, &f, (size_t)n) < 0)
            return -1;
    }
    buf_consume(&c->in, off);
    return 0;
}

/* The peer closed (st IO_EOF) or reset the connection, after the frames it
 * sent before were handled. */
static void peer_gone(struct conn *c, enum io_status st)
{
    enum conn_cause cause = st == IO_EOF ? CAUSE_CLOSED : CAUSE_RESET;
    const char *what = st == IO_EOF ? "closed" : "reset";
    char why[ERR_SAMPLE_LEN];
    if (c->leaving) { /* the goodbye */
        conn_close(c);
    } else if (c->state == CONN_LOGIN && conn_cert_hint(c, st, why, sizeof why)) {
        conn_fail(c, ERR_HANDSHAKE, cause, why);
    } else if (c->state == CONN_LOGIN && st == IO_ERROR && !c->ssl) {
        /* an OpenSSL server resets what is no TLS record */
        conn_fail(c, ERR_HANDSHAKE, cause, "reset the connection after CONNECT: if it speaks "
                  "TLS, use stomps://; else it does not speak STOMP");
    } else if (c->state == CONN_LOGIN) {
        snprintf(why, sizeof why, "does not speak STOMP: it %s the connection after CONNECT",
                 what);
        conn_fail(c, ERR_HANDSHAKE, cause, why);
    } else {
        snprintf(why, sizeof why, "%s the connection", what);
        conn_fail(c, ERR_CLOSED, cause, why);
    }
}

static void stomp_on_io(struct conn *c, int revents)
{
    const struct conn_ctx *x = c->ctx;
    if ((revents & EV_WRITE) && c->out.len) {
        if (conn_flush(c) == IO_ERROR) {
            peer_gone(c, IO_ERROR);
            return;
        }
        conn_watch(c, c->out.len ? EV_READ | EV_WRITE : EV_READ);
    }
    if (!(revents & EV_READ))
        return;
    for (;;) {
        size_t n;
        enum io_status st = conn_read(c, x->rbuf, x->rbuf_len, &n);
        if (st == IO_AGAIN)
            break;
        if (st != IO_DONE) { /* what came before the end is read first */
            if (parse_input(c) == 0)
                peer_gone(c, st);
            return;
        }
        c->last_rx_ns = clock_now_ns();
        if (buf_append(&c->in, x->rbuf, n)) {
            conn_fail(c, ERR_DECODE, CAUSE_PROTOCOL, NULL);
            return;
        }
    }
    parse_input(c);
}

static void stomp_on_timer(struct conn *c)
{
    int64_t now = clock_now_ns();
    if (c->state == CONN_LOGIN) { /* no CONNECTED in time */
        char why[96];
        snprintf(why, sizeof why, "does not speak STOMP: it did not answer CONNECT within %gs",
                 conn_setup_deadline_s(c));
        conn_fail(c, ERR_HANDSHAKE, CAUSE_TIMEOUT, why);
        return;
    }
    if (c->hb_recv_ns && now - c->last_rx_ns >= 3 * c->hb_recv_ns) {
        conn_fail(c, ERR_CLOSED, CAUSE_TIMEOUT, "went silent for three heart-beat periods");
        return;
    }
    /* Only after silence: a request or frame sent since is the beat. */
    if (c->hb_send_ns && now - c->last_tx_ns >= c->hb_send_ns / 2 && !c->out.len &&
        conn_send_bytes(c, "\n", 1) < 0) {
        conn_fail(c, ERR_CLOSED, CAUSE_RESET, "reset the connection");
        return;
    }
    heartbeat_timer(c);
}

/* Every request still in flight on c fails with kind. */
static void stomp_on_close(struct conn *c, int kind)
{
    request_ring_fail_conn(c->ctx->ring, c, kind);
}

static void stomp_goodbye(struct conn *c)
{
    char receipt[32];
    snprintf(receipt, sizeof receipt, "bye-%d", c->idx);
    const char *kv[] = {"receipt", receipt, NULL};
    c->receipt_done = 0;
    c->leaving = 1;
    if (send_frame(c, "DISCONNECT", kv) < 0)
        c->receipt_done = 1;
    else
        conn_watch(c, c->out.len ? EV_READ | EV_WRITE : EV_READ);
}

const struct wire wire_stomp = {
    .multiplex = 1,
    .prepare = stomp_prepare,
    .on_ready = stomp_ready,
    .on_io = stomp_on_io,
    .send = stomp_send,
    .on_timer = stomp_on_timer,
    .on_close = stomp_on_close,
    .goodbye = stomp_goodbye,
};
