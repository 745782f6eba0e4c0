/* rng: splitmix64, the one seeded generator of rpcbench (Poisson arrivals,
 * simulated VMs, service delays): small, good enough, and the same on every
 * libc, which rand() is not. */
#ifndef RPCBENCH_RNG_H
#define RPCBENCH_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double rng_u01(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
