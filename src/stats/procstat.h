/* procstat: the server's and the client's CPU, memory and the machine's
 * load, read from /proc on the run's uniform interval grid.
 *
 * Server CPU is the kernel's nanosecond count of time on CPU, summed over
 * the process's threads (/proc/PID/task/TID/schedstat, first field), so a
 * cheap call at a low rate is not rounded to zero as clock ticks (10 ms)
 * would round it; where schedstat is missing it falls back to the ticks of
 * /proc/PID/stat. The client's own CPU is CLOCK_PROCESS_CPUTIME_ID (ns).
 *
 * CPU % follows top: 100 % is one core busy. A sampler watches a set of
 * server processes given by pid (summed) or by name: the one process tree
 * called that name (proctree.h), re-resolved at each sample so that new
 * workers and a restarted server are found again.
 *
 * Nothing here allocates: parsers fill the caller's structs from the
 * caller's text, and a struct sampler holds all its state inline (no
 * cleanup call; it is large, so keep it off small stacks). */
#ifndef RPCBENCH_PROCSTAT_H
#define RPCBENCH_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "stats/proctree.h"

#define PROCSTAT_MAX_PIDS 64
/* Threads followed over all watched pids; past this a pid falls back to
 * ticks. */
#define PROCSTAT_MAX_THREADS 2048

/* Fields of /proc/<pid>/stat that rpcbench uses. */
struct proc_stat {
    char comm[64];
    char state;
    pid_t ppid;
    uint64_t utime;   /* clock ticks, all threads */
    uint64_t stime;
    long num_threads;
    uint64_t starttime; /* ticks after boot: tells a reused pid apart */
};

/* Parses the text of /proc/<pid>/stat (comm may hold spaces and ')').
 * @return 0, or -1 when the text is not a stat line. */
int procstat_parse_stat(const char *text, struct proc_stat *out);
/* /proc/stat's first "cpu" line (all cores), in jiffies: busy (the
 * guest's own work), idle (with iowait), steal (time the hypervisor ran
 * something else while a vCPU wanted to run; 0 on kernels that do not
 * print it), total (their sum); ncpu from the "cpuN" lines (0 if none). */
struct sys_times {
    uint64_t busy, idle, steal, total;
    int ncpu;
};
/* @return 0, or -1 when the text does not start with a "cpu " line of at
 * least four numbers. */
int procstat_parse_system(const char *text, struct sys_times *out);
/* The machine's load between readings a and b taken wall_ns apart; hz:
 * jiffies per second. *steal_pct gets the steal % (100 % = every core).
 * @return the busy % (100 % = every core); -1 for both when unknown. */
double procstat_machine_pct(const struct sys_times *a, const struct sys_times *b, int64_t wall_ns,
                            long hz, double *steal_pct);
/* Parses /proc/loadavg's first three fields into load.
 * @return 0, or -1 when the text does not start with three numbers. */
int procstat_parse_loadavg(const char *text, double load[3]);
/* Parses /proc/<pid>/statm's second field (resident pages of page_kb KiB)
 * into *rss_kb. @return 0, or -1 on junk, page_kb <= 0 or overflow. */
int procstat_parse_statm(const char *text, long page_kb, int64_t *rss_kb);
/* Parses /proc/<pid>/task/<tid>/schedstat's first field, ns on CPU, into
 * *run_ns. @return 0, or -1 unless the text holds its three numbers. */
int procstat_parse_schedstat(const char *text, uint64_t *run_ns);

/* A thread's time on CPU at one sample. */
struct procstat_thread {
    pid_t tid;
    uint64_t ns;
};
/* @return the CPU ns a process's threads used between two readings a (na
 * threads) and b (nb), both in the order /proc lists them. Threads only in
 * b are new: all their time is since a. Threads only in a have exited:
 * their time since a is lost (the kernel moves it to the process's total,
 * which only ticks show), but never counted negative, as a plain sum of
 * the live threads would. A tid whose count went down was reused: counted
 * as new. */
uint64_t procstat_threads_delta(const struct procstat_thread *a, size_t na,
                                const struct procstat_thread *b, size_t nb);

/* Reads /proc/<pid>/stat into out.
 * @return 0, or -1 if the process is gone or its stat does not parse. */
int procstat_read_pid(pid_t pid, struct proc_stat *out);
/* Reads <root>/<who>/stat (who: a pid or "self") into out.
 * @return 0, or -1 as procstat_read_pid. */
int procstat_read_stat_at(const char *root, const char *who, struct proc_stat *out);
/* @return 1 when s is a /proc entry's pid (1 to 9 digits), else 0. */
int procstat_all_digits(const char *s);
/* Reads the small file <root>/<who>/<file> whole into buf (size bytes,
 * NUL-terminated). @return the bytes read, or -1. */
ssize_t procstat_read_file(const char *root, const char *who, const char *file, char *buf,
                           size_t size);

/* One point of the timeline. Percentages are over the interval since the
 * previous sample; -1 where unknown (first sample, no server). */
struct proc_point {
    int64_t t_ns;          /* since run start */
    double server_pct;     /* summed over the watched pids */
    int64_t server_rss_kb; /* summed over the readable pids (0 if none) */
    long server_threads;   /* summed over the readable pids (0 if none) */
    int server_alive;      /* how many watched pids were readable */
    double client_pct;     /* this process */
    double machine_busy_pct; /* whole machine, 100 % = all cores busy */
    double machine_steal_pct; /* taken by the hypervisor, 100 % = all cores */
    double loadavg1;
};

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
 * [previous sample, t_ns]; -1 in p where a figure is unknown (server_pct
 * is known only when a watched process was read at both ends). */
void sampler_sample(struct sampler *s, int64_t t_ns, struct proc_point *p);
/* @return the server's CPU time since sampler_start, in milliseconds; -1
 * when it was not measured (no watched process was read at both ends of
 * any interval). */
double sampler_server_cpu_ms(const struct sampler *s);
/* @return where the server CPU came from since sampler_start:
 * "schedstat", "ticks", "schedstat+ticks" (some pids or samples each), or
 * "" when no server was read; a static string, not to be freed. */
const char *sampler_cpu_source(const struct sampler *s);
/* @return the hypervisor's steal since sampler_start, % of all cores'
 * time; -1 when /proc/stat could not be read twice. */
double sampler_steal_pct(const struct sampler *s);

#endif
