/* sampler: the server's and the client's CPU, memory and the machine's
 * load on the run's interval grid, from /proc (procstat.h reads it). It
 * keeps the previous reading of each watched pid so that a server that
 * restarts, forks or exits between two samples only ever contributes
 * deltas of processes seen in both (never a negative one). */
#include "proc/sampler.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"

/* Replaces s->pids with the one tree called s->name (proctree.h): the
 * tree watched so far while its head is still called so, else the only
 * tree there is (a restarted server); none while several are. */
static void resolve_name(struct sampler *s)
{
    long n = proctree_list(s->root, s->name, s->scan, PROCTREE_MAX);
    size_t k = n < 0 ? 0 : (size_t)n;
    pid_t root;
    s->npids = 0;
    size_t ntrees = proctree_roots(s->scan, k, &root, 1);
    if (!s->tree_root || !proctree_is_marked(s->scan, k, s->tree_root))
        s->tree_root = ntrees == 1 ? root : 0;
    if (s->tree_root)
        s->npids = proctree_members(s->scan, k, s->tree_root, s->pids, PROCSTAT_MAX_PIDS);
}

/* ---- the sampler ---------------------------------------------------------- */

void proc_point_unknown(struct proc_point *p, int64_t t_ns)
{
    *p = (struct proc_point){.t_ns = t_ns, .server_pct = FIG_UNKNOWN,
                             .server_rss_kb = FIG_UNKNOWN, .client_pct = FIG_UNKNOWN,
                             .machine_busy_pct = FIG_UNKNOWN,
                             .machine_steal_pct = FIG_UNKNOWN, .loadavg1 = FIG_UNKNOWN};
}

__attribute__((format(printf, 2, 3))) static int fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_LEN, fmt, ap);
    va_end(ap);
    return -1;
}

int sampler_init(struct sampler *s, const pid_t *pids, size_t npids, const char *name,
                 char *err)
{
    memset(s, 0, sizeof(*s));
    if (npids > PROCSTAT_MAX_PIDS)
        return fail(err, "too many server pids (%zu > %d)", npids, PROCSTAT_MAX_PIDS);
    if (name && name[0] && npids > 0)
        return fail(err, "give server pids or a server name, not both");
    if (name && strlen(name) >= sizeof(s->name))
        return fail(err, "server name too long: '%.40s...'", name);
    for (size_t i = 0; i < npids; i++) {
        if (pids[i] <= 0)
            return fail(err, "bad server pid %d", (int)pids[i]);
        s->pids[i] = pids[i];
    }
    s->npids = npids;
    if (name)
        strcpy(s->name, name);
    s->ticks_per_sec = sysconf(_SC_CLK_TCK);
    s->page_kb = sysconf(_SC_PAGESIZE) / 1024;
    if (s->ticks_per_sec <= 0)
        s->ticks_per_sec = 100;
    if (s->page_kb <= 0)
        s->page_kb = 4;
    strcpy(s->root, "/proc");
    return 0;
}

/* Counters that go backwards (a wrap, a reused pid) count as no time. */
static uint64_t delta(uint64_t now, uint64_t before)
{
    return now >= before ? now - before : 0;
}

static double pct(uint64_t ns, int64_t dt_ns)
{
    return (double)ns / (double)dt_ns * 100.0;
}

static const struct procstat_prev *find_prev(const struct sampler *s, pid_t pid,
                                             uint64_t starttime)
{
    for (size_t i = 0; i < s->nprev; i++)
        if (s->prev[i].pid == pid && s->prev[i].starttime == starttime)
            return &s->prev[i];
    return NULL;
}

/* A previous pid missing from the new table has exited (or was replaced). */
static int any_gone(const struct sampler *s, const struct procstat_prev *cur, size_t ncur)
{
    for (size_t i = 0; i < s->nprev; i++) {
        size_t j = 0;
        while (j < ncur && (cur[j].pid != s->prev[i].pid ||
                            cur[j].starttime != s->prev[i].starttime))
            j++;
        if (j == ncur)
            return 1;
    }
    return 0;
}

/* Reads the schedstat of every thread of `who` into the current table.
 * @return 0, or -1 when schedstat is missing (no task directory, no file,
 * a kernel without it) or the table is full: ticks are used then. */
static int read_threads(struct sampler *s, const char *who, struct procstat_prev *cur)
{
    char path[sizeof s->root + 64], buf[128];
    struct procstat_thread *t = s->threads[s->thr_cur];
    snprintf(path, sizeof(path), "%s/%s/task", s->root, who);
    DIR *d = opendir(path);
    struct dirent *e;
    if (!d)
        return -1;
    cur->thr_off = s->thr_used;
    cur->thr_n = 0;
    while ((e = readdir(d)) != NULL) {
        uint64_t ns;
        if (!procstat_all_digits(e->d_name))
            continue;
        if (s->thr_used == PROCSTAT_MAX_THREADS) {
            closedir(d);
            s->thr_used = cur->thr_off;
            return -1;
        }
        /* procstat_all_digits: a tid of at most 9 digits */
        snprintf(path, sizeof(path), "%s/%.24s/task/%.9s/schedstat", s->root, who, e->d_name);
        /* a thread that exited since readdir is skipped: its time is lost */
        if (procstat_read_path(path, buf, sizeof(buf)) <= 0 || procstat_parse_schedstat(buf, &ns) < 0)
            continue;
        t[s->thr_used++] = (struct procstat_thread){.tid = (pid_t)atoi(e->d_name), .ns = ns};
        cur->thr_n++;
    }
    closedir(d);
    return cur->thr_n ? 0 : -1;
}

