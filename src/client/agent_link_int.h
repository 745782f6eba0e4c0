/* agent_link_int: what agent_link.c and agent_link_io.c share (internal
 * to client/). */
#ifndef RPCBENCH_AGENT_LINK_INT_H
#define RPCBENCH_AGENT_LINK_INT_H

#include <pthread.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "client/agent_link.h"
#include "net/auth_token.h"
#include "net/target.h"
#include "proc/agent_wire.h"

#define AGENT_LINK_RING 8           /* samples kept: the tick takes the newest */
#define AGENT_LINK_TIMEOUT_S 5      /* connect, handshake, each clock answer */

struct agent_link {
    struct target t;
    char url[256];
    char token[AUTH_TOKEN_MAX + 1];
    char query[512];                /* pid=... or name=... ("" neither) */
    int fd;
    SSL_CTX *tls_ctx;
    SSL *ssl;
    char in[8192];                  /* bytes read, not yet taken as lines */
    size_t in_off, in_len;
    int64_t offset_ns, error_ns;    /* the agent's clock minus ours, +- error */
    int cores;
    pthread_t reader;
    int reader_started;
    pthread_mutex_t mu;             /* guards what follows */
    pthread_cond_t cv;
    int started, stopping, dead;
    int64_t m0_ns, interval_ns;
    char why[ERR_LEN];              /* dead: why */
    struct agent_sample ring[AGENT_LINK_RING];
    /* the engine's thread only: */
    int64_t last_k_asked, last_k_got;
    struct agent_sample last_got;
    struct agent_sample pids;       /* the last sample that named pids */
    double steal_x_ns;              /* steal % x interval, over the samples taken */
    int64_t steal_ns;
};

/* The reader thread's body (agent_link_stream.c): waits for
 * agent_link_start, asks for the stream and files each sample in
 * l->ring until the stream ends (l->dead) or l->stopping. @return NULL. */
void *agent_link_reader(void *l);

/* Connects to l->t within AGENT_LINK_TIMEOUT_S, over TLS when l->tls_ctx
 * is set; the socket is then blocking with that receive timeout.
 * @return 0, or -1 with err. */
int agent_link_connect(struct agent_link *l, char *err);
/* Sends all of p[0..len). @return 0, or -1. */
int agent_link_send(struct agent_link *l, const char *p, size_t len);
/* The next line (its "\r\n" or "\n" dropped) into out (cap bytes, the
 * caller's). @return its length, or -1 (closed, timed out, too long,
 * broken). */
int agent_link_line(struct agent_link *l, char *out, size_t cap);
/* Reads a response head. @return its status (200, 401...) with
 * *content_length (-1 when not said), or -1 when no head came. */
int agent_link_head(struct agent_link *l, long *content_length);

#endif
