/* serve: `rpcbench serve`, the built-in simulated VDSM host.
 *
 * One libev loop, one listening socket speaking HTTP (XML-RPC, JSON-RPC)
 * and STOMP (JSON-RPC), all over TLS with --tls-cert, as VDSM does;
 * serve_conn handles each client, vdsm_api answers, vmsim makes the VMs.
 * SIGINT/SIGTERM stop it cleanly (exit 0). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ev.h>

#include "clock.h"
#include "commands.h"
#include "options.h"
#include "serve_conn.h"
#include "tls.h"
#include "units.h"

#define READ_BUF (64 * 1024)
#define ACCEPTS_PER_EVENT 64
#define LOG_EVERY_NS NS_PER_S

struct serve_opts {
    char host[256];
    int port;
    int vms;
    uint64_t seed;
    const char *delay;
    int64_t work_us_per_vm;
    size_t max_body;
    int64_t idle_ns;
    int max_conns;
    const char *tls_cert, *tls_key, *tls_ca;
};

struct server {
    struct serve_ctx ctx;
    int lfd;
    ev_io accept_w;
    ev_timer resume_w; /* re-arms accepting after running out of fds */
    ev_signal sigint_w, sigterm_w;
    int64_t last_log_ns;
    uint64_t quiet_logs; /* log lines held back by the rate limit */
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rpcbench serve [options]\n"
            "  Runs a simulated VDSM host: XML-RPC at POST /RPC2 (and /),\n"
            "  JSON-RPC 2.0 at POST /jsonrpc (HTTP/1.1), and JSON-RPC over STOMP 1.2\n"
            "  (SEND to jms.topic.vdsm_requests with reply-to), all on one port.\n\n"
            "  --listen HOST:PORT      address (default 127.0.0.1:54321; port 0 picks one)\n"
            "  --vms N                 simulated running VMs (default 150)\n"
            "  --seed S                seed of the VMs and the delays (default 1)\n"
            "  --delay SPEC            service delay: 5ms, uniform:1ms:10ms, exp:5ms (mean)\n"
            "  --work-us-per-vm N      CPU burnt per VM per stats call, microseconds (default 0)\n"
            "  --max-body SIZE         largest request body (default 16MiB; beyond: 413)\n"
            "  --idle-timeout D        drop HTTP clients without a complete request, and STOMP\n"
            "                          clients that never CONNECTed, after D (default 60s)\n"
            "  --max-connections N     open connections at most (default 10000)\n"
            "  --tls-cert FILE         serve everything over TLS with this certificate (PEM)\n"
            "  --tls-key FILE          its private key (default: in --tls-cert's file)\n"
            "  --tls-ca FILE           require client certificates signed by this CA\n"
            "  -V, --version           the version\n"
            "  -h, --help              this text\n\n"
            "  Prints \"listening on HOST:PORT\" once ready; SIGINT/SIGTERM stop it.\n"
            "  " USAGE_EXIT_CODES);
}

