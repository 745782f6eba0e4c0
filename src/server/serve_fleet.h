/* serve_fleet: `rpcbench serve --hosts N`, N simulated VDSM hosts on N
 * ports from one process and one loop.
 *
 * Each host is a struct server of its own (its listening socket, its
 * connections, its counts, its --delay draws seeded --seed + its index)
 * with its own VMs, seeded --seed + its index too. The VMs come from a
 * sim_cache (sim_cache.h): every host's numbers are kept from its first
 * call on; the json-c objects answers are rendered from are kept for the
 * last SERVE_FLEET_LIVE_TREES hosts called only, so memory grows with N by
 * the numbers alone. The hosts share one read buffer and one response
 * buffer. */
#ifndef RPCBENCH_SERVE_FLEET_H
#define RPCBENCH_SERVE_FLEET_H

#include <stdio.h>

#include "server/server.h"
#include "server/sim_cache.h"

#define SERVE_FLEET_MAX 10000
#define SERVE_FLEET_LIVE_TREES 8

struct serve_fleet {
    struct server *hosts;  /* n of them, owned */
    char (*bound)[300];    /* each host's "HOST:PORT" */
    int n;
    int tls;               /* the URLs are https:// */
    struct sim_cache cache;
    char *rbuf;
    struct buf out;
    ev_signal sigint_w, sigterm_w;
};

/* Starts c->hosts hosts (1..SERVE_FLEET_MAX) listening on c->host, ports
 * c->port + i (c->port 0: each picks a free one). f is the caller's,
 * zeroed. SIGINT and SIGTERM are handled from here on (serve_fleet_run
 * then returns). @return 0, or -1 with err (ERR_LEN: a port taken, no
 * fds, no memory); call serve_fleet_free either way. */
int serve_fleet_start(struct serve_fleet *f, const struct server_config *c, char *err);
/* Writes one URL a line, host i's on line i + 1, in the form `run
 * --targets` reads (http[s]://HOST:PORT/RPC2) to out. @return 0, or -1
 * when the write failed. */
int serve_fleet_write_targets(const struct serve_fleet *f, FILE *out);
/* Serves every host until SIGINT or SIGTERM; returns then. */
void serve_fleet_run(struct serve_fleet *f);
/* The closing counts: a summary line (as serve's) to log, and, when rows
 * is not NULL, a CSV of each host's (host,url,connections,requests,bad).
 * @return 0, or -1 when writing rows failed. */
int serve_fleet_print_counts(const struct serve_fleet *f, FILE *log, FILE *rows);
void serve_fleet_free(struct serve_fleet *f);

#endif
