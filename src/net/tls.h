/* tls: OpenSSL on non-blocking sockets, for both sides (run's https:// and
 * stomps://, serve's --tls-cert), driven by libev readiness.
 *
 * Every I/O call returns what the event loop must do next instead of
 * blocking: TLS_WANT_READ / TLS_WANT_WRITE (watch for that, call again). */
#ifndef RPCBENCH_TLS_H
#define RPCBENCH_TLS_H

#include <stddef.h>
#include <sys/types.h>

#include <openssl/ssl.h>

#include "base/err.h"

enum { TLS_WANT_READ = -2, TLS_WANT_WRITE = -3, TLS_FAIL = -1 };

struct tls_client_opts {
    const char *cacert;   /* verify the server against this CA (PEM) */
    const char *cert;     /* client certificate (PEM), as VDSM requires */
    const char *key;
    int insecure;         /* skip verification (said loudly in reports) */
};

/* A client context. @return NULL with err on failure (bad files...). */
SSL_CTX *tls_client_ctx(const struct tls_client_opts *o, char *err);
/* A server context from cert/key; with ca, client certificates are
 * required and verified against it. @return NULL with err. */
SSL_CTX *tls_server_ctx(const char *cert, const char *key, const char *ca, char *err);

/* A new SSL on fd; the client side sets SNI (and host name checking
 * unless insecure) to host. @return NULL with err. */
SSL *tls_new_client(SSL_CTX *ctx, int fd, const char *host, int insecure, char *err);
SSL *tls_new_server(SSL_CTX *ctx, int fd, char *err);

/* One handshake step: 0 done, TLS_WANT_READ/WRITE, or TLS_FAIL with err
 * ("the server answered plain HTTP, not TLS" when it did). */
int tls_handshake(SSL *ssl, char *err);
/* After a client's TLS_FAIL from tls_handshake: 1 when the server answered
 * in clear text (plain HTTP or STOMP), so every retry would fail alike. */
int tls_spoke_plain(const SSL *ssl);
/* Reads up to n bytes: > 0 bytes read, 0 the peer closed, TLS_WANT_*, or
 * TLS_FAIL. */
ssize_t tls_read(SSL *ssl, void *buf, size_t n);
/* Writes up to n bytes: > 0 bytes written, TLS_WANT_*, or TLS_FAIL. */
ssize_t tls_write(SSL *ssl, const void *buf, size_t n);
/* Whether decrypted bytes wait inside OpenSSL (read them before sleeping:
 * epoll cannot see them). */
int tls_pending(SSL *ssl);
/* After TLS_FAIL from tls_read or tls_write: OpenSSL's reason as one line
 * ("...:tlsv13 alert certificate required"), and the error queue cleared. */
void tls_last_error(char *out, size_t len);
void tls_free(SSL *ssl);

#endif
