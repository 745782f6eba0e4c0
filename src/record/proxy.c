/* proxy: the listening socket, the loop and the end of `rpcbench record`
 * (see proxy.h); each connection is proxy_pair.c's. */
#include "record/proxy.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "net/listen.h"
#include "net/sock.h"
#include "net/tls.h"
#include "record/proxy_int.h"

#define HIST_MAX_NS (60LL * NS_PER_S)

static void on_resume(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    ev_io_start(loop, &((struct proxy *)w->data)->accept_w);
}

static void on_accept(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)revents;
    struct proxy *px = w->data;
    for (int i = 0; i < 64; i++) {
        int fd = accept4(px->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
                       errno == ECONNABORTED))
            return;
        if (fd < 0) { /* out of fds: the socket stays readable, so pause, not spin */
            ev_io_stop(loop, &px->accept_w);
            ev_timer_set(&px->resume_w, 0.1, 0.);
            ev_timer_start(loop, &px->resume_w);
            return;
        }
        px->accepted++;
        (void)pair_start(px, fd);
    }
}

static void on_stop(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)w;
    (void)revents;
    ev_break(loop, EVBREAK_ALL);
}

static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)w;
    (void)revents;
    ev_break(loop, EVBREAK_ALL);
}

static void on_flush(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    rec_file_flush(&((struct proxy *)w->data)->rf);
}

/* The TLS contexts: the listening side's from --tls-cert, the server
 * side's from the URL's scheme and run's --cacert/--cert/--key/--insecure.
 * @return 0, or -1 with err. */
static int tls_contexts(struct proxy *px, const struct record_config *cfg, char *err)
{
    if (cfg->tls_cert &&
        !(px->listen_tls = tls_server_ctx(cfg->tls_cert, cfg->tls_key, cfg->tls_ca, err)))
        return -1;
    if (px->target.scheme != SCHEME_HTTPS && px->target.scheme != SCHEME_STOMPS)
        return 0;
    struct tls_client_opts o = {.cacert = cfg->cacert[0] ? cfg->cacert : NULL,
                                .cert = cfg->cert[0] ? cfg->cert : NULL,
                                .key = cfg->key[0] ? cfg->key : NULL,
                                .insecure = cfg->insecure};
    return (px->to_tls = tls_client_ctx(&o, err)) ? 0 : -1;
}

/* The loop's watchers, signals among them: started before the caller
 * says "listening on", so a SIGTERM right after it ends the recording
 * cleanly (trailer written) instead of killing the process. */
static void arm(struct proxy *p)
{
    struct ev_loop *loop = p->loop = ev_default_loop(0);
    p->start_ns = p->rf.start_ns;
    ev_io_init(&p->accept_w, on_accept, p->lfd, EV_READ);
    ev_timer_init(&p->flush_w, on_flush, 1.0, 1.0);
    ev_timer_init(&p->resume_w, on_resume, 0.1, 0.);
    p->resume_w.data = p;
    ev_signal_init(&p->sigint_w, on_signal, SIGINT);
    ev_signal_init(&p->sigterm_w, on_signal, SIGTERM);
    p->accept_w.data = p->flush_w.data = p;
    ev_io_start(loop, &p->accept_w);
    ev_timer_start(loop, &p->flush_w);
    ev_signal_start(loop, &p->sigint_w);
    ev_signal_start(loop, &p->sigterm_w);
    if (p->cfg->duration_ns > 0) {
        ev_timer_init(&p->stop_w, on_stop, (double)p->cfg->duration_ns / 1e9, 0.);
        ev_timer_start(loop, &p->stop_w);
    }
}

int proxy_start(struct proxy *p, const struct record_config *cfg, char *bound, size_t blen,
                char *err)
{
    memset(p, 0, sizeof *p);
    p->lfd = -1;
    p->cfg = cfg;
    if (target_parse(cfg->to, "/", &p->target, err) < 0 || tls_contexts(p, cfg, err) < 0)
        return -1;
    if (hist_init(&p->added[0], 1, HIST_MAX_NS, 3) || hist_init(&p->added[1], 1, HIST_MAX_NS, 3) ||
        !(p->rbuf = malloc(PROXY_READ_BUF))) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    if ((p->lfd = net_listen_at(cfg->listen, "--listen", 512, bound, blen, err)) < 0)
        return -1;
    if (fcntl(p->lfd, F_SETFL, fcntl(p->lfd, F_GETFL) | O_NONBLOCK) < 0) {
        snprintf(err, ERR_LEN, "--listen: %s", strerror(errno));
        return -1;
    }
    int tls = p->listen_tls || p->to_tls;
    if (rec_file_open(&p->rf, cfg->out, bound, cfg->to, tls, err) < 0)
        return -1;
    sock_raise_fd_limit(65536);
    signal(SIGPIPE, SIG_IGN);
    arm(p);
    return 0;
}

