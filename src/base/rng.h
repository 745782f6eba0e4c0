/* rng: splitmix64, the one seeded generator of rpcbench (Poisson arrivals,
 * simulated VMs, service delays): small, good enough, and the same on every
 * libc, which rand() is not. */
#ifndef RPCBENCH_RNG_H
#define RPCBENCH_RNG_H

#include <stdint.h>

/* The state is the caller's: seed it with any value, one per stream.
 * @return the next 64 random bits, advancing *state. */
static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* @return a uniform double in [0, 1) (53 bits), advancing *state. */
static inline double rng_u01(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
