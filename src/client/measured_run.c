/* measured_run: one measured run (see measured_run.h). */
#include "client/measured_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>

#include "encoders/encoder.h"
#include "client/engine.h"
#include "proc/sampler.h"
#include "client/agent_link.h"
#include "net/target.h"
#include "base/clock.h"
#include "base/units.h"
#include "model/server_cpu.h"

int measured_run_spawn_server(const struct run_config *cfg, struct child_server *cs, char *err)
{
    char vms[16];
    snprintf(vms, sizeof vms, "%d", cfg->vms);
    const char *extra[] = {"--vms", vms, NULL};
    return spawn_server(cs, extra, err);
}

static int resolve_url(const struct run_config *cfg, const struct child_server *cs,
                       char *url, size_t len, char *err)
{
    const struct encoder *enc = enc_find(cfg->encoding);
    if (!enc) {
        snprintf(err, ERR_LEN, "unknown protocol '%s' (xmlrpc or jsonrpc)", cfg->encoding);
        return -1;
    }
    if (cfg->url[0])
        snprintf(url, len, "%s", cfg->url);
    else
        snprintf(url, len, "http://%s%s", cs->hostport, enc->default_path);
    return 0;
}

/* The sampler here, and with --server-agent the link to the server's
 * host (*agent, the caller's to close): then the sampler here only
 * watches this process (the client's CPU), the agent the server. */
static int start_sampler(const struct run_config *cfg, const struct child_server *cs,
                         struct sampler *smp, struct agent_link **agent, struct run_result *res,
                         char *err)
{
    pid_t pids[RUN_MAX_PIDS];
    size_t n = cfg->nserver_pids;
    memcpy(pids, cfg->server_pids, n * sizeof *pids);
    if (cfg->agent_url[0]) {
        char warn[ERR_LEN];
        if (!(*agent = agent_link_open(cfg, warn, err)) || sampler_init(smp, NULL, 0, NULL, err))
            return -1;
        if (warn[0])
            result_warn(res, "%s", warn);
        memcpy(res->watched_pids, pids, n * sizeof *pids);
        res->nwatched = n;
        return 0;
    }
    if (!n && !cfg->server_name[0] && !cfg->url[0] && cs && cs->pid > 0)
        pids[n++] = cs->pid; /* the embedded simulator is watched by default */
    if (sampler_init(smp, pids, n, cfg->server_name[0] ? cfg->server_name : NULL, err))
        return -1;
    memcpy(res->watched_pids, pids, n * sizeof *pids);
    res->nwatched = n;
    return 0;
}

/* What the samples say over the whole window. */
static void summarise(struct run_result *r, const struct sampler *smp)
{
    double busy = 0, load = FIG_UNKNOWN;
    size_t n = 0;
    for (size_t i = 0; i < r->nsamples; i++) {
        const struct proc_point *p = &r->samples[i];
        if (fig_known(p->server_rss_kb) && !fig_known(r->rss_start_kb))
            r->rss_start_kb = p->server_rss_kb;
        if (fig_known(p->server_rss_kb))
            r->rss_end_kb = p->server_rss_kb;
        if (p->server_threads > r->server_threads)
            r->server_threads = p->server_threads;
        if (fig_known(p->machine_busy_pct)) {
            busy += p->machine_busy_pct;
            n++;
        }
        if (fig_known(p->loadavg1)) /* the last one read */
            load = p->loadavg1;
    }
    r->machine_busy_pct = n ? busy / (double)n : FIG_UNKNOWN;
    r->loadavg1 = load;
    r->machine_cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    r->machine_steal_pct = sampler_steal_pct(smp); /* jiffies over the window, exact */
    r->server_vanished = smp->vanished;
    if (smp->name[0] && smp->npids) {
        /* by name: report the pids last seen (kept when the tree is gone) */
        r->nwatched = smp->npids < RUN_MAX_PIDS ? smp->npids : RUN_MAX_PIDS;
        memcpy(r->watched_pids, smp->pids, r->nwatched * sizeof *smp->pids);
    }
}

