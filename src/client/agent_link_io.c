/* agent_link_io: the agent connection's blocking I/O (agent_link_int.h):
 * only the open (before the run) and the reader thread use it, never the
 * engine's loop. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "client/agent_link_int.h"
#include "net/http_head.h"
#include "net/sock.h"
#include "net/tls.h"

/* Waits for the non-blocking connect of l->fd. @return 0, or -1. */
static int wait_connected(struct agent_link *l, char *err)
{
    struct pollfd p = {.fd = l->fd, .events = POLLOUT};
    int soerr = 0;
    socklen_t sl = sizeof soerr;
    if (poll(&p, 1, AGENT_LINK_TIMEOUT_S * 1000) <= 0) {
        snprintf(err, ERR_LEN, "server agent %.200s: no connection in %ds", l->url,
                 AGENT_LINK_TIMEOUT_S);
        return -1;
    }
    if (getsockopt(l->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) || soerr) {
        snprintf(err, ERR_LEN, "server agent %.200s: %s", l->url, strerror(soerr ? soerr : errno));
        return -1;
    }
    return 0;
}

static int handshake(struct agent_link *l, char *err)
{
    char terr[ERR_LEN];
    if (!(l->ssl = tls_new_client(l->tls_ctx, l->fd, l->t.host, 0, terr)) ||
        tls_handshake(l->ssl, terr)) {
        snprintf(err, ERR_LEN, "server agent %.80s: %.150s", l->url, terr);
        return -1;
    }
    return 0;
}

int agent_link_connect(struct agent_link *l, char *err)
{
    char cerr[ERR_LEN];
    l->fd = target_connect_nb(&l->t, cerr);
    if (l->fd < 0) {
        snprintf(err, ERR_LEN, "server agent %.80s: %.150s", l->url, cerr);
        return -1;
    }
    if (wait_connected(l, err))
        return -1;
    int fl = fcntl(l->fd, F_GETFL);
    struct timeval tv = {.tv_sec = AGENT_LINK_TIMEOUT_S};
    if (fl < 0 || fcntl(l->fd, F_SETFL, fl & ~O_NONBLOCK) ||
        setsockopt(l->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) ||
        setsockopt(l->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv)) {
        snprintf(err, ERR_LEN, "server agent %.200s: %s", l->url, strerror(errno));
        return -1;
    }
    return l->tls_ctx ? handshake(l, err) : 0;
}

int agent_link_send(struct agent_link *l, const char *p, size_t len)
{
    size_t off = 0;
    return sock_write_all(l->fd, l->ssl, p, len, &off) == IO_DONE ? 0 : -1;
}

/* Moves what is not taken yet to the start of l->in and reads more after
 * it. @return 0, or -1 (full, closed, timed out, an error). */
static int fill(struct agent_link *l)
{
    memmove(l->in, l->in + l->in_off, l->in_len - l->in_off);
    l->in_len -= l->in_off;
    l->in_off = 0;
    size_t got = 0;
    if (l->in_len == sizeof l->in ||
        sock_read(l->fd, l->ssl, l->in + l->in_len, sizeof l->in - l->in_len, &got) != IO_DONE)
        return -1;
    l->in_len += got;
    return 0;
}

int agent_link_line(struct agent_link *l, char *out, size_t cap)
{
    for (;;) {
        char *nl = memchr(l->in + l->in_off, '\n', l->in_len - l->in_off);
        if (nl) {
            size_t n = (size_t)(nl - (l->in + l->in_off));
            if (n && nl[-1] == '\r')
                n--;
            if (n >= cap)
                return -1;
            memcpy(out, l->in + l->in_off, n);
            out[n] = '\0';
            l->in_off = (size_t)(nl - l->in) + 1;
            return (int)n;
        }
        if (fill(l))
            return -1;
    }
}

/* Each header of the agent's answer (http_head's callback): ctx is the
 * Content-Length, -1 until one is read. */
static int on_header(void *ctx, const char *name, size_t nlen, const char *v, size_t vlen)
{
    char num[24];
    if (nlen != 14 || strncasecmp(name, "content-length", 14))
        return 0;
    snprintf(num, sizeof num, "%.*s", (int)(vlen < sizeof num ? vlen : sizeof num - 1), v);
    *(long *)ctx = strtol(num, NULL, 10);
    return 0;
}

int agent_link_head(struct agent_link *l, long *content_length)
{
    *content_length = -1;
    struct http_head h = {.on_field = on_header, .ctx = content_length};
    for (;;) {
        int n = http_head_parse(l->in + l->in_off, l->in_len - l->in_off, sizeof l->in,
                                HTTP_HEAD_RESPONSE, &h);
        if (n < 0 || (n > 0 && h.major != 1))
            return -1;
        if (n > 0) {
            l->in_off += (size_t)n;
            return (int)h.status;
        }
        if (fill(l))
            return -1;
    }
}
