/* rec_file: the recording `rpcbench record` writes, JSON Lines (the format
 * is docs/record.md's, shared with `run --replay`): a header line, one line
 * per call, and a trailer with the counts and the proxy's added latency.
 *
 * It keeps no secret: a call whose request carried an Authorization header
 * (HTTP) or whose connection sent a STOMP passcode gets the key with the
 * value "***", and no other header value is ever written. */
#ifndef RPCBENCH_REC_FILE_H
#define RPCBENCH_REC_FILE_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

struct rec_file {
    FILE *f;            /* owned */
    int64_t start_ns;   /* clock_now_ns when the recording started */
    uint64_t calls;     /* call lines written */
    uint64_t conns;     /* connections accepted */
    uint64_t malformed; /* requests whose body was no call (forwarded, not recorded) */
    uint64_t lost;      /* streams no longer followed (forwarded all the same) */
    uint64_t id_too_long;  /* calls whose JSON-RPC id is over REC_ID_MAX: unanswered */
    uint64_t pending_full; /* calls written unanswered to make room (REC_PENDING_MAX) */
    uint64_t idle_timeouts; /* connections closed after --idle-timeout of silence */
    int failed;         /* a write failed (the disk is full...) */
};

/* One call, as its line says it (docs/record.md). Strings and params are
 * borrowed for the call. */
struct rec_line {
    int64_t t_ns;             /* the request's first byte (clock_now_ns) */
    int conn;                 /* 1-based */
    int stomp, jsonrpc;       /* transport, encoding */
    const char *where;        /* HTTP path or STOMP destination */
    const char *method;
    json_object *params;      /* NULL: none sent ([] or {} is written) */
    size_t request_bytes, response_bytes;
    int64_t latency_ns;       /* < 0: unanswered (null) */
    const char *outcome;      /* "ok", "fault", "error", "unanswered" */
    int auth, passcode, notification;
};

/* Creates path (overwritten) and writes the header line; started_unix is
 * now. listen and to are borrowed. @return 0, or -1 with err (ERR_LEN,
 * caller-owned: cannot write path). */
int rec_file_open(struct rec_file *rf, const char *path, const char *listen, const char *to,
                  int tls, char *err);
/* Writes l as one line (not flushed: rec_file_flush). */
void rec_file_call(struct rec_file *rf, const struct rec_line *l);
/* Hands what is written to the kernel (once a second, and at the end). */
void rec_file_flush(struct rec_file *rf);
/* The added latency figures, in microseconds, for the trailer. */
struct rec_added {
    double p50, p99, max;
    uint64_t n;
};
/* Writes the trailer and closes the file. @return 0, or -1 with err when
 * any write failed. */
int rec_file_close(struct rec_file *rf, double duration_s, const struct rec_added *added,
                   char *err);

#endif
