/* procstat: the server's and the client's CPU, memory and the machine's
 * load as /proc shows them: parsers of its files and their readers. The
 * sampler (sampler.h) takes them on the run's uniform interval grid.
 *
 * Server CPU is the kernel's nanosecond count of time on CPU, summed over
 * the process's threads (/proc/PID/task/TID/schedstat, first field), so a
 * cheap call at a low rate is not rounded to zero as clock ticks (10 ms)
 * would round it; where schedstat is missing it falls back to the ticks of
 * /proc/PID/stat. The client's own CPU is CLOCK_PROCESS_CPUTIME_ID (ns).
 *
 * CPU % follows top: 100 % is one core busy.
 *
 * Nothing here allocates: parsers fill the caller's structs from the
 * caller's text. */
#ifndef RPCBENCH_PROCSTAT_H
#define RPCBENCH_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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
 * @return the busy % (100 % = every core); FIG_UNKNOWN (base/figure.h) for
 * both when unknown. */
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
/* Reads the small file at path whole into buf (size bytes, NUL-terminated).
 * @return the bytes read, or -1. */
ssize_t procstat_read_path(const char *path, char *buf, size_t size);
/* Reads the small file <root>/<who>/<file> whole into buf (size bytes,
 * NUL-terminated). @return the bytes read, or -1. */
ssize_t procstat_read_file(const char *root, const char *who, const char *file, char *buf,
                           size_t size);

#endif
