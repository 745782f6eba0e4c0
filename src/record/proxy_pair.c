/* proxy_pair: one client connection and its own connection to the server
 * (see proxy.h, proxy_int.h). Each side's watchers follow from its state
 * (update): a side is read while the other side's outbound bytes are
 * under PROXY_OUT_CAP, and written while it has bytes waiting. Bytes read
 * are handed to the other side's socket at once when nothing waits there
 * (the common case: no copy, no wait), and only then shown to the
 * recorder. */
#include "record/proxy_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "net/sock.h"
#include "net/tls.h"

enum { CLIENT, SERVER };

static struct side *other(struct side *s)
{
    return &s->pair->s[s == &s->pair->s[CLIENT] ? SERVER : CLIENT];
}

/* The direction of the bytes written to s: to the server is up. */
static enum rec_dir dir_to(const struct side *s)
{
    return s == &s->pair->s[SERVER] ? REC_UP : REC_DOWN;
}

static size_t waiting(const struct side *s)
{
    return s->out.len - s->out_off;
}

static void watch(struct ev_loop *loop, ev_io *w, int on)
{
    if (on && !ev_is_active(w))
        ev_io_start(loop, w);
    else if (!on && ev_is_active(w))
        ev_io_stop(loop, w);
}

static int can_read(struct side *s)
{
    return s->phase == SIDE_OPEN && !s->eof && waiting(other(s)) < PROXY_OUT_CAP;
}

/* Sets s's watchers from its state: once open, reading waits for the
 * readiness its last TLS read asked for, writing for its last write's. */
static void update(struct side *s)
{
    struct ev_loop *loop = s->pair->px->loop;
    int r = 0, w = 0;
    if (s->phase == SIDE_CONNECTING) {
        w = 1;
    } else if (s->phase == SIDE_HANDSHAKE) {
        r = !s->want_write;
        w = s->want_write;
    } else {
        if (can_read(s))
            *(s->read_wants_write ? &w : &r) = 1;
        if (waiting(s) > 0)
            *(s->write_wants_read ? &r : &w) = 1;
    }
    watch(loop, &s->rio, r);
    watch(loop, &s->wio, w);
}

/* After a write to s returned st: what it waits for, if it waits. */
static void note_write(struct side *s, enum io_status st)
{
    s->write_wants_read = st == IO_AGAIN && s->ssl && SSL_want_read(s->ssl);
}

/* k more bytes of s's stream went out: the chunks whose first byte they
 * hold have their added latency. */
static void advance(struct side *s, size_t k)
{
    if (!k)
        return;
    s->written += k;
    s->pair->px->bytes[dir_to(s)] += k;
    int64_t now = s->pair->last_io_ns = clock_now_ns();
    while (s->nmarks && s->marks[s->mark0].pos < s->written) {
        int64_t d = now - s->marks[s->mark0].read_ns;
        hist_record(&s->pair->px->added[dir_to(s)], d > 0 ? d : 1);
        s->mark0 = (s->mark0 + 1) % PROXY_MARKS;
        s->nmarks--;
    }
}

/* n bytes for s, read at read_ns: a mark, then as many as the socket takes
 * now, the rest queued. @return 0, or -1 (the socket failed, or no
 * memory). */
static int forward(struct side *s, const char *p, size_t n, int64_t read_ns)
{
    if (s->nmarks < PROXY_MARKS) /* else this chunk's figure is not taken */
        s->marks[(s->mark0 + s->nmarks++) % PROXY_MARKS] = (struct mark){s->queued, read_ns};
    s->queued += n;
    size_t off = 0;
    if (s->phase == SIDE_OPEN && waiting(s) == 0) {
        enum io_status st = sock_write_all(s->fd, s->ssl, p, n, &off);
        advance(s, off);
        note_write(s, st);
        if (st == IO_ERROR)
            return -1;
    }
    return off < n && buf_append(&s->out, p + off, n - off) < 0 ? -1 : 0;
}

/* Writes what waits for s. @return 0, or -1 when its socket failed. */
static int flush(struct side *s)
{
    size_t before = s->out_off;
    enum io_status st = sock_write_all(s->fd, s->ssl, s->out.data, s->out.len, &s->out_off);
    advance(s, s->out_off - before);
    note_write(s, st);
    if (st == IO_ERROR)
        return -1;
    if (st == IO_DONE) {
        s->out_off = 0;
        if (s->out.cap > 4 * PROXY_OUT_CAP)
            buf_free(&s->out); /* a burst's memory is not kept */
        else
            buf_reset(&s->out);
    }
    return 0;
}

/* The other side of s read its end and all of it went to s: s hears the
 * end too (its write side shut), so a half close passes through. */
static void pass_end(struct side *s)
{
    if (s->shut || !other(s)->eof || waiting(s) || s->phase != SIDE_OPEN)
        return;
    s->shut = 1;
    if (s->ssl)
        tls_close_notify(s->ssl);
    shutdown(s->fd, SHUT_WR);
}

