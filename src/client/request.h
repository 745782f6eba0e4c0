/* request: one request in flight, from its intended send time to its
 * answer, timeout or failure. HTTP keeps it in its connection (one at a
 * time); STOMP in a slot of the run's request_ring, found again by id. */
#ifndef RPCBENCH_REQUEST_H
#define RPCBENCH_REQUEST_H

#include <stdint.h>

struct conn;

struct request {
    int verb;            /* index into the verb mix */
    uint64_t id;         /* the run's counter (reqid_wire gives what is sent) */
    int64_t intended_ns;
    int64_t sent_ns;
    int64_t done_ns;     /* answered well: when the answer reached this host */
    int64_t tx_bytes;    /* the request's size as sent (HTTP: head and body;
                            STOMP: its frame), for --requests-log */
    int64_t rx_bytes;    /* the answer's size as the wire had it (HTTP: head,
                            framing and body; STOMP: its frame),
                            for --requests-log; 0 until it came */
    int measured;        /* intended inside the measured window */
    int live;            /* in flight: not yet answered, timed out or failed */
    int with_id;         /* its bytes carry an id (JSON-RPC): an answer must
                            carry it back (set by the dispatch) */
    struct conn *conn;   /* the connection it went out on (not owned) */
};

/* How a request ended, for its owner: err_kind REQ_OK (req_ok) when it
 * was answered well, else an ERR_* kind (model/run_result.h). r stays the
 * caller's. */
typedef void (*request_end_fn)(void *owner, struct request *r, int err_kind);

#endif
