/* dist_int: the MPI side of dist (dist_mpi.c: the ranks, messages, clocks
 * and start; dist_run.c: the run, its live intervals and the merge). */
#ifndef RPCBENCH_DIST_INT_H
#define RPCBENCH_DIST_INT_H

#include <stdint.h>

#include "base/buf.h"
#include "dist/dist.h"

/* Message kinds; a tag is the kind and the run's sequence number, so a
 * late message of one run never matches another's. */
enum dist_kind { DK_PING = 1, DK_PONG, DK_START, DK_GO, DK_TICK, DK_RESULT, DK_MERGED,
                 DK_SPAWN, DK_EXIT };

struct dist {
    int rank, size;
    int seq;                 /* measured runs so far: every rank counts the same */
    char host[64];
    char rank_output[256], server_host[128];
    /* rank 0's view of each rank (arrays of size entries) */
    unsigned char *lost;     /* stopped answering: never waited for again */
    unsigned char *done;     /* this run: its last tick came */
    int64_t *offset_ns;      /* its clock minus rank 0's */
    int64_t *error_ns;       /* half the best round trip of the estimate */
    int64_t *sent, *ok, *errors; /* this run, from its ticks */
    double *cpu_sum;
    int *cpu_n;
    int64_t interval_ns, timeout_ns;
    int64_t deadline_ns;     /* this run: no rank waits for another past it */
    int report_fd;           /* the real stderr, kept for the loss of rank 0
                                (main silences the other ranks' stderr) */
    int started;             /* this run: this rank's start status is out */
    int start_failed;        /* this run: the start exchange said no */
    struct buf tx, rx;       /* message buffers, kept from run to run */
};
extern struct dist dist_g;

/* The tag of kind for the current run. */
int dist_tag(int kind);
/* Blocking send of len bytes to rank dst; gives up at deadline_ns
 * (CLOCK_MONOTONIC). @return 0, or -1 (dst marked lost). */
int dist_send(int dst, int kind, const void *data, size_t len, int64_t deadline_ns);
/* Receives one message of kind from src (or any rank not lost when src
 * < 0) into dist_g.rx, waiting until deadline_ns. @return the sender, or
 * -1 on timeout (src >= 0: src marked lost). */
int dist_recv(int src, int kind, int64_t deadline_ns);
/* Rank 0: estimates every rank's clock offset (NTP-style ping-pongs,
 * keeping the least round trip); the others answer. */
void dist_sync_clocks(void);
/* The start exchange: this rank's status (ok, or why not) goes to rank 0,
 * which answers every rank with the common start (in its own clock) or
 * the first failing rank's reason. @return 0 with *t0_ns, or -1 with err. */
int dist_start_exchange(int ok, const char *why, int64_t *t0_ns, char *err);
/* The live interval merge (run_hooks.on_tick). */
void dist_tick(void *ctx, struct tick_data *t);
int dist_on_start(void *ctx, int64_t *t0_ns, char *err);

#endif
