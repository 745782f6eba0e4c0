/* ledger: the one place a request is counted. Every event of a request
 * (written, answered or failed, unfinished at the end, never written) goes
 * through ledger_note with the request's own stamps, and every figure is a
 * view of it: the run's totals, the call's, the stage's, the target's, the
 * interval's, the warmup's, the latency histograms, the censored waits, the
 * request log's row and the first words of each error. Nothing else in
 * the engine writes a count.
 *
 * The words, as the reports use them:
 *   offered    due in the window (intended inside it)
 *   sent       written to the wire
 *   unsent     offered and never written: given up at once (no connection
 *              could take it) or still waiting for one when the run ended
 *   unfinished sent, and no answer when the run was over
 * so offered = sent + unsent and sent = ok + errors + unfinished, per call,
 * per stage, per target and per rank. Intervals count each column by its
 * own stamp (due and unsent by the intended time, sent by the write, ok and
 * errors by the answer's arrival), so their rows add up to the totals; so
 * does a stage's answered (the calls the server answered while it ran, what
 * its CPU was spent on). */
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "client/engine_int.h"
#include "client/reqlog.h"
#include "model/server_cpu.h"

static void ledger_note(struct engine *e, const struct ledger_entry *x);

/* One row of --requests-log (none without it): times from the window's
 * start. wait: at the end of the run, where waiting for the writer costs
 * no measured request its time; otherwise a full ring drops the row. */
static void log_row(struct engine *e, const struct ledger_entry *x, int wait)
{
    struct reqlog *l = e->hooks.reqlog;
    if (!l)
        return;
    const struct request *r = x->r;
    int written = x->ev != LEDGER_UNSENT;
    int ended = x->ev == LEDGER_ENDED;
    struct reqlog_rec rec = {
        .intended_ns = x->intended_ns - e->m0_ns,
        .sent_ns = written ? x->sent_ns - e->m0_ns : -1,
        .end_ns = ended ? x->at_ns - e->m0_ns : -1,
        .bytes_sent = written && r ? r->tx_bytes : 0,
        .bytes_received = ended && r ? r->rx_bytes : 0,
        .verb = x->verb,
        .conn = written && r && r->conn ? r->conn->idx : -1,
        /* unsent: "unsent" when left waiting, its failure's kind when given up */
        .kind = x->ev == LEDGER_UNSENT && x->kind == LEDGER_LEFT ? REQLOG_UNSENT
                : x->ev == LEDGER_UNFINISHED ? REQLOG_UNFINISHED : x->kind,
        .target = e->fleet ? x->lane->index : -1,
    };
    if (wait)
        reqlog_put_wait(l, &rec);
    else
        reqlog_put(l, &rec);
}

/* The first error of kind, of a request to lane l's host: the wire's
 * words for it (the peer's fault, the HTTP status: safe already), else
 * what the last connection failure said, when it was of this kind and
 * this host's, else the kind in general terms, naming this host. */
static void note_error(struct engine *e, int kind, const struct lane *l)
{
    const struct conn_pool *p = &e->pool;
    const struct target *t = l->target;
    int mine = p->conns[p->last_conn].lane == l;
    if (e->res->error_samples[kind][0])
        return;
    if (p->stats.samples[kind][0])
        snprintf(e->res->error_samples[kind], sizeof e->res->error_samples[kind], "%s",
                 p->stats.samples[kind]);
    else if (p->last_kind == kind && p->last_why[0] && mine)
        result_note_error(e->res, kind, "%s", p->last_why);
    else
        result_note_default(e->res, kind, t->host, t->port, p->stats.tls_error);
}

/* The interval of the grid a stamp falls in: interval k ends at m0 + k *
 * interval, so [m0 + (k-1) i, m0 + k i) is k's; k <= 0 is the warmup's. */
static int64_t grid_of(const struct engine *e, int64_t t_ns)
{
    int64_t i = e->cfg->interval_ns, d = t_ns - e->m0_ns;
    return (d >= 0 ? d / i : -((-d + i - 1) / i)) + 1;
}