void proxy_run(struct proxy *p)
{
    struct ev_loop *loop = p->loop;
    ev_run(loop, 0);
    ev_io_stop(loop, &p->accept_w);
    ev_timer_stop(loop, &p->flush_w);
    ev_timer_stop(loop, &p->stop_w);
    ev_timer_stop(loop, &p->resume_w);
    ev_signal_stop(loop, &p->sigint_w);
    ev_signal_stop(loop, &p->sigterm_w);
    while (p->pairs)
        pair_close(p->pairs);
}

/* Both directions' added latency, merged, in microseconds. */
static void added(struct proxy *p, struct rec_added *a)
{
    struct hist h;
    memset(a, 0, sizeof *a);
    if (hist_init(&h, 1, HIST_MAX_NS, 3))
        return;
    hist_merge(&h, &p->added[0]);
    hist_merge(&h, &p->added[1]);
    a->n = (uint64_t)h.total_count;
    if (a->n) {
        a->p50 = (double)hist_percentile(&h, 50.0) / 1e3;
        a->p99 = (double)hist_percentile(&h, 99.0) / 1e3;
        a->max = (double)h.max / 1e3;
    }
    hist_close(&h);
}

/* One direction's figures for the summary. */
static void print_dir(FILE *out, const char *what, const struct hist *h, uint64_t bytes)
{
    if (h->total_count == 0) {
        fprintf(out, "  %-8s %llu bytes\n", what, (unsigned long long)bytes);
        return;
    }
    fprintf(out, "  %-8s %llu bytes, added latency p50 %.1f us, p99 %.1f us, max %.1f us "
            "(%lld chunks)\n", what, (unsigned long long)bytes,
            (double)hist_percentile(h, 50.0) / 1e3, (double)hist_percentile(h, 99.0) / 1e3,
            (double)h->max / 1e3, (long long)h->total_count);
}

/* What the proxy's bounds did, by category (the trailer's ids_too_long,
 * pending_full, idle_timeouts): a line only when one happened. */
static void print_bounds(FILE *out, const struct rec_file *rf)
{
    if (!rf->id_too_long && !rf->pending_full && !rf->idle_timeouts)
        return;
    fprintf(out, "  bounded: %llu id too long (calls unanswered), %llu pending table full "
            "(oldest calls unanswered), %llu idle timeout (connections closed)\n",
            (unsigned long long)rf->id_too_long, (unsigned long long)rf->pending_full,
            (unsigned long long)rf->idle_timeouts);
}

int proxy_finish(struct proxy *p, FILE *out, char *err)
{
    struct rec_added a;
    added(p, &a);
    double dur = (double)(clock_now_ns() - p->rf.start_ns) / 1e9;
    int rc = rec_file_close(&p->rf, dur, &a, err);
    fprintf(out, "record: %llu calls on %llu connections in %.1f s into %s\n",
            (unsigned long long)p->rf.calls, (unsigned long long)p->rf.conns, dur, p->cfg->out);
    print_dir(out, "requests", &p->added[REC_UP], p->bytes[REC_UP]);
    print_dir(out, "answers", &p->added[REC_DOWN], p->bytes[REC_DOWN]);
    fprintf(out, "  added latency p50 %.1f us, p99 %.1f us, max %.1f us\n", a.p50, a.p99, a.max);
    if (p->rf.malformed || p->rf.lost)
        fprintf(out, "  not recorded: %llu requests that were no call, %llu streams not "
                "followed\n", (unsigned long long)p->rf.malformed,
                (unsigned long long)p->rf.lost);
    print_bounds(out, &p->rf);
    if (p->upstream_failed || p->tls_failed || p->setup_expired)
        fprintf(out, "  failed: %llu server connections, %llu TLS handshakes, %llu not set up "
                "within %.0f s\n", (unsigned long long)p->upstream_failed,
                (unsigned long long)p->tls_failed, (unsigned long long)p->setup_expired,
                PROXY_SETUP_S);
    return rc;
}

void proxy_free(struct proxy *p)
{
    while (p->pairs)
        pair_close(p->pairs);
    if (p->rf.f)
        fclose(p->rf.f);
    if (p->lfd >= 0)
        close(p->lfd);
    SSL_CTX_free(p->listen_tls);
    SSL_CTX_free(p->to_tls);
    hist_close(&p->added[0]);
    hist_close(&p->added[1]);
    free(p->rbuf);
}
