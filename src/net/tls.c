#include "net/tls.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/x509v3.h>

#include "base/safetext.h"

/* The last OpenSSL error as one line, after what. */
static void ssl_err(char *err, const char *what)
{
    if (!err)
        return;
    unsigned long e = ERR_get_error();
    char reason[160] = "unknown error";
    if (e)
        ERR_error_string_n(e, reason, sizeof reason);
    snprintf(err, ERR_LEN, "%s: %s", what, reason);
    ERR_clear_error();
}

static int load_pair(SSL_CTX *ctx, const char *cert, const char *key, char *err)
{
    if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
        ssl_err(err, "cannot load certificate");
        return -1;
    }
    if (SSL_CTX_use_PrivateKey_file(ctx, key ? key : cert, SSL_FILETYPE_PEM) != 1) {
        ssl_err(err, "cannot load private key");
        return -1;
    }
    if (SSL_CTX_check_private_key(ctx) != 1) {
        ssl_err(err, "certificate and key do not match");
        return -1;
    }
    return 0;
}

/* The first bytes of the last record a client read, and whose they are:
 * when the "record" is "HTTP/", the server is not speaking TLS. One event
 * loop runs the client, and the handshake step that fails is the one that
 * read them, so one slot is enough. */
static struct {
    const SSL *ssl;
    unsigned char head[5];
} last_record;

static void on_record(int write_p, int version, int content_type, const void *buf, size_t len,
                      SSL *ssl, void *arg)
{
    (void)version;
    (void)arg;
    if (write_p || content_type != SSL3_RT_HEADER || len < sizeof last_record.head)
        return;
    last_record.ssl = ssl;
    memcpy(last_record.head, buf, sizeof last_record.head);
}

SSL_CTX *tls_client_ctx(const struct tls_client_opts *o, char *err)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) {
        ssl_err(err, "SSL_CTX_new");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_msg_callback(ctx, on_record);
    if (o->insecure) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    } else {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
        int ok = o->cacert ? SSL_CTX_load_verify_locations(ctx, o->cacert, NULL)
                           : SSL_CTX_set_default_verify_paths(ctx);
        if (ok != 1) {
            ssl_err(err, "cannot load the CA certificate");
            SSL_CTX_free(ctx);
            return NULL;
        }
    }
    if (o->cert && load_pair(ctx, o->cert, o->key, err)) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

SSL_CTX *tls_server_ctx(const char *cert, const char *key, const char *ca, char *err)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) {
        ssl_err(err, "SSL_CTX_new");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    if (load_pair(ctx, cert, key, err))
        goto fail;
    if (ca) { /* as VDSM: a client must show a certificate our CA signed */
        if (SSL_CTX_load_verify_locations(ctx, ca, NULL) != 1) {
            ssl_err(err, "cannot load the CA certificate");
            goto fail;
        }
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
    }
    return ctx;
fail:
    SSL_CTX_free(ctx);
    return NULL;
}

