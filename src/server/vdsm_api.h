/* vdsm_api: the simulated VDSM's verbs, the same over either wire (HTTP or
 * STOMP).
 *
 * One request body in, one response body out: the encoder parses the call,
 * the method name picks a verb, the verb answers from the simulator, and
 * the encoder renders the answer (XML-RPC wraps it in VDSM's status
 * envelope, JSON-RPC sends it bare). Errors are answers too: malformed
 * bodies, unknown methods, bad params and unknown VMs each get the reply
 * VDSM would send. */
#ifndef RPCBENCH_VDSM_API_H
#define RPCBENCH_VDSM_API_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "encoders/encoder.h"
#include "server/vmsim.h"

/* VDSM's error codes and texts; errors that name a request value append it
 * as VDSM's ContextException prints it: "<text>: {'vmId': '<id>'}". */
#define VDSM_ERR_NO_VM 1
#define VDSM_MSG_NO_VM "Virtual machine does not exist"
#define VDSM_MSG_NO_METHOD "The method does not exist or is not available"
#define VDSM_MSG_EMPTY_BATCH \
    "Invalid request: {'request': [], 'reason': 'request batch is empty'}"
#define VDSM_XML_FAULT_NO_METHOD 1 /* with 'method "X" is not supported' */
/* JSON-RPC batches of more requests get one -32600 answer (VDSM has no cap;
 * the body is bounded by --max-body anyway, this bounds the work). */
#define VDSM_MAX_BATCH 256

struct sim_cache;

/* Filled by its user; owns nothing. */
struct vdsm_api {
    struct vmsim *sim;     /* borrowed; with cache, set for each call only */
    struct sim_cache *cache; /* serve --hosts: sim comes from it (borrowed) */
    int host;              /* ... as this host's */
    int64_t work_ns_per_vm; /* CPU burnt per VM returned by the stats verbs */
    uint64_t batches_refused; /* batches over VDSM_MAX_BATCH */
};

enum vdsm_reply {
    VDSM_REPLY = 0,    /* out holds the response body */
    VDSM_NO_REPLY = 1, /* a JSON-RPC notification: nothing to send */
    VDSM_NOMEM = -1,
};

/* Handles the request in body (len bytes, borrowed; need not be
 * NUL-terminated) in encoding enc and appends the response body to out
 * (the caller's). A JSON-RPC batch (array) is answered as VDSM does:
 * every request in order, in one body that is the bare answer when there is
 * one, an array otherwise, and nothing (VDSM_NO_REPLY) when all were
 * notifications; an empty or oversized batch gets one -32600 error.
 * @return enum vdsm_reply: VDSM_REPLY (out has the body appended),
 * VDSM_NO_REPLY (out as it was), or VDSM_NOMEM (out may hold part of a
 * body: discard it, or the host's simulator could not be built).
 * Malformed input is never an error: it gets VDSM's
 * error answer. */
int vdsm_api_handle(struct vdsm_api *api, const struct encoder *enc, const char *body,
                    size_t len, struct buf *out);

/* How many requests body (borrowed) carries, counted without parsing it:
 * each gets its own --delay draw.
 * @return a JSON-RPC batch's elements (at most VDSM_MAX_BATCH), 1
 * otherwise (XML-RPC, a lone request, an empty batch, malformed bodies). */
size_t vdsm_api_requests_in(const struct encoder *enc, const char *body, size_t len);

#endif
