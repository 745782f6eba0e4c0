/* agent_conn: one connection to the agent (agent_int.h): TLS handshake,
 * request heads, the token, and the clock answers or the sample stream. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent_int.h"
#include "base/clock.h"
#include "base/err.h"
#include "base/figure.h"
#include "net/sock.h"
#include "net/tls.h"
#include "proc/agent_wire.h"
#include "proc/proctree.h"
#include "proc/sampler.h"

#define CLOCK_REQUESTS_MAX 64 /* requests on one connection before a stream */

static int send_all(struct agent_conn *c, const char *p, size_t len)
{
    size_t off = 0;
    return sock_write_all(c->fd, c->ssl, p, len, &off) == IO_DONE ? 0 : -1;
}

static void answer(struct agent_conn *c, int status, const char *body)
{
    static const struct {
        int code;
        const char *text;
    } reasons[] = {{200, "OK"}, {400, "Bad Request"}, {401, "Unauthorized"},
                   {404, "Not Found"}, {405, "Method Not Allowed"},
                   {431, "Request Header Fields Too Large"}};
    const char *why = "Error";
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (reasons[i].code == status)
            why = reasons[i].text;
    char head[512];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
                     "%s\r\n%s",
                     status, why, strlen(body), status == 200 ? "" : "Connection: close\r\n",
                     body);
    if (n > 0 && (size_t)n < sizeof head)
        send_all(c, head, (size_t)n);
}

/* Reads until c->in holds a whole head (or the limit), within the
 * request timeout. @return agent_request_parse's value, or -2 when the
 * peer closed or was too slow. */
static int read_request(struct agent_conn *c, struct agent_request *r, char *err)
{
    time_t deadline = time(NULL) + AGENT_REQUEST_TIMEOUT_S;
    for (;;) {
        int rc = agent_request_parse(c->in, c->len, r, err);
        if (rc != 0)
            return rc;
        size_t n = 0;
        if (time(NULL) > deadline ||
            sock_read(c->fd, c->ssl, c->in + c->len, sizeof c->in - c->len, &n) != IO_DONE)
            return -2;
        c->len += n;
    }
}

/* Waits until the CLOCK_MONOTONIC instant at_ns, watching the peer: a
 * run sends nothing after its samples request, so anything readable (its
 * close, a TLS close_notify, a reset) ends the stream at once instead of
 * holding a connection slot until a write fails.
 * @return 0 at at_ns, or -1 when the peer is gone. */
static int wait_until(const struct agent_conn *c, int64_t at_ns)
{
    for (;;) {
        int64_t left = at_ns - clock_now_ns();
        if (left <= 0)
            return 0;
        struct pollfd p = {.fd = c->fd, .events = POLLIN};
        int ms = (int)((left + NS_PER_MS - 1) / NS_PER_MS);
        int rc = poll(&p, 1, ms);
        if (rc > 0)
            return -1;
        if (rc < 0 && errno != EINTR)
            return -1;
    }
}

/* Samples on the run's grid (start - lead + k * interval, this host's
 * clock) and sends each, until the peer is gone. A grid whose first
 * points are past (the request came late) starts at the next one. */
static void stream(struct agent_conn *c, const struct agent_request *r, struct sampler *s)
{
    char line[AGENT_LINE_MAX];
    int64_t now = clock_now_ns(), base = r->start_ns - r->lead_ns;
    int64_t k = now < base ? 1 : (now - base) / r->interval_ns + 1;
    sampler_start(s, now);
    for (;; k++) {
        struct agent_sample out = {.k = k};
        if (wait_until(c, base + k * r->interval_ns))
            return;
        sampler_sample(s, clock_now_ns(), &out.pt);
        out.pt.client_pct = FIG_UNKNOWN; /* the agent's own CPU: nobody asked */
        out.measured = fig_known(sampler_server_cpu_ms(s));
        out.total_server_ns = s->total_server_ns;
        snprintf(out.source, sizeof out.source, "%s", sampler_cpu_source(s));
        out.npids = s->npids < AGENT_WIRE_PIDS ? s->npids : AGENT_WIRE_PIDS;
        memcpy(out.pids, s->pids, out.npids * sizeof *out.pids);
        int n = agent_wire_format(&out, line, sizeof line);
        if (n < 0 || send_all(c, line, (size_t)n))
            return;
    }
}