/* Reads from s while it has bytes and the other side room for them (at
 * most 16 reads a wake-up, for fairness), forwarding each at once.
 * @return 0, or -1 to close the pair. */
static int drain(struct side *s)
{
    struct proxy *px = s->pair->px;
    enum rec_dir dir = dir_to(other(s));
    for (int i = 0; i < 16 && can_read(s); i++) {
        size_t n;
        int64_t real = 0;
        s->read_wants_write = 0;
        enum io_status st = sock_read_stamped(s->fd, s->ssl, px->rbuf, PROXY_READ_BUF, &n, &real);
        int64_t now = clock_now_ns();
        /* the kernel's arrival stamp (plain sockets) counts the wake-up too */
        int64_t at = real ? clock_mono_of_real_ns(real) : now;
        if (st == IO_AGAIN) {
            s->read_wants_write = s->ssl && SSL_want_write(s->ssl);
            return 0;
        }
        s->pair->last_io_ns = now;
        /* A reset, or a TLS peer gone without close_notify, ends this
         * stream like a close: what it sent before still goes through. */
        if (st == IO_EOF || st == IO_ERROR) {
            s->eof = 1;
            rec_wire_eof(&s->pair->wire, dir, now);
            return 0;
        }
        if (forward(other(s), px->rbuf, n, at) < 0)
            return -1;
        rec_wire_feed(&s->pair->wire, dir, px->rbuf, n, at);
    }
    if (can_read(s) && s->ssl && tls_pending(s->ssl)) /* epoll cannot see those */
        ev_feed_event(px->loop, &s->rio, EV_READ);
    return 0;
}

static void note_failure(struct proxy *px, const char *what, const char *err)
{
    if (px->tls_failed + px->upstream_failed == 1) /* the first says why; the end counts */
        fprintf(stderr, "rpcbench record: %s: %s\n", what, err);
}

/* One TLS handshake step of s. @return 0, or -1 when it failed. */
static int handshake(struct side *s)
{
    char err[ERR_LEN];
    int r = tls_handshake(s->ssl, err);
    s->want_write = r == TLS_WANT_WRITE;
    if (r == TLS_FAIL) {
        s->pair->px->tls_failed++;
        note_failure(s->pair->px, s == &s->pair->s[CLIENT] ? "client TLS" : "server TLS", err);
        return -1;
    }
    if (r == 0)
        s->phase = SIDE_OPEN;
    return 0;
}

/* The server side's connect ended: TLS next, or open. @return 0, or -1. */
static int connected(struct side *s)
{
    struct proxy *px = s->pair->px;
    int e = 0;
    socklen_t l = sizeof e;
    char err[ERR_LEN];
    if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &e, &l) < 0 || e) {
        px->upstream_failed++;
        snprintf(err, sizeof err, "%s", strerror(e ? e : errno));
        note_failure(px, px->cfg->to, err);
        return -1;
    }
    if (!px->to_tls) {
        (void)sock_rx_timestamps(s->fd); /* without, the read's own time is taken */
        s->phase = SIDE_OPEN;
        return 0;
    }
    if (!(s->ssl = tls_new_client(px->to_tls, s->fd, px->target.host, px->cfg->insecure, err))) {
        px->tls_failed++;
        note_failure(px, "server TLS", err);
        return -1;
    }
    s->phase = SIDE_HANDSHAKE;
    return handshake(s);
}

/* What an event on s asks. @return 0, or -1 to close the pair. */
static int step(struct side *s, int revents)
{
    if (s->phase == SIDE_CONNECTING)
        return connected(s);
    if (s->phase == SIDE_HANDSHAKE)
        return handshake(s);
    int readable = revents & EV_READ, writable = revents & EV_WRITE;
    if (waiting(s) && (s->write_wants_read ? readable : writable) && flush(s) < 0)
        return -1;
    if ((s->read_wants_write ? writable : readable) && drain(s) < 0)
        return -1;
    struct side *o = other(s);
    if (!(revents & EV_READ) && can_read(o) && o->ssl && tls_pending(o->ssl))
        ev_feed_event(s->pair->px->loop, &o->rio, EV_READ); /* room again for o's bytes */
    return 0;
}

/* Whether the pair is over: both ends read and everything delivered, or
 * the server gone before the client's TLS session opened. (A client that
 * ends before the server side opens still has its bytes delivered.) */
static int over(struct pair *pr)
{
    struct side *c = &pr->s[CLIENT], *v = &pr->s[SERVER];
    if (c->eof && v->eof)
        return !waiting(c) && !waiting(v);
    return v->eof && c->phase != SIDE_OPEN;
}

/* The server side or a TLS session did not open in time: a peer that
 * never answers must not hold two fds for ever. */
static void on_setup_expired(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct pair *pr = w->data;
    pr->px->setup_expired++;
    pair_close(pr);
}

