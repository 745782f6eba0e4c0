/* sim_cache: every host's simulator, and which hosts keep their objects
 * (sim_cache.h). A linear scan over the slots: they are a handful. */
#include <stdlib.h>

#include "server/sim_cache.h"

int sim_cache_init(struct sim_cache *c, int nhosts, int cap, int vms, uint64_t seed)
{
    *c = (struct sim_cache){.nhosts = nhosts, .cap = cap, .vms = vms, .seed = seed};
    c->sims = calloc((size_t)nhosts, sizeof *c->sims);
    c->slots = calloc((size_t)cap, sizeof *c->slots);
    if (!c->sims || !c->slots)
        return -1;
    for (int i = 0; i < cap; i++)
        c->slots[i].host = -1;
    return 0;
}

/* Marks host as one that may hold objects, dropping the objects of the
 * host used least recently when every slot is taken. */
static void touch(struct sim_cache *c, int host)
{
    struct sim_slot *victim = &c->slots[0];
    c->clock++;
    for (int i = 0; i < c->cap; i++) {
        struct sim_slot *s = &c->slots[i];
        if (s->host == host) {
            s->used = c->clock;
            return;
        }
        if (s->host < 0 || (victim->host >= 0 && s->used < victim->used))
            victim = s;
    }
    if (victim->host >= 0) {
        vmsim_drop_trees(c->sims[victim->host]);
        c->drops++;
    }
    victim->host = host;
    victim->used = c->clock;
}

struct vmsim *sim_cache_get(struct sim_cache *c, int host, char *err)
{
    if (!c->sims[host]) {
        if (!(c->sims[host] = vmsim_new(c->vms, c->seed + (uint64_t)host, err)))
            return NULL;
        c->made++;
    }
    return c->sims[host];
}

void sim_cache_settle(struct sim_cache *c, int host)
{
    if (c->sims[host] && vmsim_has_trees(c->sims[host]))
        touch(c, host);
}

void sim_cache_free(struct sim_cache *c)
{
    for (int i = 0; c->sims && i < c->nhosts; i++)
        vmsim_free(c->sims[i]);
    free(c->sims);
    free(c->slots);
    c->sims = NULL;
    c->slots = NULL;
}
