/* conn: one client connection, start to end (see conn.h). The wire on top
 * (HTTP or STOMP) is reached through its context's wire, the owner through
 * the pool's events. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/rng.h"
#include "base/safetext.h"
#include "client/conn.h"
#include "client/conn_testing.h"
#include "net/sock.h"
#include "net/tls.h"

#define BACKOFF_FIRST_S 0.01
#define BACKOFF_MAX_S 1.0
/* While no peer ever answered: the setup deadline, and the failed setups
 * after which the run gives up (a login refused three times will be
 * refused forever; a wrong port or protocol likewise). */
#define SETUP_FIRST_S 2.0
#define GIVE_UP_TRIES 3

static void io_cb(struct ev_loop *loop, ev_io *w, int revents);
static void connect_failed(struct conn *c, const char *why);
static void timer_cb(struct ev_loop *loop, ev_timer *w, int revents);

static void tell_down(struct conn *c, enum conn_down how, const char *why)
{
    struct conn_pool *p = c->ctx->pool;
    p->ev->down(p->owner, c, how, why);
}

void conn_init(const struct conn_ctx *x, struct conn *c, int idx, struct lane *l,
               const struct target *target, struct conn_peer *peer)
{
    memset(c, 0, sizeof *c);
    c->ctx = x;
    c->lane = l;
    c->target = target;
    c->peer = peer;
    c->idx = idx;
    c->fd = -1;
    c->state = CONN_DOWN;
    c->backoff_s = BACKOFF_FIRST_S;
    c->rng = (uint64_t)clock_now_ns() ^ ((uint64_t)idx << 32);
    ev_init(&c->io, io_cb);
    c->io.data = c;
    ev_init(&c->timer, timer_cb);
    c->timer.data = c;
}

/* c's reads go to the harvest set (once per socket: level-triggered, they
 * stay there until it closes). @return 0, or -1: the loop watches them. */
static int harvest_add(struct conn *c)
{
    if (c->harvested)
        return 0;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP,
                             .data.u64 = (uint64_t)c->idx << 32 | c->gen};
    if (epoll_ctl(c->ctx->pool->harvest_fd, EPOLL_CTL_ADD, c->fd, &ev) < 0)
        return -1;
    c->harvested = 1;
    return 0;
}

char *conn_error_slot(struct conn *c, int kind)
{
    struct conn_stats *s = &c->ctx->pool->stats;
    if (req_ok(kind) || kind < 0 || kind >= ERR_KINDS || s->samples[kind][0])
        return NULL;
    return s->samples[kind];
}

void conn_note_error(struct conn *c, int kind, const char *fmt, ...)
{
    char *slot = conn_error_slot(c, kind);
    if (!slot)
        return;
    va_list ap;
    va_start(ap, fmt);
    safetext_vprintf(slot, ERR_SAMPLE_LEN, fmt, ap);
    va_end(ap);
}

void conn_watch(struct conn *c, int events)
{
    struct ev_loop *loop = c->ctx->loop;
    int up = c->state == CONN_IDLE || c->state == CONN_BUSY;
    if ((events & EV_READ) && up && c->ctx->pool->harvest_fd >= 0 && harvest_add(c) == 0)
        events &= ~EV_READ;
    if (!events) {
        ev_io_stop(loop, &c->io);
        return;
    }
    if (c->io.fd == c->fd && (c->io.events & (EV_READ | EV_WRITE)) == events &&
        ev_is_active(&c->io))
        return;
    ev_io_stop(loop, &c->io);
    ev_io_set(&c->io, c->fd, events);
    ev_io_start(loop, &c->io);
}

void conn_close(struct conn *c)
{
    ev_io_stop(c->ctx->loop, &c->io);
    ev_timer_stop(c->ctx->loop, &c->timer);
    tls_free(c->ssl);
    c->ssl = NULL;
    if (c->fd >= 0)
        close(c->fd); /* which takes it out of the harvest set */
    c->harvested = 0;
    c->gen++;
    c->fd = -1;
    c->state = CONN_DOWN;
    c->out_off = c->out.len = 0;
    buf_reset(&c->in);
}

