/* engine_dispatch: sends what is due on the connections free for it,
 * each timed from its own intended time; keeps the backlog, which the
 * next completion or wake sends, and asks the loop (engine.c) for the
 * pacer's timer. Calls engine_record.c; the loop and the connections'
 * events call it. */
#include "base/clock.h"
#include "client/engine_int.h"

int64_t engine_due_peek(const struct engine *e)
{
    int64_t mix = e->mix_off ? SCHED_NEVER : sched_peek(&e->sched);
    int64_t own = periodic_peek(&e->periodic, NULL);
    return own < mix ? own : mix;
}

/* Consumes the next send: a periodic call's when it is due first, else
 * the mix's (its verb by weight). @return its intended time. */
static int64_t due_take(struct engine *e, int *verb)
{
    int64_t mix = e->mix_off ? SCHED_NEVER : sched_peek(&e->sched);
    if (periodic_peek(&e->periodic, NULL) < mix)
        return periodic_take(&e->periodic, verb);
    *verb = engine_pick_verb(e);
    return sched_take(&e->sched);
}

/* Hands r to the wire; the wire stamps sent_ns as it writes (0: the write
 * failed, and the request ended unsent). The ledger counts the write. */
static void send_on(struct engine *e, struct conn *c, int verb, int64_t intended, int queued)
{
    uint64_t id = ++e->next_id;
    struct request *r = e->wire->multiplex ? request_ring_slot(&e->ring, id) : &c->req;
    r->verb = verb;
    r->id = id;
    r->conn = c;
    r->intended_ns = intended;
    r->measured = intended >= e->m0_ns && intended < e->end_ns;
    r->sent_ns = 0;
    r->rx_bytes = 0;
    r->tx_bytes = 0;
    e->outstanding++;
    int on_demand = c->on_demand;
    c->on_demand = 0;
    e->wire->send(c, r);
    if (r->sent_ns)
        ledger_sent(e, r, queued, on_demand);
}

/* A connection that can take a request now, or NULL. HTTP: the idle
 * stack; STOMP: every ready connection (of the lane entered), in turn. */
static struct conn *take_conn(struct engine *e)
{
    if (!e->wire->multiplex) {
        struct conn *c = e->idle;
        if (c)
            e->idle = c->next_idle;
        if (c && !e->idle)
            e->all_busy_ns = clock_now_ns();
        if (!c && e->spare) { /* opened now, it takes the backlog once up */
            struct conn *s = e->spare;
            e->spare = s->next_spare;
            e->nspare--;
            if (e->outstanding == 0) /* waits for a connect, not for a busy connection */
                e->all_busy_ns = INT64_MAX;
            s->on_demand = 1;
            conn_start(s);
        }
        return c;
    }
    /* --targets: the entered lane's connections only, its own turn (rr) */
    int base = e->nlanes ? e->lanes[e->lane_at].first_conn : 0;
    int n = e->nlanes ? e->lanes[e->lane_at].nconns : e->pool.n;
    for (int i = 0; i < n; i++) {
        struct conn *c = &e->pool.conns[base + (e->rr + i) % n];
        if (c->state == CONN_IDLE) {
            e->rr = (c->idx - base + 1) % n;
            return c;
        }
    }
    return NULL;
}

/* Every connection opened is waiting to reconnect (spares, never opened
 * or closed while idle, would fare no better). */
int engine_all_gave_up(const struct engine *e)
{
    if (e->nlanes == 0)
        return e->pool.nbackoff == e->pool.n - e->nspare;
    const struct lane *l = &e->lanes[e->lane_at]; /* --targets: this lane's */
    int backoff = 0;
    for (int i = l->first_conn; i < l->first_conn + l->nconns; i++)
        backoff += e->pool.conns[i].state == CONN_BACKOFF;
    return backoff == l->nconns - e->nspare;
}

