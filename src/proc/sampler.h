/* sampler: a run's /proc figures on its interval grid (sampler.c); what
 * the figures mean is procstat.h's. A sampler watches a set of server
 * processes given by pid (summed) or by name: the one process tree called
 * that name (proctree.h), re-resolved at each sample so that new workers
 * and a restarted server are found again. A struct sampler holds all its
 * state inline (no cleanup call; it is large, so keep it off small
 * stacks), and nothing here allocates. */
#ifndef RPCBENCH_SAMPLER_H
#define RPCBENCH_SAMPLER_H

#include "base/figure.h"
#include "proc/procstat.h"
#include "proc/proctree.h"

/* One point of the timeline. Percentages are over the interval since the
 * previous sample; every figure (a double) is FIG_UNKNOWN (base/figure.h)
 * where unknown (first sample, no server, a file not readable). */
struct proc_point {
    int64_t t_ns;          /* since run start */
    double server_pct;     /* summed over the watched pids */
    double server_rss_kb;  /* summed over the pids whose memory was read */
    long server_threads;   /* summed over the readable pids (0 if none) */
    int server_alive;      /* how many watched pids were readable */
    double client_pct;     /* this process */
    double machine_busy_pct; /* whole machine, 100 % = all cores busy */
    double machine_steal_pct; /* taken by the hypervisor, 100 % = all cores */
    double loadavg1;
};

/* Sets every figure of p (the caller's) to FIG_UNKNOWN, its counts to 0
 * and its time to t_ns: a point nothing was read into yet. */
void proc_point_unknown(struct proc_point *p, int64_t t_ns);

struct sampler {
    pid_t pids[PROCSTAT_MAX_PIDS];
    size_t npids;
    char name[64];          /* non-empty: resolve by name at each sample */
    pid_t tree_root;        /* by name: the head of the tree watched; 0 none */
    int vanished;           /* a watched pid that was read has disappeared */
    int measured;           /* some pid was read at both ends of an interval
                               since sampler_start: the server CPU is known */
    long ticks_per_sec;
    long page_kb;
    /* previous readings, for the differences */
    int64_t prev_t_ns;
    uint64_t prev_client_ns;
    int64_t prev_client_wall_ns; /* when it was read (CLOCK_MONOTONIC; a fixture's t_ns) */
    int prev_client_ok;
    struct sys_times prev_sys;
    double window_steal_pct_x_ns; /* steal % x ns, summed since start */
    int64_t window_ns;
    uint64_t total_server_ns; /* accumulated since start, for CPU-ms per call */
    int have_prev;
    int used_schedstat, used_ticks; /* since start: what the server CPU came from */
    /* per-pid previous readings: only pids seen in both samples count, so
     * a restarted or replaced server never gives a negative or huge delta */
    struct procstat_prev {
        pid_t pid;
        uint64_t starttime;
        uint64_t ticks;
        uint64_t ticks0;        /* its ticks at its first reading */
        uint64_t cpu_ns;        /* its CPU counted since then */
        int exact;              /* threads[] below hold its schedstat */
        size_t thr_off, thr_n;  /* its threads in the previous table */
    } prev[PROCSTAT_MAX_PIDS];
    size_t nprev;
    /* threads of the previous and the current sample, pid after pid */
    struct procstat_thread threads[2][PROCSTAT_MAX_THREADS];
    int thr_cur;            /* which table the sample being taken fills */
    size_t thr_used;
    char root[64];          /* "/proc"; tests point it at a fixture tree */
    struct proctree_proc scan[PROCTREE_MAX]; /* by name: the last listing */
};

/* Initialises s (the caller's) to watch explicit pids (copied; npids may
 * be 0 with name NULL: client and machine only) or the one process tree
 * called name (copied; proctree.h: none while several trees are). By
 * name, the sampler's process and its ancestors are never the server. No
 * cleanup call is needed.
 * @return 0, or -1 with err (ERR_LEN bytes, caller-owned) filled (too many
 * pids, bad pid, name too long, both pids and a name). */
int sampler_init(struct sampler *s, const pid_t *pids, size_t npids, const char *name,
                 char *err);
/* Takes the first reading at t_ns (run start); sampler_sample reports
 * differences from it. */
void sampler_start(struct sampler *s, int64_t t_ns);
/* Reads /proc now and fills p (the caller's) with figures over
 * [previous sample, t_ns]; FIG_UNKNOWN in p where a figure is unknown
 * (server_pct is known only when a watched process was read at both
 * ends). */
void sampler_sample(struct sampler *s, int64_t t_ns, struct proc_point *p);
/* @return the server's CPU time since sampler_start, in milliseconds;
 * FIG_UNKNOWN when it was not measured (no watched process was read at
 * both ends of any interval). */
double sampler_server_cpu_ms(const struct sampler *s);
/* @return where the server CPU came from since sampler_start:
 * "schedstat", "ticks", "schedstat+ticks" (some pids or samples each), or
 * "" when no server was read; a static string, not to be freed. */
const char *sampler_cpu_source(const struct sampler *s);
/* @return the hypervisor's steal since sampler_start, % of all cores'
 * time; FIG_UNKNOWN when /proc/stat could not be read twice. */
double sampler_steal_pct(const struct sampler *s);

#endif