/* The live threads' schedstat, summed, misses a thread that ended since
 * the last reading: its time went with it (a thread-per-request server
 * read 0.33 CPU-ms a call where it spent 5.8). The process's own ticks
 * count ended threads too, but utime and stime are each truncated to a
 * tick, at both readings: they may read up to two ticks off the truth. So
 * the CPU counted since the pid's first reading is never let fall two
 * ticks below what its ticks say; with no thread ended the schedstat sum
 * is always above that floor and stays exact. @return the CPU ns to count
 * for this reading. */
static uint64_t with_ended_threads(const struct sampler *s, const struct procstat_prev *cur,
                                   const struct procstat_prev *before, uint64_t live_ns)
{
    uint64_t tick_ns = (uint64_t)NS_PER_S / (uint64_t)s->ticks_per_sec;
    uint64_t by_ticks = delta(cur->ticks, before->ticks0) * tick_ns;
    uint64_t floor = by_ticks > 2 * tick_ns ? by_ticks - 2 * tick_ns : 0;
    uint64_t total = before->cpu_ns + live_ns;
    return total < floor ? floor - before->cpu_ns : live_ns;
}

/* The CPU ns of one pid since its previous reading (0 without one). */
static uint64_t pid_delta_ns(struct sampler *s, const struct procstat_prev *cur,
                             const struct procstat_prev *before)
{
    if (!before)
        return 0;
    if (cur->exact && before->exact) {
        const struct procstat_thread *was = s->threads[!s->thr_cur] + before->thr_off;
        s->used_schedstat = 1;
        uint64_t live = procstat_threads_delta(was, before->thr_n,
                                               s->threads[s->thr_cur] + cur->thr_off, cur->thr_n);
        return with_ended_threads(s, cur, before, live);
    }
    s->used_ticks = 1;
    return delta(cur->ticks, before->ticks) * (uint64_t)NS_PER_S / (uint64_t)s->ticks_per_sec;
}

/* Reads one watched pid into the point and the new table; *paired is set
 * when it was read at the previous sample too (its delta is then known),
 * *ended when it has exited and waits for its parent (a zombie, 'Z', or
 * dying, 'X'): its last CPU counts, but it is no longer alive, and leaves
 * the table (so it reads as vanished). @return its CPU ns since the
 * previous sample, or -1 if unreadable. */
static int64_t read_server_pid(struct sampler *s, pid_t pid, struct proc_point *p,
                               struct procstat_prev *cur, int *paired, int *ended)
{
    char who[24], buf[256];
    struct proc_stat st;
    int64_t rss;
    snprintf(who, sizeof(who), "%d", (int)pid);
    if (procstat_read_stat_at(s->root, who, &st) < 0)
        return -1;
    cur->pid = pid;
    cur->starttime = st.starttime;
    cur->ticks = st.utime + st.stime;
    *ended = st.state == 'Z' || st.state == 'X';
    cur->exact = !*ended && read_threads(s, who, cur) == 0;
    p->server_alive += !*ended;
    p->server_threads += *ended ? 0 : st.num_threads;
    if (procstat_read_file(s->root, who, "statm", buf, sizeof(buf)) > 0 &&
        procstat_parse_statm(buf, s->page_kb, &rss) == 0) /* the first read one starts the sum */
        p->server_rss_kb = (fig_known(p->server_rss_kb) ? p->server_rss_kb : 0) + (double)rss;
    const struct procstat_prev *before = find_prev(s, pid, st.starttime);
    *paired = before != NULL;
    uint64_t ns = pid_delta_ns(s, cur, before);
    cur->ticks0 = before ? before->ticks0 : cur->ticks;
    cur->cpu_ns = before ? before->cpu_ns + ns : 0;
    return (int64_t)ns;
}

/* Server side of a sample: returns the CPU ns of pids seen in both
 * samples, and how many they are in *paired. A pid never read (a wrong
 * --server-pid) has not vanished: it was never there. */
