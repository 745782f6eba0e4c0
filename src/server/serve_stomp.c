/* serve_stomp: VDSM's JSON-RPC over STOMP 1.2 on a serve connection: the
 * serve_stomp wire table.
 *
 * CONNECT (heart-beats negotiated), SUBSCRIBE to a reply destination, SEND
 * JSON-RPC requests (or batches) to jms.topic.vdsm_requests (or the legacy
 * /queue/_local/vdsm/requests) with reply-to; each answer goes out as a
 * MESSAGE to every subscription of that destination, on any connection
 * (serve_broker.c). A SEND elsewhere is forwarded to that destination's
 * subscribers. As on VDSM, frames may come before CONNECT (the engine
 * SUBSCRIBEs first). Many requests are in flight at once: each SEND waits
 * for its own --delay on its own timer, so answers go out in any order.
 * Bad input gets an ERROR frame, then the connection closes.
 *
 * Silence: a client that promised heart-beats (cx > 0 in its CONNECT) is
 * dropped after HB_GRACE times the agreed interval without a byte; one
 * that did not is never dropped for silence once CONNECTed (VDSM's client
 * says 0,24000). --idle-timeout bounds connections that never CONNECTed,
 * and one that does not read what we wrote for that long.
 *
 * Answers are appended to c->out; reading pauses while too much waits
 * there (a client that does not read) or too many requests are in flight,
 * and resumes once they drain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/serve_conn_int.h"
#include "net/stomp.h"

#define MAX_SUBS 16            /* per connection */
#define NAME_LEN SUB_NAME_LEN  /* destinations, ids, receipts */
#define HDR_ROOM (8 * 1024)    /* a frame may hold --max-body plus this */
#define MAX_INFLIGHT 4096      /* delayed requests per connection before reading pauses */
#define OUT_HIGH (4u << 20)    /* unwritten bytes before reading pauses */
#define HB_MIN_MS 50           /* heart-beats no closer than this, either way */
#define HB_GRACE 3.0           /* silence tolerated, in agreed client intervals */
#define REQUESTS "jms.topic.vdsm_requests"
#define REQUESTS_LEGACY "/queue/_local/vdsm/requests"
#define REPLIES "jms.topic.vdsm_responses"
#define REPLIES_LEGACY "/queue/_local/vdsm/reponses" /* sic, as VDSM */

/* A request waiting for its --delay; body copied out of the read buffer. */
struct pending {
    struct pending *prev, *next;
    struct sconn *c;
    ev_timer timer;
    char reply_to[NAME_LEN];
    size_t len;
    char body[];
};

struct stomp_conn {
    int connected, disconnecting, failed;
    char receipt[NAME_LEN]; /* DISCONNECT's, sent once all answers are out */
    struct sub *subs[MAX_SUBS]; /* registered with the broker */
    int nsubs;
    struct pending *pending;
    int npending;
    double rx_s;            /* HB_GRACE x the client's heart-beat; 0: none promised */
    ev_timer hb;            /* our heart-beats to the client */
};

static enum step parse_held(struct sconn *c);

/* ---- output ---- */

/* Queues a frame (flushed by the caller). @return 0, or -1 (c freed). */
static int queue(struct sconn *c, const char *cmd, const char *const *kv, const char *body,
                 size_t len)
{
    if (stomp_render(&c->out, cmd, kv, body, len) == 0)
        return 0;
    sconn_free(c);
    return -1;
}

static void drop_subs(struct sconn *c)
{
    struct stomp_conn *st = c->stomp;
    while (st->nsubs)
        broker_unsubscribe(c->ctx, st->subs[--st->nsubs]);
}

/* Connected without heart-beats, and output stuck: drop c once the socket
 * takes nothing for --idle-timeout (the client does not read). */
static void arm_stall(struct sconn *c)
{
    if (c->stomp->connected && !c->stomp->rx_s && !ev_is_active(&c->idle))
        sconn_idle_restart(c, c->ctx->idle_s);
}

static void cancel_pending(struct sconn *c)
{
    struct stomp_conn *st = c->stomp;
    while (st->pending) {
        struct pending *p = st->pending;
        st->pending = p->next;
        ev_timer_stop(c->ctx->loop, &p->timer);
        free(p);
    }
    st->npending = 0;
}

/* Everything queued went out: close if we meant to. */
static enum step closing_check(struct sconn *c)
{
    if (!c->close_after)
        return STEP_GO;
    ev_timer_stop(c->ctx->loop, &c->stomp->hb);
    sconn_linger_start(c);
    return STEP_GONE;
}