/* The tally of the interval t_ns falls in, a measured request's in the
 * window's intervals (k >= 1), a warmup request's in the warmup's (k <=
 * 0): an answer stamped after the end joins the last. */
static struct ival_tally *tally_at(struct engine *e, int64_t t_ns, int measured)
{
    struct ledger_ivals *v = &e->ivals;
    int64_t k = grid_of(e, t_ns);
    if (measured && k < 1)
        k = 1;
    if (!measured && k > 0)
        k = 0;
    int64_t at = k - v->k0;
    if (at < 0)
        at = 0;
    if (at >= (int64_t)v->n)
        at = (int64_t)v->n - 1;
    return &v->now[at];
}

/* An answer stamped past the interval the tick is about to close belongs
 * to the next (the loop ran the tick late); only while the grid runs. */
static int ahead(const struct engine *e, int64_t t_ns)
{
    return !engine_ended(e) && grid_of(e, t_ns) > e->tick_k;
}

static void record_latency(struct engine *e, const struct ledger_entry *x, struct verb_result *v,
                           struct stage_result *st)
{
    int64_t lat = (x->at_ns - x->intended_ns) / NS_PER_US;
    int next = ahead(e, x->at_ns);
    hist_record(next ? &e->ival_next : &e->ival_hist, lat);
    if (!x->measured)
        return;
    if (st)
        hist_record(&st->latency, lat);
    hist_record(&e->res->latency, lat);
    hist_record(&v->latency, lat);
    hist_record(&e->res->service, (x->at_ns - x->sent_ns) / NS_PER_US);
    if (x->lane->row)
        hist_record(&x->lane->row->latency, lat);
    /* on_tick: rank 0's hdr log */
    if (e->hooks.on_interval || e->hooks.on_tick || e->hooks.on_snapshot)
        hist_record(next ? &e->hook_next : &e->hook_hist, lat);
}

/* The counters of one view: what the event adds to it (NULL: a figure
 * the view does not keep). */
struct view {
    int64_t *offered, *sent, *unsent, *ok, *errors, *unfinished;
};

static void count_in(const struct view *w, const struct ledger_entry *x)
{
    switch (x->ev) {
    case LEDGER_SENT:
        if (w->offered)
            ++*w->offered;
        if (w->sent)
            ++*w->sent;
        break;
    case LEDGER_ENDED:
        ++*(req_ok(x->kind) ? w->ok : w->errors);
        break;
    case LEDGER_UNFINISHED:
        if (w->unfinished)
            ++*w->unfinished;
        break;
    case LEDGER_UNSENT:
        if (w->offered)
            ++*w->offered;
        if (w->unsent)
            ++*w->unsent;
        break;
    }
}

/* The measured views: the run, the call, the stage and the target. */
static void count_measured(struct engine *e, const struct ledger_entry *x, struct verb_result *v,
                           struct stage_result *st)
{
    struct run_result *res = e->res;
    struct view run = {&res->offered, &res->sent, &res->unsent, &res->ok, &res->errors,
                       &res->unfinished};
    /* a call keeps no sent of its own: it is requests - unsent */
    struct view call = {&v->requests, NULL, &v->unsent, &v->ok, &v->errors, &v->unfinished};
    count_in(&run, x);
    count_in(&call, x);
    if (st) {
        struct view stage = {&st->offered, &st->sent, &st->unsent, &st->ok, &st->errors,
                             &st->unfinished};
        count_in(&stage, x);
    }
    if (x->lane->row) {
        struct target_result *t = x->lane->row;
        struct view host = {&t->offered, &t->sent, &t->unsent, &t->ok, &t->errors,
                            &t->unfinished};
        count_in(&host, x);
    }
}

/* The interval views, each column by its own stamp; the warmup's totals. */
static void count_intervals(struct engine *e, const struct ledger_entry *x)
{
    if (!e->ivals.n)
        return;
    int m = x->measured;
    switch (x->ev) {
    case LEDGER_SENT:
        tally_at(e, x->intended_ns, m)->due++;
        tally_at(e, x->sent_ns, m)->sent++;
        break;
    case LEDGER_ENDED:
        ++*(req_ok(x->kind) ? &tally_at(e, x->at_ns, m)->ok : &tally_at(e, x->at_ns, m)->errors);
        break;
    case LEDGER_UNSENT:
        tally_at(e, x->intended_ns, m)->due++;
        tally_at(e, x->intended_ns, m)->unsent++;
        break;
    case LEDGER_UNFINISHED:
        break;
    }
}

