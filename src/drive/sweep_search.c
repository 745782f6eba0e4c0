/* sweep_search: the capacity searches (sweep_search.h). */
#include "drive/sweep_search.h"

#include <stdio.h>
#include <string.h>

#include "base/exit_code.h"
#include "judge/capacity.h"
#include "judge/fail_rule.h"

#define MAX_PROBES 64 /* far beyond what 1/s..100000/s at 0.1% needs */

void sweep_search_params(const struct sweep_search_plan *plan, size_t ip, size_t ib, double rate,
                         struct sweep_params *p)
{
    memset(p, 0, sizeof *p);
    p->rate = rate;
    p->connections = plan->connections;
    p->vms = plan->vms;
    snprintf(p->proto, sizeof p->proto, "%s", plan->protos[ip]);
    snprintf(p->verb, sizeof p->verb, "%s", plan->verbs[ib]);
}

/* Judges probe result r into p: pass, or the first failed condition (or
 * the failures rule, against base, the search's first probe that held:
 * NULL before one did) and what limited the run, as its reason. */
static void judge(const struct cond_list *l, const struct run_result *r,
                  const struct run_result *base, struct sweep_probe *p)
{
    struct cond_result res[COND_MAX];
    condition_eval_list(l, r, res);
    /* A late pacer (the rate held, some sends late) is no break: latency
     * counts from the intended send time, so the conditions already see
     * the lateness; on a busy machine it comes and goes with other
     * processes, and would end a search far below the server's capacity.
     * Queueing for a connection alone is none either: the latency
     * conditions see it, and the rate rule when it costs the rate. */
    unsigned lim = result_limits(r) & (RESULT_SATURATED | RESULT_CLIENT_BOUND |
                                       RESULT_RATE_NOT_HELD);
    char cond[160] = "", limits[130];
    for (size_t k = 0; k < l->n && !cond[0]; k++)
        if (!res[k].pass)
            condition_describe(&l->c[k], &res[k], cond, sizeof cond);
    /* failing requests break a probe unless COND says what may fail: a
     * rate the server answers with errors is no capacity */
    if (!cond[0] && !fail_rule_allowed(l))
        fail_rule_judge(r, base, cond, sizeof cond);
    result_limits_text(r, lim, limits, sizeof limits);
    p->pass = !cond[0] && !limits[0];
    snprintf(p->reason, sizeof p->reason, "%s%s%s", cond, cond[0] && limits[0] ? "; " : "",
             limits);
}

/* @return the run of search ci's first probe that held (the failures
 * rule's baseline: a rate the server served as it should), or NULL. */
static const struct run_result *first_held(const struct sweep_runs *w, long ci)
{
    const struct sweep_capacity *cap = &w->s.caps[ci];
    for (size_t k = 0; k < cap->nprobes; k++) {
        const struct sweep_cell *cell = &w->s.cells[cap->probes[k].cell];
        if (cap->probes[k].pass && cell->nreps)
            return &cell->reps[0];
    }
    return NULL;
}

/* One probe at rate, as a new cell, judged into the search's probes.
 * @return 0, 1 interrupted, -1 with err. */
static int probe(struct sweep_runs *w, const struct sweep_search_plan *plan, long ci, size_t ip,
                 size_t ib, double rate, const char *what, char *err)
{
    static struct run_config cfg;
    struct sweep_params p;
    sweep_search_params(plan, ip, ib, rate, &p);
    if (plan->config(plan->ctx, &p, &cfg, err))
        return -1;
    snprintf(p.proto, sizeof p.proto, "%s", cfg.encoding);
    long cell = sweep_add_cell(&w->s, &p);
    if (cell < 0) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    int rc = sweep_runs_cell(w, (size_t)cell, &cfg, what, err);
    if (rc || w->s.cells[cell].nreps == 0)
        return rc ? rc : -1;
    const struct run_result *r = &w->s.cells[cell].reps[0];
    struct sweep_probe pr = {.rate = rate, .cell = (size_t)cell};
    judge(plan->find, r, first_held(w, ci), &pr);
    if (!w->quiet)
        fprintf(stderr, "sweep %s: %g/s %s%s%s%s\n", what, rate, pr.pass ? "holds" : "breaks",
                pr.reason[0] ? ": " : "", pr.reason,
                result_limits(r) & RESULT_LATE_PACER
                    ? " (the pacer sent late; the latencies include it)" : "");
    if (sweep_add_probe(&w->s.caps[ci], &pr) == 0)
        return 0;
    snprintf(err, ERR_LEN, "out of memory");
    return -1;
}

