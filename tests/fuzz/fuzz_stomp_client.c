/* fuzz_stomp_client: the client's STOMP connection above the frame parser
 * (src/client/conn_stomp.c and conn.c), as a broker's bytes drive it.
 *
 * Each input is one broker: a connection of a minimal engine gets one end
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
#include "client/engine_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NREQ 3

static struct engine E;
static struct run_config cfg;
static struct target tgt;
static struct run_result res;
static struct conn conn;
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

static const struct conn_events events = {
    .ready = on_ready, .idle = on_idle, .down = on_down, .response_done = on_done,
};

static void setup(void)
{
    char err[ERR_LEN];
    cfg.rate = 100;
    cfg.timeout_ns = 10 * NS_PER_S;
    cfg.connections = 1;
    cfg.max_response = 1 << 16;
    cfg.validate = VALIDATE_CHEAP;
    cfg.nverbs = 1;
    snprintf(cfg.encoding, sizeof cfg.encoding, "jsonrpc");
    snprintf(cfg.verbs[0].name, sizeof cfg.verbs[0].name, "ping");
    cfg.verbs[0].weight = 1;
    E.loop = ev_loop_new(EVFLAG_AUTO);
    E.cfg = &cfg;
    E.target = &tgt;
    E.res = &res;
    E.enc = enc_find("jsonrpc");
    /* Fixed ids, so seeds can answer them. */
    memcpy(E.ids.prefix, ENC_ID_PREFIX, REQID_PREFIX_LEN + 1);
    snprintf(E.ids.tag, sizeof E.ids.tag, "fuzz");
    E.pool.conns = &conn;
    E.pool.n = 1;
    E.pool.ev = &events;
    E.pool.owner = &E;
    if (!E.loop || !E.enc || result_init(&res, &cfg) ||
        target_parse("stomp://127.0.0.1:9", "/", &tgt, err) ||
        engine_setup_transport(&E, 1, on_done, err) || engine_setup_requests(&E, err)) {
        fprintf(stderr, "fuzz_stomp_client: setup failed: %s\n", err);
        abort();
    }
    snprintf(res.target_url, sizeof res.target_url, "stomp://127.0.0.1:9");
}

static void send_requests(struct conn *c)
{
    first_id = E.next_id + 1;
    memset(ended, 0, sizeof ended);
    for (int i = 0; i < NREQ && c->state == CONN_IDLE; i++) {
        uint64_t id = ++E.next_id;
        struct request *r = request_ring_slot(&E.ring, id);
        *r = (struct request){.verb = 0, .id = id, .conn = c, .measured = 1,
                              .intended_ns = clock_now_ns(), .sent_ns = clock_now_ns()};
        E.wire->send(c, r);
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
    if (!E.loop)
        setup();
    if (size < 1)
        return 0;
    size_t chunk = data[0] ? data[0] : size;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0)
        abort();
    int sndbuf = 1 << 20;
    setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    conn_init(&E, &conn, 0);
    E.pool.nbackoff = E.pool.spoke = 0; /* a new broker */
    E.pool.peer = (struct conn_peer){0};
    up = down = 0;
    conn.fd = sv[0];
    E.wire->on_ready(&conn);
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
        ev_run(E.loop, EVRUN_NOWAIT);
        drain(sv[1]);
        if (up && !sent && conn.state == CONN_IDLE) {
            send_requests(&conn);
            sent = 1;
        }
        if (conn.state == CONN_IDLE && steps % 7 == 0)
            E.wire->on_timer(&conn); /* heart-beat bookkeeping, now and then */
    }
    if (!down && !open_w) { /* the client must notice the broker hung up */
        fprintf(stderr, "fuzz_stomp_client: the connection outlived the broker's close\n");
        abort();
    }
    request_ring_fail_conn(&E.ring, &conn, ERR_CLOSED); /* what is still live */
    conn_close(&conn);
    conn_free(&conn);
    close(sv[1]);
    return 0;
}