/* Bad input: an ERROR frame (message header, receipt-id when the frame
 * asked for one), then close. Answers still owed are dropped. */
static enum step fail(struct sconn *c, const char *msg, const char *receipt)
{
    struct stomp_conn *st = c->stomp;
    c->ctx->bad_requests++;
    cancel_pending(c);
    drop_subs(c); /* no more MESSAGEs for it */
    ev_timer_stop(c->ctx->loop, &st->hb);
    sconn_reading(c, 0);
    st->failed = 1;
    c->close_after = c->linger = 1;
    const char *kv[] = {"message", msg, "content-type", "text/plain",
                        receipt && *receipt ? "receipt-id" : NULL, receipt, NULL};
    if (queue(c, "ERROR", kv, msg, strlen(msg)) < 0)
        return STEP_GONE;
    enum io_status io = sconn_flush(c);
    if (io == IO_ERROR) {
        sconn_free(c);
        return STEP_GONE;
    }
    if (io == IO_AGAIN) { /* closes once written (stomp_written) */
        sconn_idle_restart(c, c->ctx->idle_s);
        return STEP_GONE;
    }
    return closing_check(c);
}

static int receipt_for(struct sconn *c, const char *receipt)
{
    const char *kv[] = {"receipt-id", receipt, NULL};
    return *receipt ? queue(c, "RECEIPT", kv, NULL, 0) : 0;
}

/* ---- answering ---- */

/* Dispatches a JSON-RPC request or batch and queues its one MESSAGE to
 * every subscription of reply_to; a notification gets none, and a reply-to
 * nobody subscribed to is dropped (counted), as a broker would.
 * @return 0, or -1 (c freed). */
static int answer(struct sconn *c, const char *reply_to, const char *body, size_t len)
{
    struct serve_ctx *ctx = c->ctx;
    buf_reset(ctx->out);
    int r = vdsm_api_handle(&ctx->api, &enc_jsonrpc, body, len, ctx->out);
    if (r == VDSM_NO_REPLY)
        return 0;
    if (r == VDSM_REPLY)
        r = broker_deliver(c, reply_to, 0, "application/json", NULL, ctx->out->data, ctx->out->len);
    if (r < 0) {
        sconn_free(c);
        return -1;
    }
    ctx->broker.unrouted += r == 0;
    return 0;
}

/* Whether more input may be taken now. */
static int can_read(const struct sconn *c)
{
    const struct stomp_conn *st = c->stomp;
    return !st->disconnecting && !st->failed && st->npending < MAX_INFLIGHT &&
           c->out.len - c->out_off < OUT_HIGH;
}

/* After answers went out or were queued: finish a DISCONNECT once nothing
 * is owed, else resume reading (and parsing what waited) if allowed. */
static enum step settle(struct sconn *c)
{
    struct stomp_conn *st = c->stomp;
    if (st->disconnecting && !st->npending && !c->close_after) {
        c->close_after = c->linger = 1;
        if (receipt_for(c, st->receipt) < 0)
            return STEP_GONE;
    }
    enum io_status io = c->out.len > c->out_off ? sconn_flush(c) : IO_DONE;
    if (io == IO_ERROR) {
        sconn_free(c);
        return STEP_GONE;
    }
    if (io == IO_AGAIN)
        arm_stall(c);
    if (io == IO_DONE && c->close_after)
        return closing_check(c);
    if (!can_read(c)) {
        sconn_reading(c, 0);
        return STEP_WAIT;
    }
    if (!ev_is_active(&c->rio)) {
        sconn_reading(c, 1);
        return parse_held(c);
    }
    return STEP_GO;
}

static void on_delay(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    struct pending *p = w->data;
    struct sconn *c = p->c;
    struct stomp_conn *st = c->stomp;
    ev_timer_stop(loop, w);
    if (p->prev)
        p->prev->next = p->next;
    else
        st->pending = p->next;
    if (p->next)
        p->next->prev = p->prev;
    st->npending--;
    int r = answer(c, p->reply_to, p->body, p->len);
    free(p);
    if (r == 0)
        settle(c);
}

