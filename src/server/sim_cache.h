/* sim_cache: the VMs of `serve --hosts N`: every host's numbers, and the
 * json-c objects of the hosts called last.
 *
 * A host's simulator is made at its first call and kept to the end: its
 * VMs' numbers (vmsim.h; about a hundred KB for 150 VMs) evolve from its
 * own seed (the server's --seed + the host's index) for the whole run, so
 * each host keeps its ids and counters. The objects that answers are
 * rendered from are what costs (some 6 MB for 150 VMs once its stats were
 * asked for): only the last `cap` hosts called keep them, and a host past
 * that has them dropped (vmsim_drop_trees) and rebuilt, the same, when
 * next needed. A `list` needs no objects at all. */
#ifndef RPCBENCH_SIM_CACHE_H
#define RPCBENCH_SIM_CACHE_H

#include <stdint.h>

#include "server/vmsim.h"

struct sim_slot {
    int host;          /* -1: empty */
    uint64_t used;     /* the cache's clock at its last use */
};

struct sim_cache {
    struct vmsim **sims;    /* nhosts of them, owned; NULL until a host's first call */
    int nhosts;
    struct sim_slot *slots; /* cap of them: the hosts that may hold objects */
    int cap;
    uint64_t clock;
    int vms;
    uint64_t seed;
    uint64_t made;     /* simulators made (hosts called at least once) */
    uint64_t drops;    /* times a host's objects were dropped for another's */
};

/* Readies c (the caller's) for nhosts hosts of vms VMs each, host h seeded
 * seed + h, at most cap (>= 1) of them holding objects at once.
 * @return 0, or -1 without memory. */
int sim_cache_init(struct sim_cache *c, int nhosts, int cap, int vms, uint64_t seed);
/* @return host's simulator (0 <= host < nhosts; owned by c, valid until
 * sim_cache_free), made now at its first call; NULL with err (ERR_LEN)
 * without memory. */
struct vmsim *sim_cache_get(struct sim_cache *c, int host, char *err);
/* After a call to host's simulator: when it holds objects now, host
 * becomes the one used last, and the objects of the host used least
 * recently are dropped when more than cap hosts would hold them. A call
 * that built none (list) moves nothing. */
void sim_cache_settle(struct sim_cache *c, int host);
/* Frees every simulator and the slots; safe on a zeroed c. */
void sim_cache_free(struct sim_cache *c);

#endif
