/* procstat: the /proc parsers on fixtures (tests/data/proc), the sampler
 * on two fixture snapshots of a whole /proc, then on real processes: this
 * one burning CPU, a pid that is gone, a `sleep` found by name and a child
 * burning half a core. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/clock.h"
#include "proc/sampler.h"
#include "base/units.h"
#include "proc/procstat_testing.h"
#include "proc/proctree_testing.h"

#define DATA "tests/data/proc/"

static char *slurp(const char *name)
{
    static char buf[4096];
    FILE *f = fopen(name, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void sleep_until(int64_t t_ns)
{
    struct timespec ts = {.tv_sec = t_ns / NS_PER_S, .tv_nsec = t_ns % NS_PER_S};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
        ;
}

static void sleep_ms(int ms)
{
    sleep_until(clock_now_ns() + ms * NS_PER_MS);
}

static void spin_until(int64_t t_ns)
{
    while (clock_now_ns() < t_ns)
        ;
}

/* ---- parsers -------------------------------------------------------------- */

static void test_parse_stat_normal(void **state)
{
    (void)state;
    struct proc_stat st;
    assert_int_equal(procstat_parse_stat(slurp(DATA "stat_normal"), &st), 0);
    assert_string_equal(st.comm, "vdsmd");
    assert_int_equal(st.state, 'S');
    assert_int_equal(st.utime, 1234);
    assert_int_equal(st.stime, 567);
    assert_int_equal(st.num_threads, 42);
    assert_int_equal(st.starttime, 98765);
}

static void test_parse_stat_weird_comm(void **state)
{
    (void)state;
    struct proc_stat st;
    assert_int_equal(procstat_parse_stat(slurp(DATA "stat_weird_comm"), &st), 0);
    assert_string_equal(st.comm, "(a) b)");
    assert_int_equal(st.state, 'R');
    assert_int_equal(st.utime, 10);
    assert_int_equal(st.stime, 20);
    assert_int_equal(st.num_threads, 3);
    const char *line = "7 (a) b) S 1 1 1 0 -1 0 0 0 0 0 5 6 0 0 20 0 9 0 77 0 0\n";
    assert_int_equal(procstat_parse_stat(line, &st), 0);
    assert_string_equal(st.comm, "a) b");
    assert_int_equal(st.utime, 5);
    assert_int_equal(st.num_threads, 9);
}

