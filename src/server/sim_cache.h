/* sim_cache: the VMs of `serve --hosts N`, built on demand and kept for
 * the hosts called last.
 *
 * One host's simulator (150 VMs) holds about 15 MB of json-c objects once
 * its stats have been asked for, so 1,000 hosts built eagerly would not
 * fit in memory. Each host's VMs derive from its own seed (the server's
 * --seed + the host's index), so a host whose simulator was evicted gets
 * the same VMs (ids, names, devices) when it is built again; only its
 * counters restart from zero (vmsim.h: they grow with the simulator's own
 * elapsed time). */
#ifndef RPCBENCH_SIM_CACHE_H
#define RPCBENCH_SIM_CACHE_H

#include <stdint.h>

#include "server/vmsim.h"

struct sim_slot {
    int host;          /* -1: empty */
    struct vmsim *sim; /* owned */
    uint64_t used;     /* the cache's clock at its last use */
};

struct sim_cache {
    struct sim_slot *slots; /* cap of them, owned */
    int cap;
    uint64_t clock;
    int vms;
    uint64_t seed;
    uint64_t builds;   /* simulators built so far (first builds and rebuilds) */
};

/* Readies c (the caller's) for at most cap (>= 1) live simulators of vms
 * VMs each, host h seeded seed + h. @return 0, or -1 without memory. */
int sim_cache_init(struct sim_cache *c, int cap, int vms, uint64_t seed);
/* @return host's simulator (owned by c, valid until the next call or
 * sim_cache_free), built now if it is not live, evicting the one used
 * least recently; NULL with err (ERR_LEN) without memory. */
struct vmsim *sim_cache_get(struct sim_cache *c, int host, char *err);
/* Frees every simulator and the slots; safe on a zeroed c. */
void sim_cache_free(struct sim_cache *c);

#endif
