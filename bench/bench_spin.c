/* bench_spin: a fixed amount of work, measured in its own CPU time, for
 * bench part P: what one perf sample costs the process it interrupts.
 *
 * A server's CPU per call mixes the sampling's cost with everything that
 * drifts between calls. A loop of fixed work does not drift: the work it
 * gets done per second of its own CPU falls by exactly the share that
 * perf's interrupts take from it (they run on its CPU time). bench.py
 * turns perf's sampling on and off while this runs and compares.
 *
 * usage: bench_spin SECONDS
 * prints, every 0.25 s of its CPU: "<CLOCK_MONOTONIC s> <work units>" */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SLICE_S 0.25
#define UNIT 10000 /* additions per work unit */

static double seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    double total = argc > 1 ? atof(argv[1]) : 0;
    if (total <= 0 || total > 3600) {
        fprintf(stderr, "usage: bench_spin SECONDS (1..3600)\n");
        return 2;
    }
    volatile unsigned long sink = 0;
    double end = seconds(CLOCK_MONOTONIC) + total;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (seconds(CLOCK_MONOTONIC) < end) {
        double from = seconds(CLOCK_THREAD_CPUTIME_ID);
        unsigned long units = 0;
        while (seconds(CLOCK_THREAD_CPUTIME_ID) - from < SLICE_S) {
            for (unsigned long i = 0; i < UNIT; i++)
                sink += i;
            units++;
        }
        printf("%.3f %lu\n", seconds(CLOCK_MONOTONIC), units);
    }
    return 0;
}
