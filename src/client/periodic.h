/* periodic: the schedule of a workload's calls that have their own period
 * ("every": "15s"), apart from the weighted mix that shares --rate.
 *
 * Call i's k-th send is due at t0 + k * period, from absolute time as the
 * mix's schedule is (never from summed sleeps), so its latency counts from
 * that intended time. Under MPI the sends are split as the mix's are: a
 * rank keeps the k-th send of each call when k % ranks == rank. A fleet
 * of hosts can give each its own (a struct periodic per host, its own t0). */
#ifndef RPCBENCH_PERIODIC_H
#define RPCBENCH_PERIODIC_H

#include <stdint.h>

#include "model/run_result.h"

struct periodic {
    size_t n;                      /* calls with a period (0: none) */
    int verb[RUN_MAX_VERBS];       /* their index in the run's verbs */
    int64_t period_ns[RUN_MAX_VERBS];
    uint64_t k[RUN_MAX_VERBS];     /* index of each one's next send */
    int64_t t0_ns;
    unsigned stride;               /* ranks (1: all sends are this process's) */
};

/* Readies p (the caller's; nothing allocated) with the verbs of cfg that
 * have every_ns, first due at t0_ns, split among ranks (k % ranks ==
 * rank) when split is 1 as cfg says; a fleet's lanes are dealt out to
 * the ranks whole instead (split 0). */
void periodic_init(struct periodic *p, const struct run_config *cfg, int64_t t0_ns, int split);
/* @return the longest period among cfg's calls (ns), 0 when none has
 * one; *all (may be NULL) 1 when every call has its own (no mix). */
int64_t periodic_longest(const struct run_config *cfg, int *all);
/* @return the calls with their own period's rate together (per second,
 * one target's; 0 when none has one). */
double periodic_rate(const struct run_config *cfg);
/* @return the rate p's calls offer over [a_ns, b_ns) (per second; its
 * sends intended there, every rank's, as sched_offered counts), 0 for an
 * empty span. */
double periodic_offered(const struct periodic *p, int64_t a_ns, int64_t b_ns);
/* @return the intended time of the next periodic send, INT64_MAX / 4 (never)
 * when there is none; *verb (may be NULL) its verb. Not consumed. */
int64_t periodic_peek(const struct periodic *p, int *verb);
/* Consumes the next send. @return its intended time; *verb its verb. */
int64_t periodic_take(struct periodic *p, int *verb);

#endif
