/* sock: plain and TLS byte I/O with one set of outcomes (sock.h). */
#include "net/sock.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "net/tls.h"

static enum io_status from_tls(ssize_t r, size_t *n)
{
    if (r > 0) {
        *n = (size_t)r;
        return IO_DONE;
    }
    if (r == 0)
        return IO_EOF;
    return r == TLS_WANT_READ || r == TLS_WANT_WRITE ? IO_AGAIN : IO_ERROR;
}

/* r from recv or send, retried by the caller on EINTR. */
static enum io_status from_sys(ssize_t r, size_t *n)
{
    if (r > 0) {
        *n = (size_t)r;
        return IO_DONE;
    }
    if (r == 0)
        return IO_EOF;
    return errno == EAGAIN || errno == EWOULDBLOCK ? IO_AGAIN : IO_ERROR;
}

enum io_status sock_read(int fd, SSL *ssl, void *buf, size_t len, size_t *n)
{
    *n = 0;
    if (ssl)
        return from_tls(tls_read(ssl, buf, len), n);
    ssize_t r;
    do
        r = recv(fd, buf, len, 0);
    while (r < 0 && errno == EINTR);
    return from_sys(r, n);
}

int sock_rx_timestamps(int fd)
{
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
}

/* The SO_TIMESTAMPNS stamp in m's control data, or 0. */
static int64_t rx_stamp(struct msghdr *m)
{
    for (struct cmsghdr *h = CMSG_FIRSTHDR(m); h; h = CMSG_NXTHDR(m, h))
        if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SO_TIMESTAMPNS) {
            struct timespec ts;
            memcpy(&ts, CMSG_DATA(h), sizeof ts);
            return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
        }
    return 0;
}

enum io_status sock_read_stamped(int fd, SSL *ssl, void *buf, size_t len, size_t *n,
                                 int64_t *rx_real_ns)
{
    *rx_real_ns = 0;
    if (ssl)
        return sock_read(fd, ssl, buf, len, n);
    *n = 0;
    union { /* aligned for struct cmsghdr */
        char buf[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = {.iov_base = buf, .iov_len = len};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    ssize_t r;
    do {
        m.msg_control = ctl.buf;
        m.msg_controllen = sizeof ctl.buf;
        r = recvmsg(fd, &m, 0);
    } while (r < 0 && errno == EINTR);
    if (r > 0)
        *rx_real_ns = rx_stamp(&m);
    return from_sys(r, n);
}

/* Writes up to len bytes of buf (the caller's; with TLS, a write that
 * returned IO_AGAIN must be retried with the same bytes).
 * @return IO_DONE with *n > 0, IO_AGAIN or IO_ERROR (*n is 0 then); never
 * IO_EOF (a closed peer is IO_ERROR). */
static enum io_status sock_write(int fd, SSL *ssl, const void *buf, size_t len, size_t *n)
{
    *n = 0;
    ssize_t r;
    if (ssl) {
        r = tls_write(ssl, buf, len);
        enum io_status st = from_tls(r, n);
        return st == IO_EOF ? IO_ERROR : st;
    }
    do
        r = send(fd, buf, len, MSG_NOSIGNAL);
    while (r < 0 && errno == EINTR);
    enum io_status st = from_sys(r, n);
    return st == IO_EOF ? IO_ERROR : st; /* 0 bytes sent of len > 0: nothing moves */
}

enum io_status sock_write_all(int fd, SSL *ssl, const char *p, size_t len, size_t *off)
{
    while (*off < len) {
        size_t n;
        enum io_status st = sock_write(fd, ssl, p + *off, len - *off, &n);
        if (st != IO_DONE)
            return st;
        *off += n;
    }
    return IO_DONE;
}

long sock_raise_fd_limit(long want)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return -1;
    if (rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur < want) {
        rlim_t to = (rlim_t)want;
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < to)
            to = rl.rlim_max;
        rl.rlim_cur = to;
        if (setrlimit(RLIMIT_NOFILE, &rl) < 0 && getrlimit(RLIMIT_NOFILE, &rl) < 0)
            return -1;
    }
    return rl.rlim_cur == RLIM_INFINITY ? LONG_MAX : (long)rl.rlim_cur;
}

long sock_fd_limit_max(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return -1;
    return rl.rlim_max == RLIM_INFINITY ? LONG_MAX : (long)rl.rlim_max;
}
