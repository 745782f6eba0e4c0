/* vdsm_api: the simulated VDSM's verbs, protocol-neutral.
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

#include "buf.h"
#include "encoder.h"
#include "vmsim.h"

#define VDSM_ERR_NO_VM 1
#define VDSM_MSG_NO_VM "Virtual machine does not exist"

struct vdsm_api {
    struct vmsim *sim;     /* borrowed */
    int64_t work_ns_per_vm; /* CPU burnt per VM returned by the stats verbs */
};

enum vdsm_reply {
    VDSM_REPLY = 0,    /* out holds the response body */
    VDSM_NO_REPLY = 1, /* a JSON-RPC notification: nothing to send */
    VDSM_NOMEM = -1,
};

/* Handles the request in body (len bytes) in encoding enc and appends the
 * response body to out. @return enum vdsm_reply. */
int vdsm_api_handle(struct vdsm_api *api, const struct encoder *enc, const char *body,
                    size_t len, struct buf *out);

#endif
