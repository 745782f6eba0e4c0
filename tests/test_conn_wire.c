/* client/conn with its wires (conn_http.c, conn_stomp.c), no engine: a
 * connection context built by hand, one connection adopting one end of a
 * socketpair (conn_adopt), the test playing the server on the other end
 * with a real libev loop. What the connection reports is read from its
 * events table (struct conn_events) and its pool's counters:
 *   partial writes: a request larger than the socket's send buffer
 *     arrives whole, the same bytes the wire's framing promises;
 *   an answer split at every byte is taken exactly once, ok, with its
 *     size; a close mid-answer is a closed error, never ok; no answer
 *     within the timeout is a timeout (HTTP: and the loop stops by itself;
 *     STOMP: the ring's, the connection stays up); an answer to no
 *     request is counted stray.
 * Every loop is bounded by a guard timer: a hang fails, it never waits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/clock.h"
#include "client/conn.h"
#include "client/conn_testing.h"
#include "net/stomp.h"

#define GUARD_S 5.0
#define TIMEOUT_S 0.1
#define HTTP_URL "http://127.0.0.1:9/RPC2"
#define STOMP_URL "stomp://127.0.0.1:9"
#define REPLY_QUEUE "jms.queue.rpcbench.test.0"

/* One connection, its context, and what its events said. */
struct fx {
    struct ev_loop *loop;
    struct conn_ctx x;
    struct conn_pool pool;
    struct conn conn;
    struct conn_peer peer;
    struct target tgt;
    struct reqid ids;
    struct request_ring ring;
    struct buf scratch;
    struct prepared prep;
    char rbuf[65536];
    int sv[2];        /* sv[0]: the connection's; sv[1]: the server's */
    uint64_t next_id;
    struct buf got;   /* what the server end has read */
    ev_timer guard;
    int guard_fired;
    /* the events */
    int ready, idle, down, down_how, retries, done, kind;
    int64_t rx_bytes;
};

static struct fx F;

static void on_ready(void *owner, struct conn *c)
{
    (void)c;
    ((struct fx *)owner)->ready++;
}

static void on_idle(void *owner, struct conn *c)
{
    (void)c;
    ((struct fx *)owner)->idle++;
}

static void on_down(void *owner, struct conn *c, enum conn_down how, const char *why)
{
    (void)c;
    (void)why;
    struct fx *f = owner;
    f->down++;
    f->down_how = (int)how;
}

static void on_done(void *owner, struct request *r, int kind)
{
    struct fx *f = owner;
    f->done++;
    f->kind = kind;
    f->rx_bytes = r->rx_bytes;
}

/* The connection stays closed: nothing reconnects, so the loop may end. */
static void on_backoff_over(void *owner, struct conn *c)
{
    (void)c;
    ((struct fx *)owner)->retries++;
}

static const struct conn_events events = {
    .ready = on_ready, .idle = on_idle, .down = on_down, .response_done = on_done,
    .backoff_over = on_backoff_over,
};

static void guard_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    ((struct fx *)w->data)->guard_fired = 1;
    ev_break(loop, EVBREAK_ALL);
}

/* Renders one JSON-RPC call whose params hold pad bytes, prepared by the
 * wire as the engine would for the target. */
static void prepare(struct fx *f, size_t pad)
{
    char err[ERR_LEN];
    struct enc_request body = {0};
    json_object *params = json_object_new_array();
    char *big = calloc(1, pad + 1);
    assert_non_null(big);
    memset(big, 'x', pad);
    json_object_array_add(params, json_object_new_string(big));
    free(big);
    assert_int_equal(f->x.enc->render_request("Host.ping", params, &body, err), ENC_OK);
    json_object_put(params);
    assert_int_equal(f->x.wire->prepare(&f->x, &f->tgt, &body, &f->prep, err), 0);
    enc_request_free(&body);
}

