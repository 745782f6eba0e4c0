/* sock: byte I/O on a non-blocking socket, plain or TLS, for both sides
 * (the client's connections and serve's), with one set of outcomes.
 *
 * A socket is its fd and, over TLS, its SSL (NULL for plain TCP); neither
 * is owned here. EINTR is retried inside; "try again" means the event loop
 * must wait for readiness (TLS may want the other direction: a TLS read can
 * need the socket writable, so watch both while a TLS read waits). */
#ifndef RPCBENCH_SOCK_H
#define RPCBENCH_SOCK_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

enum io_status {
    IO_DONE,  /* bytes moved: *n says how many (> 0); for sock_write_all, all of them */
    IO_AGAIN, /* nothing more now: wait for the socket */
    IO_EOF,   /* the peer closed (reads only) */
    IO_ERROR, /* reset, broken, or a TLS failure (tls_last_error says which) */
};

/* Reads up to len bytes into buf (the caller's).
 * @return IO_DONE with *n > 0, IO_AGAIN, IO_EOF or IO_ERROR (*n is 0 then). */
enum io_status sock_read(int fd, SSL *ssl, void *buf, size_t len, size_t *n);
/* Asks the kernel to stamp what fd (a plain TCP socket) receives with its
 * arrival time, which sock_read_stamped then returns. @return 0, or -1
 * (errno) when the socket cannot. */
int sock_rx_timestamps(int fd);
/* sock_read for a plain socket (ssl NULL) that sock_rx_timestamps set up:
 * *rx_real_ns is when the kernel received the last byte read (CLOCK_REALTIME
 * ns), or 0 when it did not say (no stamp; ssl given: TLS reads have none).
 * @return as sock_read. */
enum io_status sock_read_stamped(int fd, SSL *ssl, void *buf, size_t len, size_t *n,
                                 int64_t *rx_real_ns);
/* Writes p[*off..len) until it is all out or the socket is full, moving
 * *off past what was written. @return IO_DONE (all written), IO_AGAIN
 * (some left: call again when writable) or IO_ERROR. */
enum io_status sock_write_all(int fd, SSL *ssl, const char *p, size_t len, size_t *off);

/* Raises the soft limit of open fds towards want (never above the hard
 * limit, never lowers it): the default soft limit (often 1024) is below
 * what many connections need. @return the soft limit after, or -1 when it
 * cannot be read. */
long sock_raise_fd_limit(long want);
/* @return the hard limit of open fds, LONG_MAX when unlimited, -1 when
 * it cannot be read. */
long sock_fd_limit_max(void);

#endif
