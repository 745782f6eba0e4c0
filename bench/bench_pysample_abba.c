/* bench_pysample_abba: the Python sampler (profile/pysample.h) turned on
 * and off in ABBA blocks on a running CPython server, for
 * bench/bench_pysample.py --abba: what sampling adds to the server's CPU
 * per call within one run of a fixed-rate load (between whole runs the
 * server's CPU per call drifts by as much as the effect). Ported from
 * branch py37's bench_pysampler.
 *
 * usage: bench_pysample_abba PID HZ SECONDS PHASE_S
 * prints one line per phase, "on|off <server CPU ns in it> <phase s>",
 * and at the end "sampler_cpu_ms <its own CPU in the on phases>". The
 * sampler is started before and stopped after each on phase, outside the
 * phase's figure, so its start (reading the ELF) is in none. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "profile/pysample.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* @return the process's CPU ns so far (its CPU clock counts every thread,
 * ended ones too), or 0. */
static unsigned long long cpu_ns(pid_t pid)
{
    clockid_t clk;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &clk) || clock_gettime(clk, &ts))
        return 0;
    return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* One phase: sampled (on) or not. @return 0, or -1 (the sampler failed). */
static int phase(pid_t pid, int hz, int on, double secs, const char *rec, double *sampler_ms)
{
    struct pysample *s = NULL;
    char err[ERR_LEN], version[16];
    if (on && !(s = pysample_start(&pid, 1, hz, rec, version, err))) {
        fprintf(stderr, "bench_pysample_abba: %s\n", err);
        return -1;
    }
    unsigned long long c0 = cpu_ns(pid);
    double t0 = now_s();
    sleep_s(secs);
    unsigned long long c1 = cpu_ns(pid);
    double t1 = now_s(), ms = 0;
    if (on && pysample_stop(s, &ms, err) == 0)
        *sampler_ms += ms;
    pysample_free(s);
    printf("%s %llu %.6f\n", on ? "on" : "off", c1 - c0, t1 - t0);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: bench_pysample_abba PID HZ SECONDS PHASE_S\n");
        return 2;
    }
    pid_t pid = (pid_t)atoi(argv[1]);
    int hz = atoi(argv[2]);
    double total = atof(argv[3]), ph = atof(argv[4]), sampler_ms = 0;
    char rec[] = "/tmp/bench_pysample_abba.XXXXXX";
    int fd = mkstemp(rec);
    if (fd < 0) {
        perror("bench_pysample_abba: mkstemp");
        return 1;
    }
    close(fd);
    static const int abba[] = {1, 0, 0, 1};
    int rc = 0;
    for (double t = 0; rc == 0 && t + 4 * ph <= total;)
        for (int i = 0; rc == 0 && i < 4; i++, t += ph)
            rc = phase(pid, hz, abba[i], ph, rec, &sampler_ms) ? 1 : 0;
    unlink(rec);
    printf("sampler_cpu_ms %.3f\n", sampler_ms);
    return rc;
}
