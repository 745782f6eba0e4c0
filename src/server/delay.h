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

/* --workers N: the delay is served by N workers, first come first served:
 * a call waits for the first free worker, then holds it for its delay. As
 * each call's delay is known on arrival, the queue needs no list: each
 * worker keeps the time it is free again, and a call takes the one free
 * soonest. Owned by its user; delay_workers_free releases it. */
struct delay_workers {
    double *free_at; /* [n], seconds on the caller's clock */
    int n;           /* 0: no workers, delays run concurrently */
};

/* Makes n workers (n 0: none). @return 0, or -1 when memory cannot be had. */
int delay_workers_init(struct delay_workers *w, int n);
void delay_workers_free(struct delay_workers *w);
/* A call arriving at now (s) that needs delay_ns of a worker.
 * @return how long after now it is done, in ns (delay_ns without workers). */
int64_t delay_workers_take(struct delay_workers *w, double now, int64_t delay_ns);

#endif