/* --idle-timeout: no byte either way for that long closes the pair (a
 * peer gone without a FIN, or one that holds its connection open and
 * silent, must not hold two fds for ever). The timer is not moved on each
 * byte: when it fires early it waits again for the rest. */
static void on_idle(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    struct pair *pr = w->data;
    int64_t idle = pr->px->cfg->idle_ns, left = pr->last_io_ns + idle - clock_now_ns();
    if (left > 0) {
        ev_timer_set(w, (double)left / 1e9, 0.);
        ev_timer_start(loop, w);
        return;
    }
    pr->px->rf.idle_timeouts++;
    pair_close(pr);
}

static void on_io(struct ev_loop *loop, ev_io *w, int revents)
{
    struct side *s = w->data;
    struct pair *pr = s->pair;
    if (step(s, revents) < 0) {
        pair_close(pr);
        return;
    }
    if (pr->s[CLIENT].phase == SIDE_OPEN && pr->s[SERVER].phase == SIDE_OPEN)
        ev_timer_stop(loop, &pr->setup);
    pass_end(&pr->s[CLIENT]);
    pass_end(&pr->s[SERVER]);
    if (over(pr)) {
        pair_close(pr);
        return;
    }
    update(&pr->s[CLIENT]);
    update(&pr->s[SERVER]);
}

/* The client's side of a new pair. @return 0, or -1 (TLS could not start). */
static int client_side(struct pair *pr, int fd)
{
    struct side *c = &pr->s[CLIENT];
    char err[ERR_LEN];
    c->fd = fd;
    if (!pr->px->listen_tls) {
        (void)sock_rx_timestamps(fd);
        c->phase = SIDE_OPEN;
        return 0;
    }
    if (!(c->ssl = tls_new_server(pr->px->listen_tls, fd, err))) {
        pr->px->tls_failed++;
        note_failure(pr->px, "client TLS", err);
        return -1;
    }
    c->phase = SIDE_HANDSHAKE;
    return 0;
}

int pair_start(struct proxy *px, int fd)
{
    struct pair *pr = calloc(1, sizeof *pr);
    char err[ERR_LEN];
    int up = pr ? target_connect_nb(&px->target, err) : -1;
    if (up < 0 && pr) {
        px->upstream_failed++;
        note_failure(px, px->cfg->to, err);
    }
    if (up < 0) {
        free(pr);
        close(fd);
        return -1;
    }
    pr->px = px;
    for (int i = 0; i < 2; i++) {
        pr->s[i].pair = pr;
        pr->s[i].fd = -1;
    }
    pr->s[SERVER].fd = up;
    pr->s[SERVER].phase = SIDE_CONNECTING;
    if ((pr->next = px->pairs))
        pr->next->prev = pr;
    px->pairs = pr;
    rec_wire_init(&pr->wire, px->cfg->max_msg, &rec_calls_events, &pr->calls);
    int calls = rec_calls_init(&pr->calls, &px->rf, (int)++px->rf.conns);
    pr->s[CLIENT].fd = fd;
    if (calls < 0 || client_side(pr, fd) < 0) {
        pair_close(pr);
        return -1;
    }
    ev_timer_init(&pr->setup, on_setup_expired, PROXY_SETUP_S, 0.);
    pr->setup.data = pr;
    ev_timer_start(px->loop, &pr->setup);
    ev_timer_init(&pr->idle, on_idle, (double)px->cfg->idle_ns / 1e9, 0.);
    pr->idle.data = pr;
    pr->last_io_ns = clock_now_ns();
    if (px->cfg->idle_ns > 0)
        ev_timer_start(px->loop, &pr->idle);
    for (int i = 0; i < 2; i++) {
        ev_io_init(&pr->s[i].rio, on_io, pr->s[i].fd, EV_READ);
        ev_io_init(&pr->s[i].wio, on_io, pr->s[i].fd, EV_WRITE);
        pr->s[i].rio.data = pr->s[i].wio.data = &pr->s[i];
        update(&pr->s[i]);
    }
    return 0;
}

void pair_close(struct pair *pr)
{
    struct proxy *px = pr->px;
    rec_calls_end(&pr->calls);
    rec_wire_free(&pr->wire);
    if (pr->setup.cb)
        ev_timer_stop(px->loop, &pr->setup);
    if (pr->idle.cb)
        ev_timer_stop(px->loop, &pr->idle);
    for (int i = 0; i < 2; i++) {
        struct side *s = &pr->s[i];
        if (s->rio.cb) { /* watchers made */
            ev_io_stop(px->loop, &s->rio);
            ev_io_stop(px->loop, &s->wio);
        }
        tls_free(s->ssl);
        if (s->fd >= 0)
            close(s->fd);
        buf_free(&s->out);
    }
    if (pr->prev)
        pr->prev->next = pr->next;
    else
        px->pairs = pr->next;
    if (pr->next)
        pr->next->prev = pr->prev;
    free(pr);
}
