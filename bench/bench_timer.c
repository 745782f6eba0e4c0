/* bench_timer: the floor under rpcbench's send lag on this machine, now.
 *
 * Paces nothing but itself the way the engine does: absolute timerfd
 * deadlines start + k/rate, a blocking wait, and on each wake every slot
 * that is due counts as "sent" with lag = now - intended. No sockets, no
 * parsing: what lag it sees is the kernel's timer and the scheduler's
 * (another process on the core), which no client can beat. bench.py runs
 * it interleaved with rpcbench at the same rates on the same core.
 *
 * usage: bench_timer RATE SECONDS   prints: sends p50_us p99_us max_us */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "base/clock.h"

#define MAX_SENDS 2000000

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t slot(int64_t t0, double rate, int64_t k)
{
    return t0 + (int64_t)llround((double)k * (double)NS_PER_S / rate);
}

int main(int argc, char **argv)
{
    double rate = argc > 2 ? atof(argv[1]) : 0;
    double secs = argc > 2 ? atof(argv[2]) : 0;
    if (rate <= 0 || secs <= 0 || rate * secs > MAX_SENDS) {
        fprintf(stderr, "usage: bench_timer RATE SECONDS (rate*seconds <= %d)\n", MAX_SENDS);
        return 2;
    }
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    int64_t n = (int64_t)(rate * secs);
    int64_t *lag = malloc((size_t)n * sizeof *lag);
    if (fd < 0 || !lag) {
        perror("bench_timer");
        return 1;
    }
    int64_t t0 = clock_now_ns(), k = 0;
    while (k < n) {
        int64_t at = slot(t0, rate, k);
        struct itimerspec its = {.it_value = {at / NS_PER_S, at % NS_PER_S}};
        uint64_t exp;
        if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) < 0 ||
            (read(fd, &exp, sizeof exp) < 0 && errno != EINTR)) {
            perror("bench_timer");
            return 1;
        }
        int64_t now = clock_now_ns();
        while (k < n && slot(t0, rate, k) <= now) {
            lag[k] = now - slot(t0, rate, k);
            k++;
        }
    }
    qsort(lag, (size_t)n, sizeof *lag, cmp_i64);
    printf("%lld %.1f %.1f %.1f\n", (long long)n, (double)lag[n / 2] / 1e3,
           (double)lag[(int64_t)((double)n * 0.99)] / 1e3, (double)lag[n - 1] / 1e3);
    free(lag);
    close(fd);
    return 0;
}
