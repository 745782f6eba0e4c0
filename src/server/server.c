/* server: the listening socket, accepting and the loop of `rpcbench serve`
 * (server.h). */
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/units.h"
#include "net/sock.h"
#include "net/tls.h"
#include "server/server.h"
#include "server/serve_sniff.h"

#define READ_BUF (64 * 1024)
#define ACCEPTS_PER_EVENT 64
#define LOG_EVERY_NS NS_PER_S

/* Binds the first address host resolves to; writes "HOST:PORT" (IPv6 in
 * brackets) with the port actually bound into bound. */
static int listen_on(const char *host, int port, char *bound, size_t boundlen, char *err)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV}, *res, *ai;
    char ports[16];
    snprintf(ports, sizeof ports, "%d", port);
    int rc = getaddrinfo(host, ports, &hints, &res);
    if (rc) {
        snprintf(err, ERR_LEN, "listen %.200s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = -1, one = 1;
    for (ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, SOMAXCONN) < 0) {
            snprintf(err, ERR_LEN, "listen %.200s:%d: %s", host, port, strerror(errno));
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        return -1;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char h[NI_MAXHOST], p[NI_MAXSERV];
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 ||
        getnameinfo((struct sockaddr *)&ss, sl, h, sizeof h, p, sizeof p,
                    NI_NUMERICHOST | NI_NUMERICSERV)) {
        snprintf(err, ERR_LEN, "getsockname: %s", strerror(errno));
        close(fd);
        return -1;
    }
    snprintf(bound, boundlen, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", h, p);
    return fd;
}

/* One line per second at most, however fast a flood of rejections comes. */
static void log_limited(struct server *s, const char *what)
{
    int64_t now = clock_now_ns();
    if (now - s->last_log_ns < LOG_EVERY_NS) {
        s->quiet_logs++;
        return;
    }
    fprintf(stderr, "serve: %s (%" PRIu64 " rejected so far, %" PRIu64 " similar lines held)\n",
            what, s->ctx.rejected, s->quiet_logs);
    s->last_log_ns = now;
    s->quiet_logs = 0;
}

static void on_resume_accept(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    struct server *s = w->data;
    ev_io_start(loop, &s->accept_w);
}

static void take_client(struct server *s, int fd)
{
    if (s->ctx.nconns >= s->ctx.max_conns) {
        /* A plain-text refusal an HTTP client can read (a TLS client gets
         * only the close: no handshake is spent on a connection we drop). */
        static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n"
                                   "Content-Length: 0\r\n\r\n";
        size_t off = 0;
        if (!s->ctx.tls) /* best effort, fd is non-blocking: the close is the refusal too */
            (void)sock_write_all(fd, NULL, busy, sizeof busy - 1, &off);
        close(fd);
        s->ctx.rejected++;
        log_limited(s, "--max-connections reached: closed a new connection");
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    s->ctx.accepted++;
    sconn_start(&s->ctx, fd);
}

static void on_accept(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)revents;
    struct server *s = w->data;
    for (int i = 0; i < ACCEPTS_PER_EVENT; i++) {
        int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            take_client(s, fd);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return;
        /* Out of fds or memory: the pending client would make the
         * level-triggered watcher spin, so pause accepting briefly. */
        log_limited(s, strerror(errno));
        ev_io_stop(loop, &s->accept_w);
        ev_timer_set(&s->resume_w, 0.1, 0.0);
        ev_timer_start(loop, &s->resume_w);
        return;
    }
}


/* The settings every host has, its own simulator (or a fleet's cache),
 * TLS and read buffer (or a fleet's), then the listening socket. */
static int start(struct server *s, const struct server_config *o, struct sim_cache *cache,
                 int host, char *bound, size_t boundlen, char *err)
{
    struct serve_ctx *ctx = &s->ctx;
    if (!ctx->out)
        ctx->out = &ctx->own_out;
    ctx->sniff = serve_sniff;
    ctx->max_body = o->max_body;
    ctx->idle_s = (double)o->idle_ns / 1e9;
    ctx->max_conns = o->max_conns;
    ctx->api.work_ns_per_vm = o->work_us_per_vm * NS_PER_US;
    ctx->api.cache = cache;
    ctx->api.host = host;
    if (delay_parse(o->delay ? o->delay : "0", o->seed + (uint64_t)host, &ctx->delay, err) < 0)
        return -1;
    if (delay_workers_init(&ctx->workers, o->workers) < 0) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    if (!cache && !(ctx->api.sim = vmsim_new(o->vms, o->seed, err)))
        return -1;
    if (o->tls_cert) {
        char terr[ERR_LEN];
        if (!(ctx->tls = tls_server_ctx(o->tls_cert, o->tls_key, o->tls_ca, terr))) {
            snprintf(err, ERR_LEN, "%s", terr);
            return -1;
        }
    }
    if (!ctx->rbuf) {
        ctx->rbuf_len = READ_BUF;
        if (!(ctx->rbuf = malloc(ctx->rbuf_len))) {
            snprintf(err, ERR_LEN, "out of memory");
            return -1;
        }
    }
    s->lfd = listen_on(o->host, o->port, bound, boundlen, err);
    return s->lfd < 0 ? -1 : 0;
}

static void on_signal(struct ev_loop *loop, ev_signal *w, int revents);

/* SIGINT and SIGTERM on the default loop, from before the caller says it
 * listens: one right after "listening on" stops the server as any other
 * (before, it killed the process by the default action). */
static void arm_signals(struct server *s)
{
    struct ev_loop *loop = EV_DEFAULT;
    ev_signal_init(&s->sigint_w, on_signal, SIGINT);
    ev_signal_init(&s->sigterm_w, on_signal, SIGTERM);
    s->sigint_w.data = s->sigterm_w.data = s;
    ev_signal_start(loop, &s->sigint_w);
    ev_signal_start(loop, &s->sigterm_w);
}

int server_start(struct server *s, const struct server_config *o, char *bound, size_t boundlen,
                 char *err)
{
    sock_raise_fd_limit((long)o->max_conns + 64); /* short: accept pauses, logged */
    if (start(s, o, NULL, 0, bound, boundlen, err) < 0)
        return -1;
    arm_signals(s);
    return 0;
}

int server_start_host(struct server *s, const struct server_config *c, struct sim_cache *cache,
                      int host, char *rbuf, size_t rbuf_len, struct buf *out, char *bound,
                      size_t boundlen, char *err)
{
    s->ctx.out = out;
    s->ctx.rbuf = rbuf;
    s->ctx.rbuf_len = rbuf_len;
    s->rbuf_shared = 1;
    return start(s, c, cache, host, bound, boundlen, err);
}

void server_watch(struct server *s, struct ev_loop *loop)
{
    s->ctx.loop = loop;
    ev_io_init(&s->accept_w, on_accept, s->lfd, EV_READ);
    ev_init(&s->resume_w, on_resume_accept);
    s->accept_w.data = s->resume_w.data = s;
    ev_io_start(loop, &s->accept_w);
}

void server_unwatch(struct server *s)
{
    if (!s->ctx.loop)
        return;
    ev_io_stop(s->ctx.loop, &s->accept_w);
    ev_timer_stop(s->ctx.loop, &s->resume_w);
    sconn_close_all(&s->ctx);
}

static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)revents;
    server_unwatch(w->data);
    ev_break(loop, EVBREAK_ALL);
}

