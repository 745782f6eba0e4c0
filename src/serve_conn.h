/* serve_conn: one client connection of `rpcbench serve`.
 *
 * A connection reads into a reused buffer, sniffs its first bytes once to
 * pick a protocol (today only HTTP; the seam where STOMP and TLS will be
 * told apart is serve_conn.c's sniff()), then parses HTTP/1.x requests with
 * http-parser, one at a time: parsing pauses at each complete request until
 * its response (possibly delayed by --delay) is fully written, so pipelined
 * requests are answered in order and a connection holds at most one
 * request body (<= max_body) plus one read chunk. */
#ifndef RPCBENCH_SERVE_CONN_H
#define RPCBENCH_SERVE_CONN_H

#include <ev.h>
#include <stddef.h>
#include <stdint.h>

#include "delay.h"
#include "vdsm_api.h"

struct conn;

/* What every connection of one server shares. */
struct serve_ctx {
    struct ev_loop *loop;
    struct vdsm_api api;
    struct delay delay;
    size_t max_body;
    double idle_s;       /* drop a connection with no complete request for this long */
    int max_conns;
    int nconns;          /* open now */
    uint64_t accepted, rejected, requests, bad_requests;
    struct conn *conns;  /* every open connection, for shutdown */
    /* Shared by all connections (one thread): reads land in rbuf and are
     * parsed in place; responses are rendered into out and written from
     * there, so an idle connection holds no big buffers. */
    char *rbuf;
    size_t rbuf_len;
    struct buf out;
};

/* Takes ownership of a connected, non-blocking fd and starts serving it.
 * @return 0, or -1 (out of memory; fd closed). */
int serve_conn_start(struct serve_ctx *ctx, int fd);

/* Closes every connection (shutdown). */
void serve_conn_close_all(struct serve_ctx *ctx);

#endif
