/* pysample: the sampling thread and its record (pysample.h). */
#include "profile/pysample.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/thread.h"
#include "profile/pysample_int.h"
#include "profile/strmap.h"

#define MAX_TARGETS 16
#define MAX_TASKS 1024   /* threads of one process followed */

struct task {
    pid_t tid;
    int running;                   /* state R */
    int stat_fd;                   /* its /proc stat, open (-1: not) */
};

struct target {
    struct py_target t;
    struct task prev[MAX_TASKS]; /* the threads of the last tick, their files open */
    size_t nprev;
    clockid_t clock;               /* the process's CPU clock */
    int64_t clock_ns;              /* its reading at the last tick (-1: none) */
};

struct pysample {
    struct target tg[MAX_TARGETS];
    size_t n;
    int64_t period_ns;
    uint64_t rng;                  /* the ticks' jitter */
    FILE *rec;                     /* "T_NS CPU_NS STACK" lines */
    pthread_t th;
    int started;
    atomic_int stop;
    double cpu_ms;                 /* the thread's own CPU, when it ended */
    struct task cur[MAX_TASKS];  /* the tick's scratch */
    struct py_thread threads[PY_MAX_THREADS];
    struct py_scratch scratch;     /* the walks' memory and names cache */
};

int pysample_is_python(pid_t pid)
{
    return py_maps_python(pid);
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Opens a thread's stat, kept open from tick to tick (a pread at 0
 * reads it anew): an open of /proc costs more than the read.
 * @return 0, or -1 (the thread is gone). */
static int task_open(pid_t pid, const char *tid, struct task *t)
{
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task/%.16s/stat", (int)pid, tid);
    t->stat_fd = open(path, O_RDONLY | O_CLOEXEC);
    return t->stat_fd >= 0 ? 0 : -1;
}

static void task_close(struct task *t)
{
    if (t->stat_fd >= 0)
        close(t->stat_fd);
    t->stat_fd = -1;
}

/* One file's first bytes, read anew, into text (len). @return 0, or -1. */
static int reread(int fd, char *text, size_t len)
{
    ssize_t got = pread(fd, text, len - 1, 0);
    if (got <= 0)
        return -1;
    text[got] = '\0';
    return 0;
}

/* One thread now: whether it is on a CPU or waiting for one (stat's
 * state R). @return 0, or -1. */
static int task_now(struct task *t)
{
    char text[512];
    if (reread(t->stat_fd, text, sizeof text))
        return -1;
    const char *paren = strrchr(text, ')'); /* the name before it may hold anything */
    t->running = paren && paren[1] == ' ' && paren[2] == 'R';
    return 0;
}

/* Thread tid's open files: the last tick's (taken from g->prev), or new.
 * @return 0, or -1. */
static int task_files(struct target *g, pid_t pid, const char *name, pid_t tid,
                      struct task *t)
{
    for (size_t i = 0; i < g->nprev; i++)
        if (g->prev[i].tid == tid && g->prev[i].stat_fd >= 0) {
            t->stat_fd = g->prev[i].stat_fd;
            g->prev[i].stat_fd = -1;
            return 0;
        }
    return task_open(pid, name, t);
}

/* g's threads now into cur (at most MAX_TASKS), their files open (those
 * of threads gone stay in g->prev, for close_gone).
 * @return how many, or -1 when the process is gone. */
static long read_tasks(struct target *g, struct task *cur)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)g->t.pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    long n = 0;
    struct dirent *e;
    while (n < MAX_TASKS && (e = readdir(d))) {
        char *end;
        long tid = strtol(e->d_name, &end, 10);
        if (*end || tid <= 0 || task_files(g, g->t.pid, e->d_name, (pid_t)tid, &cur[n]))
            continue; /* "." and "..", or a thread that just ended */
        cur[n].tid = (pid_t)tid;
        if (task_now(&cur[n]) == 0)
            n++;
        else
            task_close(&cur[n]);
    }
    closedir(d);
    return n;
}

/* Closes the files of the threads of the last tick not seen in this one. */
static void close_gone(struct target *g)
{
    for (size_t i = 0; i < g->nprev; i++)
        task_close(&g->prev[i]);
}