void conn_free(struct conn *c)
{
    buf_free(&c->body);
    buf_free(&c->out);
    buf_free(&c->in);
    buf_free(&c->send_head);
}

void conn_trim(struct conn *c, size_t keep)
{
    if (c->body.cap > keep)
        buf_free(&c->body);
    if (c->in.cap > keep && c->in.len == 0)
        buf_free(&c->in);
}

static double doubled(double s)
{
    return s < BACKOFF_MAX_S ? 2 * s : s;
}

/* c is closed: it waits before connecting again, +-50 % so that
 * connections that failed together do not come back together, never over
 * BACKOFF_MAX_S. The wait doubles with each failure of this connection
 * (reset by its answer) and with each failure in the pool (reset by any
 * answer), whichever is longer: one bad connection among good ones still
 * backs off, and a pool of many that all fail backs off as fast as one. */
static void backoff(struct conn *c, const char *why)
{
    const struct conn_ctx *x = c->ctx;
    struct conn_pool *p = x->pool;
    double base = p->backoff_s > c->backoff_s ? p->backoff_s : c->backoff_s;
    double s = base * (0.5 + rng_u01(&c->rng));
    c->state = CONN_BACKOFF;
    p->nbackoff++;
    ev_timer_stop(x->loop, &c->timer);
    ev_timer_set(&c->timer, s < BACKOFF_MAX_S ? s : BACKOFF_MAX_S, 0);
    ev_timer_start(x->loop, &c->timer);
    c->backoff_s = doubled(c->backoff_s);
    p->backoff_s = doubled(p->backoff_s > 0 ? p->backoff_s : BACKOFF_FIRST_S);
    tell_down(c, CONN_DOWN_BACKOFF, why);
}

double conn_setup_deadline_s(const struct conn *c)
{
    double s = (double)c->ctx->timeout_ns / 1e9;
    return c->peer->spoke || s < SETUP_FIRST_S ? s : SETUP_FIRST_S;
}

void conn_spoke(struct conn *c)
{
    c->peer->spoke = 1;
    c->ctx->pool->spoke = 1;
}

void conn_start(struct conn *c)
{
    char err[ERR_LEN];
    c->connect_ns = clock_now_ns();
    c->fd = target_connect_nb(c->target, err);
    if (c->fd < 0) {
        connect_failed(c, strchr(err, ':') ? strrchr(err, ':') + 2 : err);
        return;
    }
    if (c->ever_up)
        c->ctx->pool->stats.reconnects++;
    if (!c->ctx->tls)
        sock_rx_timestamps(c->fd); /* else rx_ns is the read's own time */
    c->state = CONN_CONNECTING;
    conn_watch(c, EV_WRITE);
    /* A connect or handshake that never finishes must not hang the run. */
    ev_timer_stop(c->ctx->loop, &c->timer);
    ev_timer_set(&c->timer, conn_setup_deadline_s(c), 0);
    ev_timer_start(c->ctx->loop, &c->timer);
}

/* The TCP connect failed (why): counted, closed, and retried after a
 * backoff; the owner, told why, decides whether the target is unreachable. */
static void connect_failed(struct conn *c, const char *why)
{
    struct conn_pool *p = c->ctx->pool;
    p->stats.failures[CAUSE_CONNECT]++;
    p->last_kind = c->last_kind = ERR_CONNECT;
    p->last_conn = c->idx;
    snprintf(p->last_why, sizeof p->last_why, "could not connect to %.60s:%d: %.60s",
             c->target->host, c->target->port, why);
    conn_close(c);
    backoff(c, why);
}

