/* rec_calls: the calls of one recorded connection, from its messages
 * (rec_wire) to the recording's lines (rec_file): requests parsed with the
 * encoders' server side (XML-RPC calls, JSON-RPC calls and batches), held
 * until their answer comes (by JSON-RPC id, and over HTTP by order on the
 * connection), then written with their answer's size, latency and outcome.
 *
 * Bounded: at most REC_PENDING_MAX calls wait per connection; past that
 * the oldest is written as unanswered. */
#ifndef RPCBENCH_REC_CALLS_H
#define RPCBENCH_REC_CALLS_H

#include <json-c/json.h>
#include <stdint.h>

#include "encoders/encoder.h"
#include "record/rec_file.h"
#include "record/rec_wire.h"

#define REC_PENDING_MAX 4096

struct rec_pending {
    int64_t t_ns;
    char method[ENC_METHOD_MAX];
    json_object *params;   /* owned (NULL: none sent) */
    char *id;              /* owned: the JSON text of the JSON-RPC id; NULL: none */
    uint64_t seq;          /* HTTP: the request's number on the connection */
    size_t request_bytes;
    int jsonrpc, stomp, auth;
    char where[REC_WHERE_LEN];
};

struct rec_calls {
    struct rec_file *rf;   /* borrowed */
    int conn;
    int passcode;          /* the connection sent a STOMP passcode */
    struct rec_pending *p; /* owned, n of cap, oldest first */
    size_t n, cap;
    uint64_t http_sent, http_answered;
};

/* The hooks to hand rec_wire_init, with a struct rec_calls as ctx. */
extern const struct rec_wire_events rec_calls_events;

/* Readies c (the caller's) for connection number conn of rf (borrowed). */
void rec_calls_init(struct rec_calls *c, struct rec_file *rf, int conn);
/* The connection ended: what still waits is written as unanswered, and
 * c's memory freed. */
void rec_calls_end(struct rec_calls *c);

#endif