/* Sleeps until the CLOCK_MONOTONIC instant at_ns. */
static void sleep_until(int64_t at_ns)
{
    struct timespec ts = {.tv_sec = at_ns / NS_PER_S, .tv_nsec = at_ns % NS_PER_S};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ; /* a signal that did not end the process: sleep on */
}

/* The idle baseline (server_cpu.h): the server sampled alone for the
 * configured time before any connection is made, in 10 to 60 intervals
 * (their spread gives the idle figure's standard error). */
static void idle_baseline(const struct run_config *cfg, struct sampler *smp,
                          struct run_result *res)
{
    int64_t d = server_cpu_idle_ns(cfg);
    if (d <= 0 || (smp->npids == 0 && !smp->name[0]))
        return;
    int64_t n = d / (cfg->interval_ns > 0 ? cfg->interval_ns : NS_PER_S);
    n = n < 10 ? 10 : n > 60 ? 60 : n;
    double x[60], w[60];
    size_t k = 0;
    if (!cfg->quiet)
        fprintf(stderr, "idle baseline: sampling the server for %.1fs before the load\n",
                (double)d / 1e9);
    int64_t t0 = clock_now_ns(), prev = t0;
    sampler_start(smp, t0);
    for (int64_t i = 1; i <= n; i++) {
        struct proc_point p;
        sleep_until(t0 + d * i / n);
        int64_t now = clock_now_ns();
        sampler_sample(smp, now, &p);
        if (fig_known(p.server_pct)) {
            x[k] = p.server_pct;
            w[k++] = (double)(now - prev) / 1e9;
        }
        prev = now;
    }
    res->idle.duration_s = (double)(prev - t0) / 1e9;
    res->idle.n = (int)k;
    res->idle.quiet_pct = FIG_UNKNOWN;
    for (size_t i = 0; i < k; i++)
        if (!fig_known(res->idle.quiet_pct) || x[i] < res->idle.quiet_pct)
            res->idle.quiet_pct = x[i];
    server_cpu_wstats(x, w, k, &res->idle.mean_pct, &res->idle.se_pct);
}

/* CPUs this process may run on (its affinity, which an embedded server
 * inherits), or 0 when unknown. */
static int usable_cpus(void)
{
    cpu_set_t set;
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

int measured_run(const struct run_config *cfg, const struct run_hooks *hooks,
                 const struct child_server *cs, struct run_result *res, char *err)
{
    struct target target;
    struct sampler smp;
    if (result_init(res, cfg)) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    const struct encoder *enc = enc_find(cfg->encoding);
    if (resolve_url(cfg, cs, res->target_url, sizeof res->target_url, err) ||
        target_parse(res->target_url, enc->default_path, &target, err))
        return -1;
    /* No probe first: the engine's first connection tells an unreachable
     * target (a connection closed without a byte disturbs VDSM). */
    struct agent_link *agent = NULL;
    if (start_sampler(cfg, cs, &smp, &agent, res, err)) {
        agent_link_close(agent);
        return -1;
    }
    idle_baseline(cfg, &smp, res);
    int rc = engine_run(cfg, hooks, &target, &smp, agent, res, err), remote = agent != NULL;
    if (rc == 0 && remote) {
        summarise(res, &smp);
        agent_link_summarise(agent, res);
    }
    agent_link_close(agent);
    if (rc)
        return -1;
    if (res->handshakes == 0 && res->tls_failures > 0) { /* never got through TLS */
        snprintf(err, ERR_LEN, "%.200s", res->tls_error);
        return -1;
    }
    if (!remote)
        summarise(res, &smp);
    result_check_warnings(res);
    result_refuse_idle(res);
    result_warn_idle(res);
    if (cfg->busy_poll && usable_cpus() == 1)
        result_warn(res, "--busy-poll on a single CPU: the polling client takes it from everything "
                         "else, a server on this machine included");
    return 0;
}
