/* metrics_endpoint: GET /metrics from a thread (metrics_endpoint.h). */
#include "net/metrics_endpoint.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/thread.h"
#include "net/http_head.h"
#include "net/listen.h"

#define REQUEST_MAX 8192
#define REQUEST_TIMEOUT_S 2

struct body {
    char *p, *type;
    size_t len;
};

struct metrics_endpoint {
    int fd, stop_pipe[2];
    pthread_t thread;
    char address[80];
    pthread_mutex_t mu;
    pthread_cond_t scraped;
    struct body text, om;     /* under mu */
    uint64_t published, served; /* generations, under mu */
};

/* Each header of a scrape (http_head's callback): *ctx becomes 1 when
 * Accept names OpenMetrics. */
static int on_header(void *ctx, const char *name, size_t nlen, const char *v, size_t vlen)
{
    static const char om[] = "application/openmetrics-text";
    if (nlen != 6 || strncasecmp(name, "accept", 6))
        return 0;
    for (size_t i = 0; i + sizeof om - 1 <= vlen; i++)
        if (!memcmp(v + i, om, sizeof om - 1))
            *(int *)ctx = 1;
    return 0;
}

/* Reads the request head into buf (cap bytes) and parses it into *h,
 * within REQUEST_TIMEOUT_S seconds. @return 0, or -1 (too long, too slow,
 * closed, not a request head). */
static int read_head(int fd, char *buf, size_t cap, struct http_head *h)
{
    struct timeval tv = {.tv_sec = REQUEST_TIMEOUT_S};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    time_t deadline = time(NULL) + REQUEST_TIMEOUT_S;
    size_t len = 0;
    while (len < cap && time(NULL) <= deadline) {
        ssize_t n = recv(fd, buf + len, cap - len, 0);
        if (n <= 0)
            return -1;
        len += (size_t)n;
        int rc = http_head_parse(buf, len, cap, 0, h);
        if (rc)
            return rc > 0 ? 0 : -1;
    }
    return -1;
}

static void send_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n <= 0)
            return; /* the scraper went away: its loss */
        p += n;
        len -= (size_t)n;
    }
}

static void answer_status(int fd, const char *status)
{
    char r[256];
    int n = snprintf(r, sizeof r, "HTTP/1.1 %s\r\nContent-Type: text/plain\r\nContent-Length: "
                     "%zu\r\nConnection: close\r\n\r\n%s\n", status, strlen(status) + 1, status);
    send_all(fd, r, (size_t)n);
}

/* The body the scraper asked for: copied out under the lock, sent
 * outside it, so a scraper that reads slowly (or not at all) never holds
 * up the load loop's next publish. The copy is per scrape, not per
 * request. A body that cannot be copied is answered 503. */
static void answer_metrics(struct metrics_endpoint *ep, int fd, int om)
{
    pthread_mutex_lock(&ep->mu);
    const struct body *b = om && ep->om.p ? &ep->om : &ep->text;
    char *copy = malloc(b->len + 1);
    char head[256];
    int n = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: "
                     "%zu\r\nConnection: close\r\n\r\n", b->type ? b->type : "text/plain",
                     b->len);
    size_t len = b->len;
    uint64_t gen = ep->published;
    if (copy && len)
        memcpy(copy, b->p, len);
    pthread_mutex_unlock(&ep->mu);
    if (!copy) {
        answer_status(fd, "503 Service Unavailable");
        return;
    }
    send_all(fd, head, (size_t)n);
    send_all(fd, copy, len);
    free(copy);
    pthread_mutex_lock(&ep->mu);
    ep->served = ep->served > gen ? ep->served : gen;
    pthread_cond_broadcast(&ep->scraped);
    pthread_mutex_unlock(&ep->mu);
}

static void serve_one(struct metrics_endpoint *ep, int fd)
{
    char head[REQUEST_MAX];
    int om = 0;
    struct http_head h = {.on_field = on_header, .ctx = &om};
    if (read_head(fd, head, sizeof head, &h) < 0) {
        answer_status(fd, h.bad_method ? "405 Method Not Allowed" : "400 Bad Request");
        return;
    }
    size_t path = h.target_len;
    const char *q = memchr(h.target, '?', h.target_len);
    if (q)
        path = (size_t)(q - h.target);
    if (strcmp(h.method, "GET"))
        answer_status(fd, "405 Method Not Allowed");
    else if (path != 8 || memcmp(h.target, "/metrics", 8))
        answer_status(fd, "404 Not Found");
    else
        answer_metrics(ep, fd, om);
}

