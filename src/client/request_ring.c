/* request_ring: requests in flight by id, timed out oldest first (see
 * request_ring.h). */
#include "client/request_ring.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "base/err.h"
#include "model/run_result.h"

int request_ring_init(struct request_ring *ring, double rate, int64_t timeout_ns,
                      request_end_fn expire, void *owner, char *err)
{
    double need = rate * ((double)timeout_ns / 1e9) * 2 + 64;
    *ring = (struct request_ring){.timeout_ns = timeout_ns, .expire = expire, .owner = owner};
    ring->nslots = 64;
    while ((double)ring->nslots < need && ring->nslots < (1u << 22))
        ring->nslots *= 2;
    ring->slots = calloc(ring->nslots, sizeof *ring->slots);
    if (!ring->slots) {
        snprintf(err, ERR_LEN, "out of memory for %llu in-flight slots",
                 (unsigned long long)ring->nslots);
        ring->nslots = 0;
        return -1;
    }
    return 0;
}

static void end_request(struct request_ring *ring, struct request *r, int kind)
{
    r->live = 0;
    ring->expire(ring->owner, r, kind);
}

struct request *request_ring_slot(struct request_ring *ring, uint64_t id)
{
    struct request *r = &ring->slots[id & (ring->nslots - 1)];
    ring->newest_id = id;
    if (r->live)
        end_request(ring, r, ERR_TIMEOUT);
    return r;
}

struct request *request_ring_find(struct request_ring *ring, uint64_t id)
{
    struct request *r = &ring->slots[id & (ring->nslots - 1)];
    return r->live && r->id == id ? r : NULL;
}

/* Fails the requests that waited longer than the timeout: a scan from the
 * oldest id that stops at the first one still in time. */
static void reaper_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct request_ring *ring = w->data;
    int64_t now = clock_now_ns();
    int read_first = ring->before_reap != NULL;
    while (ring->oldest_id < ring->newest_id) {
        struct request *r = request_ring_find(ring, ring->oldest_id + 1);
        if (r && now - r->sent_ns < ring->timeout_ns)
            break;
        if (r && read_first) {
            read_first = 0;
            ring->before_reap(ring->owner); /* may answer r and others */
            continue;
        }
        if (r)
            end_request(ring, r, ERR_TIMEOUT);
        ring->oldest_id++;
    }
}

void request_ring_start_reaper(struct request_ring *ring, struct ev_loop *loop)
{
    double period = (double)ring->timeout_ns / 1e9 / 10;
    ev_timer_init(&ring->reaper, reaper_cb, period, period < 0.2 ? period : 0.2);
    ring->reaper.data = ring;
    ring->loop = loop;
    ev_timer_start(loop, &ring->reaper);
}

void request_ring_fail_conn(struct request_ring *ring, const struct conn *c, int err_kind)
{
    for (uint64_t i = 0; i < ring->nslots; i++) {
        struct request *r = &ring->slots[i];
        if (r->live && r->conn == c)
            end_request(ring, r, err_kind);
    }
}

void request_ring_each_live(const struct request_ring *ring,
                            void (*fn)(void *owner, const struct request *r), void *owner)
{
    for (uint64_t i = 0; i < ring->nslots; i++)
        if (ring->slots[i].live && ring->slots[i].measured)
            fn(owner, &ring->slots[i]);
}

int64_t request_ring_free(struct request_ring *ring)
{
    int64_t live = 0;
    for (uint64_t i = 0; i < ring->nslots; i++)
        live += ring->slots[i].live && ring->slots[i].measured;
    if (ring->loop)
        ev_timer_stop(ring->loop, &ring->reaper);
    free(ring->slots);
    ring->slots = NULL;
    ring->nslots = 0;
    ring->loop = NULL;
    return live;
}