void engine_wake_on_answers(struct engine *e, int on)
{
    if (e->pool.harvest_fd < 0 || on == ev_is_active(&e->harvest))
        return;
    if (on)
        ev_io_start(e->loop, &e->harvest);
    else
        ev_io_stop(e->loop, &e->harvest);
}

/* A dispatch that leaves the next send in the schedule asks for the
 * pacer's timer; arm_cb sets it once per loop turn, just before the loop
 * sleeps. At high rates a turn holds a dispatch per answer, and each would
 * move the timer: on this kind of machine a timerfd_settime costs
 * microseconds (bench/RESULTS.md). */
static void arm_pacer(struct engine *e)
{
    e->arm_pending = !e->cfg->busy_poll; /* --busy-poll: poll_cb sends; a timer
                                            interrupt at the due time would only
                                            take the vCPU away then */
}

/* Sends every request that is due, as long as a connection is free; what
 * is left stays in the schedule (the backlog) and keeps its intended time.
 * A request due in [busy_since, free_at) found every connection busy: it
 * was queued, and its lag is the server's doing, not the pacer's. */
static void dispatch_due(struct engine *e, int64_t busy_since, int64_t free_at)
{
    if (engine_ended(e))
        return;
    int64_t now = clock_now_ns();
    /* Nothing intended at or past the window's end is sent: the end timer
     * may run a little after the pacer, and such a send would reach the
     * server without being counted anywhere. */
    if (e->cfg->rate <= 0) { /* closed loop: every free connection sends now */
        struct conn *c;
        while (!e->wire->multiplex && clock_now_ns() < e->end_ns && (c = take_conn(e)) != NULL)
            send_on(e, c, engine_pick_verb(e), clock_now_ns(), 0);
        return;
    }
    /* Nothing intended at or after the window's end goes out: the report
     * would not count it. */
    while (engine_due_peek(e) <= now && engine_due_peek(e) < e->end_ns) {
        struct conn *c = take_conn(e);
        /* A connection freed while the backlog waited goes straight back to
         * it: every connection has been busy since busy_since, not since now
         * (restarting the spell here made every later backlog request look
         * as if the pacer, not the server, had held it back). */
        if (c && busy_since != INT64_MAX && !e->idle)
            e->all_busy_ns = busy_since;
        int verb;
        if (c) {
            int64_t due = due_take(e, &verb);
            send_on(e, c, verb, due, due >= busy_since && due < free_at);
        } else if (engine_all_gave_up(e)) {
            int64_t due = due_take(e, &verb);
            engine_fail_unconnectable(e, due, verb);
        } else {
            engine_wake_on_answers(e, 1); /* backlog: the next completion sends it */
            e->arm_pending = 0;
            return;
        }
        now = clock_now_ns();
    }
    arm_pacer(e);
}

/* take_conn may open a spare that fails at once: its backoff then leaves
 * the verdict to the dispatch under way instead of recursing. */
void engine_dispatch(struct engine *e, int64_t busy_since, int64_t free_at)
{
    int outer = e->dispatching;
    e->dispatching = 1;
    dispatch_due(e, busy_since, free_at);
    e->dispatching = outer;
}

void engine_dispatch_all(struct engine *e)
{
    engine_dispatch(e, INT64_MAX, INT64_MAX);
}

/* The pacer's wake, first: what is due goes out on the connections free
 * already, before the harvest reads answers (microseconds each, which
 * would be pacer lag). Nothing is opened for it: the harvest may free one. */
void engine_send_on_free(struct engine *e)
{
    int64_t now = clock_now_ns();
    while (!engine_ended(e) && engine_due_peek(e) <= now && engine_due_peek(e) < e->end_ns &&
           (e->wire->multiplex || e->idle)) {
        struct conn *c = take_conn(e);
        if (!c)
            return;
        int verb;
        int64_t due = due_take(e, &verb);
        send_on(e, c, verb, due, 0);
    }
}