/* A context as the engine fills it, a connection adopting sv[0]. */
static void setup(struct fx *f, const char *url, size_t pad)
{
    char err[ERR_LEN];
    memset(f, 0, sizeof *f);
    f->loop = ev_loop_new(EVFLAG_AUTO);
    assert_non_null(f->loop);
    assert_int_equal(target_parse(url, "/RPC2", &f->tgt, err), 0);
    memcpy(f->ids.prefix, ENC_ID_PREFIX, REQID_PREFIX_LEN + 1); /* ids answers can carry */
    snprintf(f->ids.tag, sizeof f->ids.tag, "test");
    int stomp = f->tgt.scheme == SCHEME_STOMP;
    assert_int_equal(request_ring_init(&f->ring, 100, (int64_t)(TIMEOUT_S * 1e9), on_done, f, err),
                     0);
    f->pool = (struct conn_pool){.conns = &f->conn, .n = 1, .harvest_fd = -1, .ev = &events,
                                 .owner = f};
    f->x = (struct conn_ctx){
        .loop = f->loop, .wire = stomp ? &wire_stomp : &wire_http, .enc = enc_find("jsonrpc"),
        .pool = &f->pool, .timeout_ns = (int64_t)(TIMEOUT_S * 1e9), .max_response = 1 << 20,
        .validate = VALIDATE_CHEAP, .headers = "", .stomp_login = "", .stomp_passcode = "",
        .stomp_destination = "", .url = url, .rbuf = f->rbuf, .rbuf_len = sizeof f->rbuf,
        .scratch = &f->scratch, .ids = &f->ids, .ring = &f->ring,
    };
    prepare(f, pad);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, f->sv), 0);
    ev_timer_init(&f->guard, guard_cb, GUARD_S, 0);
    f->guard.data = f;
    ev_timer_start(f->loop, &f->guard);
    conn_init(&f->x, &f->conn, 0, NULL, &f->tgt, &f->peer);
}

static void teardown(struct fx *f)
{
    ev_timer_stop(f->loop, &f->guard);
    conn_close(&f->conn);
    conn_free(&f->conn);
    close(f->sv[1]);
    request_ring_free(&f->ring);
    buf_free(&f->prep.req.body);
    buf_free(&f->scratch);
    buf_free(&f->got);
    ev_loop_destroy(f->loop);
    assert_int_equal(f->guard_fired, 0);
}

/* Reads what the connection wrote so far into f->got. */
static void drain(struct fx *f)
{
    char b[16384];
    ssize_t n;
    while ((n = read(f->sv[1], b, sizeof b)) > 0)
        assert_int_equal(buf_append(&f->got, b, (size_t)n), 0);
}

/* One turn of the loop without waiting, then what was written. */
static void pump(struct fx *f)
{
    ev_run(f->loop, EVRUN_NOWAIT);
    drain(f);
}

/* Pumps until *flag reaches want, within the guard. */
static void pump_until(struct fx *f, const int *flag, int want)
{
    while (*flag < want && !f->guard_fired) {
        ev_run(f->loop, EVRUN_ONCE);
        drain(f);
    }
    assert_int_equal(f->guard_fired, 0);
}

static void server_write(struct fx *f, const char *p, size_t n)
{
    assert_int_equal(write(f->sv[1], p, n), (ssize_t)n);
}

/* Sends the prepared request with the next id, stamped as the dispatch
 * does. @return the request (the connection's or the ring's). */
static struct request *send_one(struct fx *f, int framed)
{
    uint64_t id = ++f->next_id;
    int stomp = f->x.wire->multiplex;
    struct request *r = stomp ? request_ring_slot(&f->ring, id) : &f->conn.req;
    *r = (struct request){.id = id, .conn = &f->conn, .measured = 1,
                          .intended_ns = clock_now_ns(), .with_id = 1};
    enc_stamp_id(&f->prep.req, reqid_wire(&f->ids, id));
    struct wire_msg m = {.data = f->prep.req.body.data, .len = f->prep.req.body.len,
                         .framed = f->prep.framed};
    size_t head = f->prep.req.body.len - f->prep.body_len;
    if (!framed && f->prep.framed) /* a templated call's body: the wire frames it */
        m = (struct wire_msg){.data = m.data + head, .len = f->prep.body_len};
    f->x.wire->send(&f->conn, r, &m);
    assert_int_not_equal(r->sent_ns, 0);
    return r;
}

