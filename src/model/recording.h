/* recording: reads what `rpcbench record` wrote (docs/record.md) into a
 * summary per method, for `rpcbench report FILE`: calls, outcomes, sizes,
 * latencies, and each method's period (the median interval between two of
 * its calls on one connection: the engine polls each host on its own
 * connection). The file is read once, line by line; lines it does not
 * understand are counted, never fatal. */
#ifndef RPCBENCH_RECORDING_H
#define RPCBENCH_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "stats/hist.h"

#define RECORDING_METHODS_MAX 256 /* past these, calls count as "(other methods)" */
#define RECORDING_NAME_LEN 128

struct recording_method {
    char name[RECORDING_NAME_LEN];
    char encoding[8], transport[8];
    uint64_t calls, ok, fault, error, unanswered;
    double request_bytes, response_bytes; /* sums */
    struct hist latency_us;               /* answered calls */
    double *gaps;                         /* owned: intervals on one connection, s */
    size_t ngaps, capgaps;
    uint64_t conns;                       /* connections it was called on */
};

/* Where each method was last seen on each connection (owned). */
struct recording_seen {
    uint32_t method;
    int64_t conn;                         /* 0: an empty slot */
    double t;
};

struct recording {
    char to[1024], listen[300];
    double started_unix;
    int tls, has_trailer;
    struct recording_method *m;           /* owned, nm of them */
    size_t nm;
    uint64_t calls, bad_lines;
    int64_t conns;                        /* the highest connection number */
    double last_t;                        /* the last call's time, s */
    double duration_s;                    /* the trailer's, else last_t */
    double added_p50, added_p99, added_max; /* the trailer's, us (-1: none) */
    /* the trailer's counts of what the proxy did not record, or cut short:
     * requests that were no call, streams not followed, calls whose id was
     * too long or that left a full table unanswered, idle connections
     * closed (0 in a recording older than the key) */
    uint64_t malformed, streams_lost, ids_too_long, pending_full, idle_timeouts;
    struct recording_seen *seen;          /* owned, an open-addressing table */
    size_t nseen, capseen;
};

/* @return 1 when path's first line is a recording's header, else 0. */
int recording_is(const char *path);
/* Reads path into r (the caller's, zeroed here). @return 0, or -1 with err
 * (ERR_LEN, caller-owned: unreadable, not a recording, out of memory);
 * recording_free(r) after either. */
int recording_load(const char *path, struct recording *r, char *err);
/* Sorts a method's gaps and @return their median (s), or -1 without any. */
double recording_period(struct recording_method *m);
void recording_free(struct recording *r);

#endif