static void test_parse_stat_malformed(void **state)
{
    (void)state;
    struct proc_stat st;
    const char *bad[] = {"", "abc", "12", "12 (x)", "12 (x) S", "12 x) S 1 2 3",
                         ") 12 (x S 1", "12 (x) 5 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(procstat_parse_stat(bad[i], &st), -1);
    assert_int_equal(procstat_parse_stat(slurp(DATA "stat_truncated"), &st), -1);
    assert_int_equal(procstat_parse_stat(slurp(DATA "stat_no_close"), &st), -1);
    assert_int_equal(procstat_parse_stat(slurp(DATA "stat_junk_field"), &st), -1);
}

/* Every prefix of a good line, in a buffer of exactly its size so that
 * ASan catches any read past the end; those that stop before starttime
 * must be refused. */
static void test_parse_stat_prefixes(void **state)
{
    (void)state;
    char line[1024];
    struct proc_stat st;
    strcpy(line, slurp(DATA "stat_normal"));
    size_t need = (size_t)(strstr(line, " 98765") - line) + 2;
    for (size_t len = 0; len <= strlen(line); len++) {
        char *copy = malloc(len + 1);
        memcpy(copy, line, len);
        copy[len] = '\0';
        int rc = procstat_parse_stat(copy, &st);
        if (len < need)
            assert_int_equal(rc, -1);
        struct sys_times sys;
        double load[3];
        int64_t rss;
        procstat_parse_system(copy, &sys);
        procstat_parse_loadavg(copy, load);
        procstat_parse_statm(copy, 4, &rss);
        free(copy);
    }
}

/* Steal (the 8th number) is its own share: out of busy, inside total. */
static void test_parse_system(void **state)
{
    (void)state;
    struct sys_times t;
    assert_int_equal(procstat_parse_system(slurp(DATA "system_stat"), &t), 0);
    assert_int_equal(t.busy, 2943 + 0 + 2080 + 0 + 121);
    assert_int_equal(t.steal, 128);
    assert_int_equal(t.idle, 62119 + 532);
    assert_int_equal(t.total, t.busy + 128 + 62119 + 532);
    assert_int_equal(procstat_parse_system(slurp(DATA "system_stat_old"), &t), 0);
    assert_int_equal(t.busy, 155);
    assert_int_equal(t.steal, 0);
    assert_int_equal(t.total, 1155);
    /* seven numbers: a kernel without the steal column */
    t.steal = 99;
    assert_int_equal(procstat_parse_system("cpu  10 0 5 80 3 1 1\n", &t), 0);
    assert_int_equal(t.busy, 17);
    assert_int_equal(t.steal, 0);
    assert_int_equal(t.total, 100);
    assert_int_equal(t.ncpu, 0);
    /* guest and guest_nice are already in user; cores from the cpuN lines */
    assert_int_equal(procstat_parse_system("cpu  10 0 5 80 0 0 0 5 7 7\ncpu0 1 2 3 4\n"
                                           "cpu1 1 2 3 4\ncpufreq 1\nintr 5\n", &t), 0);
    assert_int_equal(t.busy, 15);
    assert_int_equal(t.total, 100);
    assert_int_equal(t.ncpu, 2);
    assert_int_equal(procstat_parse_system(slurp(DATA "system_stat_short"), &t), -1);
    assert_int_equal(procstat_parse_system("cpu0 1 2 3 4\n", &t), -1);
    assert_int_equal(procstat_parse_system("cpu  1 2 x 4\n", &t), -1);
    assert_int_equal(procstat_parse_system("", &t), -1);
}

static int near(double x, double want)
{
    return x > want - 0.01 && x < want + 0.01;
}

/* Busy is what idle and steal leave of the cores' wall-clock time: busy
 * jiffies come from ticks and miss short bursts (seen on this VM: 4 busy
 * jiffies counted for 2 s of a 24 %-busy 2-core machine), or come in
 * bursts (more jiffies than the wall clock holds). */
static void test_machine_pct(void **state)
{
    (void)state;
    struct sys_times a = {.busy = 1000, .idle = 5000, .steal = 10, .total = 6010, .ncpu = 2};
    struct sys_times b = a;
    double steal;
    /* 2 s, 2 cores, 100 Hz: 400 jiffies of wall clock; 300 idle, 4 stolen */
    b.busy += 4;
    b.idle += 300;
    b.steal += 4;
    b.total += 308;
    assert_true(near(procstat_machine_pct(&a, &b, 2 * NS_PER_S, 100, &steal), 24.0));
    assert_true(near(steal, 1.0));
    /* more jiffies than the wall clock: busy still from idle and steal */
    b.busy = a.busy + 200;
    b.total = a.total + 504;
    assert_true(near(procstat_machine_pct(&a, &b, 2 * NS_PER_S, 100, &steal), 24.0));
    /* idle beyond the wall clock (a late reading): 0 % busy, not negative */
    b.idle = a.idle + 450;
    assert_true(procstat_machine_pct(&a, &b, 2 * NS_PER_S, 100, &steal) == 0);
    /* no core count (fixtures): the jiffies are the whole */
    a.ncpu = b.ncpu = 0;
    b.busy = a.busy + 500;
    b.idle = a.idle + 480;
    b.steal = a.steal + 20;
    b.total = a.total + 1000;
    assert_true(near(procstat_machine_pct(&a, &b, NS_PER_S, 100, &steal), 50.0));
    assert_true(near(steal, 2.0));
    /* counters going backwards, or no time: unknown */
    assert_false(fig_known(procstat_machine_pct(&b, &a, NS_PER_S, 100, &steal)));
    assert_false(fig_known(steal));
    assert_false(fig_known(procstat_machine_pct(&a, &a, NS_PER_S, 100, &steal)));
}

static void test_parse_loadavg_statm(void **state)
{
    (void)state;
    double load[3];
    int64_t rss;
    assert_int_equal(procstat_parse_loadavg(slurp(DATA "loadavg"), load), 0);
    assert_true(load[0] == 0.11 && load[1] == 0.52 && load[2] == 1.05);
    assert_int_equal(procstat_parse_loadavg("0.1 0.2\n", load), -1);
    assert_int_equal(procstat_parse_loadavg("0.1 nan 0.3\n", load), -1);
    assert_int_equal(procstat_parse_statm(slurp(DATA "statm"), 4, &rss), 0);
    assert_int_equal(rss, 426 * 4);
    assert_int_equal(procstat_parse_statm("765\n", 4, &rss), -1);
    assert_int_equal(procstat_parse_statm("1 99999999999999999999 3\n", 4, &rss), -1);
    assert_int_equal(procstat_parse_statm("1 9223372036854775807 3\n", 4, &rss), -1);
    assert_int_equal(procstat_parse_statm("1 2 3\n", 0, &rss), -1);
}

/* ---- the sampler on fixture snapshots --------------------------------- */

static void fixture_sampler(struct sampler *s, const pid_t *pids, size_t n, const char *name)
{
    char err[ERR_LEN];
    assert_int_equal(sampler_init(s, pids, n, name, err), 0);
    s->ticks_per_sec = 100;
    s->page_kb = 4;
    strcpy(s->root, DATA "t1");
    sampler_start(s, 0);
    strcpy(s->root, DATA "t2");
}

static int has_pid(const struct sampler *s, pid_t pid)
{
    for (size_t i = 0; i < s->npids; i++)
        if (s->pids[i] == pid)
            return 1;
    return 0;
}

/* vdsmfake is 5000100 (by comm) and its child 5000200 (by argv[0], comm
 * python3): one tree. The child restarts as 5000201: only 5000100's 50
 * ticks count. */
static void test_sampler_fixture_by_name(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    fixture_sampler(&s, NULL, 0, "vdsmfake");
    assert_int_equal(s.vanished, 0);
    sampler_sample(&s, NS_PER_S, &p);
    assert_int_equal(s.npids, 2);
    assert_true(has_pid(&s, 5000100) && has_pid(&s, 5000201));
    assert_int_equal(p.t_ns, NS_PER_S);
    assert_int_equal(p.server_alive, 2);
    assert_true(s.vanished);
    assert_true(p.server_pct > 49.99 && p.server_pct < 50.01);
    assert_true(p.server_rss_kb == 2 * 250 * 4);
    assert_int_equal(p.server_threads, 4);
    assert_true(p.client_pct > 49.99 && p.client_pct < 50.01);
    /* t1 -> t2: 1000 jiffies, 500 busy, 20 stolen */
    assert_true(p.machine_busy_pct > 49.99 && p.machine_busy_pct < 50.01);
    assert_true(p.machine_steal_pct > 1.99 && p.machine_steal_pct < 2.01);
    assert_true(sampler_steal_pct(&s) > 1.99 && sampler_steal_pct(&s) < 2.01);
    assert_true(p.loadavg1 == 0.75);
    assert_true(sampler_server_cpu_ms(&s) > 499.9 && sampler_server_cpu_ms(&s) < 500.1);
}

/* By pid: 5000300 goes backwards and 5000400 wraps; both count as 0. */
static void test_sampler_fixture_backwards(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    pid_t pids[] = {5000100, 5000300, 5000400};
    fixture_sampler(&s, pids, 3, NULL);
    sampler_sample(&s, NS_PER_S / 2, &p);
    assert_int_equal(p.server_alive, 3);
    assert_false(s.vanished);
    assert_true(p.server_pct > 99.99 && p.server_pct < 100.01);
    /* a second sample with nothing changed: all deltas 0 */
    sampler_sample(&s, NS_PER_S, &p);
    assert_true(p.server_pct == 0.0 && p.client_pct == 0.0 && !fig_known(p.machine_busy_pct));
    assert_false(fig_known(p.machine_steal_pct));
    assert_true(sampler_server_cpu_ms(&s) > 499.9 && sampler_server_cpu_ms(&s) < 500.1);
    /* the window keeps the first interval's 20 of 1000 jiffies */
    assert_true(sampler_steal_pct(&s) > 1.99 && sampler_steal_pct(&s) < 2.01);
    /* a new start forgets them */
    sampler_start(&s, 2 * NS_PER_S);
    assert_false(fig_known(sampler_steal_pct(&s)));
}

static void test_sampler_fixture_gone(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    pid_t pids[] = {5000100, 5000200};
    fixture_sampler(&s, pids, 2, NULL);
    assert_false(s.vanished);
    sampler_sample(&s, NS_PER_S, &p);
    assert_true(s.vanished);
    assert_int_equal(p.server_alive, 1);
    assert_true(p.server_pct > 49.99 && p.server_pct < 50.01);
    /* a /proc with nothing in it: no crash, everything unknown */
    strcpy(s.root, DATA "nowhere");
    sampler_sample(&s, 2 * NS_PER_S, &p);
    assert_int_equal(p.server_alive, 0);
    assert_false(fig_known(p.server_pct) || fig_known(p.client_pct) ||
                 fig_known(p.machine_busy_pct));
    assert_false(fig_known(p.machine_steal_pct));
    assert_false(fig_known(p.loadavg1));
    assert_false(fig_known(p.server_rss_kb)); /* nothing read: no size, never 0 */
}

/* 5000500 is another process in t2 (new starttime): its ticks are not a
 * delta of the old one's, and the old one has vanished. */
static void test_sampler_fixture_pid_reused(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    pid_t pids[] = {5000100, 5000500};
    fixture_sampler(&s, pids, 2, NULL);
    sampler_sample(&s, NS_PER_S, &p);
    assert_int_equal(p.server_alive, 2);
    assert_true(s.vanished);
    assert_true(p.server_pct > 49.99 && p.server_pct < 50.01);
}

static void test_sampler_init_errors(void **state)
{
    (void)state;
    struct sampler s;
    char err[ERR_LEN] = "";
    pid_t pids[PROCSTAT_MAX_PIDS + 1] = {1};
    char long_name[100];
    memset(long_name, 'x', sizeof(long_name) - 1);
    long_name[sizeof(long_name) - 1] = '\0';
    assert_int_equal(sampler_init(&s, pids, PROCSTAT_MAX_PIDS + 1, NULL, err), -1);
    assert_non_null(strstr(err, "too many"));
    assert_int_equal(sampler_init(&s, pids, 1, "vdsm", err), -1);
    assert_int_equal(sampler_init(&s, NULL, 0, long_name, err), -1);
    pid_t zero = 0;
    assert_int_equal(sampler_init(&s, &zero, 1, NULL, err), -1);
    assert_int_equal(sampler_init(&s, NULL, 0, NULL, err), 0);
    assert_true(s.ticks_per_sec > 0 && s.page_kb > 0);
}

/* ---- the sampler on real processes ------------------------------------ */

static int64_t own_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* Client and machine only; this process spins for 300 ms. The client's
 * share must match the CPU this process had over the window, whatever a
 * busy machine left it. */
static void test_sampler_self_burn(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p = {0};
    char err[ERR_LEN];
    assert_int_equal(sampler_init(&s, NULL, 0, NULL, err), 0);
    int64_t t0 = clock_now_ns(), c0 = own_cpu_ns();
    sampler_start(&s, t0);
    spin_until(t0 + 300 * NS_PER_MS);
    int64_t t1 = clock_now_ns();
    sampler_sample(&s, t1, &p);
    double own = (double)(own_cpu_ns() - c0) / (double)(t1 - t0) * 100;
    print_message("self burn: sampler %.1f %%, own clock %.1f %%\n", p.client_pct, own);
    assert_true(own > 5); /* else the machine starved us: nothing was measured */
    assert_true(p.client_pct > own - 10 && p.client_pct < own + 10);
    assert_true(p.machine_busy_pct >= 0 && p.machine_busy_pct <= 100);
    assert_true(p.machine_steal_pct >= 0 && p.machine_steal_pct <= 100);
    assert_true(p.machine_busy_pct + p.machine_steal_pct <= 100.001);
    assert_true(sampler_steal_pct(&s) >= 0 && sampler_steal_pct(&s) <= 100);
    assert_true(p.loadavg1 >= 0);
    assert_int_equal(p.server_alive, 0);
    assert_false(fig_known(p.server_pct));
    assert_false(fig_known(p.server_rss_kb));
}

static void test_sampler_missing_pid(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    char err[ERR_LEN];
    pid_t never = 999999999; /* above the kernel's PID_MAX_LIMIT */
    assert_int_equal(sampler_init(&s, &never, 1, NULL, err), 0);
    sampler_start(&s, clock_now_ns());
    sampler_sample(&s, clock_now_ns() + NS_PER_MS, &p);
    assert_int_equal(p.server_alive, 0);
    assert_false(s.vanished); /* never there: not "vanished" */
    assert_false(fig_known(p.server_pct));
    assert_false(fig_known(sampler_server_cpu_ms(&s))); /* not measured, not 0 */
}

/* A child that sleeps 2 s, watched by s and sampled once: alive.
 * @return its pid. */
static pid_t watched_child(struct sampler *s, struct proc_point *p)
{
    char err[ERR_LEN];
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        sleep_ms(2000);
        _exit(0);
    }
    assert_int_equal(sampler_init(s, &child, 1, NULL, err), 0);
    sampler_start(s, clock_now_ns());
    sleep_ms(10);
    sampler_sample(s, clock_now_ns(), p);
    assert_int_equal(p->server_alive, 1);
    return child;
}