/* The verdict on rate. A break is made once more, and the rate breaks
 * only when both runs do: one stall of a busy machine (another process,
 * the hypervisor) can push a p99 past its bound at any rate, and would
 * end the search far below the server's capacity; a rate truly beyond it
 * breaks every time. Both runs are probes. @return 0 with *pass, 1
 * interrupted, -1 with err. */
static int probe_rate(struct sweep_runs *w, const struct sweep_search_plan *plan, long ci,
                      size_t ip, size_t ib, double rate, size_t k, int *pass, char *err)
{
    int rc = 0;
    *pass = 0;
    for (int tries = 0; rc == 0 && tries < 2 && !*pass; tries++) {
        const struct sweep_capacity *cap = &w->s.caps[ci];
        char what[120];
        snprintf(what, sizeof what, "search %zu/%zu probe %zu%s", k + 1,
                 plan->nprotos * plan->nverbs, cap->nprobes + 1,
                 tries ? " (confirming the break)" : "");
        rc = probe(w, plan, ci, ip, ib, rate, what, err);
        if (rc == 0)
            *pass = w->s.caps[ci].probes[w->s.caps[ci].nprobes - 1].pass;
    }
    return rc;
}

/* One search to its end. @return 0 (done, or interrupted: w->interrupted),
 * -1 with err. */
static int search(struct sweep_runs *w, const struct sweep_search_plan *plan, size_t ip,
                  size_t ib, size_t k, char *err)
{
    long ci = sweep_add_capacity(&w->s, plan->protos[ip], plan->verbs[ib], plan->find_text);
    if (ci < 0) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    struct capacity_bounds b = {plan->rate_min, plan->rate_max, plan->resolution};
    struct capacity_state st;
    double rates[MAX_PROBES];
    int pass[MAX_PROBES];
    for (size_t n = 0;; n++) {
        struct sweep_capacity *cap = &w->s.caps[ci]; /* cells may move, caps not */
        capacity_step(&b, rates, pass, n, &st);
        cap->max_good_rate = st.good;
        cap->first_bad_rate = st.bad;
        if (st.done || n == MAX_PROBES) { /* MAX_PROBES: keep what is bracketed */
            cap->outcome = st.done ? st.outcome : CAPACITY_FOUND;
            return 0;
        }
        int rc = probe_rate(w, plan, ci, ip, ib, st.next, k, &pass[n], err);
        if (rc) {
            w->s.caps[ci].outcome = CAPACITY_INTERRUPTED;
            w->interrupted = rc > 0 ? rc : 0; /* the signal */
            return rc > 0 ? 0 : -1;
        }
        rates[n] = st.next; /* one verdict per rate: a confirmed break counts once */
    }
}

int sweep_search_run(struct sweep_runs *w, const struct sweep_search_plan *plan, char *err)
{
    w->s.repeats = 1; /* each probe is one run */
    size_t k = 0;
    for (size_t ip = 0; ip < plan->nprotos; ip++)
        for (size_t ib = 0; ib < plan->nverbs; ib++, k++) {
            if (search(w, plan, ip, ib, k, err))
                return -1;
            if (w->interrupted)
                return 0;
        }
    return 0;
}

int sweep_search_exit(const struct sweep_runs *w)
{
    int code = EXIT_OK;
    for (size_t i = 0; i < w->s.ncaps; i++) {
        if (w->s.caps[i].outcome == CAPACITY_MIN_BREAKS)
            return EXIT_MIN_BREAKS; /* the worst: no later search can change it */
        if (w->s.caps[i].outcome == CAPACITY_MAX_HOLDS)
            code = EXIT_MAX_HOLDS;
    }
    return code;
}