/* In the TLS handshake or the STOMP login (TCP is up). */
static int in_setup(const struct conn *c)
{
    return c->state == CONN_HANDSHAKE || c->state == CONN_LOGIN;
}

/* Whether this failure says the peer is no server of ours: none ever
 * spoke, and it was not a request that only took long (a slow first
 * answer is a slow server, measured as such). */
static int counts_to_give_up(const struct conn *c, enum conn_cause cause)
{
    return !c->peer->spoke && cause != CAUSE_CONNECT &&
           !(cause == CAUSE_TIMEOUT && !in_setup(c));
}

/* Whether the owner goes on without c's peer (conn_events.give_up_alone:
 * a fleet's host is given up alone). @return 1 so, 0: the run ends. */
static int gives_up_alone(struct conn *c)
{
    const struct conn_pool *p = c->ctx->pool;
    return p->ev->give_up_alone ? p->ev->give_up_alone(p->owner, c) : 0;
}

/* Why c failed, completing "the server at ...", into p->last_why ("" for
 * none): a fleet's names the connection's host, else the run's URL. */
static void note_why(struct conn *c, struct conn_pool *p, const char *why)
{
    if (why && c->ctx->name_host)
        snprintf(p->last_why, sizeof p->last_why, "the server at %.60s:%d %s", c->target->host,
                 c->target->port, why);
    else if (why)
        snprintf(p->last_why, sizeof p->last_why, "the server at %.80s %s", c->ctx->url, why);
    else
        p->last_why[0] = '\0';
}

static void fail_as(struct conn *c, int kind, enum conn_cause cause, const char *why, int tries)
{
    struct conn_pool *p = c->ctx->pool;
    if (cause == CAUSE_RESET && c->ssl)
        cause = CAUSE_TLS; /* a TLS read or write failed (tls_failed says why) */
    if (in_setup(c))
        kind = ERR_HANDSHAKE;
    int give_up = counts_to_give_up(c, cause) && ++c->peer->setup_failures >= tries;
    p->stats.failures[cause]++;
    p->last_kind = c->last_kind = kind;
    p->last_conn = c->idx;
    note_why(c, p, why);
    conn_close(c);
    c->ctx->wire->on_close(c, kind);
    if (give_up && why && !gives_up_alone(c)) {
        c->state = CONN_DOWN;
        tell_down(c, CONN_DOWN_FATAL, p->last_why);
        return;
    }
    backoff(c, NULL);
}

void conn_fail(struct conn *c, int kind, enum conn_cause cause, const char *why)
{
    fail_as(c, kind, cause, why, cause == CAUSE_TIMEOUT ? 1 : GIVE_UP_TRIES);
}

void conn_fail_wrong_protocol(struct conn *c, int kind, const char *why)
{
    fail_as(c, kind, CAUSE_PROTOCOL, why, 1);
}

int conn_cert_hint(const struct conn *c, enum io_status st, char *why, size_t len)
{
    if (!c->ssl || c->ctx->have_cert || c->peer->spoke || (st != IO_EOF && st != IO_ERROR))
        return 0;
    snprintf(why, len, "%s the connection right after the TLS handshake: it may require a "
             "client certificate (--cert, --key)", st == IO_EOF ? "closed" : "reset");
    return 1;
}

void conn_close_clean(struct conn *c)
{
    conn_close(c);
    tell_down(c, CONN_DOWN_CLOSED, NULL);
}

void conn_ready(struct conn *c)
{
    struct conn_pool *p = c->ctx->pool;
    c->state = CONN_IDLE;
    p->ev->ready(p->owner, c);
}

void conn_idle(struct conn *c)
{
    struct conn_pool *p = c->ctx->pool;
    c->state = CONN_IDLE;
    p->ev->idle(p->owner, c);
}

