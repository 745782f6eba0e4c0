/* periodic: the fixed-period calls' intended send times (periodic.h). A
 * handful of calls: a linear scan finds the next one. */
#include "client/periodic.h"

#include <string.h>

#define NEVER (INT64_MAX / 4)

void periodic_init(struct periodic *p, const struct run_config *cfg, int64_t t0_ns)
{
    memset(p, 0, sizeof *p);
    p->t0_ns = t0_ns;
    p->stride = cfg->split_ranks > 1 ? cfg->split_ranks : 1;
    for (size_t i = 0; i < cfg->nverbs; i++) {
        if (!cfg->verbs[i].every_ns)
            continue;
        p->verb[p->n] = (int)i;
        p->period_ns[p->n] = cfg->verbs[i].every_ns;
        p->k[p->n] = p->stride > 1 ? cfg->split_rank : 0;
        p->n++;
    }
}

static size_t next(const struct periodic *p, int64_t *at)
{
    size_t best = 0;
    *at = NEVER;
    for (size_t i = 0; i < p->n; i++) {
        int64_t t = p->t0_ns + (int64_t)p->k[i] * p->period_ns[i];
        if (t < *at) {
            *at = t;
            best = i;
        }
    }
    return best;
}

int64_t periodic_peek(const struct periodic *p, int *verb)
{
    int64_t at;
    size_t i = next(p, &at);
    if (verb && p->n)
        *verb = p->verb[i];
    return at;
}

int64_t periodic_take(struct periodic *p, int *verb)
{
    int64_t at;
    size_t i = next(p, &at);
    if (!p->n)
        return at;
    *verb = p->verb[i];
    p->k[i] += p->stride;
    return at;
}