/* The stack a thread shows in the walk threads[0..n) (n < 0: the walk
 * failed). */
static const char *stack_of(const struct pysample *s, const struct target *g, int n, pid_t tid)
{
    if (!g->t.l)
        return PYSAMPLE_NOT_PYTHON;
    if (n < 0)
        return PYSAMPLE_UNREADABLE;
    for (int i = 0; i < n; i++)
        if (s->threads[i].tid == (unsigned long)tid)
            return s->threads[i].stack[0] ? s->threads[i].stack : PYSAMPLE_NO_PYTHON;
    return PYSAMPLE_NO_PYTHON;
}

/* The CPU the process ran since the last tick, by its CPU clock (0 at
 * the first tick, or when it cannot be read). Not the threads' schedstat:
 * the kernel brings a running thread's count up to date only at its
 * scheduler ticks (every ~4 ms here) and when it leaves the CPU, and a
 * thread that ends between two ticks takes its last count with it; the
 * process's clock counts up to now, ended threads included. */
static uint64_t process_ran(struct target *g)
{
    struct timespec ts;
    if (clock_gettime(g->clock, &ts) != 0)
        return 0;
    int64_t ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec, was = g->clock_ns;
    g->clock_ns = ns;
    return was >= 0 && ns > was ? (uint64_t)(ns - was) : 0;
}

/* One tick of one target: "C T NS", the CPU the process ran since the
 * last tick, and "S T STACK" for each thread on a CPU now: in state R
 * while its process ran since the last tick. (R alone is also a thread
 * waiting in the run queue: on a busy machine, a thread just woken from
 * select() waits there, and its samples would go to select().)
 * A process gone, a thread gone or a failed walk ends this sample only. */
static void tick_target(struct pysample *s, struct target *g, int64_t t)
{
    long n = read_tasks(g, s->cur);
    if (n < 0)
        return;
    uint64_t cpu = process_ran(g);
    int running = 0, walked = -1;
    for (long i = 0; i < n; i++) {
        s->cur[i].running = s->cur[i].running && cpu > 0;
        running |= s->cur[i].running;
    }
    if (running && g->t.l)
        walked = py_walk(&g->t, &s->scratch, s->threads, PY_MAX_THREADS);
    if (cpu)
        fprintf(s->rec, "C %" PRId64 " %" PRIu64 "\n", t, cpu);
    for (long i = 0; running && i < n; i++)
        if (s->cur[i].running)
            fprintf(s->rec, "S %" PRId64 " %s\n", t, stack_of(s, g, walked, s->cur[i].tid));
    close_gone(g);
    memcpy(g->prev, s->cur, (size_t)n * sizeof *s->cur);
    g->nprev = (size_t)n;
}

/* The pause to the next tick: uniform in [period/2, 3 period/2), so that
 * the ticks never lock into step with a load paced at a round rate (a
 * call every 50 ms sampled every 10 ms would show the same instant of
 * every call). */
static int64_t jittered(struct pysample *s)
{
    s->rng = s->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return s->period_ns / 2 + (int64_t)((s->rng >> 33) % (uint64_t)s->period_ns);
}

static void *run(void *arg)
{
    struct pysample *s = arg;
    int64_t next = now_ns();
    while (!atomic_load(&s->stop)) {
        int64_t t = now_ns();
        for (size_t i = 0; i < s->n; i++)
            tick_target(s, &s->tg[i], t);
        struct timespec own; /* the sampler's own CPU so far, for the window's share */
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &own);
        fprintf(s->rec, "P %" PRId64 " %" PRId64 "\n", t,
                (int64_t)own.tv_sec * 1000000000 + (int64_t)own.tv_nsec);
        next += jittered(s);
        t = now_ns();
        if (next < t) /* late (the machine is busy): no burst of ticks to catch up */
            next = t + jittered(s);
        struct timespec at = {next / 1000000000LL, next % 1000000000LL};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
    }
    struct timespec cpu;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    s->cpu_ms = (double)cpu.tv_sec * 1e3 + (double)cpu.tv_nsec / 1e6;
    return NULL;
}

/* Reading t's memory at all: its runtime's first word. @return 0, or -1
 * with err naming the fix (EPERM: Yama's ptrace_scope, or another user). */
