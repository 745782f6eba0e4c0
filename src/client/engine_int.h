/* engine_int: what the engine core and its connection code share. */
#ifndef RPCBENCH_ENGINE_INT_H
#define RPCBENCH_ENGINE_INT_H

#include <ev.h>
#include <openssl/ssl.h>

#include "base/buf.h"
#include "net/http_response.h"
#include "net/sock.h"
#include "encoders/check_stream.h"
#include "encoders/encoder.h"
#include "client/engine.h"
#include "client/reqid.h"
#include "client/sched.h"

/* DOWN -> CONNECTING (TCP) -> HANDSHAKE (TLS) -> LOGIN (STOMP) -> IDLE
 * (free for a request; a STOMP connection stays IDLE with requests in
 * flight) <-> BUSY (HTTP: one request in flight). Failures go to BACKOFF
 * then DOWN, or straight back to CONNECTING. */
enum conn_state {
    CONN_DOWN, CONN_CONNECTING, CONN_HANDSHAKE, CONN_LOGIN, CONN_IDLE, CONN_BUSY, CONN_BACKOFF
};

/* A request in flight (HTTP: the connection's one; STOMP: a slot of the
 * engine's ring, found again by id). */
struct inflight {
    int verb;            /* index into the verb mix */
    uint64_t id;
    int64_t intended_ns;
    int64_t sent_ns;
    int measured;        /* intended inside the measured window */
    int queued;          /* waited for a free connection */
    int live;            /* STOMP slot in use */
    struct conn *conn;   /* STOMP: the connection it went out on */
};

struct engine;
struct conn;

/* What a wire protocol does on a connection whose transport (TCP, TLS) is
 * up; conn.c owns connecting, TLS and reconnecting. */
struct conn_proto {
    int multiplex; /* many requests in flight per connection */
    int (*prepare)(struct engine *e, int verb, const struct enc_request *body, char *err);
    void (*on_ready)(struct conn *c);          /* transport up */
    void (*on_io)(struct conn *c, int revents);
    void (*send)(struct conn *c, struct inflight *r);
    void (*on_timer)(struct conn *c);          /* c->timer fired while up */
    void (*on_close)(struct conn *c, int kind); /* fail what is in flight */
    void (*goodbye)(struct conn *c);           /* at the end (STOMP DISCONNECT); may be NULL */
};

extern const struct conn_proto conn_proto_http;
extern const struct conn_proto conn_proto_stomp;


struct conn {
    struct engine *eng;
    int idx;
    int fd;
    SSL *ssl;
    enum conn_state state;
    ev_io io;
    ev_timer timer;        /* request timeout, heart-beat, or reconnect backoff */
    double backoff_s;
    int64_t connect_ns;    /* when this connection attempt began */
    int ever_up;           /* reconnects are counted after the first */
    struct http_response resp; /* HTTP: the answer being framed */
    struct buf body;       /* response body, or what the check keeps of it */
    struct check_stream check; /* --validate cheap: fed the body as it comes */
    size_t out_off;        /* partial write: what of `out` is still to go */
    struct buf out;
    struct inflight req;
    struct conn *next_idle;
    struct conn *next_spare;
    int on_demand;         /* HTTP: opened for a request that waits for it */
    /* STOMP */
    struct buf in;         /* bytes read, not yet parsed */
    struct buf frames;     /* SEND frames per verb for this connection */
    size_t frame_off[RUN_MAX_VERBS], frame_len[RUN_MAX_VERBS], frame_id_off[RUN_MAX_VERBS];
    int64_t last_rx_ns, last_tx_ns;
    int64_t hb_send_ns, hb_recv_ns; /* negotiated heart-beat periods, 0 = none */
    int receipt_done;
    int leaving;           /* DISCONNECT sent: a close is the goodbye, not a failure */
};

/* A request rendered once per verb: HTTP head and body in one buffer, id
 * slot offset into it. */
struct prepared {
    struct enc_request req;
    size_t body_len;
};

struct engine {
    struct ev_loop *loop;
    const struct run_config *cfg;
    const struct target *target;
    const struct encoder *enc;
    const struct conn_proto *proto;
    SSL_CTX *tls;               /* NULL: plain TCP */
    struct run_result *res;
    struct sampler *smp;

    struct prepared prep[RUN_MAX_VERBS];
    int wrr_current[RUN_MAX_VERBS]; /* smooth weighted round robin state */
    struct conn *conns;
    struct conn *idle;          /* stack of idle connections (HTTP) */
    struct conn *spare;         /* HTTP: connections not open, opened on demand */
    int nspare;
    int dispatching;            /* inside dispatch (see engine.c) */
    int reached;                /* a TCP connection got through once */
    char fatal[ERR_LEN];        /* the run cannot go on (the target is unreachable) */
    int rr;                     /* round robin over connections (STOMP) */
    struct inflight *slots;     /* STOMP: ring of requests in flight, by id */
    uint64_t nslots;            /* a power of two */
    uint64_t oldest_id;         /* STOMP: first id that may still be live */
    ev_timer reaper;            /* STOMP: times out the oldest requests */
    int nbackoff;               /* connections waiting to reconnect */
    int64_t all_busy_ns;        /* when the last idle connection was taken */
    int inflight;
    uint64_t next_id;           /* counter of the last id handed out */
    struct reqid ids;           /* this run's random id base and STOMP names */
    char rbuf[262144];          /* one loop thread: one read buffer (a 2 MB answer in ~10 reads) */
    struct buf scratch;         /* small frames rendered on the way out */