static void count_warmup(struct engine *e, const struct ledger_entry *x)
{
    struct warmup_counts *w = &e->res->warmup;
    struct view warm = {NULL, &w->sent, &w->unsent, &w->ok, &w->errors, NULL};
    count_in(&warm, x);
}

/* The lags of a write: every send's from its intended time, and the
 * pacer's own precision (sends that did not wait for a busy connection,
 * nor for one opened for them); whether it waited for a busy one. */
static void record_send(struct engine *e, const struct ledger_entry *x)
{
    struct run_result *res = e->res;
    int64_t lag = (x->sent_ns - x->intended_ns) / NS_PER_US;
    hist_record(&res->send_lag, lag);
    if (!x->queued && !x->on_demand)
        hist_record(&res->pacing_lag, lag);
    res->queued += x->queued;
}

/* A call the server answered counts in the stage its answer arrived in,
 * whose CPU was spent on it (its other counts go by intended time): the
 * divisor of the stage's CPU per call. */
static void count_answered(struct engine *e, const struct ledger_entry *x)
{
    struct stage_result *st = engine_stage_at(e, x->at_ns);
    if (st && result_kind_answered(x->kind))
        st->answered++;
}

/* What the event says beyond the counts: lags, latencies, censored
 * waits, error kinds and samples, the log's row. */
static void record_measured(struct engine *e, const struct ledger_entry *x, struct verb_result *v,
                            struct stage_result *st)
{
    struct run_result *res = e->res;
    switch (x->ev) {
    case LEDGER_SENT:
        record_send(e, x);
        return; /* its row is written when it ends */
    case LEDGER_ENDED:
        count_answered(e, x);
        if (req_ok(x->kind)) {
            record_latency(e, x, v, st);
        } else {
            res->err[x->kind]++;
            note_error(e, x->kind, x->lane);
        }
        log_row(e, x, 0);
        return;
    case LEDGER_UNFINISHED:
        result_censor(res, x->verb, (x->at_ns - x->intended_ns) / NS_PER_US);
        log_row(e, x, 1);
        return;
    case LEDGER_UNSENT:
        res->queued += x->queued;
        /* Given up (no connection could take it): a failure, which has no
         * latency, as an error has none. Left waiting at the end: its wait
         * is censored once the run is over (engine_censor_unsent). */
        if (x->kind != LEDGER_LEFT) {
            res->unsent_failed++;
            v->unsent_failed++;
            if (st)
                st->unsent_failed++;
            res->unsent_kind = x->kind;
            note_error(e, x->kind, x->lane);
        }
        log_row(e, x, x->kind == LEDGER_LEFT);
        return;
    }
}

static void ledger_note(struct engine *e, const struct ledger_entry *x)
{
    count_intervals(e, x);
    if (x->ev == LEDGER_ENDED && req_ok(x->kind) && !x->measured)
        record_latency(e, x, NULL, NULL); /* a warmup answer: its interval's figures */
    if (!x->measured) {
        count_warmup(e, x);
        return;
    }
    struct verb_result *v = &e->res->verbs[x->verb];
    struct stage_result *st = engine_stage(e, x->intended_ns);
    count_measured(e, x, v, st);
    record_measured(e, x, v, st);
}

/* The entry of request r (its verb, stamps and lane l) for event ev. */
static struct ledger_entry entry_of(struct lane *l, const struct request *r,
                                    enum ledger_event ev, int kind, int64_t at_ns)
{
    return (struct ledger_entry){
        .ev = ev, .kind = kind, .r = r, .verb = r->verb, .measured = r->measured, .lane = l,
        .intended_ns = r->intended_ns, .sent_ns = r->sent_ns, .at_ns = at_ns,
    };
}