/* The answer to request id: an HTTP response or a STOMP MESSAGE frame. */
static void answer(struct fx *f, uint64_t id, struct buf *out)
{
    char body[160];
    int n = snprintf(body, sizeof body,
                     "{\"jsonrpc\":\"2.0\",\"id\":\"%s%012llx\",\"result\":true}",
                     ENC_ID_PREFIX, (unsigned long long)reqid_wire(&f->ids, id));
    buf_reset(out);
    if (f->x.wire->multiplex) {
        const char *kv[] = {"destination", REPLY_QUEUE, "subscription", "s", "message-id", "1",
                            NULL};
        assert_int_equal(stomp_render(out, "MESSAGE", kv, body, (size_t)n), 0);
    } else {
        assert_int_equal(buf_appendf(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json"
                                     "\r\nContent-Length: %d\r\n\r\n%s", n, body), 0);
    }
}

/* HTTP: up at once. STOMP: CONNECT read, CONNECTED written, logged in. */
static void bring_up(struct fx *f)
{
    conn_adopt(&f->conn, f->sv[0]);
    if (f->x.wire->multiplex) {
        static const char connected[] = "CONNECTED\nversion:1.2\n\n";
        server_write(f, connected, sizeof connected); /* its NUL too */
        pump_until(f, &f->ready, 1);
    }
    assert_int_equal(f->ready, 1);
    assert_int_equal(f->conn.state, CONN_IDLE);
    pump(f);
    buf_reset(&f->got); /* CONNECT, SUBSCRIBE */
}

/* The bytes a request should be on the wire: HTTP's prepared whole;
 * STOMP's body in the SEND frame stomp_render makes (as before the
 * frame was put together per send). */
static void expected(struct fx *f, struct buf *out)
{
    buf_reset(out);
    if (!f->x.wire->multiplex) {
        assert_int_equal(buf_append(out, f->prep.req.body.data, f->prep.req.body.len), 0);
        return;
    }
    const char *kv[] = {"destination", "jms.topic.vdsm_requests", "content-type",
                        "application/json", "reply-to", REPLY_QUEUE, NULL};
    assert_int_equal(stomp_render(out, "SEND", kv, f->prep.req.body.data,
                                  f->prep.req.body.len), 0);
}

/* (a) A request far larger than the send buffer: the socket takes part,
 * the rest waits in the connection and goes as the server reads; the
 * server gets the request whole, byte for byte; its answer is ok. */
