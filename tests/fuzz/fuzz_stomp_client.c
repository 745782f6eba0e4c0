/* fuzz_stomp_client: the client's STOMP connection above the frame parser
 * (src/client/conn_stomp.c and conn.c), as a broker's bytes drive it.
 *
 * Each input is one broker: a connection with a context of its own (no
 * engine, as tests/test_conn_wire.c builds it) gets one end
 * of a socketpair and logs in (CONNECT is written); the input is written
 * to the other end, then the write side is shut. Once the connection is
 * up (a CONNECTED frame, heart-beat header and all), three requests are
 * sent; MESSAGE frames are matched to them by JSON-RPC id (the ids are
 * fixed here, "00000000-0000-4000-8000-00000000000N", so seeds can answer
 * them), RECEIPT and ERROR frames handled, bad frames refused, and the
 * close after the bytes handled, all under ASan and UBSan. Every request
 * must end exactly once: answered, failed with the connection, or still
 * live at the end (then ended here).
 *
 * Byte 0 is how many bytes go per write (0: all at once, else 1..255), so
 * frames arrive split at every offset; the rest is the byte stream. */
#include <ev.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "client/conn.h"
#include "client/conn_testing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NREQ 3

static struct ev_loop *loop;
static struct conn_ctx X;
static struct conn_pool pool;
static struct conn conn;
static struct conn_peer peer;
static struct target tgt;
static struct reqid ids;
static struct request_ring ring;
static struct buf scratch;
static struct prepared prep;
static char rbuf[262144];
static uint64_t next_id;
static int up, down, ended[NREQ + 1];
static uint64_t first_id;

static void on_ready(void *owner, struct conn *c)
{
    (void)owner;
    (void)c;
    up = 1;
}

static void on_idle(void *owner, struct conn *c)
{
    (void)owner;
    (void)c;
}

static void on_down(void *owner, struct conn *c, enum conn_down how, const char *why)
{
    (void)owner;
    (void)c;
    (void)how;
    (void)why;
    down = 1;
}

/* Each request ends once: a second end is a bug (a slot freed twice). */
static void on_done(void *owner, struct request *r, int kind)
{
    (void)owner;
    (void)kind;
    uint64_t i = r->id - first_id;
    if (i >= NREQ || ended[i]++) {
        fprintf(stderr, "fuzz_stomp_client: request %llu ended twice\n", (unsigned long long)r->id);
        abort();
    }
}

/* The connection stays closed: one broker per input. */
static void on_backoff_over(void *owner, struct conn *c)
{
    (void)owner;
    (void)c;
}

static const struct conn_events events = {
    .ready = on_ready, .idle = on_idle, .down = on_down, .response_done = on_done,
    .backoff_over = on_backoff_over,
};

/* The call every request sends, prepared by the wire as the engine would. */
static int prepare(char *err)
{
    struct enc_request body = {0};
    if (X.enc->render_request("ping", NULL, &body, err) != ENC_OK)
        return -1;
    int rc = X.wire->prepare(&X, &tgt, &body, &prep, err);
    enc_request_free(&body);
    return rc;
}

static void setup(void)
{
    char err[ERR_LEN] = "";
    loop = ev_loop_new(EVFLAG_AUTO);
    /* Fixed ids, so seeds can answer them. */
    memcpy(ids.prefix, ENC_ID_PREFIX, REQID_PREFIX_LEN + 1);
    snprintf(ids.tag, sizeof ids.tag, "fuzz");
    pool = (struct conn_pool){.conns = &conn, .n = 1, .harvest_fd = -1, .ev = &events};
    X = (struct conn_ctx){
        .loop = loop, .wire = &wire_stomp, .enc = enc_find("jsonrpc"), .pool = &pool,
        .timeout_ns = 10 * NS_PER_S, .max_response = 1 << 16, .validate = VALIDATE_CHEAP,
        .headers = "", .stomp_login = "", .stomp_passcode = "", .stomp_destination = "",
        .url = "stomp://127.0.0.1:9", .rbuf = rbuf, .rbuf_len = sizeof rbuf,
        .scratch = &scratch, .ids = &ids, .ring = &ring,
    };
    if (!loop || !X.enc || target_parse(X.url, "/", &tgt, err) ||
        request_ring_init(&ring, 100, X.timeout_ns, on_done, NULL, err) || prepare(err)) {
        fprintf(stderr, "fuzz_stomp_client: setup failed: %s\n", err);
        abort();
    }
}

/* Each with the next id stamped, as the dispatch does. */
static void send_requests(struct conn *c)
{
    first_id = next_id + 1;
    memset(ended, 0, sizeof ended);
    for (int i = 0; i < NREQ && c->state == CONN_IDLE; i++) {
        uint64_t id = ++next_id;
        struct request *r = request_ring_slot(&ring, id);
        *r = (struct request){.verb = 0, .id = id, .conn = c, .measured = 1, .with_id = 1,
                              .intended_ns = clock_now_ns(), .sent_ns = clock_now_ns()};
        enc_stamp_id(&prep.req, reqid_wire(&ids, id));
        struct wire_msg m = {.data = prep.req.body.data, .len = prep.req.body.len};
        X.wire->send(c, r, &m);
    }
}

/* Reads and drops what the client wrote (CONNECT, SUBSCRIBE, SENDs). */
static void drain(int fd)
{
    char sink[16384];
    while (read(fd, sink, sizeof sink) > 0)
        ;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!loop)
        setup();
    if (size < 1)
        return 0;
    size_t chunk = data[0] ? data[0] : size;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0)
        abort();
    int sndbuf = 1 << 20;
    setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    conn_init(&X, &conn, 0, NULL, &tgt, &peer);
    pool.nbackoff = pool.spoke = 0; /* a new broker */
    peer = (struct conn_peer){0};
    up = down = 0;
    conn_adopt(&conn, sv[0]);
    size_t off = 1;
    int sent = 0, open_w = 1;
    /* Bounded: every step writes a chunk; then a few to see the close. */
    for (long steps = (long)(size / chunk) + 50; steps > 0 && !down; steps--) {
        if (off < size) {
            size_t n = size - off < chunk ? size - off : chunk;
            ssize_t w = write(sv[1], data + off, n);
            if (w > 0)
                off += (size_t)w;
        } else if (open_w) {
            shutdown(sv[1], SHUT_WR); /* the broker hangs up */
            open_w = 0;
        }
        ev_run(loop, EVRUN_NOWAIT);
        drain(sv[1]);
        if (up && !sent && conn.state == CONN_IDLE) {
            send_requests(&conn);
            sent = 1;
        }
        if (conn.state == CONN_IDLE && steps % 7 == 0)
            X.wire->on_timer(&conn); /* heart-beat bookkeeping, now and then */
    }
    if (!down && !open_w) { /* the client must notice the broker hung up */
        fprintf(stderr, "fuzz_stomp_client: the connection outlived the broker's close\n");
        abort();
    }
    request_ring_fail_conn(&ring, &conn, ERR_CLOSED); /* what is still live */
    conn_close(&conn);
    conn_free(&conn);
    close(sv[1]);
    return 0;
}
