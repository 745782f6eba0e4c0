/* request_ring: the requests in flight on multiplexed connections (STOMP),
 * in one ring of slots indexed by request id, timed out oldest first.
 *
 * Ids are handed out in order and every request has the same timeout, so
 * the ring is also a FIFO of deadlines: the oldest live requests expire
 * first, and a slot still live when its id comes round again is far past
 * its timeout (the ring covers rate x timeout twice over). Memory is fixed
 * for the run, whatever its length. Every request the ring ends itself
 * (timed out, or failed with its connection) goes to the expire callback;
 * the ring never calls anything else above it. */
#ifndef RPCBENCH_REQUEST_RING_H
#define RPCBENCH_REQUEST_RING_H

#include <ev.h>
#include <stdint.h>

#include "client/request.h"

struct request_ring {
    struct request *slots; /* owned: request_ring_free frees them */
    uint64_t nslots;       /* a power of two; 0 when not in use */
    uint64_t oldest_id;    /* ids up to this one are no longer live */
    uint64_t newest_id;    /* the last id given a slot */
    int64_t timeout_ns;
    struct ev_loop *loop;  /* the reaper's, once started (not owned) */
    ev_timer reaper;
    request_end_fn expire;
    void *owner;           /* passed to expire and before_reap as is */
    /* NULL, or called when the reaper is about to time a request out: the
     * owner reads answers that came and wait unread (the harvest set), so
     * one that came in time is not called late. Set after init. */
    void (*before_reap)(void *owner);
};

/* Sizes the ring for rate requests/s living up to timeout_ns each; expire
 * gets every request the ring ends (with owner). @return 0, or -1 with err
 * (out of memory). Free with request_ring_free, even when the run fails. */
int request_ring_init(struct request_ring *ring, double rate, int64_t timeout_ns,
                      request_end_fn expire, void *owner, char *err);

/* The slot for a new request id (ids increase by one per call). A request
 * still live there is ended first, as ERR_TIMEOUT. @return the slot, owned
 * by the ring; the caller fills it and sets live. */
struct request *request_ring_slot(struct request_ring *ring, uint64_t id);

/* @return the live request with this id, or NULL (answered, timed out,
 * never sent). The slot stays the ring's: clear live once it has ended. */
struct request *request_ring_find(struct request_ring *ring, uint64_t id);

/* Starts a timer on loop that ends, as ERR_TIMEOUT, the requests older
 * than the timeout (a tenth of the timeout, and at most 0.2 s, late). */
void request_ring_start_reaper(struct request_ring *ring, struct ev_loop *loop);

/* Ends every live request sent on c with err_kind (its connection failed). */
void request_ring_fail_conn(struct request_ring *ring, const struct conn *c, int err_kind);

/* Calls fn(owner, r) for every measured request still live in the ring
 * (r is the ring's, only read). */
void request_ring_each_live(const struct request_ring *ring,
                            void (*fn)(void *owner, const struct request *r), void *owner);

/* Stops the reaper and frees the slots. @return how many measured
 * requests were still live (the run counts them unfinished). */
int64_t request_ring_free(struct request_ring *ring);

#endif