static uint64_t sample_server(struct sampler *s, struct proc_point *p, size_t *paired)
{
    struct procstat_prev cur[PROCSTAT_MAX_PIDS];
    size_t ncur = 0;
    uint64_t ns = 0;
    if (s->name[0])
        resolve_name(s);
    s->thr_used = 0;
    *paired = 0;
    for (size_t i = 0; i < s->npids; i++) {
        int both = 0, ended = 0;
        int64_t d = read_server_pid(s, s->pids[i], p, &cur[ncur], &both, &ended);
        if (d < 0)
            continue;
        ns += (uint64_t)d;
        *paired += (size_t)both;
        ncur += !ended;
    }
    if (any_gone(s, cur, ncur))
        s->vanished = 1;
    memcpy(s->prev, cur, ncur * sizeof(cur[0]));
    s->nprev = ncur;
    s->thr_cur = !s->thr_cur; /* this sample's threads are the next one's previous */
    return ns;
}

/* This process's CPU: the kernel's ns count (exited threads included);
 * from a fixture tree, its self/stat ticks. */
static uint64_t read_client_ns(const struct sampler *s, int *ok)
{
    struct proc_stat st;
    struct timespec ts;
    if (!strcmp(s->root, "/proc")) {
        *ok = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0;
        return *ok ? (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec : 0;
    }
    *ok = procstat_read_stat_at(s->root, "self", &st) == 0;
    return *ok ? (st.utime + st.stime) * (uint64_t)NS_PER_S / (uint64_t)s->ticks_per_sec : 0;
}

static void sample_machine(struct sampler *s, struct proc_point *p, int64_t dt_ns)
{
    char buf[8192];
    double load[3];
    struct sys_times now;
    if (procstat_read_file(s->root, ".", "loadavg", buf, sizeof(buf)) > 0 &&
        procstat_parse_loadavg(buf, load) == 0)
        p->loadavg1 = load[0];
    if (procstat_read_file(s->root, ".", "stat", buf, sizeof(buf)) <= 0 ||
        procstat_parse_system(buf, &now) < 0)
        return;
    if (s->have_prev && dt_ns > 0) {
        p->machine_busy_pct = procstat_machine_pct(&s->prev_sys, &now, dt_ns, s->ticks_per_sec,
                                                   &p->machine_steal_pct);
        if (fig_known(p->machine_steal_pct)) { /* the window's: weighted by time */
            s->window_steal_pct_x_ns += p->machine_steal_pct * (double)dt_ns;
            s->window_ns += dt_ns;
        }
    }
    s->prev_sys = now;
}

/* This process's CPU share since the last call: its CPU clock over the
 * wall time between two readings, each taken back to back with its
 * clock's (against /proc; a fixture's at t_ns). Over t_ns's interval
 * instead, the /proc reads between t_ns and the CPU reading counted as
 * the client's but not as the interval's: 119 % of a core under ASan,
 * on a short last interval. @return the %, or FIG_UNKNOWN. */
static double client_share(struct sampler *s, int64_t t_ns)
{
    int ok;
    uint64_t cpu = read_client_ns(s, &ok);
    int64_t wall = strcmp(s->root, "/proc") ? t_ns : clock_now_ns();
    double share = FIG_UNKNOWN;
    if (ok && s->have_prev && s->prev_client_ok && wall > s->prev_client_wall_ns)
        share = pct(delta(cpu, s->prev_client_ns), wall - s->prev_client_wall_ns);
    s->prev_client_ok = ok;
    if (ok) {
        s->prev_client_ns = cpu;
        s->prev_client_wall_ns = wall;
    }
    return share;
}

static void sample_all(struct sampler *s, int64_t t_ns, struct proc_point *p)
{
    int64_t dt_ns = t_ns - s->prev_t_ns;
    int known = s->have_prev && dt_ns > 0;
    proc_point_unknown(p, t_ns);
    p->client_pct = client_share(s, t_ns);
    size_t paired;
    uint64_t server = sample_server(s, p, &paired);
    s->total_server_ns += server;
    if (known && paired > 0) {
        p->server_pct = pct(server, dt_ns);
        s->measured = 1;
    }
    sample_machine(s, p, dt_ns);
    s->prev_t_ns = t_ns;
    s->have_prev = 1;
}

void sampler_start(struct sampler *s, int64_t t_ns)
{
    struct proc_point ignored;
    s->have_prev = 0;
    s->nprev = 0;
    s->vanished = 0;
    sample_all(s, t_ns, &ignored);
    s->total_server_ns = 0;
    s->measured = 0;
    s->used_schedstat = s->used_ticks = 0;
    s->window_steal_pct_x_ns = 0;
    s->window_ns = 0;
}

void sampler_sample(struct sampler *s, int64_t t_ns, struct proc_point *p)
{
    sample_all(s, t_ns, p);
}

double sampler_server_cpu_ms(const struct sampler *s)
{
    return s->measured ? (double)s->total_server_ns / 1e6 : FIG_UNKNOWN;
}

const char *sampler_cpu_source(const struct sampler *s)
{
    if (s->used_schedstat)
        return s->used_ticks ? "schedstat+ticks" : "schedstat";
    return s->used_ticks ? "ticks" : "";
}

double sampler_steal_pct(const struct sampler *s)
{
    return s->window_ns > 0 ? s->window_steal_pct_x_ns / (double)s->window_ns : FIG_UNKNOWN;
}
