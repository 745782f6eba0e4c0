/* sched: intended send times of an open-loop run.
 *
 * Times come from absolute arithmetic, t0 + k/R for a constant rate or a
 * seeded sum of exponential gaps for Poisson arrivals, never from summed
 * sleeps, so timer jitter never accumulates into the rate. The schedule is a
 * generator: the engine draws the next intended time when it can send, and
 * what has not been drawn yet is the backlog, so a queue of late requests
 * costs no memory at all.
 *
 * With --stages the rate varies: request k is due when the schedule's
 * cumulative count N(t), the integral of the rate, reaches k (constant
 * arrivals), or reaches the k-th sum of unit-rate exponential gaps
 * (Poisson, by time rescaling), N inverted stage by stage in closed form:
 * a ramp's arrivals follow it exactly, whatever its length. */
#ifndef RPCBENCH_SCHED_H
#define RPCBENCH_SCHED_H

#include <stdint.h>

#include "model/run_result.h" /* enum arrival: part of the run's configuration */

struct sched {
    enum arrival arrival;
    double rate;      /* per second, > 0 */
    int64_t t0_ns;    /* when request 0 is due */
    uint64_t k;       /* index of the next request (in the whole schedule) */
    uint64_t stride;  /* split: every stride-th request is this one's (1: all) */
    int64_t next_ns;  /* its intended time */
    double poisson_s; /* Poisson: the next time, as seconds since t0 */
    uint64_t rng;     /* Poisson: splitmix64 state; with stages poisson_s
                         is the next arrival's unit-rate time (a count) */
    /* Stages (NULL: the constant rate above): borrowed, the caller's, and
     * led by a hold at the first stage's starting rate for lead_ns (the
     * warmup). seg is the segment the next arrival falls in (0: the lead,
     * i: stage i - 1), starting seg_ns after t0 with seg_count requests
     * before it: arrivals only move forward, so finding one is O(1). */
    const struct run_stage *stages;
    size_t nstages;
    int64_t lead_ns;
    size_t seg;
    int64_t seg_ns;
    double seg_count;
};

/* An intended time past every stage: never due (the window is over). */
#define SCHED_NEVER (INT64_MAX / 4)

/* Readies s (the caller's; nothing is allocated, nothing to free): rate
 * requests per second (> 0) from t0_ns, Poisson gaps drawn from seed. */
void sched_init(struct sched *s, enum arrival arrival, double rate, int64_t t0_ns, uint64_t seed);
/* Readies s for stages st[0..n) (1 <= n <= RUN_MAX_STAGES; borrowed: they
 * must outlive s), led from t0_ns by a hold of lead_ns at st[0].from, so
 * that stage 1 starts at t0_ns + lead_ns. Requests past the last stage
 * are due at SCHED_NEVER. Nothing is allocated. */
void sched_init_stages(struct sched *s, enum arrival arrival, const struct run_stage *st,
                       size_t n, int64_t lead_ns, int64_t t0_ns, uint64_t seed);
/* @return the mean rate (per second) the whole schedule (every rank's
 * share) offers over [a_ns, b_ns): the count N(b) - N(a) over its length;
 * the constant rate itself without stages. */
double sched_offered(const struct sched *s, int64_t a_ns, int64_t b_ns);
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