void server_run(struct server *s)
{
    struct ev_loop *loop = EV_DEFAULT;
    server_watch(s, loop);
    ev_run(loop, 0);
    ev_signal_stop(loop, &s->sigint_w);
    ev_signal_stop(loop, &s->sigterm_w);
}

void server_free(struct server *s)
{
    if (s->lfd >= 0)
        close(s->lfd);
    vmsim_free(s->ctx.api.sim);
    if (!s->rbuf_shared)
        free(s->ctx.rbuf);
    delay_workers_free(&s->ctx.workers);
    if (s->ctx.tls)
        SSL_CTX_free(s->ctx.tls);
    buf_free(&s->ctx.own_out);
    broker_free(&s->ctx);
}


void server_print_counts(const struct server *s, FILE *out)
{
    fprintf(out,
            "serve: stopped after %" PRIu64 " connections, %" PRIu64 " requests (%" PRIu64
            " over STOMP), %" PRIu64 " bad, %" PRIu64 " rejected, %" PRIu64
            " failed TLS handshakes\n",
            s->ctx.accepted, s->ctx.requests, s->ctx.stomp_requests, s->ctx.bad_requests,
            s->ctx.rejected, s->ctx.tls_failures);
    if (s->ctx.api.batches_refused || s->ctx.broker.unrouted || s->ctx.broker.dropped_copies)
        fprintf(out,
                "serve: %" PRIu64 " JSON-RPC batches over %d requests refused, %" PRIu64
                " STOMP messages without a subscriber, %" PRIu64
                " copies dropped for subscribers too far behind\n",
                s->ctx.api.batches_refused, VDSM_MAX_BATCH, s->ctx.broker.unrouted,
                s->ctx.broker.dropped_copies);
}