static int check_read(const struct py_target *t, char *err)
{
    uint64_t word;
    if (py_read(t->pid, t->runtime, &word, sizeof word) == 0)
        return 0;
    if (errno == EPERM)
        snprintf(err, ERR_LEN, "--profile-mode python: reading pid %d's memory is refused "
                 "(EPERM): set kernel.yama.ptrace_scope=0 (sysctl), or run rpcbench as root or "
                 "as the server's user", (int)t->pid);
    else
        snprintf(err, ERR_LEN, "--profile-mode python: reading pid %d's memory failed: %s",
                 (int)t->pid, strerror(errno));
    return -1;
}

/* The targets of pids into s, each checked. @return 0, or -1 with err
 * (no CPython of a known version among them, or one unreadable). */
static int find_targets(struct pysample *s, const pid_t *pids, size_t n, char *version,
                        char *err)
{
    int python = 0;
    s->n = n < MAX_TARGETS ? n : MAX_TARGETS;
    for (size_t i = 0; i < s->n; i++) {
        struct py_target *t = &s->tg[i].t;
        s->tg[i].clock_ns = -1;
        int rc = clock_getcpuclockid(pids[i], &s->tg[i].clock);
        if (rc) {
            snprintf(err, ERR_LEN, "--profile-mode python: pid %d's CPU clock: %s", (int)pids[i],
                     strerror(rc));
            return -1;
        }
        rc = py_target_find(pids[i], t, err);
        if (rc < 0)
            return -1;
        if (rc == 1 && !t->l) {
            snprintf(err, ERR_LEN, "--profile-mode python: pid %d runs CPython %s; this "
                     "rpcbench reads CPython %s only", (int)pids[i], t->version,
                     py_layout_known());
            return -1;
        }
        if (rc == 1 && check_read(t, err))
            return -1;
        if (rc == 1 && !python++)
            snprintf(version, 16, "%s", t->version);
    }
    if (!python)
        snprintf(err, ERR_LEN, "--profile-mode python: pid %d is not CPython (no python3.N "
                 "nor libpython3.N.so mapped); use --profile-mode perf", (int)pids[0]);
    return python ? 0 : -1;
}

struct pysample *pysample_start(const pid_t *pids, size_t n, int hz, const char *path,
                                char *version, char *err)
{
    struct pysample *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, ERR_LEN, "--profile: out of memory");
        return NULL;
    }
    s->period_ns = 1000000000LL / (hz > 0 ? hz : 1);
    s->rng = (uint64_t)now_ns() | 1;
    if (find_targets(s, pids, n, version, err)) {
        free(s);
        return NULL;
    }
    if (!(s->rec = fopen(path, "w+"))) {
        snprintf(err, ERR_LEN, "--profile: %.200s: %s", path, strerror(errno));
        free(s);
        return NULL;
    }
    /* Ctrl-C and the rest are for the threads that wait for them */
    int rc = thread_start_quiet(&s->th, run, s);
    if (rc) {
        snprintf(err, ERR_LEN, "--profile: cannot start the sampler: %s", strerror(rc));
        pysample_free(s);
        return NULL;
    }
    s->started = 1;
    return s;
}

