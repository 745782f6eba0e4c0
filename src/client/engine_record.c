/* engine_record: what a run writes into its result, and only here and
 * in the timeline: a request's end (ok, error kind, latency from its
 * intended time), the first words of each error, the requests that never
 * went out or never came back (unfinished, censored), the
 * connections' counts at the end, and each measured request's row for
 * --requests-log (client/reqlog.h). Called by the dispatch and the loop
 * (engine_dispatch.c, engine.c); calls neither. */
#include <stdio.h>

#include "base/clock.h"
#include "client/engine_int.h"
#include "client/reqlog.h"

/* One row of --requests-log (none without it): times from the window's
 * start; sent_ns, end_ns 0 when the request never went out or never
 * ended. wait: at the end of the run, where waiting for the writer costs
 * no measured request its time; otherwise a full ring drops the row. */
static void log_request(struct engine *e, const struct request *r, int64_t sent_ns,
                        int64_t end_ns, int kind, int wait)
{
    struct reqlog *l = e->hooks.reqlog;
    if (!l)
        return;
    const struct conn *c = sent_ns ? r->conn : NULL;
    struct reqlog_rec rec = {
        .intended_ns = r->intended_ns - e->m0_ns,
        .sent_ns = sent_ns ? sent_ns - e->m0_ns : -1,
        .end_ns = end_ns ? end_ns - e->m0_ns : -1,
        .bytes_sent = !c ? 0 : r->tx_bytes,
        .bytes_received = end_ns ? r->rx_bytes : 0,
        .verb = r->verb,
        .conn = c ? c->idx : -1,
        .kind = kind,
        /* a fleet's host: the connection's, or the lane entered for one never sent */
        .target = !e->nlanes ? -1 : c ? lane_of_conn(e, c) : e->lane_at,
    };
    if (wait)
        reqlog_put_wait(l, &rec);
    else
        reqlog_put(l, &rec);
}

/* Smooth weighted round robin (nginx's): a deterministic interleaving that
 * honours the weights over every window, e.g. list:4,getAllVmStats:1 gives
 * L L G L L, like the engine's 3 s ticks did. */
int engine_pick_verb(struct engine *e)
{
    const struct run_config *cfg = e->cfg;
    int total = 0, best = 0;
    for (size_t i = 0; i < cfg->nverbs; i++) {
        e->wrr_current[i] += (int)cfg->verbs[i].weight;
        total += (int)cfg->verbs[i].weight;
        if (e->wrr_current[i] > e->wrr_current[best])
            best = (int)i;
    }
    e->wrr_current[best] -= total;
    return best;
}

/* The first error of kind, of a request to lane's host (0 without
 * lanes): the wire's words for it (the peer's fault, the HTTP status:
 * safe already), else what the last connection failure said, when it was
 * of this kind and this host's, else the kind in general terms, naming
 * this host (a fleet's entered lane may be another's). */
static void note_error(struct engine *e, int kind, int lane)
{
    const struct conn_pool *p = &e->pool;
    const struct target *t = e->nlanes ? e->lanes[lane].target : e->target;
    int mine = !e->nlanes || lane_of_conn(e, &p->conns[p->last_conn]) == lane;
    if (p->stats.samples[kind][0])
        snprintf(e->res->error_samples[kind], sizeof e->res->error_samples[kind], "%s",
                 p->stats.samples[kind]);
    else if (p->last_kind == kind && p->last_why[0] && mine)
        result_note_error(e->res, kind, "%s", p->last_why);
    else
        result_note_default(e->res, kind, t->host, t->port, p->stats.tls_error);
}

/* What the connections counted (conn_stats), into the result: once, when
 * the run is over; the result has no other writer. */