/* A request: answered now, or after its --delay. @return 0, -1 (c freed). */
static int request(struct sconn *c, const char *reply_to, const char *body, size_t len)
{
    struct serve_ctx *ctx = c->ctx;
    uint64_t before = ctx->requests;
    int64_t d = sconn_batch_delay(ctx, &enc_jsonrpc, body, len);
    ctx->stomp_requests += ctx->requests - before;
    if (d <= 0)
        return answer(c, reply_to, body, len);
    struct pending *p = malloc(sizeof *p + len);
    if (!p) {
        sconn_free(c);
        return -1;
    }
    p->c = c;
    snprintf(p->reply_to, sizeof p->reply_to, "%s", reply_to);
    p->len = len;
    memcpy(p->body, body, len);
    p->prev = NULL;
    p->next = c->stomp->pending;
    if (p->next)
        p->next->prev = p;
    c->stomp->pending = p;
    c->stomp->npending++;
    ev_timer_init(&p->timer, on_delay, (double)d / 1e9, 0.0);
    p->timer.data = p;
    ev_timer_start(ctx->loop, &p->timer);
    return 0;
}

/* ---- frames ---- */

static void on_heartbeat(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct sconn *c = w->data;
    if (c->out.len > c->out_off || c->close_after) /* bytes on their way, or closing */
        return;
    if (buf_append(&c->out, "\n", 1) < 0) {
        sconn_free(c);
        return;
    }
    enum io_status io = sconn_flush(c);
    if (io == IO_ERROR)
        sconn_free(c);
    else if (io == IO_AGAIN)
        arm_stall(c);
}

static int has_version_12(const char *list)
{
    char copy[NAME_LEN], *save = NULL;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (!strcmp(t, "1.2"))
            return 1;
    return 0;
}

static enum step on_connect(struct sconn *c, const struct stomp_frame *f)
{
    struct stomp_conn *st = c->stomp;
    char v[NAME_LEN] = "";
    long cx = 0, cy = 0;
    if (st->connected)
        return fail(c, "already connected", NULL);
    if (stomp_header(f, "accept-version", v, sizeof v) < 0 || !has_version_12(v))
        return fail(c, "accept-version must include 1.2", NULL);
    if (stomp_header(f, "heart-beat", v, sizeof v) >= 0 && stomp_heartbeat_parse(v, &cx, &cy) < 0)
        return fail(c, "bad heart-beat header", NULL);
    /* We can send as often as asked and take the client's promise, within
     * HB_MIN_MS; the client sends every sy, we send every sx. */
    long sx = cy ? (cy > HB_MIN_MS ? cy : HB_MIN_MS) : 0;
    long sy = cx ? (cx > HB_MIN_MS ? cx : HB_MIN_MS) : 0;
    char hb[64];
    snprintf(hb, sizeof hb, "%ld,%ld", sx, sy);
    const char *kv[] = {"version", "1.2", "heart-beat", hb, "server", "rpcbench", NULL};
    if (queue(c, "CONNECTED", kv, NULL, 0) < 0)
        return STEP_GONE;
    st->connected = 1;
    st->rx_s = sy ? HB_GRACE * (double)sy / 1000.0 : 0;
    if (sx) {
        ev_timer_set(&st->hb, (double)sx / 1000.0, (double)sx / 1000.0);
        ev_timer_start(c->ctx->loop, &st->hb);
    }
    if (st->rx_s)
        sconn_idle_restart(c, st->rx_s);
    else /* no beats promised: silence is fine from now on */
        ev_timer_stop(c->ctx->loop, &c->idle);
    return STEP_GO;
}

/* ack:auto (the default) or a client ack mode; -1 for anything else. */
static int ack_mode(const struct stomp_frame *f)
{
    char ack[32];
    if (stomp_header(f, "ack", ack, sizeof ack) < 0 || !strcmp(ack, "auto"))
        return 0;
    return !strcmp(ack, "client") || !strcmp(ack, "client-individual") ? 1 : -1;
}

static enum step on_subscribe(struct sconn *c, const struct stomp_frame *f, const char *receipt)
{
    struct stomp_conn *st = c->stomp;
    struct sub s = {.c = c, .ack = ack_mode(f)};
    if (stomp_header(f, "destination", s.dest, sizeof s.dest) <= 0)
        return fail(c, "SUBSCRIBE without destination", receipt);
    if (stomp_header(f, "id", s.id, sizeof s.id) <= 0)
        return fail(c, "SUBSCRIBE without id", receipt);
    if (s.ack < 0)
        return fail(c, "ack must be auto, client or client-individual", receipt);
    for (int i = 0; i < st->nsubs; i++)
        if (!strcmp(st->subs[i]->id, s.id))
            return fail(c, "subscription id already in use", receipt);
    if (st->nsubs == MAX_SUBS)
        return fail(c, "too many subscriptions", receipt);
    struct sub *n = malloc(sizeof *n);
    if (!n) {
        sconn_free(c);
        return STEP_GONE;
    }
    *n = s;
    broker_subscribe(c->ctx, n);
    st->subs[st->nsubs++] = n;
    return receipt_for(c, receipt) < 0 ? STEP_GONE : STEP_GO;
}

