#include "client/sched.h"

#include <math.h>

#include "base/clock.h"
#include "base/rng.h"

/* Intended time of request k for a constant rate: computed from k, not by
 * adding 1/R k times, so rounding never drifts. */
static int64_t constant_time(const struct sched *s, uint64_t k)
{
    return s->t0_ns + (int64_t)llround((double)k * (double)NS_PER_S / s->rate);
}

static void advance(struct sched *s)
{
    if (s->arrival == ARRIVAL_CONSTANT) {
        s->next_ns = constant_time(s, s->k);
        return;
    }
    s->next_ns = s->t0_ns + (int64_t)llround(s->poisson_s * (double)NS_PER_S);
    /* Exponential gap with mean 1/R: -ln(1-U)/R, U in [0,1). */
    s->poisson_s += -log1p(-rng_u01(&s->rng)) / s->rate;
}

void sched_init(struct sched *s, enum arrival arrival, double rate, int64_t t0_ns, uint64_t seed)
{
    s->arrival = arrival;
    s->rate = rate;
    s->t0_ns = t0_ns;
    s->k = 0;
    s->stride = 1;
    s->rng = seed;
    /* The first Poisson arrival is one gap after t0, like every other. */
    s->poisson_s = arrival == ARRIVAL_POISSON ? -log1p(-rng_u01(&s->rng)) / rate : 0;
    advance(s);
}

/* Moves on n requests of the whole schedule. */
static void skip(struct sched *s, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        s->k++;
        advance(s);
    }
}

void sched_split(struct sched *s, unsigned ranks, unsigned rank)
{
    if (ranks <= 1)
        return;
    s->stride = ranks;
    skip(s, rank);
}

int64_t sched_take(struct sched *s)
{
    int64_t t = s->next_ns;
    skip(s, s->stride);
    return t;
}