static void serve_samples(struct agent_conn *c, const struct agent_request *r)
{
    char err[ERR_LEN];
    struct sampler *s = malloc(sizeof *s); /* large: off the thread's stack */
    static const char ok[] = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                             "Connection: close\r\n\r\n";
    if (!s)
        return;
    if (sampler_init(s, r->pids, r->npids, r->name[0] ? r->name : NULL, err))
        answer(c, 400, err);
    else if (send_all(c, ok, sizeof ok - 1) == 0)
        stream(c, r, s);
    free(s);
}

/* GET /v1/server: the run's check before it starts, on this host (what
 * the CLI checks where the server is local). @return 0 when it is there
 * (answered 200), or -1 when not (answered 404 with why; the connection
 * closes). */
static int check_server(struct agent_conn *c, const struct agent_request *r)
{
    char err[ERR_LEN], body[ERR_LEN + 2];
    if (proctree_check_server(r->pids, r->npids, r->name, err)) {
        snprintf(body, sizeof body, "%s\n", err);
        answer(c, 404, body);
        return -1;
    }
    answer(c, 200, "S ok\n");
    return 0;
}

/* Answers requests until a stream, a refusal or the peer's close. */
static void serve(struct agent_conn *c)
{
    struct agent_request r;
    char err[ERR_LEN], body[64];
    for (int i = 0; i < CLOCK_REQUESTS_MAX; i++) {
        int rc = read_request(c, &r, err);
        if (rc == -2)
            return;
        if (rc < 0) {
            answer(c, r.status, err);
            return;
        }
        memmove(c->in, c->in + rc, c->len - (size_t)rc);
        c->len -= (size_t)rc;
        if (!auth_token_equal(r.token, c->agent->token)) {
            answer(c, 401, "wrong or missing token\n");
            return;
        }
        if (r.path == AGENT_SAMPLES) {
            serve_samples(c, &r);
            return;
        }
        if (r.path == AGENT_SERVER) {
            if (check_server(c, &r))
                return;
            continue;
        }
        snprintf(body, sizeof body, "C %" PRId64 " %ld\n", clock_now_ns(),
                 sysconf(_SC_NPROCESSORS_ONLN));
        answer(c, 200, body);
    }
}

/* Before closing on a refusal: the peer's unread bytes would make the
 * close a reset, which can destroy the answer in flight; so stop writing
 * and read what comes for a moment (bounded in bytes and time). */
static void drain(struct agent_conn *c)
{
    struct timeval tv = {.tv_usec = 200 * 1000};
    char sink[4096];
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    shutdown(c->fd, SHUT_WR);
    for (int i = 0; i < 16 && recv(c->fd, sink, sizeof sink, 0) > 0; i++)
        ;
}

void *agent_conn_main(void *arg)
{
    struct agent_conn *c = arg;
    struct agent *a = c->agent;
    struct timeval tv = {.tv_sec = AGENT_REQUEST_TIMEOUT_S};
    char err[ERR_LEN];
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (a->tls && (!(c->ssl = tls_new_server(a->tls, c->fd, err)) || tls_handshake(c->ssl, err)))
        goto done; /* a peer without a certificate the CA signed ends here */
    serve(c);
    if (!c->ssl)
        drain(c); /* over TLS a reset loses nothing the peer would read */
done:
    tls_free(c->ssl);
    close(c->fd);
    free(c);
    atomic_fetch_sub(&a->active, 1);
    return NULL;
}
