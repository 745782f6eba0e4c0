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

/* A client context. @return a new SSL_CTX, owned by the caller
 * (SSL_CTX_free), or NULL with err (ERR_LEN bytes, caller-owned) on failure
 * (unreadable or mismatched files...). o's strings are not kept. */
SSL_CTX *tls_client_ctx(const struct tls_client_opts *o, char *err);
/* A server context from cert/key; with ca (may be NULL), client
 * certificates are required and verified against it.
 * @return a new SSL_CTX, owned by the caller (SSL_CTX_free), or NULL with
 * err (ERR_LEN bytes, caller-owned). */
SSL_CTX *tls_server_ctx(const char *cert, const char *key, const char *ca, char *err);

/* A new SSL on fd; the client side sets SNI (and host name checking
 * unless insecure) to host. The SSL holds a reference to ctx; fd stays the
 * caller's (tls_free does not close it).
 * @return the SSL, owned by the caller (tls_free), or NULL with err
 * (ERR_LEN bytes, caller-owned). */
SSL *tls_new_client(SSL_CTX *ctx, int fd, const char *host, int insecure, char *err);
SSL *tls_new_server(SSL_CTX *ctx, int fd, char *err);

/* One handshake step.
 * @return 0 when done, TLS_WANT_READ/WRITE (call again when the socket is
 * ready that way), or TLS_FAIL with err (ERR_LEN bytes, caller-owned; "the
 * server answered plain HTTP, not TLS" when it did). */
int tls_handshake(SSL *ssl, char *err);
/* After a client's TLS_FAIL from tls_handshake.
 * @return 1 when the server answered in clear text (plain HTTP or STOMP),
 * so every retry would fail alike; else 0. */
int tls_spoke_plain(const SSL *ssl);
/* Whether p[0..n) starts a record a TLS server sends to a client: a
 * handshake (0x16: its ServerHello) or an alert (0x15), version 3.x. For a
 * plain connection's first bytes: the server speaks TLS, the URL's scheme
 * is wrong. @return 1 so, else 0 (also when n < 2: too short to tell). */
int tls_record_start(const char *p, size_t n);
/* Reads up to n bytes into buf (the caller's).
 * @return > 0 bytes read, 0 when the peer closed, TLS_WANT_*, or TLS_FAIL
 * (tls_last_error says why). */
ssize_t tls_read(SSL *ssl, void *buf, size_t n);
/* Writes up to n bytes of buf; after TLS_WANT_* retry with the same bytes.
 * @return > 0 bytes written, TLS_WANT_*, or TLS_FAIL. */
ssize_t tls_write(SSL *ssl, const void *buf, size_t n);
/* @return 1 when decrypted bytes wait inside OpenSSL (read them before
 * sleeping: epoll cannot see them), else 0. */
int tls_pending(SSL *ssl);
/* After TLS_FAIL from tls_read or tls_write: OpenSSL's reason as one line
 * ("...:tlsv13 alert certificate required") into out (len bytes, the
 * caller's, always NUL-terminated), and the error queue cleared. */
void tls_last_error(char *out, size_t len);
/* Sends close_notify if it can without waiting (a half close: the peer
 * may still send); what OpenSSL says of it is dropped. */
void tls_close_notify(SSL *ssl);
/* Sends close_notify if it can without waiting, then frees ssl (NULL is a
 * no-op). The fd is not closed: it is the caller's. */
void tls_free(SSL *ssl);

#endif