/* A child that exits between two samples: alive, then vanished. */
static void test_sampler_pid_exits(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    pid_t child = watched_child(&s, &p);
    assert_false(s.vanished);
    assert_true(p.server_pct >= 0 && p.server_threads == 1 && p.server_rss_kb > 0);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    sampler_sample(&s, clock_now_ns(), &p);
    assert_int_equal(p.server_alive, 0);
    assert_true(s.vanished);
}

/* A child killed and not yet reaped is a zombie: its /proc entry stays,
 * but it is not alive, and the sampler says it vanished. */
static void test_sampler_zombie_is_gone(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    pid_t child = watched_child(&s, &p);
    kill(child, SIGKILL);
    siginfo_t si;
    waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT); /* dead, not reaped */
    sampler_sample(&s, clock_now_ns(), &p);
    assert_int_equal(p.server_alive, 0);
    assert_int_equal(p.server_threads, 0);
    assert_true(s.vanished);
    waitpid(child, NULL, 0);
}

/* Resolving by our own name must not pick the sampling process. */
static void test_sampler_by_name_not_self(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_stat me;
    char err[ERR_LEN];
    assert_int_equal(procstat_read_pid(getpid(), &me), 0);
    assert_int_equal(sampler_init(&s, NULL, 0, me.comm, err), 0);
    sampler_start(&s, clock_now_ns());
    assert_false(has_pid(&s, getpid()));
}