void conn_request_done(struct request *r, int err_kind)
{
    struct conn_pool *p = r->conn->ctx->pool;
    if (req_ok(err_kind)) {
        r->conn->backoff_s = p->backoff_s = BACKOFF_FIRST_S; /* this connection works */
        /* The read that completed the answer (STOMP: the last of a batch of
         * reads, so never before its own arrival). */
        r->done_ns = r->conn->rx_ns > r->sent_ns ? r->conn->rx_ns : r->sent_ns;
    }
    p->ev->response_done(p->owner, r, err_kind);
}

static void transport_up(struct conn *c)
{
    const struct conn_ctx *x = c->ctx;
    ev_timer_stop(x->loop, &c->timer);
    c->ever_up = 1; /* backoff_s is reset by the first answer, not here: a
                       server that accepts and then drops us must not spin */
    if (c->ssl) {
        x->pool->stats.handshakes++;
        hist_record(&x->pool->stats.handshake, (clock_now_ns() - c->connect_ns) / NS_PER_US);
    }
    x->wire->on_ready(c);
}

/* The plain scheme for this TLS target, for the hints. */
static const char *plain_scheme(const struct conn *c)
{
    return c->target->scheme == SCHEME_STOMPS ? "stomp://" : "http://";
}

/* err without OpenSSL's "error:CODE:LIB routines:FUNC:" before its reason
 * (an OpenSSL code tells the user nothing), or err as it is. */
static const char *openssl_reason(const char *err)
{
    const char *r = strstr(err, " routines:");
    const char *colon = r ? strchr(r + 10, ':') : NULL;
    return colon ? colon + 1 : err;
}

/* What the peer did to a TLS handshake that failed: closed or reset the
 * connection (the socket tells, without waiting), or err's reason. */
static void handshake_failed(struct conn *c, const char *err)
{
    struct conn_stats *s = &c->ctx->pool->stats;
    char why[ERR_LEN], peek;
    s->tls_failures++;
    snprintf(s->tls_error, sizeof s->tls_error, "%s", err);
    if (tls_spoke_plain(c->ssl) && s->handshakes == 0) { /* the URL's scheme is wrong */
        snprintf(s->tls_error, sizeof s->tls_error, "%.200s: use %s", err, plain_scheme(c));
        const char *said = strncmp(err, "the server ", 11) ? err : err + 11;
        snprintf(why, sizeof why, "%.100s: use %s", said, plain_scheme(c));
        conn_fail_wrong_protocol(c, ERR_HANDSHAKE, why);
        return;
    }
    /* An alert says the peer speaks TLS, whatever the socket did after it. */
    int alert = strstr(err, "alert") != NULL;
    ssize_t n = alert ? 1 : recv(c->fd, &peek, 1, MSG_PEEK | MSG_DONTWAIT);
    const char *what = n == 0 ? "closed the connection during the TLS handshake"
                       : n < 0 && errno == ECONNRESET ? "reset the connection during the TLS handshake"
                                                       : NULL;
    if (what)
        snprintf(why, sizeof why, "%s: if it does not speak TLS, use %s", what, plain_scheme(c));
    else /* TLS 1.2 refuses a missing certificate in the handshake, by an alert */
        snprintf(why, sizeof why, "failed the TLS handshake: %.150s%s", openssl_reason(
                 strncmp(err, "TLS handshake: ", 15) ? err : err + 15),
                 alert && !c->ctx->have_cert
                     ? ": it may require a client certificate (--cert, --key)" : "");
    conn_fail(c, ERR_HANDSHAKE, CAUSE_TLS, why);
}

static void handshake_step(struct conn *c)
{
    char err[ERR_LEN];
    int rc = tls_handshake(c->ssl, err);
    if (rc == TLS_WANT_READ || rc == TLS_WANT_WRITE) {
        conn_watch(c, rc == TLS_WANT_READ ? EV_READ : EV_WRITE);
        return;
    }
    if (rc != 0) {
        handshake_failed(c, err);
        return;
    }
    transport_up(c);
}

