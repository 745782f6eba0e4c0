/* figure: the one in-memory meaning of "unknown" for a measured figure
 * (a CPU %, a CPU time, a memory size, a load, a rate of steal): NaN.
 *
 * A figure that could not be measured (no server watched, a process not
 * readable, a first sample with nothing to difference against) is
 * FIG_UNKNOWN, and every reader asks fig_known before using it: a writer
 * prints it as null (JSON), empty (CSV) or n/a (text, HTML), never as a
 * number, and a verdict on it fails saying it is unknown. NaN, unlike a
 * -1 or a 0, cannot be mistaken for a reading nor pass a comparison: any
 * test of it is false.
 *
 * Older writers used other markers: -1 (the /proc sampler, the agent's
 * wire, saved results) and 0 for a memory size. Those markers live on only
 * where bytes cross a version boundary (a saved file, the agent's lines),
 * and are turned into FIG_UNKNOWN there, by fig_from_marker. Counts (of
 * requests, of threads) are no figures: they stay integers. */
#ifndef RPCBENCH_FIGURE_H
#define RPCBENCH_FIGURE_H

#include <math.h>

#define FIG_UNKNOWN ((double)NAN)

/* @return 1 when x is a measured figure, 0 when it is unknown. */
static inline int fig_known(double x)
{
    return !isnan(x);
}

/* A figure that is never negative, as an older writer or the agent's wire
 * gives it, where -1 (any negative) said unknown.
 * @return x, or FIG_UNKNOWN when x is negative or NaN. */
static inline double fig_from_marker(double x)
{
    return x >= 0 ? x : FIG_UNKNOWN;
}

/* A server's resident memory (kB) as an older writer gives it, where 0
 * (or -1) said unknown: a live process always has resident pages.
 * @return x, or FIG_UNKNOWN when x is not above 0. */
static inline double fig_rss_from_marker(double x)
{
    return x > 0 ? x : FIG_UNKNOWN;
}

#endif
