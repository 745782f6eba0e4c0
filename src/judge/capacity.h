/* capacity: the rate search of `rpcbench sweep --find-max`, as pure logic
 * over the probes made so far (no running, no clock), so it is tested on
 * its own (tests/test_capacity.c).
 *
 * From --rate-min, double the rate until a probe breaks the condition (never
 * above --rate-max); then bisect between the highest good rate below the
 * lowest bad one and that bad rate, until (bad - good) / good is within the
 * resolution. A noisy history (a pass above a failure) is read
 * conservatively: the lowest failure bounds the capacity, and only passes
 * below it count. */
#ifndef RPCBENCH_CAPACITY_H
#define RPCBENCH_CAPACITY_H

#include <stddef.h>

#include "model/sweep.h"

/* The search's bounds: rate_min > 0, rate_max >= rate_min, resolution > 0
 * (a fraction: 0.05 for 5%). */
struct capacity_bounds {
    double rate_min, rate_max, resolution;
};

/* What the history says so far. good and bad are -1 when there is none. */
struct capacity_state {
    double good;             /* highest passing rate below bad */
    double bad;              /* lowest failing rate */
    int done;                /* no more probes needed: outcome holds */
    enum capacity_outcome outcome; /* FOUND, MIN_BREAKS or MAX_HOLDS once done */
    double next;             /* the rate to probe next when !done */
};

/* Judges the n probes so far (rates[i] tried, pass[i] nonzero when the
 * condition held; both only read, NULL when n is 0) under b into *st.
 * The first probe is rate_min. */
void capacity_step(const struct capacity_bounds *b, const double *rates, const int *pass,
                   size_t n, struct capacity_state *st);

#endif
