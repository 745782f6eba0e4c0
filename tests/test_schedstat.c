/* procstat's schedstat path: the server's CPU in nanoseconds, summed over
 * its threads as they come and go (fixtures th1 -> th2 in tests/data/proc),
 * the fallback to clock ticks, and this process on the live /proc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/clock.h"
#include "proc/sampler.h"
#include "base/units.h"

#define DATA "tests/data/proc/"

static void spin_until(int64_t t_ns)
{
    while (clock_now_ns() < t_ns)
        ;
}

static void test_parse_schedstat(void **state)
{
    (void)state;
    uint64_t ns = 7;
    assert_int_equal(procstat_parse_schedstat("123456789 2000 17\n", &ns), 0);
    assert_true(ns == 123456789);
    assert_int_equal(procstat_parse_schedstat("18446744073709551615 0 0", &ns), 0);
    assert_true(ns == UINT64_MAX);
    assert_int_equal(procstat_parse_schedstat("", &ns), -1);
    assert_int_equal(procstat_parse_schedstat("12 34\n", &ns), -1);
    assert_int_equal(procstat_parse_schedstat("12x 34 5\n", &ns), -1);
    assert_int_equal(procstat_parse_schedstat("garbage\n", &ns), -1);
    assert_int_equal(procstat_parse_schedstat("99999999999999999999999 1 1\n", &ns), -1);
}

static void test_threads_delta(void **state)
{
    (void)state;
    const struct procstat_thread a[] = {{10, 1000}, {11, 500}, {12, 200}};
    /* 10 ran 100, 11 exited (not negative), 12 was reused (counted new: 50), 13 is new */
    const struct procstat_thread b[] = {{10, 1100}, {12, 50}, {13, 30}};
    assert_true(procstat_threads_delta(a, 3, b, 3) == 180);
    /* the same threads listed in another order */
    const struct procstat_thread c[] = {{13, 30}, {12, 250}, {10, 1100}, {11, 500}};
    assert_true(procstat_threads_delta(a, 3, c, 4) == 30 + 50 + 100 + 0);
    /* every thread gone, or none before */
    assert_true(procstat_threads_delta(a, 3, NULL, 0) == 0);
    assert_true(procstat_threads_delta(NULL, 0, b, 3) == 1180);
    /* a plain sum of live threads would have gone from 1700 to 1180 */
}

static void thread_sampler(struct sampler *s, const pid_t *pids, size_t n)
{
    char err[ERR_LEN];
    assert_int_equal(sampler_init(s, pids, n, NULL, err), 0);
    s->ticks_per_sec = 100;
    s->page_kb = 4;
    strcpy(s->root, DATA "th1");
    sampler_start(s, 0);
    strcpy(s->root, DATA "th2");
}

/* 6000100's thread 6000101 exits, 6000102 is a reused tid, 6000103 is
 * born: the live threads ran 100 + 50 + 30 ms, a plain sum of their
 * schedstat would go back 520 ms, and the process's ticks say 1000 ms:
 * 6000101 ran 820 ms before it ended. Its time counts: 980 ms, the ticks
 * less the two ticks (utime and stime) they may have been truncated by. */
static void test_sampler_threads_come_and_go(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    pid_t pid = 6000100;
    thread_sampler(&s, &pid, 1);
    sampler_sample(&s, NS_PER_S, &p);
    assert_true(sampler_server_cpu_ms(&s) > 979.999 && sampler_server_cpu_ms(&s) < 980.001);
    assert_true(p.server_pct > 97.999 && p.server_pct < 98.001);
    assert_string_equal(sampler_cpu_source(&s), "schedstat");
    /* unchanged since: 0, never negative */
    sampler_sample(&s, 2 * NS_PER_S, &p);
    assert_true(p.server_pct == 0);
    assert_true(sampler_server_cpu_ms(&s) > 979.999 && sampler_server_cpu_ms(&s) < 980.001);
}

/* 6000200 has no task directory and 6000300 unreadable schedstat: their
 * ticks count (20 and 2 ticks), and the source says both were used. */
static void test_sampler_ticks_fallback(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    pid_t pids[] = {6000200, 6000300};
    thread_sampler(&s, pids, 2);
    sampler_sample(&s, NS_PER_S, &p);
    assert_true(sampler_server_cpu_ms(&s) > 219.999 && sampler_server_cpu_ms(&s) < 220.001);
    assert_string_equal(sampler_cpu_source(&s), "ticks");
    pid_t all[] = {6000100, 6000200};
    thread_sampler(&s, all, 2);
    sampler_sample(&s, NS_PER_S, &p);
    assert_true(sampler_server_cpu_ms(&s) > 1179.999 && sampler_server_cpu_ms(&s) < 1180.001);
    assert_string_equal(sampler_cpu_source(&s), "schedstat+ticks");
    /* nothing read: no source */
    assert_int_equal(sampler_init(&s, NULL, 0, NULL, (char[ERR_LEN]){0}), 0);
    sampler_start(&s, 0);
    assert_string_equal(sampler_cpu_source(&s), "");
}

/* A sampler of this process on the live /proc; skips the test on a
 * kernel without schedstat. */
static void self_sampler(struct sampler *s)
{
    char err[ERR_LEN], path[64];
    pid_t self = getpid();
    snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", (int)self, (int)self);
    if (access(path, R_OK) != 0)
        skip();
    assert_int_equal(sampler_init(s, &self, 1, NULL, err), 0);
}

/* This process on the live /proc: 50 ms of spinning is 50 ms, from
 * schedstat when the kernel has it. */
static void test_sampler_self_schedstat(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    self_sampler(&s);
    int64_t t0 = clock_now_ns();
    sampler_start(&s, t0);
    spin_until(t0 + 50 * NS_PER_MS);
    sampler_sample(&s, clock_now_ns(), &p);
    assert_string_equal(sampler_cpu_source(&s), "schedstat");
    /* a busy machine may take some of it away; never more than the wall time */
    double ms = sampler_server_cpu_ms(&s);
    assert_true(ms > 5 && ms < (double)(clock_now_ns() - t0) / 1e6 + 1);
    assert_true(p.client_pct > 5);
}

static void *spin_200ms(void *arg)
{
    (void)arg;
    struct timespec ts;
    do
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    while (ts.tv_sec == 0 && ts.tv_nsec < 200 * NS_PER_MS);
    return NULL;
}

/* A thread that spins 200 ms of CPU and ends between two samples (a
 * thread-per-request server's): its time counts, though its schedstat is
 * gone by the second sample (the live threads' sum alone read ~0). */
static void test_sampler_counts_an_ended_thread(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    self_sampler(&s);
    sampler_start(&s, clock_now_ns());
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, spin_200ms, NULL), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    sampler_sample(&s, clock_now_ns(), &p);
    double ms = sampler_server_cpu_ms(&s);
    if (!(ms > 150))
        print_error("counted %.3f ms\n", ms);
    assert_true(ms > 150); /* 200 ms, less up to 4 ticks of truncation */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_schedstat),
        cmocka_unit_test(test_threads_delta),
        cmocka_unit_test(test_sampler_threads_come_and_go),
        cmocka_unit_test(test_sampler_ticks_fallback),
        cmocka_unit_test(test_sampler_self_schedstat),
        cmocka_unit_test(test_sampler_counts_an_ended_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