static int parse_int(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *out,
                     char *err)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        snprintf(err, ERR_LEN, "--%s: '%s' is not an integer in %" PRId64 "..%" PRId64, opt, s,
                 lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_opt(int ch, const char *name, const char *arg, struct serve_opts *o, char *err)
{
    int64_t v;
    switch (ch) {
    case 'l':
        return units_parse_hostport(arg, o->host, sizeof o->host, &o->port, err);
    case 'n':
        if (parse_int(name, arg, 0, VMSIM_MAX_VMS, &v, err) < 0)
            return -1;
        o->vms = (int)v;
        return 0;
    case 's':
        if (parse_int(name, arg, 0, INT64_MAX, &v, err) < 0)
            return -1;
        o->seed = (uint64_t)v;
        return 0;
    case 'd': {
        struct delay d; /* checked now for exit 2; parsed again with the seed */
        o->delay = arg;
        return delay_parse(arg, 0, &d, err);
    }
    case 'w':
        return parse_int(name, arg, 0, 10 * 1000 * 1000, &o->work_us_per_vm, err);
    case 'b':
        return units_parse_size(arg, &o->max_body, err);
    case 'i':
        if (units_parse_duration(arg, &o->idle_ns, err) < 0)
            return -1;
        if (o->idle_ns > 0)
            return 0;
        snprintf(err, ERR_LEN, "--idle-timeout: must be above 0");
        return -1;
    case 'c':
        if (parse_int(name, arg, 1, 10 * 1000 * 1000, &v, err) < 0)
            return -1;
        o->max_conns = (int)v;
        return 0;
    case 'C':
        o->tls_cert = arg;
        return 0;
    case 'K':
        o->tls_key = arg;
        return 0;
    case 'A':
        o->tls_ca = arg;
        return 0;
    default:
        return -1;
    }
}

/* @return 0 to serve, 1 for --help, 2 for --version, -1 bad usage (err
 * filled). */
static int parse_args(int argc, char **argv, struct serve_opts *o, char *err)
{
    static const struct option longopts[] = {
        {"listen", required_argument, NULL, 'l'},
        {"vms", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 's'},
        {"delay", required_argument, NULL, 'd'},
        {"work-us-per-vm", required_argument, NULL, 'w'},
        {"max-body", required_argument, NULL, 'b'},
        {"idle-timeout", required_argument, NULL, 'i'},
        {"max-connections", required_argument, NULL, 'c'},
        {"tls-cert", required_argument, NULL, 'C'},
        {"tls-key", required_argument, NULL, 'K'},
        {"tls-ca", required_argument, NULL, 'A'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    *o = (struct serve_opts){.host = "127.0.0.1", .port = 54321, .vms = 150, .seed = 1,
                             .max_body = 16u << 20, .idle_ns = 60 * NS_PER_S,
                             .max_conns = 10000};
    optind = 0; /* full re-initialisation (GNU) */
    opterr = 0;
    int ch, idx;
    while ((ch = getopt_long(argc, argv, ":hV", longopts, &idx)) != -1) {
        if (ch == 'h')
            return 1;
        if (ch == 'V')
            return 2;
        if (ch == '?' || ch == ':') {
            snprintf(err, ERR_LEN, "%s option '%s'", ch == ':' ? "missing value for" : "unknown",
                     argv[optind - 1] ? argv[optind - 1] : "?");
            return -1;
        }
        if (parse_opt(ch, longopts[idx].name, optarg, o, err) < 0) {
            char name[40]; /* name the option: "--listen: address ..." */
            snprintf(name, sizeof name, "--%.30s", longopts[idx].name);
            options_name_error(name, err);
            return -1;
        }
    }
    if (optind < argc) {
        snprintf(err, ERR_LEN, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (!o->tls_cert && (o->tls_key || o->tls_ca)) {
        snprintf(err, ERR_LEN, "--tls-key and --tls-ca need --tls-cert");
        return -1;
    }
    const char *files[][2] = {{"--tls-cert", o->tls_cert}, {"--tls-key", o->tls_key},
                              {"--tls-ca", o->tls_ca}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (files[i][1] && access(files[i][1], R_OK)) {
            snprintf(err, ERR_LEN, "%s: cannot read '%.200s': %s", files[i][0], files[i][1],
                     strerror(errno));
            return -1;
        }
    return 0;
}

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
        snprintf(err, ERR_LEN, "listen %s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = -1, one = 1;
    for (ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, SOMAXCONN) < 0) {
            snprintf(err, ERR_LEN, "listen %s:%d: %s", host, port, strerror(errno));
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
        if (!s->ctx.tls && send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
            (void)0; /* best effort: the close below is the refusal too */
        close(fd);
        s->ctx.rejected++;
        log_limited(s, "--max-connections reached: closed a new connection");
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    s->ctx.accepted++;
    serve_conn_start(&s->ctx, fd);
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

static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)revents;
    struct server *s = w->data;
    ev_io_stop(loop, &s->accept_w);
    ev_timer_stop(loop, &s->resume_w);
    serve_conn_close_all(&s->ctx);
    ev_break(loop, EVBREAK_ALL);
}

/* The default soft limit (often 1024 fds) is below --max-connections'
 * default; take what the hard limit allows. */
static void raise_fd_limit(int max_conns)
{
    struct rlimit rl;
    rlim_t want = (rlim_t)max_conns + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= want)
        return;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
}

static int setup(struct server *s, const struct serve_opts *o, char *bound, char *err)
{
    raise_fd_limit(o->max_conns);
    struct serve_ctx *ctx = &s->ctx;
    ctx->max_body = o->max_body;
    ctx->idle_s = (double)o->idle_ns / 1e9;
    ctx->max_conns = o->max_conns;
    ctx->api.work_ns_per_vm = o->work_us_per_vm * NS_PER_US;
    if (delay_parse(o->delay ? o->delay : "0", o->seed, &ctx->delay, err) < 0)
        return -1;
    if (!(ctx->api.sim = vmsim_new(o->vms, o->seed, err)))
        return -1;
    if (o->tls_cert) {
        char terr[TLS_ERR_LEN];
        if (!(ctx->tls = tls_server_ctx(o->tls_cert, o->tls_key, o->tls_ca, terr))) {
            snprintf(err, ERR_LEN, "%s", terr);
            return -1;
        }
    }
    ctx->rbuf_len = READ_BUF;
    if (!(ctx->rbuf = malloc(ctx->rbuf_len))) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    s->lfd = listen_on(o->host, o->port, bound, 300, err);
    return s->lfd < 0 ? -1 : 0;
}

static void run(struct server *s)
{
    struct ev_loop *loop = s->ctx.loop = EV_DEFAULT;
    ev_io_init(&s->accept_w, on_accept, s->lfd, EV_READ);
    ev_init(&s->resume_w, on_resume_accept);
    ev_signal_init(&s->sigint_w, on_signal, SIGINT);
    ev_signal_init(&s->sigterm_w, on_signal, SIGTERM);
    s->accept_w.data = s->resume_w.data = s->sigint_w.data = s->sigterm_w.data = s;
    ev_io_start(loop, &s->accept_w);
    ev_signal_start(loop, &s->sigint_w);
    ev_signal_start(loop, &s->sigterm_w);
    ev_run(loop, 0);
    ev_signal_stop(loop, &s->sigint_w);
    ev_signal_stop(loop, &s->sigterm_w);
}

static void teardown(struct server *s)
{
    if (s->lfd >= 0)
        close(s->lfd);
    vmsim_free(s->ctx.api.sim);
    free(s->ctx.rbuf);
    if (s->ctx.tls)
        SSL_CTX_free(s->ctx.tls);
    buf_free(&s->ctx.out);
    broker_free(&s->ctx);
}

int cmd_serve(int argc, char **argv)
{
    struct serve_opts o;
    char err[ERR_LEN] = "", bound[300];
    int rc = parse_args(argc, argv, &o, err);
    if (rc == 1) {
        usage(stdout);
        return 0;
    }
    if (rc == 2) {
        printf("rpcbench %s\n", RPCBENCH_VERSION);
        return 0;
    }
    if (rc < 0) {
        fprintf(stderr, "rpcbench serve: %s (see --help)\n", err);
        return 2;
    }
    struct server s = {.lfd = -1};
    if (setup(&s, &o, bound, err) < 0) {
        fprintf(stderr, "rpcbench serve: %s\n", err);
        teardown(&s);
        return 1;
    }
    printf("listening on %s\n", bound);
    fflush(stdout);
    run(&s);
    fprintf(stderr,
            "serve: stopped after %" PRIu64 " connections, %" PRIu64 " requests (%" PRIu64
            " over STOMP), %" PRIu64 " bad, %" PRIu64 " rejected, %" PRIu64
            " failed TLS handshakes\n",
            s.ctx.accepted, s.ctx.requests, s.ctx.stomp_requests, s.ctx.bad_requests,
            s.ctx.rejected, s.ctx.tls_failures);
    if (s.ctx.api.batches_refused || s.ctx.broker.unrouted || s.ctx.broker.dropped_copies)
        fprintf(stderr,
                "serve: %" PRIu64 " JSON-RPC batches over %d requests refused, %" PRIu64
                " STOMP messages without a subscriber, %" PRIu64
                " copies dropped for subscribers too far behind\n",
                s.ctx.api.batches_refused, VDSM_MAX_BATCH, s.ctx.broker.unrouted,
                s.ctx.broker.dropped_copies);
    teardown(&s);
    return 0;
}
