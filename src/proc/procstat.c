/* procstat: CPU, memory and load figures read from /proc.
 *
 * The parsers take the text of one /proc file and never trust it: every
 * field is checked, a short or garbled line is an error, never a crash. */
#include "proc/procstat.h"
#include "proc/procstat_testing.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/figure.h"


/* ---- parsing ------------------------------------------------------------ */

/* Reads one integer field after blanks, staying on the current line.
 * Negative values (tty_nr, nice) are accepted and wrap: they are skipped.
 * @return 0, or -1 at the end of the line or on junk. */
static int next_field(const char **q, uint64_t *v)
{
    const char *p = *q;
    char *end;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!isdigit((unsigned char)*p) && *p != '-')
        return -1;
    errno = 0;
    *v = *p == '-' ? (uint64_t)strtoll(p, &end, 10) : strtoull(p, &end, 10);
    if (end == p || errno == ERANGE)
        return -1;
    if (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\0')
        return -1;
    *q = end;
    return 0;
}

/* Copies the comm between the first '(' and the LAST ')': comm may hold
 * spaces and parentheses, the numeric fields after it never do. */
static const char *parse_comm(const char *text, char *comm, size_t size)
{
    const char *open = strchr(text, '(');
    const char *close = strrchr(text, ')');
    if (!open || !close || close < open)
        return NULL;
    size_t len = (size_t)(close - open - 1);
    if (len >= size)
        len = size - 1;
    memcpy(comm, open + 1, len);
    comm[len] = '\0';
    return close + 1;
}

int procstat_parse_stat(const char *text, struct proc_stat *out)
{
    uint64_t pid, v;
    const char *q = text;
    memset(out, 0, sizeof(*out));
    if (next_field(&q, &pid) < 0 || strncmp(q, " (", 2) != 0)
        return -1;
    q = parse_comm(q, out->comm, sizeof(out->comm));
    if (!q || q[0] != ' ' || !isalpha((unsigned char)q[1]))
        return -1;
    out->state = q[1];
    q += 2;
    /* fields 4 (ppid) .. 22 (starttime), numbered as in proc(5) */
    for (int field = 4; field <= 22; field++) {
        if (next_field(&q, &v) < 0)
            return -1;
        if (field == 4)
            out->ppid = (pid_t)v;
        else if (field == 14)
            out->utime = v;
        else if (field == 15)
            out->stime = v;
        else if (field == 20)
            out->num_threads = (long)v;
        else if (field == 22)
            out->starttime = v;
    }
    return 0;
}

/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice";
 * guest time is already inside user, so it is not added again. Old kernels
 * print fewer fields: four are required, the rest count as 0. Steal stays
 * out of busy so that busy + steal + idle make the whole, as in top: a
 * stolen vCPU did none of the guest's work. The "cpuN" lines that follow
 * give the number of cores. */
int procstat_parse_system(const char *text, struct sys_times *out)
{
    uint64_t f[8] = {0};
    const char *q = text + 3;
    int n = 0;
    if (strncmp(text, "cpu ", 4) != 0)
        return -1;
    while (n < 8 && next_field(&q, &f[n]) == 0)
        n++;
    if (n < 4)
        return -1;
    out->busy = f[0] + f[1] + f[2] + f[5] + f[6];
    out->idle = f[3] + f[4];
    out->steal = f[7];
    out->total = out->busy + out->steal + out->idle;
    out->ncpu = 0;
    for (const char *l = text; (l = strstr(l, "\ncpu")) != NULL; l += 4)
        out->ncpu += l[4] >= '0' && l[4] <= '9';
    return 0;
}

/* Idle and steal are kept exactly (idle by the tickless idle code, steal
 * by the hypervisor's clock), but busy jiffies are counted at timer ticks,
 * and on a tickless VM whose CPUs work in short bursts most bursts see no
 * tick: a steady load reads far from its true share, either way, from the
 * jiffies alone. So the whole is the wall-clock time of every
 * core, and busy is what idle and steal leave of it; only without a core
 * count (fixtures) is the sum of the jiffies the whole. */