/* Waits (bounded) until the child has exec'd: before that its comm is ours. */
static int wait_for_comm(pid_t pid, const char *comm)
{
    struct proc_stat st;
    for (int i = 0; i < 200; i++) {
        if (procstat_read_pid(pid, &st) == 0 && strcmp(st.comm, comm) == 0)
            return 0;
        sleep_ms(10);
    }
    return -1;
}

/* By a name no other process has (another `sleep` of the machine would
 * be a second tree, which the sampler refuses to guess among): a symlink
 * to sleep, whose name becomes the child's comm. */
static void test_sampler_by_name(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    char err[ERR_LEN], dir[] = "/tmp/rpcb-tpXXXXXX", link[64], name[16];
    assert_non_null(mkdtemp(dir));
    snprintf(name, sizeof name, "rpcbslp%d", (int)getpid() % 1000000);
    snprintf(link, sizeof link, "%s/%s", dir, name);
    assert_int_equal(symlink("/bin/sleep", link), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        execl(link, name, "5", (char *)NULL);
        _exit(127);
    }
    int found = wait_for_comm(child, name);
    unlink(link);
    rmdir(dir);
    assert_int_equal(sampler_init(&s, NULL, 0, name, err), 0);
    sampler_start(&s, clock_now_ns());
    int listed = has_pid(&s, child);
    sleep_ms(20);
    sampler_sample(&s, clock_now_ns(), &p);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    assert_int_equal(found, 0);
    assert_true(listed && has_pid(&s, child));
    assert_true(p.server_alive >= 1 && p.server_pct >= 0);
    assert_false(has_pid(&s, getpid()));
    sampler_sample(&s, clock_now_ns(), &p);
    assert_false(has_pid(&s, child));
    assert_true(s.vanished);
}