static SSL *new_ssl(SSL_CTX *ctx, int fd, char *err)
{
    SSL *ssl = SSL_new(ctx);
    if (!ssl) {
        ssl_err(err, "SSL_new");
        return NULL;
    }
    if (SSL_set_fd(ssl, fd) != 1) {
        ssl_err(err, "SSL_set_fd");
        SSL_free(ssl);
        return NULL;
    }
    /* A partial write may be retried from another buffer address. */
    SSL_set_mode(ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
    return ssl;
}

SSL *tls_new_client(SSL_CTX *ctx, int fd, const char *host, int insecure, char *err)
{
    SSL *ssl = new_ssl(ctx, fd, err);
    if (!ssl)
        return NULL;
    SSL_set_connect_state(ssl);
    SSL_set_tlsext_host_name(ssl, host);
    if (!insecure) {
        X509_VERIFY_PARAM *p = SSL_get0_param(ssl);
        /* An IP literal is checked against the certificate's IP SANs. */
        if (X509_VERIFY_PARAM_set1_ip_asc(p, host) != 1)
            X509_VERIFY_PARAM_set1_host(p, host, 0);
    }
    return ssl;
}

SSL *tls_new_server(SSL_CTX *ctx, int fd, char *err)
{
    SSL *ssl = new_ssl(ctx, fd, err);
    if (ssl)
        SSL_set_accept_state(ssl);
    return ssl;
}

/* Maps an SSL_* result to our statuses. */
/* What SSL_get_error says of rc. It reads the thread's error queue,
 * which every connection shares: an error left there by another one (a
 * close_notify refused by a connection that failed) would turn this one's
 * "want read" into a failure. So every call into OpenSSL's I/O starts
 * with the queue emptied, and close_notify leaves it empty. */
static int status(SSL *ssl, int rc)
{
    switch (SSL_get_error(ssl, rc)) {
    case SSL_ERROR_WANT_READ:
        return TLS_WANT_READ;
    case SSL_ERROR_WANT_WRITE:
        return TLS_WANT_WRITE;
    case SSL_ERROR_ZERO_RETURN:
        return 0;
    default:
        return TLS_FAIL;
    }
}

int tls_spoke_plain(const SSL *ssl)
{
    if (last_record.ssl != ssl)
        return 0;
    for (size_t i = 0; i < sizeof last_record.head; i++)
        if (!isprint(last_record.head[i]) && !isspace(last_record.head[i]))
            return 0; /* a TLS record header has a binary type and length */
    return 1;
}

int tls_record_start(const char *p, size_t n)
{
    return n >= 2 && (p[0] == 0x16 || p[0] == 0x15) && p[1] == 0x03;
}

/* A client's handshake that read clear text: said in the user's terms. */
static int plain_answer(SSL *ssl, char *err)
{
    if (SSL_is_server(ssl) || !tls_spoke_plain(ssl))
        return 0;
    ERR_clear_error();
    if (!err)
        return 1;
    if (!memcmp(last_record.head, "HTTP/", 5))
        snprintf(err, ERR_LEN, "the server answered plain HTTP, not TLS");
    else { /* printable or blank bytes, \r \n \v \f among them: made visible */
        char quote[sizeof last_record.head * 4 + 1];
        safetext((const char *)last_record.head, sizeof last_record.head, quote, sizeof quote, 0);
        snprintf(err, ERR_LEN, "the server answered in clear text ('%s...'), not TLS", quote);
    }
    return 1;
}

int tls_handshake(SSL *ssl, char *err)
{
    ERR_clear_error(); /* see status() */
    int rc = SSL_do_handshake(ssl);
    if (rc == 1)
        return 0;
    int st = status(ssl, rc);
    if (st == TLS_WANT_READ || st == TLS_WANT_WRITE)
        return st;
    long v = SSL_get_verify_result(ssl);
    if (plain_answer(ssl, err))
        return TLS_FAIL;
    if (v != X509_V_OK && err)
        snprintf(err, ERR_LEN, "TLS handshake: certificate verify failed: %s",
                 X509_verify_cert_error_string(v));
    else
        ssl_err(err, "TLS handshake");
    return TLS_FAIL;
}

ssize_t tls_read(SSL *ssl, void *buf, size_t n)
{
    size_t got = 0;
    ERR_clear_error(); /* see status() */
    int rc = SSL_read_ex(ssl, buf, n, &got);
    if (rc == 1)
        return (ssize_t)got;
    int st = status(ssl, rc);
    if (st != TLS_FAIL)
        ERR_clear_error(); /* on failure the caller may ask tls_last_error */
    return st;
}

ssize_t tls_write(SSL *ssl, const void *buf, size_t n)
{
    size_t put = 0;
    ERR_clear_error(); /* see status() */
    int rc = SSL_write_ex(ssl, buf, n, &put);
    if (rc == 1)
        return (ssize_t)put;
    int st = status(ssl, rc);
    if (st != TLS_FAIL && st != 0)
        ERR_clear_error();
    return st == 0 ? TLS_FAIL : st;
}

void tls_last_error(char *out, size_t len)
{
    unsigned long e = ERR_peek_last_error();
    if (e)
        ERR_error_string_n(e, out, len);
    else
        snprintf(out, len, "connection failed (%s)", errno ? strerror(errno) : "no detail");
    ERR_clear_error();
}

int tls_pending(SSL *ssl)
{
    return SSL_pending(ssl) > 0;
}

void tls_close_notify(SSL *ssl)
{
    SSL_shutdown(ssl); /* best effort; never waits */
    ERR_clear_error(); /* a failed session refuses it: see status() */
}

void tls_free(SSL *ssl)
{
    if (!ssl)
        return;
    tls_close_notify(ssl);
    SSL_free(ssl);
}