double procstat_machine_pct(const struct sys_times *a, const struct sys_times *b, int64_t wall_ns,
                            long hz, double *steal_pct)
{
    double idle = (double)(b->idle - a->idle), steal = (double)(b->steal - a->steal);
    double whole = b->ncpu > 0 && wall_ns > 0 && hz > 0
                       ? (double)wall_ns / 1e9 * (double)hz * b->ncpu
                       : (double)(b->total - a->total);
    if (b->idle < a->idle || b->steal < a->steal || whole <= 0) {
        *steal_pct = FIG_UNKNOWN;
        return FIG_UNKNOWN;
    }
    *steal_pct = steal >= whole ? 100 : steal / whole * 100;
    double busy = whole - idle - steal;
    return busy <= 0 ? 0 : busy / whole * 100;
}

int procstat_parse_loadavg(const char *text, double load[3])
{
    const char *p = text;
    for (int i = 0; i < 3; i++) {
        char *end;
        while (*p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            return -1;
        load[i] = strtod(p, &end);
        if (end == p || (*end != ' ' && *end != '\n' && *end != '\0'))
            return -1;
        p = end;
    }
    return 0;
}

int procstat_parse_statm(const char *text, long page_kb, int64_t *rss_kb)
{
    uint64_t size, resident;
    const char *q = text;
    if (page_kb <= 0 || next_field(&q, &size) < 0 || next_field(&q, &resident) < 0)
        return -1;
    if (resident > (uint64_t)(INT64_MAX / page_kb))
        return -1;
    *rss_kb = (int64_t)resident * page_kb;
    return 0;
}

int procstat_parse_schedstat(const char *text, uint64_t *run_ns)
{
    const char *q = text;
    uint64_t wait, slices;
    /* "run_ns wait_ns timeslices": all three, or it is not a schedstat line */
    if (next_field(&q, run_ns) < 0 || next_field(&q, &wait) < 0 || next_field(&q, &slices) < 0)
        return -1;
    return 0;
}

uint64_t procstat_threads_delta(const struct procstat_thread *a, size_t na,
                                const struct procstat_thread *b, size_t nb)
{
    uint64_t sum = 0;
    size_t j = 0; /* /proc lists threads in the same order each time: the
                     match is usually the next one, so this is linear */
    for (size_t i = 0; i < nb; i++) {
        const struct procstat_thread *was = NULL;
        for (size_t k = 0; k < na && !was; k++, j = j + 1 < na ? j + 1 : 0)
            if (a[j].tid == b[i].tid)
                was = &a[j];
        sum += was && b[i].ns >= was->ns ? b[i].ns - was->ns : b[i].ns;
    }
    return sum;
}

/* ---- reading ------------------------------------------------------------ */

/* One read: procfs hands out a page at a time, more than any line we parse. */
ssize_t procstat_read_path(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return n;
}

/* Reads <root>/<who>/<file> where who is a pid or "self". */
ssize_t procstat_read_file(const char *root, const char *who, const char *file, char *buf,
                           size_t size)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s/%s", root, who, file);
    return procstat_read_path(path, buf, size);
}

int procstat_read_stat_at(const char *root, const char *who, struct proc_stat *out)
{
    char buf[1024];
    if (procstat_read_file(root, who, "stat", buf, sizeof(buf)) <= 0)
        return -1;
    return procstat_parse_stat(buf, out);
}

int procstat_read_pid(pid_t pid, struct proc_stat *out)
{
    char who[24];
    snprintf(who, sizeof(who), "%d", (int)pid);
    return procstat_read_stat_at("/proc", who, out);
}

int procstat_all_digits(const char *s)
{
    if (!*s || strlen(s) > 9)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}