int pysample_stop(struct pysample *s, double *cpu_ms, char *err)
{
    if (s->started) {
        atomic_store(&s->stop, 1);
        pthread_join(s->th, NULL);
        s->started = 0;
    }
    *cpu_ms = s->cpu_ms;
    if (fflush(s->rec) || ferror(s->rec)) {
        snprintf(err, ERR_LEN, "--profile: the Python sampler's record: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Adds stack ("a@f.py:1;b@g.py:9", cut in place) to f with weight ns:
 * each frame's name before PY_FILE_MARK, its module (the report's file
 * column) after it; a frame without one ("[no Python frame]") has no
 * module. @return 0, or -1. */
static int add_stack(struct fold *f, char *stack, int64_t ns)
{
    char *frames[FOLD_MAX_DEPTH], *mods[FOLD_MAX_DEPTH], *save = NULL;
    size_t n = 0;
    for (char *p = strtok_r(stack, ";", &save); p && n < FOLD_MAX_DEPTH;
         p = strtok_r(NULL, ";", &save), n++) {
        char *mark = strchr(p, PY_FILE_MARK[0]);
        frames[n] = p;
        mods[n] = mark ? mark + 1 : NULL;
        if (mark)
            *mark = '\0';
    }
    return fold_add(f, (const char *const *)frames, (const char *const *)mods, n, ns);
}

/* What the record holds for one window. */
struct window {
    int64_t t0, t1;
    struct strmap stacks;          /* "S" lines: stack -> samples */
    int64_t cpu;                   /* "C" lines: the server's CPU ns */
    int64_t samples, outside;
    int64_t own0, own1;            /* "P" lines: the sampler's CPU ns at the
                                      window's start and end (-1 none) */
};

/* One record line into w. @return 0, or -1 (out of memory). */
static int window_line(struct window *w, char *line)
{
    char *end;
    long long t = strtoll(line + 1, &end, 10);
    if (*end != ' ' || (line[0] != 'C' && line[0] != 'S' && line[0] != 'P'))
        return 0;
    end[strcspn(end, "\n")] = '\0';
    if (line[0] == 'P') {
        long long own = strtoll(end + 1, NULL, 10);
        if (t <= w->t0 || w->own0 < 0)
            w->own0 = own;
        if (t <= w->t1)
            w->own1 = own;
        return 0;
    }
    if (t <= w->t0 || t > w->t1) {
        w->outside += line[0] == 'S';
        return 0;
    }
    if (line[0] == 'C') {
        w->cpu += strtoll(end + 1, NULL, 10);
        return 0;
    }
    struct strmap_entry *e = strmap_get(&w->stacks, end + 1, NULL);
    if (!e)
        return -1;
    e->count++;
    w->samples++;
    return 0;
}

/* The record's lines into w. @return 0, or -1 (out of memory). */
static int read_window(FILE *rec, struct window *w)
{
    char *line = malloc(PY_STACK_LEN + 64);
    int rc = line ? 0 : -1;
    rewind(rec);
    while (rc == 0 && fgets(line, PY_STACK_LEN + 64, rec))
        rc = window_line(w, line);
    free(line);
    return rc;
}

/* w's stacks into f, each weighed by its share of the samples times the
 * CPU the window measured, rounded on the running sum so that the weights
 * add up to it. @return 0, or -1 (out of memory). */
static int weigh(const struct window *w, struct fold *f)
{
    int64_t acc = 0, given = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && w->samples && i < w->stacks.cap; i++) {
        if (!w->stacks.slots[i].key)
            continue;
        acc += w->stacks.slots[i].count;
        int64_t upto = (int64_t)((double)w->cpu * (double)acc / (double)w->samples + 0.5);
        if (upto > given)
            rc = add_stack(f, w->stacks.slots[i].key, upto - given);
        given = upto;
    }
    if (rc == 0 && !w->samples && w->cpu > 0) {
        char unseen[] = PYSAMPLE_UNSEEN;
        rc = add_stack(f, unseen, w->cpu);
    }
    return rc;
}

int pysample_fold(const struct pysample *s, int64_t t0_ns, int64_t t1_ns, struct fold *f,
                  struct pysample_window *out, char *err)
{
    struct window w = {.t0 = t0_ns, .t1 = t1_ns, .own0 = -1, .own1 = -1};
    strmap_init(&w.stacks);
    int rc = read_window(s->rec, &w) || weigh(&w, f) ? -1 : 0;
    strmap_free(&w.stacks);
    if (rc)
        snprintf(err, ERR_LEN, "--profile: out of memory");
    out->samples = w.samples;
    out->outside = w.outside;
    out->own_cpu_ms = w.own0 >= 0 && w.own1 >= w.own0 ? (double)(w.own1 - w.own0) / 1e6 : -1;
    return rc;
}

void pysample_free(struct pysample *s)
{
    if (!s)
        return;
    if (s->started) {
        atomic_store(&s->stop, 1);
        pthread_join(s->th, NULL);
    }
    if (s->rec)
        fclose(s->rec);
    for (size_t i = 0; i < s->n; i++)
        close_gone(&s->tg[i]);
    free(s);
}
