/* clock: monotonic nanoseconds, the one time base of a run; and the
 * wall clock, read once to date a run. */
#ifndef RPCBENCH_CLOCK_H
#define RPCBENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NS_PER_US 1000LL
#define NS_PER_MS 1000000LL
#define NS_PER_S 1000000000LL

/* @return CLOCK_MONOTONIC now, in ns (only differences mean anything). */
static inline int64_t clock_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* A CLOCK_REALTIME instant in ns (a kernel's packet stamp) on the
 * monotonic time base, read against both clocks now; never after now
 * (a wall clock stepped since cannot put it in the future). */
static inline int64_t clock_mono_of_real_ns(int64_t real_ns)
{
    struct timespec r, m;
    clock_gettime(CLOCK_REALTIME, &r);
    clock_gettime(CLOCK_MONOTONIC, &m);
    int64_t now = (int64_t)m.tv_sec * NS_PER_S + m.tv_nsec;
    int64_t t = real_ns - ((int64_t)r.tv_sec * NS_PER_S + r.tv_nsec) + now;
    return t < now ? t : now;
}

/* @return CLOCK_REALTIME now, in seconds since the epoch (microseconds and
 * better in the fraction): the wall-clock instant that lets runs of
 * separate processes, even hosts, line up. */
static inline double clock_realtime_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