void ledger_sent(struct engine *e, const struct request *r, int queued, int on_demand)
{
    struct ledger_entry x = entry_of(r->conn->lane, r, LEDGER_SENT, REQ_OK, r->sent_ns);
    x.queued = queued;
    x.on_demand = on_demand;
    ledger_note(e, &x);
}

/* conn_events.response_done, and the ring's expire: r ended with kind. A
 * request that failed before its first byte went out (the write failed:
 * sent_ns 0) was never sent: it is unsent, given up. */
void engine_request_ended(void *owner, struct request *r, int kind)
{
    struct engine *e = owner;
    /* An answer's time is its arrival, not when the loop got to it. */
    int64_t now = req_ok(kind) && r->done_ns ? r->done_ns : clock_now_ns();
    e->outstanding--;
    struct ledger_entry x =
        entry_of(r->conn->lane, r, r->sent_ns ? LEDGER_ENDED : LEDGER_UNSENT, kind, now);
    ledger_note(e, &x);
    r->measured = 0;
    if (e->phase == PHASE_DRAINING && e->outstanding == 0)
        ev_break(e->loop, EVBREAK_ALL);
}

/* A request that is due and cannot go anywhere because every connection is
 * waiting to reconnect: given up now, rather than piling up, with the kind
 * of the last connection failure (connect, handshake, closed...). Its verb
 * was taken with its time (a periodic call's own, or the mix's next), so
 * it counts under the call it was for and the mix's rotation holds. */
void engine_fail_unconnectable(struct engine *e, struct lane *l, int64_t intended, int verb)
{
    struct request r = {.verb = verb, .intended_ns = intended,
                        .measured = intended >= e->m0_ns && intended < e->end_ns};
    /* this host's kind (a fleet's others may fail otherwise) */
    struct ledger_entry x =
        entry_of(l, &r, LEDGER_UNSENT, lanes_last_kind(e, l), clock_now_ns());
    ledger_note(e, &x);
}

/* One request due in the window that was never written: every connection
 * was busy when the run ended. Its wait is censored once the run is over. */
static void count_one_unsent(struct engine *e, struct lane *l, int verb, int64_t t)
{
    struct request r = {.verb = verb, .intended_ns = t, .measured = 1};
    struct ledger_entry x = entry_of(l, &r, LEDGER_UNSENT, LEDGER_LEFT, 0);
    x.queued = 1; /* it waited for a busy connection until the end */
    ledger_note(e, &x);
}

/* Lane l's calls on their own schedules (a periodic call's, a replay's
 * recorded calls) due in the window and never sent, walked on copies:
 * l->periodic and l->replay stay where the sends stopped, for
 * engine_censor_unsent to walk again (nothing sends after the end).
 * censor 0 counts them, 1 censors their waits. */
static void walk_unsent_own(struct engine *e, struct lane *l, int censor)
{
    struct periodic p = l->periodic;
    struct replay_sched s = l->replay;
    int verb;
    for (;;) {
        int64_t tp = periodic_peek(&p, NULL);
        int64_t tr = e->rec ? replay_sched_peek(&s, NULL) : SCHED_NEVER;
        if ((tp < tr ? tp : tr) >= e->end_ns)
            return;
        int64_t t = tp < tr ? periodic_take(&p, &verb) : replay_sched_take(&s, &verb);
        if (t < e->m0_ns)
            continue;
        if (censor)
            result_censor(e->res, verb, (e->over_ns - t) / NS_PER_US);
        else
            count_one_unsent(e, l, verb, t);
    }
}

/* The requests due in the window that never went out (every connection
 * was busy): unsent, the mix's each given the verb the mix had next, a
 * periodic call's its own. Where the mix's began is kept for
 * ledger_censor_unsent. */
void engine_count_unsent(struct engine *e, struct lane *l)
{
    if (e->cfg->rate <= 0) /* a closed loop has no schedule */
        return;
    walk_unsent_own(e, l, 0);
    if (e->mix_off)
        return;
    l->unsent = l->sched;
    memcpy(l->unsent_wrr, l->wrr_current, sizeof l->unsent_wrr);
    l->have_unsent = 1;
    while (sched_peek(&l->sched) < e->end_ns) {
        int64_t t = sched_take(&l->sched);
        if (t >= e->m0_ns)
            count_one_unsent(e, l, engine_pick_verb(e, l), t);
    }
}

