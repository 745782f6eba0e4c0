/* agent_wire: the lines `rpcbench agent` streams to a run, one sample per
 * interval, and the clock line of its clock exchange. Text, so that curl
 * shows them and a person can read them:
 *
 *   S k t_ns server_pct rss_kb threads alive busy steal load total_ns measured source pids
 *   C now_ns cores
 *
 * k is the sample's index on the run's interval grid (1 = the first
 * interval), t_ns the agent's CLOCK_MONOTONIC when it was taken; a figure
 * is -1 where unknown, and rss_kb 0 (the wire's markers since its first
 * version, which every client reads: in memory they are FIG_UNKNOWN,
 * base/figure.h); source is the sampler's
 * ("schedstat", "ticks", "schedstat+ticks") or "-" for none; pids the
 * processes watched, "P,P" (the first AGENT_WIRE_PIDS; found by name,
 * they are only known from the samples) or "-". */
#ifndef RPCBENCH_AGENT_WIRE_H
#define RPCBENCH_AGENT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "proc/sampler.h"

#define AGENT_LINE_MAX 512 /* bytes of a line, its '\n' included */
#define AGENT_WIRE_PIDS 16 /* pids a line names at most */

struct agent_sample {
    int64_t k;
    struct proc_point pt;      /* t_ns: the agent's clock; client_pct unused (unknown) */
    uint64_t total_server_ns;  /* the server's CPU since the stream started */
    int measured;              /* total_server_ns is known (sampler_server_cpu_ms) */
    char source[24];           /* sampler_cpu_source; "" none */
    pid_t pids[AGENT_WIRE_PIDS]; /* the processes watched */
    size_t npids;
};

/* Writes s as one "S ..." line, '\n' ended, into buf (len bytes, the
 * caller's), an unknown figure as its marker. @return its length, or -1
 * when it does not fit. */
int agent_wire_format(const struct agent_sample *s, char *buf, size_t len);
/* Parses one "S ..." line (its '\n' may be there or not) into s (the
 * caller's), a marker as FIG_UNKNOWN. @return 0, or -1 when it is not a
 * sample line. */
int agent_wire_parse(const char *line, struct agent_sample *s);
/* Parses a "C now_ns cores" line. @return 0, or -1. */
int agent_wire_parse_clock(const char *line, int64_t *now_ns, int *cores);

#endif
