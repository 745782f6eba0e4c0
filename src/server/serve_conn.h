/* serve_conn: one client connection of `rpcbench serve` (struct sconn).
 *
 * A connection (over TLS when the server has a certificate) reads into a
 * reused buffer and sniffs its first bytes once to pick a wire protocol
 * (serve_conn.c's sniff()), as VDSM does on its one port; from then on the
 * protocol's struct serve_proto table (serve_conn_int.h) handles it:
 *  - HTTP/1.x (serve_http.c): requests answered one at a time, in order,
 *    so a connection holds at most one request body plus one read chunk;
 *  - STOMP 1.2 (serve_stomp.c): JSON-RPC requests SENT to VDSM's request
 *    queue, answered as MESSAGEs to the reply-to destination, many in
 *    flight at once, each after its own --delay, in any order. */
#ifndef RPCBENCH_SERVE_CONN_H
#define RPCBENCH_SERVE_CONN_H

#include <ev.h>
#include <openssl/ssl.h>
#include <stddef.h>
#include <stdint.h>

#include "server/delay.h"
#include "server/vdsm_api.h"

struct sconn;
struct sub;

/* STOMP subscriptions of every connection, hashed by destination
 * (serve_broker.c). Owns the bucket array; the subscriptions are their
 * connections'. */
struct broker {
    struct sub **buckets;
    size_t nbuckets, nsubs;
    uint64_t message_id;     /* last message-id given (ack:client subscriptions) */
    uint64_t dropped_copies; /* copies not queued to a subscriber far behind */
    uint64_t unrouted;       /* messages with no subscriber to take them */
};

struct serve_proto; /* a wire protocol's table (serve_conn_int.h) */

/* What every connection of one server shares. Filled by its owner (the
 * server, or a test) before the first sconn_start; loop, api.sim, tls and
 * rbuf are the owner's to create and free. */
struct serve_ctx {
    struct ev_loop *loop;
    /* The wire a connection speaks from its first bytes (serve_sniff, or a
     * test's own): set by the owner. */
    const struct serve_proto *(*sniff)(const char *p, size_t n);
    struct vdsm_api api;
    struct delay delay;
    struct delay_workers workers; /* --workers: the delay queued FIFO (owner frees) */
    size_t max_body;
    double idle_s;       /* drop a connection with no complete request for this long */
    int max_conns;
    int nconns;          /* open now */
    uint64_t accepted, rejected, requests, bad_requests;
    uint64_t stomp_requests; /* of requests, those that came over STOMP */
    uint64_t tls_failures;   /* failed handshakes (e.g. no client certificate) */
    SSL_CTX *tls;        /* every connection is TLS when set */
    struct sconn *conns; /* every open connection (owned), for shutdown */
    struct broker broker;
    /* Shared by all connections (one thread): reads land in rbuf and are
     * parsed in place; responses are rendered into out and written from
     * there, so an idle connection holds no big buffers. out points at
     * own_out, or at a fleet's (serve --hosts: every host of the loop
     * shares one); the owner frees own_out (buf_free). */
    char *rbuf;
    size_t rbuf_len;
    struct buf *out;
    struct buf own_out;
};

/* Takes ownership of a connected, non-blocking fd and starts serving it:
 * the connection lives in ctx->conns until it ends or sconn_close_all.
 * @return 0, or -1 (out of memory, or the TLS session could not be made;
 * fd closed). */
int sconn_start(struct serve_ctx *ctx, int fd);

/* Closes and frees every connection of ctx (shutdown). */
void sconn_close_all(struct serve_ctx *ctx);

/* Frees the subscription table (after sconn_close_all, which freed the
 * subscriptions). */
void broker_free(struct serve_ctx *ctx);

#endif
