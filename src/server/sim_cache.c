/* sim_cache: host simulators built on demand, least recently used evicted
 * (sim_cache.h). A linear scan: the cache holds a handful of slots. */
#include <stdlib.h>

#include "server/sim_cache.h"

int sim_cache_init(struct sim_cache *c, int cap, int vms, uint64_t seed)
{
    *c = (struct sim_cache){.cap = cap, .vms = vms, .seed = seed};
    c->slots = calloc((size_t)cap, sizeof *c->slots);
    if (!c->slots)
        return -1;
    for (int i = 0; i < cap; i++)
        c->slots[i].host = -1;
    return 0;
}

struct vmsim *sim_cache_get(struct sim_cache *c, int host, char *err)
{
    struct sim_slot *victim = &c->slots[0];
    c->clock++;
    for (int i = 0; i < c->cap; i++) {
        struct sim_slot *s = &c->slots[i];
        if (s->host == host) {
            s->used = c->clock;
            return s->sim;
        }
        if (s->host < 0 || (victim->host >= 0 && s->used < victim->used))
            victim = s;
    }
    vmsim_free(victim->sim);
    victim->host = -1;
    victim->sim = vmsim_new(c->vms, c->seed + (uint64_t)host, err);
    if (!victim->sim)
        return NULL;
    victim->host = host;
    victim->used = c->clock;
    c->builds++;
    return victim->sim;
}

void sim_cache_free(struct sim_cache *c)
{
    for (int i = 0; c->slots && i < c->cap; i++)
        vmsim_free(c->slots[i].sim);
    free(c->slots);
    c->slots = NULL;
}
