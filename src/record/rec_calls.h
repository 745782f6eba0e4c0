/* rec_calls: the calls of one recorded connection, from its messages
 * (rec_wire) to the recording's lines (rec_file): requests parsed with the
 * encoders' server side (XML-RPC calls, JSON-RPC calls and batches), held
 * until their answer comes (by JSON-RPC id, and over HTTP by order on the
 * connection), then written with their answer's size, latency and outcome.
 *
 * Bounded, and holding a call allocates nothing: each connection's table
 * of REC_PENDING_MAX waiting calls is allocated once, when it opens, with
 * each JSON-RPC id stored inline (REC_ID_MAX bytes). (The parsing and the
 * line are json-c's, which still allocates per call: the params tree, the
 * line's objects.) When the table is
 * full the oldest call is written as unanswered; a call whose id is
 * longer is written at once as unanswered (its answer could not be
 * matched); both are counted in the recording's trailer (rec_file). */
#ifndef RPCBENCH_REC_CALLS_H
#define RPCBENCH_REC_CALLS_H

#include <json-c/json.h>
#include <stdint.h>

#include "encoders/encoder.h"
#include "record/rec_file.h"
#include "record/rec_wire.h"

#define REC_PENDING_MAX 4096
/* The longest JSON-RPC id kept, as JSON text: VDSM's are UUIDs (38 bytes
 * quoted), the engine's and vdsm.client's alike. */
#define REC_ID_MAX 64

struct rec_pending {
    int64_t t_ns;
    char method[ENC_METHOD_MAX];
    json_object *params;   /* owned (NULL: none sent) */
    char id[REC_ID_MAX];   /* the JSON text of the JSON-RPC id (not NUL-terminated) */
    size_t id_len;         /* 0: none */
    uint64_t seq;          /* HTTP: the request's number on the connection */
    size_t request_bytes;
    int jsonrpc, stomp, auth;
    char where[REC_WHERE_LEN];
};

struct rec_calls {
    struct rec_file *rf;   /* borrowed */
    int conn;
    int passcode;          /* the connection sent a STOMP passcode */
    struct rec_pending *p; /* owned: REC_PENDING_MAX, n used, oldest first */
    size_t n;
    uint64_t http_sent, http_answered;
};

/* The hooks to hand rec_wire_init, with a struct rec_calls as ctx. */
extern const struct rec_wire_events rec_calls_events;

/* Readies c (the caller's) for connection number conn of rf (borrowed),
 * its table allocated (untouched pages cost no memory until used).
 * @return 0, or -1 when out of memory (c holds nothing then). */
int rec_calls_init(struct rec_calls *c, struct rec_file *rf, int conn);
/* The connection ended: what still waits is written as unanswered, and
 * c's memory freed. */
void rec_calls_end(struct rec_calls *c);

#endif
