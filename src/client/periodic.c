/* periodic: the fixed-period calls' intended send times (periodic.h). A
 * handful of calls: a linear scan finds the next one. */
#include "client/periodic.h"

#include <string.h>

#define NEVER (INT64_MAX / 4)

void periodic_init(struct periodic *p, const struct run_config *cfg, int64_t t0_ns, int split)
{
    memset(p, 0, sizeof *p);
    p->t0_ns = t0_ns;
    p->stride = split && cfg->split_ranks > 1 ? cfg->split_ranks : 1;
    for (size_t i = 0; i < cfg->nverbs; i++) {
        if (!cfg->verbs[i].every_ns)
            continue;
        p->verb[p->n] = (int)i;
        p->period_ns[p->n] = cfg->verbs[i].every_ns;
        p->k[p->n] = p->stride > 1 ? cfg->split_rank : 0;
        p->n++;
    }
}

int64_t periodic_longest(const struct run_config *cfg, int *all)
{
    int64_t longest = 0;
    size_t n = 0;
    for (size_t i = 0; i < cfg->nverbs; i++)
        if (cfg->verbs[i].every_ns) {
            n++;
            if (cfg->verbs[i].every_ns > longest)
                longest = cfg->verbs[i].every_ns;
        }
    if (all)
        *all = cfg->nverbs > 0 && n == cfg->nverbs;
    return longest;
}

double periodic_rate(const struct run_config *cfg)
{
    double sum = 0;
    for (size_t i = 0; i < cfg->nverbs; i++)
        if (cfg->verbs[i].every_ns)
            sum += 1e9 / (double)cfg->verbs[i].every_ns;
    return sum;
}

/* The k >= 0 with t0 + k * period < t_ns: the sends intended before t. */
static int64_t sends_before(int64_t t0_ns, int64_t period_ns, int64_t t_ns)
{
    return t_ns <= t0_ns ? 0 : (t_ns - t0_ns + period_ns - 1) / period_ns;
}

double periodic_offered(const struct periodic *p, int64_t a_ns, int64_t b_ns)
{
    int64_t n = 0;
    if (b_ns <= a_ns)
        return 0;
    for (size_t i = 0; i < p->n; i++) /* whole sends: a 15 s period in a 10 s window is 0 or 1 */
        n += sends_before(p->t0_ns, p->period_ns[i], b_ns) -
             sends_before(p->t0_ns, p->period_ns[i], a_ns);
    return (double)n / ((double)(b_ns - a_ns) / 1e9);
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
