/* delay: the service delay of `rpcbench serve --delay SPEC`.
 *
 * SPEC is "5ms" (fixed), "uniform:1ms:10ms" (uniform in [lo, hi]) or
 * "exp:5ms" (exponential with that mean). Samples come from a seeded
 * PRNG so a run is reproducible. */
#ifndef RPCBENCH_DELAY_H
#define RPCBENCH_DELAY_H

#include <stdint.h>

enum delay_kind { DELAY_NONE, DELAY_FIXED, DELAY_UNIFORM, DELAY_EXP };

/* Plain data, owned by its user; nothing to free. */
struct delay {
    enum delay_kind kind;
    int64_t a_ns; /* fixed value, uniform low, or exponential mean */
    int64_t b_ns; /* uniform high */
    uint64_t rng;
};

/* Parses spec (borrowed) into *d, seeding its PRNG with seed.
 * @return 0, or -1 with err (caller's, ERR_LEN bytes) naming the bad text. */
int delay_parse(const char *spec, uint64_t seed, struct delay *d, char *err);
/* Draws the next delay, advancing d's PRNG.
 * @return the delay in ns, >= 0 (0 for DELAY_NONE). */
int64_t delay_next(struct delay *d);

#endif
