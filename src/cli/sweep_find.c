/* sweep_find: the capacity searches of `rpcbench sweep --find-max`: one
 * per --proto x --verb, each probe a full run stored as a cell, judged by
 * the conditions and by what limited it (result_limits); the choice of the
 * next rate is judge/capacity.c's. */
#include <stdio.h>
#include <string.h>

#include "base/exit_code.h"
#include "cli/cmd_sweep.h"
#include "judge/capacity.h"
#include "judge/fail_rule.h"

#define MAX_PROBES 64 /* far beyond what 1/s..100000/s at 0.1% needs */

static void search_params(const struct sweep_args *a, size_t ip, size_t ib, double rate,
                          struct sweep_params *p)
{
    memset(p, 0, sizeof *p);
    p->rate = rate;
    p->connections = a->conns[0];
    p->vms = a->vms[0];
    snprintf(p->proto, sizeof p->proto, "%s", a->protos[ip]);
    snprintf(p->verb, sizeof p->verb, "%s", a->verbs[ib]);
}

int sweep_find_check(struct sweep_cmd *c, char *err)
{
    static struct run_config cfg;
    for (size_t ip = 0; ip < c->a->nprotos; ip++)
        for (size_t ib = 0; ib < c->a->nverbs; ib++) {
            struct sweep_params p;
            search_params(c->a, ip, ib, c->a->rate_min, &p);
            if (sweep_cell_config(c->o, &p, &cfg, err))
                return -1;
            /* no --proto: run's default, named in the search */
            snprintf(c->a->protos[ip], sizeof c->a->protos[ip], "%s", cfg.encoding);
            if (condition_check_verbs(&c->a->find, &cfg, err)) {
                cli_name_error("--find-max", err); /* a verb this search does not send */
                return -1;
            }
        }
    return 0;
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
static const struct run_result *first_held(const struct sweep_cmd *c, long ci)
{
    const struct sweep_capacity *cap = &c->s.caps[ci];
    for (size_t k = 0; k < cap->nprobes; k++) {
        const struct sweep_cell *cell = &c->s.cells[cap->probes[k].cell];
        if (cap->probes[k].pass && cell->nreps)
            return &cell->reps[0];
    }
    return NULL;
}

/* One probe at rate, as a new cell, judged into the search's probes.
 * @return 0, 1 interrupted, -1 with err. */
static int probe(struct sweep_cmd *c, long ci, size_t ip, size_t ib, double rate,
                 const char *what, char *err)
{
    static struct run_config cfg;
    struct sweep_params p;
    search_params(c->a, ip, ib, rate, &p);
    if (sweep_cell_config(c->o, &p, &cfg, err))
        return -1;
    snprintf(p.proto, sizeof p.proto, "%s", cfg.encoding);
    long cell = sweep_add_cell(&c->s, &p);
    if (cell < 0) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    int rc = sweep_run_cell(c, (size_t)cell, &cfg, what, err);
    if (rc || c->s.cells[cell].nreps == 0)
        return rc ? rc : -1;
    const struct run_result *r = &c->s.cells[cell].reps[0];
    struct sweep_probe pr = {.rate = rate, .cell = (size_t)cell};
    judge(&c->a->find, r, first_held(c, ci), &pr);
    if (!c->o->cfg.quiet)
        fprintf(stderr, "sweep %s: %g/s %s%s%s%s\n", what, rate, pr.pass ? "holds" : "breaks",
                pr.reason[0] ? ": " : "", pr.reason,
                result_limits(r) & RESULT_LATE_PACER
                    ? " (the pacer sent late; the latencies include it)" : "");
    if (sweep_add_probe(&c->s.caps[ci], &pr) == 0)
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
static int probe_rate(struct sweep_cmd *c, long ci, size_t ip, size_t ib, double rate,
                      size_t k, size_t nsearches, int *pass, char *err)
{
    int rc = 0;
    *pass = 0;
    for (int tries = 0; rc == 0 && tries < 2 && !*pass; tries++) {
        const struct sweep_capacity *cap = &c->s.caps[ci];
        char what[120];
        snprintf(what, sizeof what, "search %zu/%zu probe %zu%s", k + 1, nsearches,
                 cap->nprobes + 1, tries ? " (confirming the break)" : "");
        rc = probe(c, ci, ip, ib, rate, what, err);
        if (rc == 0)
            *pass = c->s.caps[ci].probes[c->s.caps[ci].nprobes - 1].pass;
    }
    return rc;
}

/* One search to its end. @return 0 (done, or interrupted: c->interrupted),
 * -1 with err. */
static int search(struct sweep_cmd *c, size_t ip, size_t ib, size_t k, size_t nsearches,
                  char *err)
{
    const struct sweep_args *a = c->a;
    long ci = sweep_add_capacity(&c->s, a->protos[ip], a->verbs[ib], a->find_text);
    if (ci < 0) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    struct capacity_bounds b = {a->rate_min, a->rate_max, a->resolution};
    struct capacity_state st;
    double rates[MAX_PROBES];
    int pass[MAX_PROBES];
    for (size_t n = 0;; n++) {
        struct sweep_capacity *cap = &c->s.caps[ci]; /* cells may move, caps not */
        capacity_step(&b, rates, pass, n, &st);
        cap->max_good_rate = st.good;
        cap->first_bad_rate = st.bad;
        if (st.done || n == MAX_PROBES) { /* MAX_PROBES: keep what is bracketed */
            cap->outcome = st.done ? st.outcome : CAPACITY_FOUND;
            return 0;
        }
        int rc = probe_rate(c, ci, ip, ib, st.next, k, nsearches, &pass[n], err);
        if (rc) {
            c->s.caps[ci].outcome = CAPACITY_INTERRUPTED;
            c->interrupted = rc > 0 ? rc : 0; /* the signal */
            return rc > 0 ? 0 : -1;
        }
        rates[n] = st.next; /* one verdict per rate: a confirmed break counts once */
    }
}

int sweep_find_run(struct sweep_cmd *c, char *err)
{
    c->s.repeats = 1; /* each probe is one run */
    size_t n = c->a->nprotos * c->a->nverbs, k = 0;
    for (size_t ip = 0; ip < c->a->nprotos; ip++)
        for (size_t ib = 0; ib < c->a->nverbs; ib++, k++) {
            if (search(c, ip, ib, k, n, err))
                return -1;
            if (c->interrupted)
                return 0;
        }
    return 0;
}

int sweep_find_exit(const struct sweep_cmd *c)
{
    int code = EXIT_OK;
    for (size_t i = 0; i < c->s.ncaps; i++) {
        if (c->s.caps[i].outcome == CAPACITY_MIN_BREAKS)
            return EXIT_MIN_BREAKS; /* the worst: no later search can change it */
        if (c->s.caps[i].outcome == CAPACITY_MAX_HOLDS)
            code = EXIT_MAX_HOLDS;
    }
    return code;
}
