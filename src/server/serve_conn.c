/* serve_conn: one client connection of `rpcbench serve`: its life cycle,
 * its byte I/O (plain TCP or TLS, decided here and nowhere else), and the
 * handing of its first bytes to the owner's sniffer (serve_ctx.sniff,
 * serve_sniff.c), which names the wire protocol's table (serve_http or
 * serve_stomp); this file never asks which one it is, and calls neither.
 *
 * Phases of a connection: TLS handshake (every connection, with
 * --tls-cert; bounded by the idle timer) -> SNIFF -> SERVING (HTTP or
 * STOMP) -> closed, or CLOSING after an error answer (write shut, input
 * drained briefly so the client reads our answer instead of a reset).
 *
 * OpenSSL may hold decrypted bytes that epoll cannot see; whenever reading
 * is (re)started or a read leaves some behind, a read event is fed to the
 * loop by hand so they are not stranded. */
#include "server/serve_conn.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/serve_conn_int.h"
#include "net/sock.h"
#include "net/tls.h"

#define LINGER_S 2.0     /* how long an error-closed connection drains input */
#define MAX_READS 16     /* reads per event while draining a closing connection */

/* ---- life cycle ---- */

void sconn_free(struct sconn *c)
{
    struct ev_loop *loop = c->ctx->loop;
    ev_io_stop(loop, &c->rio);
    ev_io_stop(loop, &c->wio);
    ev_timer_stop(loop, &c->idle);
    if (c->wire)
        c->wire->close(c);
    tls_free(c->ssl);
    close(c->fd);
    if (c->prev)
        c->prev->next = c->next;
    else
        c->ctx->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->ctx->nconns--;
    buf_free(&c->in);
    buf_free(&c->out);
    free(c);
}

void sconn_idle_restart(struct sconn *c, double after)
{
    c->idle.repeat = after;
    ev_timer_again(c->ctx->loop, &c->idle);
}

/* Error answers close the connection; shutting the write side first and
 * draining for a moment lets the client read the answer even if it is
 * still sending (closing with unread input would send a reset). */
void sconn_linger_start(struct sconn *c)
{
    if (c->ssl)
        SSL_shutdown(c->ssl); /* close_notify; the drain below reads raw */
    shutdown(c->fd, SHUT_WR);
    c->phase = PHASE_CLOSING;
    ev_io_stop(c->ctx->loop, &c->wio);
    ev_io_start(c->ctx->loop, &c->rio);
    sconn_idle_restart(c, LINGER_S);
}

/* Reads raw (no ssl): after close_notify, TLS bytes are only thrown away. */
static void drain(struct sconn *c)
{
    for (int i = 0; i < MAX_READS; i++) {
        size_t n;
        enum io_status st = sock_read(c->fd, NULL, c->ctx->rbuf, c->ctx->rbuf_len, &n);
        if (st == IO_DONE)
            continue;
        if (st != IO_AGAIN)
            sconn_free(c);
        return;
    }
}

/* Big buffers of one request go back to the allocator, so many idle
 * connections stay small. */
void sconn_trim(struct buf *b)
{
    if (b->cap > KEEP_CAP)
        buf_free(b);
    else
        buf_reset(b);
}

/* ---- byte I/O: plain or TLS ---- */

enum io_status sconn_flush(struct sconn *c)
{
    if (ev_is_active(&c->wio))
        return IO_AGAIN; /* EV_WRITE will carry on */
    enum io_status st = sock_write_all(c->fd, c->ssl, c->out.data, c->out.len, &c->out_off);
    if (st == IO_DONE) {
        sconn_trim(&c->out);
        c->out_off = 0;
    } else if (st == IO_AGAIN) {
        ev_io_start(c->ctx->loop, &c->wio);
    }
    return st;
}

void sconn_reading(struct sconn *c, int on)
{
    if (!on) {
        ev_io_stop(c->ctx->loop, &c->rio);
        return;
    }
    ev_io_start(c->ctx->loop, &c->rio);
    if (c->ssl && tls_pending(c->ssl))
        ev_feed_event(c->ctx->loop, &c->rio, EV_READ);
}

/* ---- TLS handshake ---- */

static void handshake(struct sconn *c)
{
    char err[ERR_LEN] = "";
    int r = tls_handshake(c->ssl, err);
    if (r == TLS_FAIL) { /* e.g. no client certificate: nothing to answer */
        c->ctx->tls_failures++;
        sconn_free(c);
        return;
    }
    ev_io_stop(c->ctx->loop, r == TLS_WANT_WRITE ? &c->rio : &c->wio);
    ev_io_start(c->ctx->loop, r == TLS_WANT_WRITE ? &c->wio : &c->rio);
    if (r == 0) {
        c->phase = PHASE_SNIFF;
        sconn_reading(c, 1);
        ev_feed_event(c->ctx->loop, &c->rio, EV_READ); /* bytes that came with it */
    }
}

/* ---- sniffing and reading ---- */

