/* sched: intended send times of an open-loop run.
 *
 * Times come from absolute arithmetic, t0 + k/R for a constant rate or a
 * seeded sum of exponential gaps for Poisson arrivals, never from summed
 * sleeps, so timer jitter never accumulates into the rate. The schedule is a
 * generator: the engine draws the next intended time when it can send, and
 * what has not been drawn yet is the backlog, so a queue of late requests
 * costs no memory at all. */
#ifndef RPCBENCH_SCHED_H
#define RPCBENCH_SCHED_H

#include <stdint.h>

#include "model/result.h" /* enum arrival: part of the run's configuration */

struct sched {
    enum arrival arrival;
    double rate;      /* per second, > 0 */
    int64_t t0_ns;    /* when request 0 is due */
    uint64_t k;       /* index of the next request (in the whole schedule) */
    uint64_t stride;  /* split: every stride-th request is this one's (1: all) */
    int64_t next_ns;  /* its intended time */
    double poisson_s; /* Poisson: the next time, as seconds since t0 */
    uint64_t rng;     /* Poisson: splitmix64 state */
};

/* Readies s (the caller's; nothing is allocated, nothing to free): rate
 * requests per second (> 0) from t0_ns, Poisson gaps drawn from seed. */
void sched_init(struct sched *s, enum arrival arrival, double rate, int64_t t0_ns, uint64_t seed);
/* Splits the schedule s (fresh from sched_init) among ranks: s keeps the
 * requests k * ranks + rank (0 <= rank < ranks), the rest belongs to the
 * others, so the ranks' union is the single schedule exactly (Poisson: the
 * same seeded arrivals, each rank drawing all and keeping its own). */
void sched_split(struct sched *s, unsigned ranks, unsigned rank);
/* @return the intended time of the next request (not consumed). */
static inline int64_t sched_peek(const struct sched *s) { return s->next_ns; }
/* Consumes the next request. @return its intended time. */
int64_t sched_take(struct sched *s);

#endif
