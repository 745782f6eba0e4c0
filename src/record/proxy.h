/* proxy: `rpcbench record`, a proxy between a real client and a real
 * server that forwards every byte unchanged, both ways, and writes what it
 * saw as a recording (rec_file.h).
 *
 * One libev loop, non-blocking sockets, plain or TLS on either side: with
 * tls_cert it ends the client's TLS session with its own certificate, and
 * to an https:// or stomps:// URL it opens its own. Every connection
 * accepted gets its own connection to the server. Buffers are bounded: a
 * side is not read while the other side's outbound bytes exceed
 * PROXY_OUT_CAP (backpressure), so a slow reader slows its peer, as
 * without the proxy.
 *
 * What it adds is measured: for every chunk read from one side, the time
 * from its read to its first byte handed to the other side's socket
 * (added latency, recorded in the trailer and the summary). Forwarding
 * comes first; the recording is made from the bytes after they were
 * handed on. */
#ifndef RPCBENCH_PROXY_H
#define RPCBENCH_PROXY_H

#include <ev.h>
#include <openssl/ssl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "net/target.h"
#include "record/rec_file.h"
#include "stats/hist.h"

#define PROXY_OUT_CAP (256 * 1024)
#define PROXY_READ_BUF (64 * 1024)

struct record_config {
    char listen[300];         /* --listen HOST:PORT */
    char to[1024];            /* --to URL */
    char out[512];            /* --out FILE */
    const char *tls_cert, *tls_key; /* the listening side's (NULL: plain); borrowed */
    const char *tls_ca;       /* require client certificates signed by it (NULL: none) */
    char cacert[512], cert[512], key[512]; /* the server side's TLS, as run's */
    int insecure;
    int64_t duration_ns;      /* -d: 0 until a signal */
    size_t max_msg;           /* --max-body: the largest message recorded */
    int64_t idle_ns;          /* --idle-timeout: close a pair silent that long (0: never) */
};

struct pair;

/* Owns its listening socket, TLS contexts, the recording, every pair. */
struct proxy {
    struct ev_loop *loop;     /* the default loop, borrowed */
    const struct record_config *cfg; /* borrowed */
    struct target target;
    int lfd;
    SSL_CTX *listen_tls, *to_tls; /* NULL: plain */
    ev_io accept_w;
    ev_timer stop_w, flush_w;
    ev_timer resume_w;        /* accepts again after running out of fds */
    ev_signal sigint_w, sigterm_w;
    char *rbuf;               /* shared by every pair: one thread */
    struct pair *pairs;       /* open ones */
    struct rec_file rf;
    struct hist added[2];     /* ns, per direction (rec_dir) */
    int64_t start_ns;
    uint64_t accepted, upstream_failed, tls_failed, setup_expired, bytes[2];
    int nconn;
};

/* Resolves the target, makes the TLS contexts, listens and opens the
 * recording, and arms the loop (SIGINT and SIGTERM end the recording from
 * here on, before the caller says it listens); writes the address bound
 * into bound (blen bytes, caller's). @return 0, or -1 with err (ERR_LEN,
 * caller-owned); proxy_free after either. */
int proxy_start(struct proxy *p, const struct record_config *cfg, char *bound, size_t blen,
                char *err);
/* Forwards until -d passes or SIGINT/SIGTERM; then closes every pair
 * (their waiting calls recorded as unanswered). */
void proxy_run(struct proxy *p);
/* Writes the trailer and closes the recording, then prints the summary
 * on out. @return 0, or -1 with err when the recording was not written in
 * full. */
int proxy_finish(struct proxy *p, FILE *out, char *err);
/* Frees everything p holds (after proxy_start, failed or not). */
void proxy_free(struct proxy *p);

#endif