void engine_fold_conn_stats(struct engine *e)
{
    const struct conn_stats *s = &e->pool.stats;
    struct run_result *res = e->res;
    res->reconnects += s->reconnects;
    for (int i = 0; i < CONN_CAUSES; i++)
        res->conn_failures[i] += s->failures[i];
    res->handshakes += s->handshakes;
    if (s->handshake.counts)
        hist_merge(&res->handshake, &s->handshake);
    res->tls_failures += s->tls_failures;
    if (s->tls_error[0])
        snprintf(res->tls_error, sizeof res->tls_error, "%s", s->tls_error);
    res->stomp_errors += s->stomp_errors;
    res->stomp_bad_frames += s->stomp_bad_frames;
    if (s->stomp_error[0])
        snprintf(res->stomp_error, sizeof res->stomp_error, "%s", s->stomp_error);
    res->stray_replies += s->stray_replies;
    res->bytes_sent += s->bytes_sent;
    res->bytes_received += s->bytes_received;
    res->checks.checked += s->checks.checked;
    res->checks.failed += s->checks.failed;
    res->checks.ns += s->checks.ns;
}

/* conn_events.response_done, and the ring's expire: r ended with kind. */
void engine_request_ended(void *owner, struct request *r, int kind)
{
    struct engine *e = owner;
    struct run_result *res = e->res;
    /* An answer's time is its arrival, not when the loop got to it. */
    int64_t now = req_ok(kind) && r->done_ns ? r->done_ns : clock_now_ns();
    struct ival_counts *ic = r->measured ? &e->ival : &e->warm;
    e->outstanding--;
    if (req_ok(kind)) {
        ic->ok++;
        hist_record(&e->ival_hist, (now - r->intended_ns) / NS_PER_US);
    } else {
        ic->errors++;
    }
    if (!r->measured)
        *(req_ok(kind) ? &res->warmup.ok : &res->warmup.errors) += 1;
    if (r->measured) {
        struct verb_result *v = &res->verbs[r->verb];
        struct stage_result *st = engine_stage(e, r->intended_ns);
        if (st) /* by its intended time: the stage that offered it */
            *(req_ok(kind) ? &st->ok : &st->errors) += 1;
        if (req_ok(kind)) {
            int64_t lat = (now - r->intended_ns) / NS_PER_US;
            if (st)
                hist_record(&st->latency, lat);
            res->ok++;
            v->ok++;
            hist_record(&res->latency, lat);
            hist_record(&v->latency, lat);
            hist_record(&res->service, (now - r->sent_ns) / NS_PER_US);
            lanes_count(e, lane_of_conn(e, r->conn), kind, lat);
            /* on_tick: rank 0's hdr log */
            if (e->hooks.on_interval || e->hooks.on_tick || e->hooks.on_snapshot)
                hist_record(&e->hook_hist, lat);
        } else {
            res->errors++;
            res->err[kind]++;
            v->errors++;
            lanes_count(e, lane_of_conn(e, r->conn), kind, 0);
            if (!res->error_samples[kind][0])
                note_error(e, kind, lane_of_conn(e, r->conn));
        }
        log_request(e, r, r->sent_ns, now, kind, 0);
    }
    r->measured = 0;
    if (e->phase == PHASE_DRAINING && e->outstanding == 0)
        ev_break(e->loop, EVBREAK_ALL);
}

/* A request that is due and cannot go anywhere because every connection is
 * waiting to reconnect: it fails now, rather than piling up, with the kind
 * of the last connection failure (connect, handshake, closed...). Its verb
 * was taken with its time (a periodic call's own, or the mix's next), so
 * it counts under the call it was for and the mix's rotation holds. */
void engine_fail_unconnectable(struct engine *e, int64_t intended, int verb)
{
    int measured = intended >= e->m0_ns && intended < e->end_ns;
    int kind = lanes_last_kind(e); /* this host's (a fleet's others may fail otherwise) */
    if (measured) {
        struct stage_result *st = engine_stage(e, intended);
        if (st) {
            st->sent++;
            st->errors++;
        }
        e->res->sent++;
        e->res->errors++;
        e->res->err[kind]++;
        e->res->verbs[verb].requests++;
        e->res->verbs[verb].errors++;
        lanes_count(e, e->lane_at, LANE_SENT, 0);
        lanes_count(e, e->lane_at, kind, 0);
        if (!e->res->error_samples[kind][0])
            note_error(e, kind, e->lane_at);
        struct request r = {.verb = verb, .intended_ns = intended};
        log_request(e, &r, 0, clock_now_ns(), kind, 0);
    }
    (measured ? &e->ival : &e->warm)->sent++;
    (measured ? &e->ival : &e->warm)->errors++;
    if (!measured) {
        e->res->warmup.sent++;
        e->res->warmup.errors++;
    }
}