static enum step on_unsubscribe(struct sconn *c, const struct stomp_frame *f, const char *receipt)
{
    struct stomp_conn *st = c->stomp;
    char id[NAME_LEN];
    if (stomp_header(f, "id", id, sizeof id) <= 0)
        return fail(c, "UNSUBSCRIBE without id", receipt);
    for (int i = 0; i < st->nsubs; i++) {
        if (!strcmp(st->subs[i]->id, id)) {
            broker_unsubscribe(c->ctx, st->subs[i]);
            st->subs[i] = st->subs[--st->nsubs];
            break;
        }
    }
    return receipt_for(c, receipt) < 0 ? STEP_GONE : STEP_GO;
}

/* Whether dest is queue or below it ("queue.x"), as VDSM matches them. */
static int under(const char *dest, const char *queue)
{
    size_t n = strlen(queue);
    return !strncmp(dest, queue, n) && (!dest[n] || dest[n] == '.');
}

/* Forwards a SEND to the subscribers of its destination (and parents),
 * with its content-type and reply-to. @return matched, or -1 (c freed). */
static int forward(struct sconn *c, const struct stomp_frame *f, const char *dest,
                   const char *reply_to)
{
    char ctype[NAME_LEN];
    int has_ctype = stomp_header(f, "content-type", ctype, sizeof ctype) >= 0;
    const char *extra[] = {"reply-to", reply_to, NULL};
    int r = broker_deliver(c, dest, 1, has_ctype ? ctype : NULL, *reply_to ? extra : NULL,
                           f->body, f->body_len);
    if (r < 0)
        sconn_free(c);
    return r;
}

static enum step on_send(struct sconn *c, const struct stomp_frame *f, const char *receipt)
{
    char dest[NAME_LEN], reply_to[NAME_LEN] = "";
    if (stomp_header(f, "destination", dest, sizeof dest) <= 0)
        return fail(c, "SEND without destination", receipt);
    int has_reply_to = stomp_header(f, "reply-to", reply_to, sizeof reply_to) > 0;
    if (!has_reply_to)
        reply_to[0] = '\0';
    int matched = forward(c, f, dest, reply_to);
    if (matched < 0)
        return STEP_GONE;
    int legacy = under(dest, REQUESTS_LEGACY);
    if (!legacy && !under(dest, REQUESTS)) {
        /* VDSM's answer to a SEND nobody takes; the connection stays. */
        const char *kv[] = {"message", "Subscription not available", "content-type", "text/plain",
                            *receipt ? "receipt-id" : NULL, receipt, NULL};
        if (matched)
            return receipt_for(c, receipt) < 0 ? STEP_GONE : STEP_GO;
        c->ctx->broker.unrouted++;
        return queue(c, "ERROR", kv, kv[1], strlen(kv[1])) < 0 ? STEP_GONE : STEP_GO;
    }
    if (!has_reply_to)
        snprintf(reply_to, sizeof reply_to, "%s", legacy ? REPLIES_LEGACY : REPLIES);
    if (request(c, reply_to, f->body, f->body_len) < 0)
        return STEP_GONE;
    return receipt_for(c, receipt) < 0 ? STEP_GONE : STEP_GO;
}

static enum step on_frame(struct sconn *c, const struct stomp_frame *f)
{
    struct stomp_conn *st = c->stomp;
    char receipt[NAME_LEN] = "";
    if (stomp_header(f, "receipt", receipt, sizeof receipt) < 0)
        receipt[0] = '\0';
    /* Any frame may come before CONNECT, as VDSM takes them. */
    if (stomp_is(f, "CONNECT") || stomp_is(f, "STOMP"))
        return on_connect(c, f);
    if (stomp_is(f, "SEND"))
        return on_send(c, f, receipt);
    if (stomp_is(f, "SUBSCRIBE"))
        return on_subscribe(c, f, receipt);
    if (stomp_is(f, "UNSUBSCRIBE"))
        return on_unsubscribe(c, f, receipt);
    if (stomp_is(f, "ACK") || stomp_is(f, "NACK")) /* ack:auto: nothing to do */
        return receipt_for(c, receipt) < 0 ? STEP_GONE : STEP_GO;
    if (stomp_is(f, "DISCONNECT")) {
        st->disconnecting = 1;
        snprintf(st->receipt, sizeof st->receipt, "%s", receipt);
        return STEP_GO;
    }
    return fail(c, "unknown or unsupported command", receipt);
}