/* What users type: the executable, or an interpreter's script. */
static void test_proctree_matches(void **state)
{
    (void)state;
#define CMD(lit) lit, sizeof(lit)
    assert_true(proctree_cmd_matches("vdsmd", CMD("/usr/bin/python3\0/usr/share/vdsm/vdsmd"),
                                     "vdsmd"));
    assert_true(proctree_cmd_matches("python3", CMD("/usr/bin/python3\0-u\0/tmp/x/srv_xyz.py"),
                                     "srv_xyz.py"));
    assert_true(proctree_cmd_matches("python3", CMD("/usr/bin/python3\0/tmp/x/srv.py"),
                                     "python3"));
    assert_true(proctree_cmd_matches("python3", CMD("python3\0-X\0dev\0srv.py"), "srv.py"));
    assert_false(proctree_cmd_matches("python3", CMD("python3\0-X\0dev\0srv.py"), "dev"));
    assert_true(proctree_cmd_matches("python3", CMD("python3\0-m\0http.server"), "http.server"));
    assert_true(proctree_cmd_matches("java", CMD("java\0-jar\0/opt/app.jar"), "app.jar"));
    assert_true(proctree_cmd_matches("python3.11", CMD("/usr/bin/python3.11\0/opt/srv.py"),
                                     "/opt/srv.py"));
    /* not interpreters, or no script: an argument is not a name */
    assert_false(proctree_cmd_matches("vim", CMD("vim\0srv.py"), "srv.py"));
    assert_false(proctree_cmd_matches("python3", CMD("python3\0-c\0srv.py"), "srv.py"));
    assert_false(proctree_cmd_matches("python3", CMD("python3\0/tmp/srv.py"), "srv"));
    assert_false(proctree_cmd_matches("python3", "", 0, "python"));
#undef CMD
}

