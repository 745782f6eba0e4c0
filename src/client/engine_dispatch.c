/* engine_dispatch: sends what is due on the connections free for it,
 * each timed from its own intended time, its bytes decided here (its id
 * and templates stamped; the wire only frames them); keeps the backlog,
 * which the next completion or wake sends, and asks the loop (engine.c)
 * for the pacer's timer. Calls engine_record.c; the loop and the connections'
 * events call it. */
#include "base/clock.h"
#include "client/engine_int.h"

/* Consumes l's next send: a periodic call's when it is due first, else
 * the mix's (its verb by weight). @return its intended time. */
static int64_t due_take(struct engine *e, struct lane *l, int *verb)
{
    if (e->rec)
        return replay_sched_take(&l->replay, verb);
    int64_t mix = e->mix_off ? SCHED_NEVER : sched_peek(&l->sched);
    if (periodic_peek(&l->periodic, NULL) < mix)
        return periodic_take(&l->periodic, verb);
    *verb = engine_pick_verb(e, l);
    return sched_take(&l->sched);
}

/* The bytes of r's request (see struct wire_msg): a templated call's body
 * stamped afresh, or its verb's prepared bytes (r's lane's) with r's id
 * stamped in place. Here, not in the wire: the id and the templates are
 * the run's (its id scheme, its ${seq}), the wire only frames what it is
 * handed. @return 0, or -1 out of memory. */
static int request_msg(struct engine *e, struct lane *l, struct request *r, struct wire_msg *m)
{
    struct prepared *p = &l->prep[r->verb];
    int st = engine_stamp(e, r);
    r->with_id = p->req.id_len != 0;
    if (st < 0)
        return -1;
    if (st > 0) {
        *m = (struct wire_msg){.data = e->stamp_body.data, .len = e->stamp_body.len};
        return 0;
    }
    enc_stamp_id(&p->req, reqid_wire(&e->ids, r->id));
    *m = (struct wire_msg){.data = p->req.body.data, .len = p->req.body.len,
                           .framed = p->framed};
    return 0;
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
    struct wire_msg m;
    int bad = request_msg(e, c->lane, r, &m);
    e->wire->send(c, r, bad ? NULL : &m);
    if (r->sent_ns)
        ledger_sent(e, r, queued, on_demand);
}

/* One of l's connections that can take a request now, or NULL. HTTP: its
 * idle stack; STOMP: every ready connection of l, in its own turn (rr). */
static struct conn *take_conn(struct engine *e, struct lane *l)
{
    if (!e->wire->multiplex) {
        struct conn *c = l->idle;
        if (c)
            l->idle = c->next_idle;
        if (c && !l->idle)
            l->all_busy_ns = clock_now_ns();
        if (!c && l->spare) { /* opened now, it takes the backlog once up */
            struct conn *s = l->spare;
            l->spare = s->next_spare;
            l->nspare--;
            if (e->outstanding == 0) /* waits for a connect, not for a busy connection */
                l->all_busy_ns = INT64_MAX;
            s->on_demand = 1;
            conn_start(s);
        }
        return c;
    }
    int base = l->first_conn, n = l->nconns;
    for (int i = 0; i < n; i++) {
        struct conn *c = &e->pool.conns[base + (l->rr + i) % n];
        if (c->state == CONN_IDLE) {
            l->rr = (c->idx - base + 1) % n;
            return c;
        }
    }
    return NULL;
}

/* Every connection of l opened is waiting to reconnect (spares, never
 * opened or closed while idle, would fare no better). */
int engine_all_gave_up(const struct engine *e, const struct lane *l)
{
    int backoff = 0;
    for (int i = l->first_conn; i < l->first_conn + l->nconns; i++)
        backoff += e->pool.conns[i].state == CONN_BACKOFF;
    return backoff == l->nconns - l->nspare;
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
static void dispatch_due(struct engine *e, struct lane *l, int64_t busy_since, int64_t free_at)
{
    if (engine_ended(e))
        return;
    int64_t now = clock_now_ns();
    /* Nothing intended at or past the window's end is sent: the end timer
     * may run a little after the pacer, and such a send would reach the
     * server without being counted anywhere. */
    if (e->cfg->rate <= 0) { /* closed loop: every free connection sends now */
        struct conn *c;
        while (!e->wire->multiplex && clock_now_ns() < e->end_ns && (c = take_conn(e, l)) != NULL)
            send_on(e, c, engine_pick_verb(e, l), clock_now_ns(), 0);
        return;
    }
    /* Nothing intended at or after the window's end goes out: the report
     * would not count it. */
    while (engine_due_peek(e, l) <= now && engine_due_peek(e, l) < e->end_ns) {
        struct conn *c = take_conn(e, l);
        /* A connection freed while the backlog waited goes straight back to
         * it: every connection has been busy since busy_since, not since now
         * (restarting the spell here made every later backlog request look
         * as if the pacer, not the server, had held it back). */
        if (c && busy_since != INT64_MAX && !l->idle)
            l->all_busy_ns = busy_since;
        int verb;
        if (c) {
            int64_t due = due_take(e, l, &verb);
            send_on(e, c, verb, due, due >= busy_since && due < free_at);
        } else if (engine_all_gave_up(e, l)) {
            int64_t due = due_take(e, l, &verb);
            engine_fail_unconnectable(e, l, due, verb);
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
void engine_dispatch(struct engine *e, struct lane *l, int64_t busy_since, int64_t free_at)
{
    int outer = e->dispatching;
    e->dispatching = 1;
    dispatch_due(e, l, busy_since, free_at);
    e->dispatching = outer;
}

void engine_dispatch_all(struct engine *e, struct lane *l)
{
    engine_dispatch(e, l, INT64_MAX, INT64_MAX);
}

/* The pacer's wake, first: what is due goes out on the connections free
 * already, before the harvest reads answers (microseconds each, which
 * would be pacer lag). Nothing is opened for it: the harvest may free one. */
void engine_send_on_free(struct engine *e, struct lane *l)
{
    int64_t now = clock_now_ns();
    while (!engine_ended(e) && engine_due_peek(e, l) <= now && engine_due_peek(e, l) < e->end_ns &&
           (e->wire->multiplex || l->idle)) {
        struct conn *c = take_conn(e, l);
        if (!c)
            return;
        int verb;
        int64_t due = due_take(e, l, &verb);
        send_on(e, c, verb, due, 0);
    }
}
