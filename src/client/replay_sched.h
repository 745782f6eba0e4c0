/* replay_sched: the intended send times of one recorded connection's
 * calls (workload/replay_file.h), for `run --replay`: call i of round k is
 * due at t0 + (t_i + k * period) / speed, from absolute time as sched.h's
 * are, so its latency counts from the time it was recorded at. Without
 * loop there is one round. Nothing is allocated: the calls are the
 * recording's, borrowed. */
#ifndef RPCBENCH_REPLAY_SCHED_H
#define RPCBENCH_REPLAY_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "workload/replay_file.h"

struct replay_sched {
    const struct rec_call *c; /* borrowed: n calls by time */
    size_t n, i;              /* the next one is c[i] of round */
    uint64_t round;
    int64_t t0_ns, period_ns; /* period: the recording's round, unscaled */
    double speed;             /* > 0 */
    int loop;
};

/* Readies s for calls c[0..n) from t0_ns. */
void replay_sched_init(struct replay_sched *s, const struct rec_call *c, size_t n, int64_t t0_ns,
                       int64_t period_ns, double speed, int loop);
/* @return the intended time of the next call (INT64_MAX / 4: none left);
 * *verb (may be NULL) its call. Not consumed. */
int64_t replay_sched_peek(const struct replay_sched *s, int *verb);
/* Consumes the next call. @return its intended time; *verb its call. */
int64_t replay_sched_take(struct replay_sched *s, int *verb);
/* @return how many calls of s are intended in [a_ns, b_ns) (O(log n)). */
int64_t replay_sched_count(const struct replay_sched *s, int64_t a_ns, int64_t b_ns);

#endif