static void partial_write(const char *url, int framed)
{
    struct fx *f = &F;
    struct buf want = {0}, ans = {0};
    setup(f, url, 256 * 1024);
    int small = 4096;
    assert_int_equal(setsockopt(f->sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
    bring_up(f);
    struct request *r = send_one(f, framed);
    expected(f, &want);
    assert_true(f->conn.out.len > 0); /* the socket did not take it all */
    assert_int_equal(r->tx_bytes, (int64_t)want.len);
    while (f->got.len < want.len && !f->guard_fired)
        pump(f);
    assert_int_equal(f->got.len, want.len);
    assert_memory_equal(f->got.data, want.data, want.len);
    assert_int_equal(f->conn.out.len, 0);
    answer(f, r->id, &ans);
    server_write(f, ans.data, ans.len);
    pump_until(f, &f->done, 1);
    assert_int_equal(f->kind, REQ_OK);
    assert_int_equal(f->rx_bytes, (int64_t)ans.len);
    buf_free(&want);
    buf_free(&ans);
    teardown(f);
}

static void test_http_partial_write(void **state)
{
    (void)state;
    partial_write(HTTP_URL, 1);
}

/* A templated call's body, framed by the wire: the same bytes as the
 * verb's prepared request. */
static void test_http_partial_write_unframed(void **state)
{
    (void)state;
    partial_write(HTTP_URL, 0);
}

static void test_stomp_partial_write(void **state)
{
    (void)state;
    partial_write(STOMP_URL, 0);
}

/* Writes ans in two parts, [0, k) then the rest, a loop turn after each;
 * k == 0: one byte per loop turn. Nothing may end before the last byte. */
static void feed_split(struct fx *f, const struct buf *ans, size_t k)
{
    int done = f->done;
    for (size_t off = 0; off < ans->len;) {
        size_t n = k == 0 ? 1 : off == 0 ? k : ans->len - off;
        server_write(f, ans->data + off, n);
        off += n;
        pump(f);
        if (off < ans->len)
            assert_int_equal(f->done, done);
    }
}

/* (b) One answer, split at every byte: at each split point k, and once a
 * byte at a time. Each answer is taken exactly once, ok, with its size,
 * and nothing is counted stray. */
static void split_every_byte(const char *url)
{
    struct fx *f = &F;
    struct buf ans = {0};
    setup(f, url, 16);
    bring_up(f);
    answer(f, 1, &ans);
    size_t len = ans.len;
    for (size_t k = 0; k < len; k++) {
        struct request *r = send_one(f, 1);
        int done = f->done;
        answer(f, r->id, &ans);
        assert_int_equal(ans.len, len); /* ids have a fixed width */
        feed_split(f, &ans, k);
        assert_int_equal(f->done, done + 1);
        assert_int_equal(f->kind, REQ_OK);
        assert_int_equal(f->rx_bytes, (int64_t)len);
        assert_int_equal(f->conn.state, CONN_IDLE);
        pump(f); /* nothing more comes of it */
        assert_int_equal(f->done, done + 1);
    }
    assert_int_equal(f->pool.stats.stray_replies, 0);
    assert_int_equal(f->pool.stats.bytes_received, (int64_t)(len * len));
    assert_int_equal(f->down, 0);
    buf_free(&ans);
    teardown(f);
}

static void test_http_answer_split_every_byte(void **state)
{
    (void)state;
    split_every_byte(HTTP_URL);
}

static void test_stomp_message_split_every_byte(void **state)
{
    (void)state;
    split_every_byte(STOMP_URL);
}

/* (c) The server closes halfway through the answer: the request is a
 * closed error, never ok, and the connection backs off. */
static void close_mid_answer(const char *url)
{
    struct fx *f = &F;
    struct buf ans = {0};
    setup(f, url, 16);
    bring_up(f);
    struct request *r = send_one(f, 1);
    answer(f, r->id, &ans);
    server_write(f, ans.data, ans.len / 2);
    pump(f);
    assert_int_equal(f->done, 0);
    shutdown(f->sv[1], SHUT_WR);
    pump_until(f, &f->done, 1);
    assert_int_equal(f->kind, ERR_CLOSED);
    assert_int_equal(f->down, 1);
    assert_int_equal(f->down_how, CONN_DOWN_BACKOFF);
    assert_int_equal(f->pool.stats.failures[CAUSE_CLOSED], 1);
    buf_free(&ans);
    teardown(f);
}

static void test_http_close_mid_answer(void **state)
{
    (void)state;
    close_mid_answer(HTTP_URL);
}

static void test_stomp_close_mid_message(void **state)
{
    (void)state;
    close_mid_answer(STOMP_URL);
}

/* (d) No answer: within the timeout the request is a timeout error; the
 * connection backs off, is left closed (on_backoff_over), and the loop,
 * with nothing left to watch but the guard (unreferenced), ends by itself. */
static void test_http_timeout(void **state)
{
    (void)state;
    struct fx *f = &F;
    setup(f, HTTP_URL, 16);
    bring_up(f);
    send_one(f, 1);
    ev_unref(f->loop); /* the guard alone does not keep the loop running */
    int64_t t0 = clock_now_ns();
    ev_run(f->loop, 0);
    ev_ref(f->loop);
    double took = (double)(clock_now_ns() - t0) / 1e9;
    assert_int_equal(f->guard_fired, 0);
    assert_int_equal(f->done, 1);
    assert_int_equal(f->kind, ERR_TIMEOUT);
    assert_int_equal(f->pool.stats.failures[CAUSE_TIMEOUT], 1);
    assert_int_equal(f->retries, 1);
    assert_true(took >= TIMEOUT_S * 0.9 && took < GUARD_S / 2);
    teardown(f);
}

/* (d) STOMP: the ring (the owner's) times the request out, not the
 * connection, which stays up; the answer that comes after is stray. The
 * reaper repeats, so here the guard bounds the loop. */
static void test_stomp_timeout_then_late_answer(void **state)
{
    (void)state;
    struct fx *f = &F;
    struct buf ans = {0};
    setup(f, STOMP_URL, 16);
    request_ring_start_reaper(&f->ring, f->loop);
    bring_up(f);
    int64_t t0 = clock_now_ns();
    struct request *r = send_one(f, 1);
    pump_until(f, &f->done, 1);
    assert_int_equal(f->kind, ERR_TIMEOUT);
    assert_true(clock_now_ns() - t0 >= f->ring.timeout_ns);
    answer(f, r->id, &ans);
    server_write(f, ans.data, ans.len);
    while (f->pool.stats.stray_replies < 1 && !f->guard_fired)
        pump(f);
    assert_int_equal(f->done, 1);
    assert_int_equal(f->down, 0);
    assert_int_equal(f->conn.state, CONN_IDLE);
    buf_free(&ans);
    teardown(f);
}

/* (e) HTTP: bytes after the answer, in the same read, answer nothing we
 * asked: stray, and the connection closed cleanly; the answer stays ok. */
static void test_http_stray_after_answer(void **state)
{
    (void)state;
    struct fx *f = &F;
    struct buf ans = {0};
    setup(f, HTTP_URL, 16);
    bring_up(f);
    struct request *r = send_one(f, 1);
    answer(f, r->id, &ans);
    server_write(f, ans.data, ans.len / 2);
    pump(f); /* half an answer: nothing ends */
    assert_int_equal(f->done, 0);
    char twice[1024]; /* the rest, and the same answer again in one write */
    size_t rest = ans.len - ans.len / 2;
    assert_true(rest + ans.len <= sizeof twice);
    memcpy(twice, ans.data + ans.len / 2, rest);
    memcpy(twice + rest, ans.data, ans.len);
    server_write(f, twice, rest + ans.len);
    pump_until(f, &f->down, 1);
    assert_int_equal(f->done, 1);
    assert_int_equal(f->kind, REQ_OK);
    assert_int_equal(f->pool.stats.stray_replies, 1);
    assert_int_equal(f->down_how, CONN_DOWN_CLOSED);
    buf_free(&ans);
    teardown(f);
}

/* (e) HTTP: a second answer while no request is out (the connection
 * idle): stray, and the connection closed cleanly; nothing else ends. */
static void test_http_stray_when_idle(void **state)
{
    (void)state;
    struct fx *f = &F;
    struct buf ans = {0};
    setup(f, HTTP_URL, 16);
    bring_up(f);
    struct request *r = send_one(f, 1);
    answer(f, r->id, &ans);
    server_write(f, ans.data, ans.len);
    pump_until(f, &f->done, 1);
    assert_int_equal(f->idle, 1);
    server_write(f, ans.data, ans.len);
    pump_until(f, &f->down, 1);
    assert_int_equal(f->done, 1);
    assert_int_equal(f->pool.stats.stray_replies, 1);
    assert_int_equal(f->down_how, CONN_DOWN_CLOSED);
    buf_free(&ans);
    teardown(f);
}

/* (e) STOMP: a second MESSAGE for a request answered already is stray;
 * the connection stays up, and nothing ends twice. */
static void test_stomp_stray_second_answer(void **state)
{
    (void)state;
    struct fx *f = &F;
    struct buf ans = {0};
    setup(f, STOMP_URL, 16);
    bring_up(f);
    struct request *r = send_one(f, 1);
    answer(f, r->id, &ans);
    server_write(f, ans.data, ans.len);
    server_write(f, ans.data, ans.len);
    while (f->pool.stats.stray_replies < 1 && !f->guard_fired)
        pump(f);
    assert_int_equal(f->done, 1);
    assert_int_equal(f->kind, REQ_OK);
    assert_int_equal(f->pool.stats.stray_replies, 1);
    assert_int_equal(f->down, 0);
    assert_int_equal(f->conn.state, CONN_IDLE);
    buf_free(&ans);
    teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_http_partial_write),
        cmocka_unit_test(test_http_partial_write_unframed),
        cmocka_unit_test(test_stomp_partial_write),
        cmocka_unit_test(test_http_answer_split_every_byte),
        cmocka_unit_test(test_stomp_message_split_every_byte),
        cmocka_unit_test(test_http_close_mid_answer),
        cmocka_unit_test(test_stomp_close_mid_message),
        cmocka_unit_test(test_http_timeout),
        cmocka_unit_test(test_stomp_timeout_then_late_answer),
        cmocka_unit_test(test_http_stray_after_answer),
        cmocka_unit_test(test_http_stray_when_idle),
        cmocka_unit_test(test_stomp_stray_second_answer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