/* Matching processes in one tree are one server; in two, two. */
static void test_proctree_roots(void **state)
{
    (void)state;
    struct proctree_proc t[] = {
        {1, 0, 0},  {10, 1, 1},  {11, 10, 1}, /* a server and its worker */
        {12, 11, 0}, {20, 1, 1}, {30, 1, 0},  /* a helper; a stranger; other */
    };
    size_t n = sizeof t / sizeof t[0];
    pid_t roots[4], pids[8];
    assert_int_equal(proctree_roots(t, n, roots, 4), 2);
    assert_true(roots[0] == 10 && roots[1] == 20);
    assert_int_equal(proctree_members(t, n, 10, pids, 8), 3);
    assert_true(pids[0] == 10 && pids[1] == 11 && pids[2] == 12);
    assert_int_equal(proctree_members(t, n, 99, pids, 8), 0);
    t[4].match = 0; /* only one tree left */
    assert_int_equal(proctree_roots(t, n, roots, 4), 1);
    assert_true(roots[0] == 10 && proctree_is_marked(t, n, 11) && !proctree_is_marked(t, n, 12));
    struct proctree_proc loop[] = {{5, 6, 1}, {6, 5, 1}}; /* garbage: no hang */
    assert_int_equal(proctree_roots(loop, 2, roots, 4), 0);
}

