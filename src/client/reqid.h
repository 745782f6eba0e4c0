/* reqid: this process's request ids and STOMP names.
 *
 * Ids are random version-4 UUIDs: a random base drawn once per process
 * from the kernel (getrandom, never --seed, which two processes may well
 * share), then a counter added to its last 48 bits. Several rpcbench
 * processes, or oVirt's own clients, can then talk to one VDSM, which
 * routes replies by id across all its connections, without taking each
 * other's replies. Stamping a send writes 12 hex digits into the rendered
 * request (enc_stamp_id); nothing is allocated. */
#ifndef RPCBENCH_REQID_H
#define RPCBENCH_REQID_H

#include <stdint.h>

#define REQID_PREFIX_LEN 24 /* "xxxxxxxx-xxxx-4xxx-yxxx-": fixed per process */
#define REQID_MASK ((UINT64_C(1) << 48) - 1)

struct reqid {
    char prefix[REQID_PREFIX_LEN + 1]; /* the UUID's first four groups and dashes */
    uint64_t base;                     /* random start of the last 48 bits */
    char tag[17];                      /* 16 random hex digits: STOMP queue and subscription names */
};

/* Fills ids from getrandom (or /dev/urandom; the clock and pid only when
 * neither answers). Never fails. */
void reqid_init(struct reqid *ids);

/* The last 48 bits of the id stamped for counter n, and the counter back
 * from what a reply carries (any value: a stranger's id maps far away). */
static inline uint64_t reqid_wire(const struct reqid *ids, uint64_t n)
{
    return (ids->base + n) & REQID_MASK;
}

static inline uint64_t reqid_counter(const struct reqid *ids, uint64_t wire)
{
    return (wire - ids->base) & REQID_MASK;
}

#endif