static void *serve_loop(void *arg)
{
    struct metrics_endpoint *ep = arg;
    struct pollfd p[2] = {{.fd = ep->fd, .events = POLLIN},
                          {.fd = ep->stop_pipe[0], .events = POLLIN}};
    for (;;) {
        if (poll(p, 2, -1) < 0 && errno != EINTR)
            break;
        if (p[1].revents)
            break;
        if (!(p[0].revents & POLLIN))
            continue;
        int c = accept4(ep->fd, NULL, NULL, SOCK_CLOEXEC);
        if (c < 0)
            continue; /* a connection reset before we took it */
        serve_one(ep, c);
        close(c);
    }
    return NULL;
}

struct metrics_endpoint *metrics_endpoint_start(const char *listen_at, char *err)
{
    struct metrics_endpoint *ep = calloc(1, sizeof *ep);
    if (!ep) {
        snprintf(err, ERR_LEN, "out of memory");
        return NULL;
    }
    ep->fd = net_listen_at(listen_at, "--metrics-listen", 16, ep->address, sizeof ep->address, err);
    if (ep->fd < 0) {
        free(ep);
        return NULL;
    }
    if (pipe2(ep->stop_pipe, O_CLOEXEC)) {
        snprintf(err, ERR_LEN, "--metrics-listen: pipe: %s", strerror(errno));
        close(ep->fd);
        free(ep);
        return NULL;
    }
    pthread_mutex_init(&ep->mu, NULL);
    pthread_cond_init(&ep->scraped, NULL);
    /* The thread takes no signal: SIGINT and SIGTERM are the load loop's. */
    int rc = thread_start_quiet(&ep->thread, serve_loop, ep);
    if (rc) {
        snprintf(err, ERR_LEN, "--metrics-listen: thread: %s", strerror(rc));
        close(ep->fd);
        close(ep->stop_pipe[0]);
        close(ep->stop_pipe[1]);
        free(ep);
        return NULL;
    }
    return ep;
}

const char *metrics_endpoint_address(const struct metrics_endpoint *ep)
{
    return ep->address;
}

/* b becomes a copy of p (len bytes) and type; the old is freed.
 * @return 0, or -1 (b unchanged). */
static int body_set(struct body *b, const char *p, size_t len, const char *type)
{
    char *np = malloc(len + 1), *nt = strdup(type);
    if (!np || !nt) {
        free(np);
        free(nt);
        return -1;
    }
    if (len) /* an empty body may come as (NULL, 0) */
        memcpy(np, p, len);
    np[len] = '\0';
    free(b->p);
    free(b->type);
    *b = (struct body){.p = np, .type = nt, .len = len};
    return 0;
}

int metrics_endpoint_publish(struct metrics_endpoint *ep, const char *text, size_t len,
                             const char *type, const char *om, size_t om_len,
                             const char *om_type)
{
    pthread_mutex_lock(&ep->mu);
    int rc = body_set(&ep->text, text, len, type) || body_set(&ep->om, om, om_len, om_type);
    ep->published++;
    pthread_mutex_unlock(&ep->mu);
    return rc ? -1 : 0;
}

int metrics_endpoint_wait_scrape(struct metrics_endpoint *ep, int64_t timeout_ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (timeout_ms % 1000) * 1000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&ep->mu);
    int rc = 0;
    while (ep->served < ep->published && rc == 0)
        rc = pthread_cond_timedwait(&ep->scraped, &ep->mu, &until);
    int got = ep->served >= ep->published;
    pthread_mutex_unlock(&ep->mu);
    return got;
}

void metrics_endpoint_stop(struct metrics_endpoint *ep)
{
    if (!ep)
        return;
    if (write(ep->stop_pipe[1], "x", 1) == 1)
        pthread_join(ep->thread, NULL);
    close(ep->fd);
    close(ep->stop_pipe[0]);
    close(ep->stop_pipe[1]);
    pthread_mutex_destroy(&ep->mu);
    pthread_cond_destroy(&ep->scraped);
    free(ep->text.p);
    free(ep->text.type);
    free(ep->om.p);
    free(ep->om.type);
    free(ep);
}
