/* agent_link_stream: the reader thread, and what the engine's thread
 * takes from it under the mutex (agent_link.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/figure.h"
#include "client/agent_link_int.h"
#include "net/tls.h"

#define LEAD_MAX_NS (100 * NS_PER_MS)

/* How far ahead of our grid the agent samples: enough for a sample to
 * cross the network before our tick, small against the interval (the
 * figures stay within one interval of the latency's). */
static int64_t lead_ns(int64_t interval_ns)
{
    int64_t lead = interval_ns / 5;
    return lead < LEAD_MAX_NS ? lead : LEAD_MAX_NS;
}

static void mark_dead(struct agent_link *l, const char *why)
{
    pthread_mutex_lock(&l->mu);
    if (!l->dead && !l->stopping)
        snprintf(l->why, sizeof l->why, "%s", why);
    l->dead = 1;
    pthread_mutex_unlock(&l->mu);
}

/* Sends the samples request. @return 0 once the agent said 200, else -1. */
static int ask_stream(struct agent_link *l, int64_t m0_ns, int64_t interval_ns)
{
    char req[AUTH_TOKEN_MAX + 1024];
    long clen;
    int n = snprintf(req, sizeof req,
                     "GET /v1/samples?interval_ns=%" PRId64 "&start_ns=%" PRId64
                     "&lead_ns=%" PRId64 "%s HTTP/1.1\r\nHost: %s\r\n"
                     "Authorization: Bearer %s\r\n\r\n",
                     interval_ns, m0_ns + l->offset_ns, lead_ns(interval_ns), l->query,
                     l->t.host, l->token);
    if (n < 0 || (size_t)n >= sizeof req || agent_link_send(l, req, (size_t)n)) {
        mark_dead(l, "the request could not be sent");
        return -1;
    }
    int status = agent_link_head(l, &clen);
    if (status != 200) {
        char why[ERR_LEN];
        snprintf(why, sizeof why, status > 0 ? "it refused the samples (HTTP %d)"
                                             : "no answer to the samples request", status);
        mark_dead(l, why);
        return -1;
    }
    return 0;
}

void *agent_link_reader(void *arg)
{
    struct agent_link *l = arg;
    pthread_mutex_lock(&l->mu);
    while (!l->started && !l->stopping)
        pthread_cond_wait(&l->cv, &l->mu);
    int64_t m0 = l->m0_ns, interval = l->interval_ns;
    int stop = l->stopping;
    pthread_mutex_unlock(&l->mu);
    if (stop || ask_stream(l, m0, interval))
        return NULL;
    /* samples come once per interval: no receive timeout while streaming */
    struct timeval tv = {0};
    setsockopt(l->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char line[AGENT_LINE_MAX];
    struct agent_sample s;
    while (agent_link_line(l, line, sizeof line) >= 0) {
        if (agent_wire_parse(line, &s))
            continue; /* a line of a later version: not ours to read */
        pthread_mutex_lock(&l->mu);
        l->ring[s.k % AGENT_LINK_RING] = s;
        pthread_mutex_unlock(&l->mu);
    }
    mark_dead(l, "the connection closed");
    return NULL;
}

int agent_link_take(struct agent_link *l, int64_t k, struct proc_point *p)
{
    struct agent_sample s;
    pthread_mutex_lock(&l->mu);
    s = l->ring[k % AGENT_LINK_RING];
    pthread_mutex_unlock(&l->mu);
    l->last_k_asked = k;
    p->server_alive = 0;
    p->server_threads = 0;
    if (s.k != k) {
        p->server_pct = p->machine_busy_pct = p->machine_steal_pct = p->loadavg1 = FIG_UNKNOWN;
        p->server_rss_kb = FIG_UNKNOWN;
        return 0;
    }
    p->server_pct = s.pt.server_pct;
    p->server_rss_kb = s.pt.server_rss_kb;
    p->server_threads = s.pt.server_threads;
    p->server_alive = s.pt.server_alive;
    p->machine_busy_pct = s.pt.machine_busy_pct;
    p->machine_steal_pct = s.pt.machine_steal_pct;
    p->loadavg1 = s.pt.loadavg1;
    if (fig_known(s.pt.machine_steal_pct)) {
        l->steal_x_ns += s.pt.machine_steal_pct * (double)l->interval_ns;
        l->steal_ns += l->interval_ns;
    }
    l->last_k_got = k;
    l->last_got = s;
    if (s.npids) /* by name: the pids are only known from the samples */
        l->pids = s;
    return 1;
}

void agent_link_summarise(const struct agent_link *l, struct run_result *res)
{
    const struct agent_sample *s = &l->last_got;
    int complete = l->last_k_got > 0 && l->last_k_got == l->last_k_asked;
    res->server_cpu_ms = complete && s->measured ? (double)s->total_server_ns / 1e6 : FIG_UNKNOWN;
    snprintf(res->server_cpu_source, sizeof res->server_cpu_source, "%s%s",
             s->source[0] ? "agent " : "", s->source);
    snprintf(res->agent.url, sizeof res->agent.url, "%s", l->url);
    res->agent.clock_offset_us = (double)l->offset_ns / 1e3;
    res->agent.clock_error_us = (double)l->error_ns / 1e3;
    if (l->cores > 0)
        res->machine_cores = l->cores;
    if (l->pids.npids) {
        res->nwatched = l->pids.npids < RUN_MAX_PIDS ? l->pids.npids : RUN_MAX_PIDS;
        memcpy(res->watched_pids, l->pids.pids, res->nwatched * sizeof *res->watched_pids);
    }
    res->machine_steal_pct = l->steal_ns > 0 ? l->steal_x_ns / (double)l->steal_ns : FIG_UNKNOWN;
    char why[ERR_LEN];
    pthread_mutex_lock((pthread_mutex_t *)&l->mu); /* the reader may still write */
    int dead = l->dead;
    snprintf(why, sizeof why, "%s", dead ? l->why : "it went silent");
    pthread_mutex_unlock((pthread_mutex_t *)&l->mu);
    /* one sample missing at the end, agent alive: a run cut short (SIGINT)
     * before the agent's sample of its last, partial interval */
    int64_t missing = l->last_k_asked - l->last_k_got;
    if (l->last_k_asked > 0 && (missing >= 2 || (missing == 1 && dead))) {
        result_warn(res, "server agent %s: no sample after t=%.1fs (%s): the server's "
                    "figures are n/a from then on", l->url,
                    (double)(l->last_k_got * l->interval_ns) / 1e9, why);
    }
}