/* The child burns 10 ms then sleeps 10 ms, on an absolute 20 ms grid so
 * sleep overshoot does not skew the duty cycle; it stops by itself. */
static void burn_half(int64_t total_ns)
{
    int64_t start = clock_now_ns();
    for (int64_t slice = start; slice < start + total_ns; slice += 20 * NS_PER_MS) {
        spin_until(slice + 10 * NS_PER_MS);
        sleep_until(slice + 20 * NS_PER_MS);
    }
}

/* utime + stime of pid from /proc/PID/stat, in ticks: the kernel's other
 * count, independent of the schedstat the sampler reads. */
static int64_t ticks_of(pid_t pid)
{
    char path[64];
    struct proc_stat st;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    assert_int_equal(procstat_parse_stat(slurp(path), &st), 0);
    return (int64_t)(st.utime + st.stime);
}

/* A child that aims at half a core for 4 s, sampled over 2 s: the share
 * must agree with its ticks over the same window (10 ms ticks over 2 s:
 * about 1 point; 10 allowed), whatever a busy machine left it. */
static void test_sampler_half_core(void **state)
{
    (void)state;
    struct sampler s;
    struct proc_point p;
    char err[ERR_LEN];
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        burn_half(4 * NS_PER_S);
        _exit(0);
    }
    assert_int_equal(sampler_init(&s, &child, 1, NULL, err), 0);
    int64_t t0 = clock_now_ns(), k0 = ticks_of(child);
    sampler_start(&s, t0);
    sleep_until(t0 + 2 * NS_PER_S);
    int64_t t1 = clock_now_ns(), k1 = ticks_of(child);
    sampler_sample(&s, t1, &p);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    double ticks_pct = (double)(k1 - k0) / (double)s.ticks_per_sec / ((double)(t1 - t0) / 1e9) * 100;
    print_message("half-core burner: sampler %.1f %%, ticks %.1f %%\n", p.server_pct, ticks_pct);
    assert_true(ticks_pct > 5); /* else the machine starved it: nothing was measured */
    assert_true(p.server_pct > ticks_pct - 10 && p.server_pct < ticks_pct + 10);
}

int main(void)
{
    if (access(DATA "stat_normal", R_OK) != 0) {
        fprintf(stderr, "test_procstat: no %s here; run from the repository root\n", DATA);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_stat_normal),
        cmocka_unit_test(test_parse_stat_weird_comm),
        cmocka_unit_test(test_parse_stat_malformed),
        cmocka_unit_test(test_parse_stat_prefixes),
        cmocka_unit_test(test_parse_system),
        cmocka_unit_test(test_machine_pct),
        cmocka_unit_test(test_parse_loadavg_statm),
        cmocka_unit_test(test_sampler_fixture_by_name),
        cmocka_unit_test(test_sampler_fixture_backwards),
        cmocka_unit_test(test_sampler_fixture_gone),
        cmocka_unit_test(test_sampler_fixture_pid_reused),
        cmocka_unit_test(test_sampler_init_errors),
        cmocka_unit_test(test_sampler_self_burn),
        cmocka_unit_test(test_sampler_missing_pid),
        cmocka_unit_test(test_sampler_pid_exits),
        cmocka_unit_test(test_sampler_zombie_is_gone),
        cmocka_unit_test(test_sampler_by_name_not_self),
        cmocka_unit_test(test_sampler_by_name),
        cmocka_unit_test(test_sampler_half_core),
        cmocka_unit_test(test_proctree_matches),
        cmocka_unit_test(test_proctree_roots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