/* Parses frames from p[0..n) while input may be taken. *used gets the
 * bytes consumed. */
static enum step parse(struct sconn *c, const char *p, size_t n, size_t *used)
{
    size_t off = 0, max = c->ctx->max_body + HDR_ROOM;
    *used = 0;
    while (off < n && can_read(c)) {
        struct stomp_frame f;
        char err[ERR_LEN] = "bad frame";
        ssize_t r = stomp_parse(p + off, n - off, max, &f, err);
        if (r < 0)
            return fail(c, err, NULL);
        if (r == 0)
            break;
        off += (size_t)r;
        if (f.command_len && on_frame(c, &f) == STEP_GONE)
            return STEP_GONE;
    }
    *used = off;
    return STEP_GO;
}

/* Parses c->in (bytes held from earlier reads), then settles. */
static enum step parse_held(struct sconn *c)
{
    size_t used;
    if (c->in.len > c->in_off) {
        if (parse(c, c->in.data + c->in_off, c->in.len - c->in_off, &used) == STEP_GONE)
            return STEP_GONE;
        c->in_off += used;
        if (c->in_off == c->in.len) {
            sconn_trim(&c->in);
            c->in_off = 0;
        }
    }
    return settle(c);
}

static enum step stomp_input(struct sconn *c, const char *p, size_t n)
{
    struct stomp_conn *st = c->stomp;
    if (st->failed) /* reading was stopped; a TLS leftover may still come */
        return STEP_WAIT;
    if (st->rx_s) /* any byte is a heart-beat */
        sconn_idle_restart(c, st->rx_s);
    else if (!st->connected)
        sconn_idle_restart(c, c->ctx->idle_s);
    if (c->in.len > c->in_off) { /* a partial frame first */
        if (buf_append(&c->in, p, n) < 0) {
            sconn_free(c);
            return STEP_GONE;
        }
        return parse_held(c);
    }
    size_t used;
    if (parse(c, p, n, &used) == STEP_GONE)
        return STEP_GONE;
    buf_reset(&c->in);
    c->in_off = 0;
    if (used < n && buf_append(&c->in, p + used, n - used) < 0) {
        sconn_free(c);
        return STEP_GONE;
    }
    return settle(c);
}

static enum step stomp_written(struct sconn *c)
{
    sconn_trim(&c->out);
    c->out_off = 0;
    return settle(c);
}

/* The idle timer fired: drop c, or not while answers are owed. */
static void stomp_idle(struct sconn *c)
{
    struct stomp_conn *st = c->stomp;
    int stuck = c->out.len > c->out_off; /* writing restarts the timer on progress */
    if (!st->failed && st->connected && !st->rx_s && !stuck) {
        ev_timer_stop(c->ctx->loop, &c->idle); /* silent is fine; it reads again */
        return;
    }
    /* Before CONNECT, a client may wait long for delayed answers. */
    if (!st->failed && !st->connected && !stuck && st->npending) {
        sconn_idle_restart(c, c->ctx->idle_s);
        return;
    }
    sconn_free(c);
}

/* Wrote something: the client is reading, so it is alive. */
static void stomp_progress(struct sconn *c)
{
    if (c->stomp && c->stomp->rx_s && !c->stomp->failed)
        sconn_idle_restart(c, c->stomp->rx_s);
}

static int stomp_start(struct sconn *c)
{
    if (!(c->stomp = calloc(1, sizeof *c->stomp)))
        return -1;
    ev_init(&c->stomp->hb, on_heartbeat);
    c->stomp->hb.data = c;
    return 0;
}

static void stomp_close(struct sconn *c)
{
    if (!c->stomp)
        return;
    cancel_pending(c);
    drop_subs(c);
    ev_timer_stop(c->ctx->loop, &c->stomp->hb);
    free(c->stomp);
    c->stomp = NULL;
}

static void stomp_queued(struct sconn *c)
{
    if (!ev_is_active(&c->wio))
        ev_io_start(c->ctx->loop, &c->wio);
    arm_stall(c);
}

const struct serve_proto serve_stomp = {
    .start = stomp_start,
    .input = stomp_input,
    .written = stomp_written,
    .progress = stomp_progress,
    .idle = stomp_idle,
    .close = stomp_close,
    .queued = stomp_queued,
};
