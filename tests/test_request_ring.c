/* client/request_ring: the requests in flight on multiplexed connections,
 * by id. What the ring ends itself goes to its expire callback, with the
 * kind, and nowhere else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/clock.h"
#include "base/err.h"
#include "client/request_ring.h"
#include "model/run_result.h"

struct ended {
    int n;
    uint64_t last_id;
    int last_kind;
    int still_live; /* r->live as the callback saw it */
};

static void expire(void *owner, struct request *r, int kind)
{
    struct ended *e = owner;
    e->n++;
    e->last_id = r->id;
    e->last_kind = kind;
    e->still_live = r->live;
}

static struct request *send_one(struct request_ring *ring, uint64_t id, struct conn *c,
                                int measured)
{
    struct request *r = request_ring_slot(ring, id);
    r->id = id;
    r->conn = c;
    r->measured = measured;
    r->sent_ns = clock_now_ns();
    r->live = 1;
    return r;
}

static void test_find_by_id(void **state)
{
    (void)state;
    struct request_ring ring;
    struct ended e = {0};
    char err[ERR_LEN];
    assert_int_equal(request_ring_init(&ring, 100, NS_PER_S, expire, &e, err), 0);
    assert_true(ring.nslots >= 200 && (ring.nslots & (ring.nslots - 1)) == 0);
    for (uint64_t id = 1; id <= 10; id++)
        send_one(&ring, id, NULL, 1);
    assert_non_null(request_ring_find(&ring, 7));
    assert_int_equal(request_ring_find(&ring, 7)->id, 7);
    assert_null(request_ring_find(&ring, 11));                /* never sent */
    assert_null(request_ring_find(&ring, 7 + ring.nslots));   /* same slot, other id */
    request_ring_find(&ring, 7)->live = 0;                    /* answered */
    assert_null(request_ring_find(&ring, 7));
    assert_int_equal(e.n, 0);
    assert_int_equal(request_ring_free(&ring), 9); /* measured and still live */
    assert_null(ring.slots);
}

/* A slot still live when its id comes round again is far past its
 * timeout: it is ended as such before the new request takes it. */
static void test_reuse_expires(void **state)
{
    (void)state;
    struct request_ring ring;
    struct ended e = {0};
    char err[ERR_LEN];
    assert_int_equal(request_ring_init(&ring, 1, NS_PER_MS, expire, &e, err), 0);
    send_one(&ring, 1, NULL, 1);
    for (uint64_t id = 2; id <= ring.nslots; id++)
        request_ring_slot(&ring, id)->live = 0;
    assert_int_equal(e.n, 0);
    send_one(&ring, ring.nslots + 1, NULL, 0);
    assert_int_equal(e.n, 1);
    assert_int_equal(e.last_id, 1);
    assert_int_equal(e.last_kind, ERR_TIMEOUT);
    assert_int_equal(e.still_live, 0);
    assert_int_equal(request_ring_free(&ring), 0); /* the live one is not measured */
}

static void test_fail_conn(void **state)
{
    (void)state;
    struct request_ring ring;
    struct ended e = {0};
    char err[ERR_LEN];
    struct conn *a = (struct conn *)&ring, *b = (struct conn *)&e; /* two distinct tags */
    assert_int_equal(request_ring_init(&ring, 10, NS_PER_S, expire, &e, err), 0);
    for (uint64_t id = 1; id <= 6; id++)
        send_one(&ring, id, id % 2 ? a : b, 1);
    request_ring_fail_conn(&ring, a, ERR_CLOSED);
    assert_int_equal(e.n, 3);
    assert_int_equal(e.last_kind, ERR_CLOSED);
    for (uint64_t id = 1; id <= 6; id++)
        assert_true((request_ring_find(&ring, id) != NULL) == (id % 2 == 0));
    assert_int_equal(request_ring_free(&ring), 3);
}

/* A ring of 10/s with a 10 ms timeout, and a loop for its reaper. */
static struct ev_loop *ring_on_loop(struct request_ring *ring, struct ended *e)
{
    char err[ERR_LEN];
    struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO);
    assert_non_null(loop);
    assert_int_equal(request_ring_init(ring, 10, 10 * NS_PER_MS, expire, e, err), 0);
    return loop;
}

/* Turns the loop until the ring has ended n requests (a turn per reaper
 * tick, bounded). */
static void reap_until(struct ev_loop *loop, const struct ended *e, int n)
{
    for (int i = 0; i < 1000 && e->n < n; i++)
        ev_run(loop, EVRUN_ONCE);
}

/* The reaper ends what is older than the timeout, oldest first, and stops
 * at the first request still in time. */
static void test_reaper(void **state)
{
    (void)state;
    struct request_ring ring;
    struct ended e = {0};
    struct ev_loop *loop = ring_on_loop(&ring, &e);
    send_one(&ring, 1, NULL, 1)->sent_ns -= NS_PER_S; /* long overdue */
    send_one(&ring, 2, NULL, 1)->sent_ns -= NS_PER_S;
    send_one(&ring, 3, NULL, 1)->sent_ns += 3600 * NS_PER_S; /* in time for an hour */
    send_one(&ring, 4, NULL, 1)->sent_ns -= NS_PER_S; /* behind one in time: waits */
    request_ring_start_reaper(&ring, loop);
    reap_until(loop, &e, 2);
    assert_int_equal(e.n, 2);
    assert_int_equal(e.last_id, 2);
    assert_int_equal(e.last_kind, ERR_TIMEOUT);
    assert_non_null(request_ring_find(&ring, 3));
    assert_non_null(request_ring_find(&ring, 4));
    assert_int_equal(request_ring_free(&ring), 2);
    ev_loop_destroy(loop);
}

/* before_reap: the answers that came are read before anything times out,
 * once per look; one read there is an answer, not a timeout. */
static struct request_ring *answering;
static int reads;

static void answer_first(void *owner)
{
    (void)owner;
    reads++;
    request_ring_find(answering, 1)->live = 0; /* its answer was waiting unread */
}

static void test_before_reap(void **state)
{
    (void)state;
    struct request_ring ring;
    struct ended e = {0};
    struct ev_loop *loop = ring_on_loop(&ring, &e);
    answering = &ring;
    reads = 0;
    ring.before_reap = answer_first;
    send_one(&ring, 1, NULL, 1)->sent_ns -= NS_PER_S; /* overdue, but answered */
    send_one(&ring, 2, NULL, 1)->sent_ns -= NS_PER_S; /* overdue: times out */
    request_ring_start_reaper(&ring, loop);
    reap_until(loop, &e, 1);
    assert_int_equal(reads, 1);
    assert_int_equal(e.n, 1);
    assert_int_equal(e.last_id, 2);
    assert_int_equal(e.last_kind, ERR_TIMEOUT);
    assert_int_equal(request_ring_free(&ring), 0);
    ev_loop_destroy(loop);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_by_id),
        cmocka_unit_test(test_reuse_expires),
        cmocka_unit_test(test_fail_conn),
        cmocka_unit_test(test_reaper),
        cmocka_unit_test(test_before_reap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