    struct sched sched;
    int timerfd;
    ev_io pace;
    ev_idle poll;               /* --busy-poll: the pacer runs every loop turn */
    ev_timer tick;
    ev_timer end;
    ev_signal sigint, sigterm;
    int64_t t0_ns;              /* first send (warmup starts) */
    int64_t m0_ns;              /* measured window starts */
    int64_t end_ns;             /* no sends from here */
    int64_t startup_deadline_ns;
    int64_t tick_k;             /* next tick index on the grid m0 + k*interval */
    int ended;
    int stopping;               /* draining in-flight after the end */

    struct hist ival_hist;      /* latencies completed in this interval */
    struct hist hook_hist;      /* the same, measured requests only (on_interval) */
    int64_t hook_start_ns;      /* where hook_hist's interval began */
    /* The interval's counts. Measured requests only (intended inside the
     * window), as requests.* count them, so the intervals sum to those;
     * warm counts what the warmup intervals show. */
    struct ival_counts {
        int64_t sent, ok, errors;
    } ival, warm;
    int64_t ival_ahead;         /* measured sends due at or after the next tick,
                                   made before it ran (the pacer wakes early) */
};

/* conn.c: the transport under every protocol */
void conn_init(struct engine *e, struct conn *c, int idx);
void conn_start(struct conn *c);          /* connect, TLS, then proto->on_ready */
/* Initialises every connection and opens those a run starts with (see
 * conn.c: HTTP keeps the rest as spares). */
void conn_start_pool(struct engine *e);
void conn_close(struct conn *c);          /* just closes; no accounting */
/* Closes after a failure: proto->on_close(kind) fails what is in flight,
 * then reconnects. */
void conn_fail(struct conn *c, int kind);
void conn_watch(struct conn *c, int events);
/* Reads what the socket has, up to len bytes (sock_read's outcomes); a TLS
 * failure is recorded in the run's transport figures. */
enum io_status conn_read(struct conn *c, void *buf, size_t len, size_t *n);
/* At the end: proto->goodbye on every live connection (STOMP DISCONNECT),
 * then up to a second for their receipts. */
void conn_goodbye_all(struct engine *e);
/* Writes c->out from c->out_off on. @return IO_DONE (all written, c->out
 * emptied), IO_AGAIN (some left: wait for EV_WRITE) or IO_ERROR. */
enum io_status conn_flush(struct conn *c);
/* Queues bytes after what c->out still holds, writing what the socket
 * takes. @return 0, or -1 on a write error or out of memory. */
int conn_send_bytes(struct conn *c, const char *p, size_t n);

/* engine.c, called by the connection code */
void engine_conn_idle(struct engine *e, struct conn *c);
void engine_conn_backoff(struct engine *e, struct conn *c);
void engine_request_done(struct engine *e, struct inflight *r, int err_kind);
/* conn.c, for the engine and the protocols: a TCP connect failed (why:
 * "Connection refused", "timed out"). Before the run began and before any
 * connection got through, the target is unreachable: the run stops and
 * engine_run fails with one line. */
void engine_connect_failed(struct engine *e, const char *why);
/* engine.c: HTTP: c, closed while idle or by a "Connection: close", goes
 * back to the spares, reopened when a request needs it. */
void engine_conn_spare(struct engine *e, struct conn *c);

/* engine_timeline.c: the interval grid. timeline_close closes the interval
 * ending at t_ns (grid index k; k <= 0 is warmup, k == 0 starts the /proc
 * sampler); timeline_tick_cb is e->tick's callback; timeline_flush_hook
 * hands the latencies since the last call to the interval hook. */
void timeline_close(struct engine *e, int64_t k, int64_t t_ns);
void timeline_tick_cb(struct ev_loop *loop, ev_timer *w, int revents);
void timeline_flush_hook(struct engine *e, const struct interval_rec *rec, int64_t t_ns);
/* Adds what finished after the last interval closed (the drain) to the
 * last interval, so the intervals sum to requests.ok and errors. */
void timeline_fold_drain(struct engine *e);

/* inflight.c: the ring of requests in flight on multiplexed connections */
int inflight_init(struct engine *e, char *err);
/* The slot for a new request id (failing, as timed out, one still there). */
struct inflight *inflight_slot_for(struct engine *e, uint64_t id);
/* The live request with this id, or NULL (answered, timed out, unknown). */
struct inflight *inflight_find(struct engine *e, uint64_t id);
void inflight_start_reaper(struct engine *e);
/* Fails every request in flight on c with kind. */
void inflight_fail_conn(struct engine *e, struct conn *c, int kind);
/* Counts what is still live as unfinished and frees the ring. */
void inflight_close(struct engine *e);

#endif
