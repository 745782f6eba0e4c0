/* server: the listening side of `rpcbench serve`, the simulated VDSM host.
 *
 * One libev loop, one listening socket speaking HTTP (XML-RPC, JSON-RPC)
 * and STOMP (JSON-RPC), all over TLS when given a certificate, as VDSM
 * does; serve_conn handles each client, vdsm_api answers, vmsim makes the
 * VMs. SIGINT/SIGTERM stop the loop cleanly. */
#ifndef RPCBENCH_SERVER_H
#define RPCBENCH_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ev.h>

#include "server/serve_conn.h"

/* What `rpcbench serve` was asked for (the CLI fills it, checked). */
struct server_config {
    char host[256];
    int port;
    int vms;
    uint64_t seed;
    const char *delay;      /* delay spec, NULL for none; borrowed */
    int workers;            /* --workers: 0 = delays concurrent */
    int64_t work_us_per_vm;
    size_t max_body;
    int64_t idle_ns;
    int max_conns;
    const char *tls_cert, *tls_key, *tls_ca; /* NULL without TLS; borrowed */
    int hosts;              /* --hosts: simulated hosts (serve_fleet.h); 1: one */
    const char *targets_out, *stats_out; /* --targets-out, --stats-out; NULL: none */
};

/* Owns its listening socket, its serve_ctx (and through it every
 * connection, the VMs, the TLS context and the shared buffers). */
struct server {
    struct serve_ctx ctx;
    int lfd;
    ev_io accept_w;
    ev_timer resume_w; /* re-arms accepting after running out of fds */
    ev_signal sigint_w, sigterm_w;
    int rbuf_shared;   /* ctx.rbuf is a fleet's (serve_fleet.h), not freed here */
    int64_t last_log_ns;
    uint64_t quiet_logs; /* log lines held back by the rate limit */
};

/* Builds the VMs, the TLS context and the listening socket, and handles
 * SIGINT and SIGTERM from here on (server_run then returns); writes the
 * address bound ("HOST:PORT", IPv6 in brackets) into bound (the caller's,
 * boundlen bytes). s must be zeroed with lfd = -1 before; c is only read
 * here (its strings are not kept).
 * @return 0, or -1 with err (caller's, ERR_LEN bytes); call server_free
 * either way. */
int server_start(struct server *s, const struct server_config *c, char *bound, size_t boundlen,
                 char *err);
struct sim_cache;
/* server_start for host number host of `serve --hosts` (serve_fleet.h):
 * no simulator of its own (its calls take the host's from cache, borrowed),
 * and the fleet's read buffer rbuf (rbuf_len bytes) and response buffer
 * out (both borrowed; one loop thread, so the hosts share them as one
 * host's connections do).
 * @return as server_start's. */
int server_start_host(struct server *s, const struct server_config *c, struct sim_cache *cache,
                      int host, char *rbuf, size_t rbuf_len, struct buf *out, char *bound,
                      size_t boundlen, char *err);
/* Accepts on loop (a fleet's: its owner handles the signals); server_unwatch
 * stops accepting and closes every connection. */
void server_watch(struct server *s, struct ev_loop *loop);
void server_unwatch(struct server *s);
/* Serves until SIGINT or SIGTERM, then closes every connection; returns
 * then. Counts stay in s->ctx for server_print_counts. */
void server_run(struct server *s);
/* Writes the closing counts (connections, requests, refusals) to out. */
void server_print_counts(const struct server *s, FILE *out);
/* Frees what server_start made (s itself is the caller's); s may be half
 * started. */
void server_free(struct server *s);

#endif
