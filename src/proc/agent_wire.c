/* agent_wire: the agent's sample and clock lines (agent_wire.h). */
#include "proc/agent_wire.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/figure.h"

/* A figure as the wire says it: unknown is -1, which clients of every
 * version read (an older one refuses a "nan"). */
static double marker(double x)
{
    return fig_known(x) ? x : -1;
}

int agent_wire_format(const struct agent_sample *s, char *buf, size_t len)
{
    const struct proc_point *p = &s->pt;
    /* rss unknown is 0: older clients refuse a negative one */
    int64_t rss = fig_known(p->server_rss_kb) ? (int64_t)p->server_rss_kb : 0;
    int n = snprintf(buf, len,
                     "S %" PRId64 " %" PRId64 " %.6f %" PRId64 " %ld %d %.6f %.6f %.4f %" PRIu64
                     " %d %s ",
                     s->k, p->t_ns, marker(p->server_pct), rss, p->server_threads,
                     p->server_alive, marker(p->machine_busy_pct), marker(p->machine_steal_pct),
                     marker(p->loadavg1), s->total_server_ns, s->measured,
                     s->source[0] ? s->source : "-");
    for (size_t i = 0; i < s->npids && i < AGENT_WIRE_PIDS && n > 0 && (size_t)n < len; i++)
        n += snprintf(buf + n, len - (size_t)n, "%s%d", i ? "," : "", (int)s->pids[i]);
    if (n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, "%s\n", s->npids ? "" : "-");
    return n < 0 || (size_t)n >= len ? -1 : n;
}

/* "P,P" or "-" into s->pids. @return 0, or -1. */
static int parse_pids(const char *text, struct agent_sample *s)
{
    if (!strcmp(text, "-"))
        return 0;
    for (const char *p = text; *p; p++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v <= 0 || v > 0x7fffffff || s->npids == AGENT_WIRE_PIDS ||
            (*end && *end != ','))
            return -1;
        s->pids[s->npids++] = (pid_t)v;
        p = end;
        if (!*p)
            break;
    }
    return 0;
}

/* A figure as the wire says it: -1 or a non-negative number (no NaN). */
static int figure_ok(double x)
{
    return x == -1 || (x >= 0 && x < 1e12);
}

/* The wire's markers (-1, rss 0) as FIG_UNKNOWN; client_pct is never sent. */
static void unmark(struct proc_point *p, int64_t rss)
{
    p->server_pct = fig_from_marker(p->server_pct);
    p->server_rss_kb = fig_rss_from_marker((double)rss);
    p->client_pct = FIG_UNKNOWN;
    p->machine_busy_pct = fig_from_marker(p->machine_busy_pct);
    p->machine_steal_pct = fig_from_marker(p->machine_steal_pct);
    p->loadavg1 = fig_from_marker(p->loadavg1);
}

int agent_wire_parse(const char *line, struct agent_sample *s)
{
    struct proc_point *p = &s->pt;
    char src[sizeof s->source], pids[AGENT_WIRE_PIDS * 11 + 1];
    int used = 0;
    int64_t rss;
    memset(s, 0, sizeof *s);
    if (sscanf(line,
               "S %" SCNd64 " %" SCNd64 " %lf %" SCNd64 " %ld %d %lf %lf %lf %" SCNu64
               " %d %23s %176s%n",
               &s->k, &p->t_ns, &p->server_pct, &rss, &p->server_threads,
               &p->server_alive, &p->machine_busy_pct, &p->machine_steal_pct, &p->loadavg1,
               &s->total_server_ns, &s->measured, src, pids, &used) != 13 ||
        parse_pids(pids, s))
        return -1;
    if (line[used] && line[used] != '\n' && line[used] != '\r')
        return -1;
    if (s->k < 1 || !figure_ok(p->server_pct) || !figure_ok(p->machine_busy_pct) ||
        !figure_ok(p->machine_steal_pct) || !figure_ok(p->loadavg1) || rss < 0 ||
        p->server_threads < 0 || p->server_alive < 0 || (s->measured != 0 && s->measured != 1))
        return -1;
    unmark(p, rss);
    snprintf(s->source, sizeof s->source, "%s", strcmp(src, "-") ? src : "");
    return 0;
}

int agent_wire_parse_clock(const char *line, int64_t *now_ns, int *cores)
{
    int used = 0;
    if (sscanf(line, "C %" SCNd64 " %d%n", now_ns, cores, &used) != 2 || *cores < 0)
        return -1;
    return line[used] && line[used] != '\n' && line[used] != '\r' ? -1 : 0;
}