/* One measured request due in the window that never went out: sent (as
 * the server never saw it, but the schedule offered it) and unfinished. */
static void count_one_unsent(struct engine *e, int verb, int64_t t)
{
    struct verb_result *v = &e->res->verbs[verb];
    struct stage_result *st = engine_stage(e, t);
    if (st)
        st->sent++;
    e->res->sent++;
    e->res->unfinished++;
    v->requests++;
    v->unfinished++;
    lanes_count(e, e->lane_at, LANE_SENT, 0);
    lanes_count(e, e->lane_at, LANE_UNFINISHED, 0);
    e->ival.sent++; /* in the last interval, as requests.sent has it */
    struct request r = {.verb = verb, .intended_ns = t};
    log_request(e, &r, 0, 0, REQLOG_UNFINISHED, 1);
}

/* The periodic calls' sends due in the window and never sent, walked on
 * a copy: e->periodic stays where the sends stopped, for
 * engine_censor_unsent to walk again (nothing sends after the end).
 * censor 0 counts them, 1 censors their waits. */
static void walk_unsent_periodic(struct engine *e, int censor)
{
    struct periodic p = e->periodic;
    int verb;
    while (periodic_peek(&p, NULL) < e->end_ns) {
        int64_t t = periodic_take(&p, &verb);
        if (t < e->m0_ns)
            continue;
        if (censor)
            result_censor(e->res, verb, (e->over_ns - t) / NS_PER_US);
        else
            count_one_unsent(e, verb, t);
    }
}

/* The requests due in the window that never went out (every connection
 * was busy): unfinished, the mix's each given the verb the mix had next,
 * a periodic call's its own. Where the mix's began is kept for
 * censor_unsent. So sent = ok + errors + unfinished, per call too. */
void engine_count_unsent(struct engine *e)
{
    if (e->cfg->rate <= 0) /* a closed loop has no schedule */
        return;
    walk_unsent_periodic(e, 0);
    if (e->mix_off)
        return;
    e->unsent = e->sched;
    memcpy(e->unsent_wrr, e->wrr_current, sizeof e->unsent_wrr);
    e->have_unsent = 1;
    while (sched_peek(&e->sched) < e->end_ns) {
        int64_t t = sched_take(&e->sched);
        if (t >= e->m0_ns)
            count_one_unsent(e, engine_pick_verb(e), t);
    }
}

/* The run is over (e->over_ns): the requests count_unsent counted had no
 * answer by then either, so their latency is at least that wait
 * (censored). The same schedules and verb picks, replayed: nothing was
 * stored per request. */
void engine_censor_unsent(struct engine *e)
{
    if (e->cfg->rate > 0)
        walk_unsent_periodic(e, 1);
    if (!e->have_unsent)
        return;
    struct sched s = e->unsent;
    memcpy(e->wrr_current, e->unsent_wrr, sizeof e->wrr_current);
    while (sched_peek(&s) < e->end_ns) {
        int64_t t = sched_take(&s);
        if (t >= e->m0_ns)
            result_censor(e->res, engine_pick_verb(e), (e->over_ns - t) / NS_PER_US);
    }
}

/* A measured request still in flight when the run is over: unfinished,
 * its latency at least its wait until then (censored). */
void engine_count_in_flight(void *owner, const struct request *r)
{
    struct engine *e = owner;
    e->res->unfinished++;
    e->res->verbs[r->verb].unfinished++;
    lanes_count(e, lane_of_conn(e, r->conn), LANE_UNFINISHED, 0);
    result_censor(e->res, r->verb, (e->over_ns - r->intended_ns) / NS_PER_US);
    log_request(e, r, r->sent_ns, 0, REQLOG_UNFINISHED, 1);
}
