/* reqlog: --requests-log FILE[.gz], one CSV row per measured request.
 *
 * The engine must not be slowed by it: it appends a fixed-size record to a
 * ring allocated once (reqlog_put: no allocation, no lock, no system call),
 * and a writer thread formats and writes what the ring holds in batches.
 * When the ring is full the row is dropped and counted (reqlog_close
 * returns the count): the loop never waits for the disk.
 *
 * The rows are the measured window's requests, as requests.offered counts
 * them: answered (ok), failed (the error kind), unfinished (written, no
 * answer at the end: empty latency and service) and unsent (never
 * written: empty sent_us, latency and service; outcome "unsent" when it
 * waited for a connection until the end, the connections' failure kind
 * when it was given up at once).
 * Times are microseconds since the measured window's start.
 *
 * Single producer (the loop thread), single consumer (the writer). */
#ifndef RPCBENCH_REQLOG_H
#define RPCBENCH_REQLOG_H

#include <stdint.h>

#include "base/err.h"
#include "model/run_result.h"
#include "model/reqlog_read.h" /* REQLOG_CONFIG_TAG */

/* The header line, naming each column and its unit. */
#define REQLOG_HEADER                                                                  \
    "intended_us,sent_us,latency_us,service_us,call,target,outcome,bytes_sent,"        \
    "bytes_received,conn,rank"

/* The outcome of a request that never ended (REQ_OK and ERR_* otherwise),
 * and of one never written. */
#define REQLOG_UNFINISHED (-2)
#define REQLOG_UNSENT (-3)

/* One request, as the engine hands it over. Times are ns since the
 * measured window's start; sent_ns < 0: never sent; end_ns < 0: never
 * ended (unfinished). */
struct reqlog_rec {
    int64_t intended_ns, sent_ns, end_ns;
    int64_t bytes_sent, bytes_received;
    int32_t verb, conn, kind;
    int32_t target;      /* a fleet's host, as reqlog_targets numbered them
                            (-1: the run's one target) */
};

struct reqlog; /* opaque: reqlog.c */

/* Creates path (gzip when it ends in .gz), writes the header and starts
 * the writer thread; ring_cap records are allocated now (0: the default).
 * @return the log, owned by the caller until reqlog_close, or NULL with
 * err (nothing to close). */
struct reqlog *reqlog_open(const char *path, size_t ring_cap, char *err);

/* What the rows say of the run, before its first reqlog_put: cfg's verb
 * names and rank are copied, target is the run's address (copied). The
 * first call writes the REQLOG_CONFIG_TAG line and the header (a log
 * closed without one gets the header alone). */
void reqlog_begin(struct reqlog *l, const struct run_config *cfg, const char *target);

/* Appends *rec (copied) for the writer; never blocks, never allocates.
 * @return 0, or -1 when the ring was full (the row is dropped and counted). */
int reqlog_put(struct reqlog *l, const struct reqlog_rec *rec);

/* A --targets run's hosts (urls[0..n), copied), before its first
 * reqlog_put: a record's target i is named urls[i] in its row.
 * @return 0, or -1 out of memory (the rows then name the run's target). */
int reqlog_targets(struct reqlog *l, const char *const *urls, size_t n);

/* The same, for the end of a run (off the hot path): waits for room
 * rather than dropping. */
void reqlog_put_wait(struct reqlog *l, const struct reqlog_rec *rec);

/* The run was over at over_ns (since the measured window's start):
 * reqlog_close writes it after the rows (REQLOG_END_TAG). */
void reqlog_end(struct reqlog *l, int64_t over_ns);

/* Stops the writer once it has written every record put, closes the file
 * and frees l. *dropped (may be NULL) gets the rows dropped for a full
 * ring. @return 0, or -1 with err (a write or close failed). */
int reqlog_close(struct reqlog *l, int64_t *dropped, char *err);

#endif