/* The run is over (e->over_ns): the requests count_unsent counted had no
 * answer by then either, so their latency is at least that wait
 * (censored). The same schedules and verb picks, replayed: nothing was
 * stored per request. */
void engine_censor_unsent(struct engine *e, struct lane *l)
{
    if (e->cfg->rate > 0)
        walk_unsent_own(e, l, 1);
    if (!l->have_unsent)
        return;
    struct sched s = l->unsent;
    memcpy(l->wrr_current, l->unsent_wrr, sizeof l->wrr_current);
    while (sched_peek(&s) < e->end_ns) {
        int64_t t = sched_take(&s);
        if (t >= e->m0_ns)
            result_censor(e->res, engine_pick_verb(e, l), (e->over_ns - t) / NS_PER_US);
    }
}

/* A measured request still in flight when the run is over: unfinished,
 * its latency at least its wait until then (censored). */
void engine_count_in_flight(void *owner, const struct request *r)
{
    struct engine *e = owner;
    if (!r->sent_ns) /* never written: its write is what failed */
        return;
    struct ledger_entry x = entry_of(r->conn->lane, r, LEDGER_UNFINISHED, LEDGER_LEFT, e->over_ns);
    ledger_note(e, &x);
}

/* The interval grid's tallies: warmup and window, and one more for
 * the stamps after the end. @return 0, or -1 out of memory. */
int ledger_ivals_init(struct engine *e, int64_t k0)
{
    const struct run_config *cfg = e->cfg;
    int64_t n = (cfg->duration_ns + cfg->interval_ns - 1) / cfg->interval_ns + 2 - k0;
    struct ledger_ivals *v = &e->ivals;
    v->k0 = k0;
    v->n = (size_t)n;
    v->now = calloc(v->n, sizeof *v->now);
    v->shown = calloc(v->n, sizeof *v->shown);
    return v->now && v->shown ? 0 : -1;
}

const struct ival_tally *ledger_ival_close(struct engine *e, int64_t k)
{
    struct ledger_ivals *v = &e->ivals;
    int64_t at = k - v->k0;
    if (!v->n || at < 0 || at >= (int64_t)v->n)
        return NULL;
    v->shown[at] = v->now[at];
    return &v->now[at];
}

/* What interval at's tally got since it was shown. */
static struct ival_tally late_of(const struct ledger_ivals *v, size_t at)
{
    const struct ival_tally *a = &v->now[at], *b = &v->shown[at];
    return (struct ival_tally){a->due - b->due, a->sent - b->sent, a->unsent - b->unsent,
                               a->ok - b->ok, a->errors - b->errors};
}

static void tally_add(struct interval_rec *r, const struct ival_tally *d)
{
    r->due += d->due;
    r->sent += d->sent;
    r->unsent += d->unsent;
    r->ok += d->ok;
    r->errors += d->errors;
}

struct ival_tally ledger_ivals_settle(struct engine *e)
{
    struct ledger_ivals *v = &e->ivals;
    struct run_result *res = e->res;
    struct ival_tally sum = {0};
    for (size_t at = 0; at < v->n && res->nintervals; at++) {
        int64_t k = (int64_t)at + v->k0;
        if (k < 1)
            continue;
        struct ival_tally d = late_of(v, at);
        size_t i = (size_t)k <= res->nintervals ? (size_t)k - 1 : res->nintervals - 1;
        tally_add(&res->intervals[i], &d);
        v->shown[at] = v->now[at];
        sum.due += d.due, sum.sent += d.sent, sum.unsent += d.unsent;
        sum.ok += d.ok, sum.errors += d.errors;
    }
    return sum;
}

void ledger_ivals_free(struct engine *e)
{
    free(e->ivals.now);
    free(e->ivals.shown);
    e->ivals = (struct ledger_ivals){0};
}