static void connected(struct conn *c)
{
    int soerr = 0;
    socklen_t len = sizeof soerr;
    const struct conn_ctx *x = c->ctx;
    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0)
        soerr = errno;
    if (soerr == ECONNRESET || soerr == EPIPE) { /* it accepted, then reset at once */
        x->pool->reached = 1;
        conn_fail(c, ERR_CLOSED, CAUSE_RESET, "reset the connection right after accepting it");
        return;
    }
    if (soerr) {
        connect_failed(c, strerror(soerr));
        return;
    }
    x->pool->reached = 1;
    if (!x->tls) {
        transport_up(c);
        return;
    }
    char err[ERR_LEN];
    c->ssl = tls_new_client(x->tls, c->fd, c->target->host, x->tls_insecure, err);
    if (!c->ssl) {
        conn_fail(c, ERR_HANDSHAKE, CAUSE_TLS, NULL);
        return;
    }
    c->state = CONN_HANDSHAKE;
    handshake_step(c);
}

void conn_adopt(struct conn *c, int fd)
{
    c->fd = fd;
    c->connect_ns = clock_now_ns();
    c->state = CONN_CONNECTING;
    c->ctx->pool->reached = 1;
    transport_up(c);
}

/* A TLS failure after the handshake (e.g. the server refusing our client
 * certificate, which TLS 1.3 says only then): counted and kept for the
 * report. */
static void tls_failed(struct conn *c)
{
    struct conn_stats *s = &c->ctx->pool->stats;
    char reason[200];
    tls_last_error(reason, sizeof reason);
    s->tls_failures++;
    snprintf(s->tls_error, sizeof s->tls_error, "after the handshake: %s", reason);
}

enum io_status conn_read(struct conn *c, void *buf, size_t len, size_t *n)
{
    int64_t rx_real;
    enum io_status st = sock_read_stamped(c->fd, c->ssl, buf, len, n, &rx_real);
    if (st == IO_DONE)
        c->rx_ns = rx_real ? clock_mono_of_real_ns(rx_real) : clock_now_ns();
    if (st == IO_ERROR && c->ssl)
        tls_failed(c);
    return st;
}

enum io_status conn_flush(struct conn *c)
{
    enum io_status st = sock_write_all(c->fd, c->ssl, c->out.data, c->out.len, &c->out_off);
    if (st == IO_ERROR && c->ssl)
        tls_failed(c);
    if (st == IO_DONE)
        c->out_off = c->out.len = 0;
    return st;
}

int conn_send_bytes(struct conn *c, const char *p, size_t n)
{
    c->last_tx_ns = clock_now_ns();
    if (!c->peer->first_tx_ns)
        c->peer->first_tx_ns = c->last_tx_ns;
    if (c->out_off == c->out.len) { /* nothing queued: write straight away */
        c->out_off = c->out.len = 0;
        size_t off = 0;
        enum io_status st = sock_write_all(c->fd, c->ssl, p, n, &off);
        if (st == IO_ERROR && c->ssl)
            tls_failed(c);
        if (st == IO_ERROR)
            return -1;
        if (st == IO_DONE)
            return 0;
        p += off; /* the rest waits for the socket */
        n -= off;
    }
    return buf_append(&c->out, p, n);
}

static void io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    struct conn *c = w->data;
    switch (c->state) {
    case CONN_CONNECTING:
        connected(c);
        return;
    case CONN_HANDSHAKE:
        handshake_step(c);
        return;
    case CONN_DOWN:
    case CONN_BACKOFF:
        return;
    default:
        c->ctx->wire->on_io(c, revents);
    }
}

int conn_pool_harvest_init(struct conn_pool *p)
{
    p->harvest_fd = epoll_create1(EPOLL_CLOEXEC);
    return p->harvest_fd < 0 ? -1 : 0;
}

/* At most this many rounds of events per harvest: a peer that keeps its
 * socket readable cannot hold the pacer. */
