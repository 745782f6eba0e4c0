/* inflight: the requests in flight on multiplexed connections (STOMP),
 * kept in one ring of slots indexed by request id.
 *
 * Ids are handed out in order and every request has the same timeout, so
 * the ring is also a FIFO of deadlines: the oldest live requests expire
 * first, and a slot still live when its id comes round again is far past
 * its timeout (the ring covers rate x timeout twice over). Memory is fixed
 * for the run, whatever its length. */
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "client/engine_int.h"

int inflight_init(struct engine *e, char *err)
{
    double need = e->cfg->rate * ((double)e->cfg->timeout_ns / 1e9) * 2 + 64;
    e->nslots = 64;
    while ((double)e->nslots < need && e->nslots < (1u << 22))
        e->nslots *= 2;
    e->slots = calloc(e->nslots, sizeof *e->slots);
    if (!e->slots) {
        snprintf(err, ERR_LEN, "out of memory for %llu in-flight slots",
                 (unsigned long long)e->nslots);
        return -1;
    }
    return 0;
}

struct inflight *inflight_slot_for(struct engine *e, uint64_t id)
{
    struct inflight *r = &e->slots[id & (e->nslots - 1)];
    if (r->live) {
        r->live = 0;
        engine_request_done(e, r, ERR_TIMEOUT);
    }
    return r;
}

struct inflight *inflight_find(struct engine *e, uint64_t id)
{
    struct inflight *r = &e->slots[id & (e->nslots - 1)];
    return r->live && r->id == id ? r : NULL;
}

/* Fails the requests that waited longer than the timeout: a scan from the
 * oldest id that stops at the first one still in time. */
static void reaper_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct engine *e = w->data;
    int64_t now = clock_now_ns();
    while (e->oldest_id < e->next_id) {
        struct inflight *r = inflight_find(e, e->oldest_id + 1);
        if (r && now - r->sent_ns < e->cfg->timeout_ns)
            break;
        if (r) {
            r->live = 0;
            engine_request_done(e, r, ERR_TIMEOUT);
        }
        e->oldest_id++;
    }
}

void inflight_start_reaper(struct engine *e)
{
    double period = (double)e->cfg->timeout_ns / 1e9 / 10;
    ev_timer_init(&e->reaper, reaper_cb, period, period < 0.2 ? period : 0.2);
    e->reaper.data = e;
    ev_timer_start(e->loop, &e->reaper);
}

void inflight_fail_conn(struct engine *e, struct conn *c, int kind)
{
    for (uint64_t i = 0; i < e->nslots; i++) {
        struct inflight *r = &e->slots[i];
        if (r->live && r->conn == c) {
            r->live = 0;
            engine_request_done(e, r, kind);
        }
    }
}

void inflight_close(struct engine *e)
{
    for (uint64_t i = 0; i < e->nslots; i++)
        if (e->slots[i].live && e->slots[i].measured)
            e->res->unfinished++;
    free(e->slots);
    e->slots = NULL;
    e->nslots = 0;
}