/* The wire is known: start it and hand it its first bytes p[0..n). */
static enum step adopt(struct sconn *c, const struct serve_proto *wire, const char *p, size_t n)
{
    c->wire = wire;
    c->phase = PHASE_SERVING;
    if (wire->start(c) < 0) {
        sconn_free(c);
        return STEP_GONE;
    }
    return wire->input(c, p, n);
}

/* First bytes: decide, keeping them in c->in until the wire is known. */
static enum step first_bytes(struct sconn *c, const char *p, size_t n)
{
    const struct serve_proto *wire;
    if (c->in.len == 0 && (wire = c->ctx->sniff(p, n)))
        return adopt(c, wire, p, n);
    if (buf_append(&c->in, p, n) < 0) {
        sconn_free(c);
        return STEP_GONE;
    }
    if (!(wire = c->ctx->sniff(c->in.data, c->in.len)))
        return STEP_WAIT;
    struct buf held = c->in; /* the wire gets them as fresh input */
    c->in = (struct buf){0};
    enum step s = adopt(c, wire, held.data, held.len);
    buf_free(&held);
    return s;
}

/* One read per event: libev is level-triggered and calls again while bytes
 * wait, and c may be freed by what the bytes cause. */
static void on_readable(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)revents;
    struct sconn *c = w->data;
    if (c->phase == PHASE_CLOSING) {
        drain(c);
        return;
    }
    if (c->phase == PHASE_TLS) {
        handshake(c);
        return;
    }
    size_t n;
    enum io_status st = sock_read(c->fd, c->ssl, c->ctx->rbuf, c->ctx->rbuf_len, &n);
    if (st == IO_AGAIN)
        return;
    if (st != IO_DONE) { /* EOF (maybe mid-request: nothing to answer) or error */
        sconn_free(c);
        return;
    }
    enum step s = c->phase == PHASE_SNIFF ? first_bytes(c, c->ctx->rbuf, n)
                                          : c->wire->input(c, c->ctx->rbuf, n);
    if (s != STEP_GONE && c->ssl && ev_is_active(&c->rio) && tls_pending(c->ssl))
        ev_feed_event(loop, &c->rio, EV_READ);
}

static void on_writable(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)revents;
    struct sconn *c = w->data;
    if (c->phase == PHASE_TLS) {
        handshake(c);
        return;
    }
    size_t before = c->out_off;
    enum io_status st = sock_write_all(c->fd, c->ssl, c->out.data, c->out.len, &c->out_off);
    if (st == IO_ERROR) {
        sconn_free(c);
        return;
    }
    if (st == IO_AGAIN) {
        if (c->out_off > before) { /* slow but reading: not idle */
            sconn_idle_restart(c, c->ctx->idle_s);
            c->wire->progress(c);
        }
        return;
    }
    ev_io_stop(loop, &c->wio);
    c->wire->written(c);
}

static void on_idle(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct sconn *c = w->data;
    if (c->phase == PHASE_SERVING)
        c->wire->idle(c);
    else /* a TLS handshake or first bytes that never came, or done draining */
        sconn_free(c);
}

static struct sconn *sconn_new(struct serve_ctx *ctx, int fd)
{
    struct sconn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->ctx = ctx;
    c->fd = fd;
    c->phase = PHASE_SNIFF;
    if (ctx->tls) {
        char err[ERR_LEN];
        if (!(c->ssl = tls_new_server(ctx->tls, fd, err))) {
            free(c);
            return NULL;
        }
        /* No renegotiation: a write must never have to wait for a read. */
        SSL_set_options(c->ssl, SSL_OP_NO_RENEGOTIATION);
        c->phase = PHASE_TLS;
    }
    ev_io_init(&c->rio, on_readable, fd, EV_READ);
    ev_io_init(&c->wio, on_writable, fd, EV_WRITE);
    ev_init(&c->idle, on_idle);
    c->rio.data = c->wio.data = c->idle.data = c;
    return c;
}

int sconn_start(struct serve_ctx *ctx, int fd)
{
    struct sconn *c = sconn_new(ctx, fd);
    if (!c) {
        close(fd);
        return -1;
    }
    c->next = ctx->conns;
    if (ctx->conns)
        ctx->conns->prev = c;
    ctx->conns = c;
    ctx->nconns++;
    ev_io_start(ctx->loop, &c->rio);
    sconn_idle_restart(c, ctx->idle_s); /* also bounds the TLS handshake */
    return 0;
}

int64_t sconn_batch_delay(struct serve_ctx *ctx, const struct encoder *enc, const char *body,
                          size_t len)
{
    size_t n = vdsm_api_requests_in(enc, body, len);
    int64_t longest = 0;
    ctx->requests += n;
    /* ev_now: the timer started on the delay counts from the loop's time */
    double now = ctx->workers.n ? ev_now(ctx->loop) : 0;
    for (size_t i = 0; i < n; i++) {
        int64_t d = delay_workers_take(&ctx->workers, now, delay_next(&ctx->delay));
        longest = d > longest ? d : longest;
    }
    return longest;
}

void sconn_close_all(struct serve_ctx *ctx)
{
    while (ctx->conns)
        sconn_free(ctx->conns);
}