#define HARVEST_ROUNDS 4
#define HARVEST_BATCH 64

void conn_pool_harvest(struct conn_pool *p)
{
    struct epoll_event ev[HARVEST_BATCH];
    int n = p->harvest_fd >= 0 ? HARVEST_BATCH : 0;
    for (int round = 0; round < HARVEST_ROUNDS && n == HARVEST_BATCH; round++) {
        n = epoll_wait(p->harvest_fd, ev, HARVEST_BATCH, 0);
        for (int i = 0; i < n; i++) {
            struct conn *c = &p->conns[ev[i].data.u64 >> 32];
            /* Closed (perhaps reopened) by a callback since the wait. */
            if (!c->harvested || (uint32_t)ev[i].data.u64 != c->gen)
                continue;
            c->ctx->wire->on_io(c, EV_READ);
        }
    }
}

void conn_pool_harvest_free(struct conn_pool *p)
{
    if (p->harvest_fd >= 0)
        close(p->harvest_fd);
    p->harvest_fd = -1;
}

/* c's backoff is over: whether it opens again now is the owner's policy
 * (conn_events.backoff_over). */
static void backoff_over(struct conn *c)
{
    const struct conn_pool *p = c->ctx->pool;
    c->state = CONN_DOWN;
    c->ctx->pool->nbackoff--;
    if (p->ev->backoff_over)
        p->ev->backoff_over(p->owner, c);
    else
        conn_start(c);
}

static void timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct conn *c = w->data;
    if (c->harvested && c->state == CONN_BUSY) {
        /* An answer that came in time may wait in the harvest set: it is
         * read first, and a request sent since on c has a timer of its own. */
        conn_pool_harvest(c->ctx->pool);
        if (ev_is_active(&c->timer) || c->state != CONN_BUSY)
            return;
    }
    if (c->state == CONN_BACKOFF) {
        backoff_over(c);
        return;
    }
    if (c->state == CONN_CONNECTING) {
        connect_failed(c, "timed out");
        return;
    }
    if (c->state == CONN_HANDSHAKE) {
        char why[128];
        snprintf(why, sizeof why, "did not answer the TLS handshake within %gs: if it does not "
                 "speak TLS, use %s", conn_setup_deadline_s(c), plain_scheme(c));
        conn_fail(c, ERR_HANDSHAKE, CAUSE_TIMEOUT, why);
        return;
    }
    c->ctx->wire->on_timer(c);
}

/* Polls until every live connection has its receipt. */
static void goodbye_poll_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    const struct conn_pool *p = ((const struct conn_ctx *)w->data)->pool;
    for (int i = 0; i < p->n; i++)
        if (p->conns[i].state == CONN_IDLE && !p->conns[i].receipt_done)
            return;
    ev_break(loop, EVBREAK_ALL);
}

static void goodbye_deadline_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)w;
    (void)revents;
    ev_break(loop, EVBREAK_ALL);
}

/* STOMP: DISCONNECT with a receipt on every live connection, and wait (up
 * to a second) for the receipts, so the server sees a clean goodbye. */
void conn_goodbye_all(const struct conn_ctx *x)
{
    int any = 0;
    struct conn_pool *p = x->pool;
    for (int i = 0; i < p->n; i++)
        if (p->conns[i].state == CONN_IDLE) {
            x->wire->goodbye(&p->conns[i]);
            any = 1;
        }
    if (!any)
        return;
    ev_timer poll, deadline;
    ev_timer_init(&poll, goodbye_poll_cb, 0.002, 0.002);
    poll.data = (void *)x; /* only read */
    ev_timer_init(&deadline, goodbye_deadline_cb, 1.0, 0);
    ev_timer_start(x->loop, &poll);
    ev_timer_start(x->loop, &deadline);
    ev_run(x->loop, 0);
    ev_timer_stop(x->loop, &poll);
    ev_timer_stop(x->loop, &deadline);
}
