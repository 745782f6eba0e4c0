/* conn: one client connection, start to end: a non-blocking TCP connect,
 * the TLS handshake when the scheme asks for it, plain or TLS reads and
 * writes, and reconnecting with backoff. A wire (HTTP or STOMP, struct
 * wire) speaks its protocol on it once the transport is up.
 *
 * The connection tells its owner (the engine) what happened through one
 * table of callbacks, struct conn_events, and calls nothing else above
 * it. What it reads of the run is its context, struct conn_ctx, which the
 * owner fills once and every connection points to: a connection can then
 * be driven without an engine (tests/test_conn_wire.c, the fuzz target).
 * The owner calls conn_start to open a connection (again) and reads
 * conn_pool's counters; it never changes a connection's state itself.
 * What the connections count (bytes, reconnects, TLS, STOMP frames, the
 * first words of each error kind) they keep in the pool (conn_stats): the
 * run's result has one writer, the owner, which folds them into it. */
#ifndef RPCBENCH_CONN_H
#define RPCBENCH_CONN_H

#include <ev.h>
#include <openssl/ssl.h>

#include "base/buf.h"
#include "encoders/check_stream.h"
#include "encoders/encoder.h"
#include "workload/expect.h"
#include "net/http_response.h"
#include "net/sock.h"
#include "net/target.h"
#include "model/run_result.h"
#include "client/reqid.h"
#include "client/request.h"
#include "client/request_ring.h"

struct wl_call; /* workload/workload.h */

/* DOWN -> CONNECTING (TCP) -> HANDSHAKE (TLS) -> LOGIN (STOMP) -> IDLE
 * (free for a request; a STOMP connection stays IDLE with requests in
 * flight) <-> BUSY (HTTP: one request in flight). Failures go to BACKOFF
 * then CONNECTING, or straight back to CONNECTING; a clean close to DOWN. */
enum conn_state {
    CONN_DOWN, CONN_CONNECTING, CONN_HANDSHAKE, CONN_LOGIN, CONN_IDLE, CONN_BUSY, CONN_BACKOFF
};

struct conn;
struct conn_ctx;
struct lane; /* the owner's (engine_int.h): a connection only carries it */

/* How a connection went down (conn_events.down). */
enum conn_down {
    CONN_DOWN_BACKOFF, /* failed; it reconnects by itself after a backoff */
    CONN_DOWN_CLOSED,  /* closed with nothing lost (an idle keep-alive the
                          server closed, "Connection: close"): it stays DOWN
                          until the owner calls conn_start */
    CONN_DOWN_FATAL,   /* no connection ever got through its handshake and
                          the failures say it never will (why: one line,
                          "the server at stomp://... refused the login: ..."):
                          the owner ends the run */
};

/* What a connection tells its owner; owner is conn_pool.owner. */
struct conn_events {
    /* c is up (connected, TLS, STOMP logged in) and takes requests. */
    void (*ready)(void *owner, struct conn *c);
    /* HTTP: c answered its request and takes the next one. */
    void (*idle)(void *owner, struct conn *c);
    /* c closed (how). why: for a TCP connect that failed, the reason
     * ("Connection refused", "timed out"); for CONN_DOWN_FATAL the line
     * that ends the run; else NULL. */
    void (*down)(void *owner, struct conn *c, enum conn_down how, const char *why);
    /* A request sent on a connection ended (err_kind REQ_OK: answered well). */
    request_end_fn response_done;
    /* c's backoff is over and c is DOWN: the owner opens it again
     * (conn_start) or keeps it closed. NULL: conn_start. */
    void (*backoff_over)(void *owner, struct conn *c);
    /* c's peer never spoke and failed its setups so that the run would end
     * (CONN_DOWN_FATAL). Engine policy: a fleet gives that host up alone
     * (its peer->gave_up set) while other hosts still work. @return 1 when
     * the owner goes on without it (c backs off as any failure), 0 when
     * the run ends. NULL: 0. */
    int (*give_up_alone)(void *owner, struct conn *c);
};

/* A request rendered once per verb by the wire's prepare: its bytes and
 * their id slot (id_off, id_len: enc_request's). framed: the bytes are the
 * whole request as it goes on the wire (HTTP: head and body), else the
 * body alone that the wire frames per send (STOMP: the SEND frame's
 * reply-to is each connection's own). */
struct prepared {
    struct enc_request req;
    size_t body_len;
    int framed;
};

/* What the dispatch hands the wire for one request: bytes whose id (and
 * templates) are stamped already. framed: as struct prepared's; a
 * templated call's body, stamped afresh, is never framed. The bytes are
 * the dispatch's (a lane's prepared request, or its stamping buffer) and
 * are restamped by the next request, so the wire copies what the socket
 * does not take at once. */
struct wire_msg {
    const char *data;
    size_t len;
    int framed;
};

/* What a wire protocol does on a connection whose transport is up. */
struct wire {
    int multiplex; /* many requests in flight per connection */
    /* Renders a verb's request body once for target t into out (the
     * caller's; rendered into again on the next call). @return 0, or -1
     * with err (out of memory). body stays the caller's. */
    int (*prepare)(const struct conn_ctx *x, const struct target *t,
                   const struct enc_request *body, struct prepared *out, char *err);
    void (*on_ready)(struct conn *c);           /* transport up: log in, or conn_ready */
    void (*on_io)(struct conn *c, int revents); /* readable/writable while up */
    /* Writes r (filled in; c IDLE) as m's bytes, framed by the wire when
     * m->framed is 0; m NULL: the dispatch could not make them (out of
     * memory), and r ends unsent as after a failed write. Sets r->sent_ns
     * (0: nothing went out, c failed) and r->tx_bytes. */
    void (*send)(struct conn *c, struct request *r, const struct wire_msg *m);
    void (*on_timer)(struct conn *c);           /* c->timer fired while up */
    void (*on_close)(struct conn *c, int kind); /* c failed: end what is in flight with kind */
    void (*goodbye)(struct conn *c);            /* at the end (STOMP DISCONNECT); may be NULL */
};

extern const struct wire wire_http;
extern const struct wire wire_stomp;

struct conn {
    const struct conn_ctx *ctx; /* the run's: loop, config values, wire, pool */
    const struct target *target; /* where it connects: the run's, or with
                                    --targets its host's (conn_init) */
    int idx;
    int fd;
    SSL *ssl;
    enum conn_state state;
    ev_io io;
    ev_timer timer;        /* request timeout, heart-beat, or reconnect backoff */
    double backoff_s;      /* the next backoff before its jitter */
    uint64_t rng;          /* the backoff's jitter */
    int64_t connect_ns;    /* when this connection attempt began */
    int ever_up;           /* reconnects are counted after the first */
    struct lane *lane;     /* its target's lane: the owner's, never read here */
    struct conn_peer *peer; /* the server it talks to (its lane's); set by conn_init */
    int last_kind;         /* the error kind of its last failure (a fleet's
                              host: its requests that find no connection) */
    struct http_response resp; /* HTTP: the answer being framed */
    struct buf body;       /* response body, or what the check keeps of it */
    struct check_stream check; /* --validate cheap: fed the body as it comes */
    size_t out_off;        /* partial write: what of `out` is still to go */
    struct buf out;
    struct request req;    /* HTTP: the one request in flight */
    struct conn *next_idle;  /* the engine's: its stack of idle connections */
    struct conn *next_spare; /* the engine's: connections it keeps closed */
    int on_demand;         /* the engine's: opened for a request that waits for it */
    int64_t rx_ns;         /* when the bytes last read reached this host: the
                              kernel's stamp (plain TCP), else the read's time */
    int harvested;         /* its reads are in the pool's harvest set */
    uint32_t gen;          /* counts its closes: a harvest event of an older
                              socket is not this one's */
    /* STOMP */
    struct buf in;         /* bytes read, not yet parsed */
    struct buf send_head;  /* its SEND frames' command and headers (reply-to
                              is its own), rendered once per login */
    int64_t last_rx_ns, last_tx_ns;
    int64_t hb_send_ns, hb_recv_ns; /* negotiated heart-beat periods, 0 = none */
    int receipt_done;
    int leaving;           /* DISCONNECT sent: a close is the goodbye, not a failure */
};

/* What one server has shown of itself (the run's single target, or one
 * host of a fleet): whether it ever answered in the wire's protocol, and
 * how many setups failed before it did. A fleet judges each host apart,
 * so one hostile host cannot end the others' run. */
struct conn_peer {
    int spoke;           /* it once answered in the wire's protocol
                            (STOMP CONNECTED, HTTP answer bytes) */
    int setup_failures;  /* connections that failed before it spoke */
    int gave_up;         /* a fleet's host: failed so before it ever spoke;
                            its requests fail, its connection retries slowly */
    int64_t first_tx_ns; /* when we first wrote to it (0: never): while it
                            never spoke, it has been silent since */
};

/* What the connections of a run count, written by conn.c and the wires
 * alone; the owner reads it and folds it into the run's result (the
 * run_result fields of the same names). bytes_* count measured requests
 * only; everything else counts the whole run, warmup included. */
struct conn_stats {
    int64_t reconnects;               /* opened again after the first time */
    int64_t failures[CONN_CAUSES];    /* connections that failed, by cause */
    int64_t handshakes;               /* TLS handshakes done */
    struct hist handshake;            /* their times (us); the owner inits and
                                         closes it */
    int64_t tls_failures;
    char tls_error[ERR_LEN];          /* the last TLS failure */
    int64_t stomp_errors, stomp_bad_frames;
    char stomp_error[160];            /* the last ERROR frame's message */
    int64_t stray_replies;
    int64_t bytes_sent, bytes_received;
    struct answer_checks checks;      /* --expect (answer_check.c) */
    /* The first error of each kind a wire could describe in the peer's
     * terms (a fault's message, an HTTP status), made safe (safetext). */
    char samples[ERR_KINDS][ERR_SAMPLE_LEN];
};

/* The run's connections and what they share. The owner sets conns, n, ev
 * and owner before the first conn_start; conn.c alone writes the counters. */
struct conn_pool {
    struct conn *conns;  /* the owner's (allocated and freed there) */
    int n;
    int nbackoff;        /* connections waiting to reconnect */
    double backoff_s;    /* the pool's next backoff (0: the first) */
    int reached;         /* a TCP connection got through once */
    int spoke;           /* some peer once answered in the wire's protocol */
    int last_kind;       /* the error kind of the last failure, for requests
                            that fail for want of a connection */
    char last_why[ERR_SAMPLE_LEN]; /* what happened then ("" none) */
    int last_conn;       /* the connection it happened to (its host's) */
    struct conn_stats stats;
    int harvest_fd;      /* -1, or the epoll set that the up connections'
                            reads go to instead of the loop (conn_pool_harvest) */
    const struct conn_events *ev;
    void *owner;         /* passed to every conn_events callback as is */
};

/* What every connection of a run reads, and the buffers they share: the
 * owner fills it before the first conn_start and keeps it (and what it
 * points to) until every connection is freed. Connections never write it
 * but for the pool's counters, the buffers and the ring. */
struct conn_ctx {
    struct ev_loop *loop;
    const struct wire *wire;      /* HTTP or STOMP */
    const struct encoder *enc;
    SSL_CTX *tls;                 /* NULL: plain TCP */
    struct conn_pool *pool;       /* counters, events and their owner */
    /* The configuration's values (run_config's of the same names). */
    int64_t timeout_ns;           /* a request's, and the setup's at most */
    size_t max_response;
    enum validate validate;
    int tls_insecure;
    int have_cert;                /* --cert given: the hints do not suggest it */
    const char *headers;          /* HTTP: --header lines, each "\r\n"-ended */
    const char *stomp_login, *stomp_passcode; /* "" none */
    const char *stomp_destination;             /* "" the default */
    /* How a failure names its server: url, or, for a fleet (name_host),
     * each connection's own host:port. */
    const char *url;
    int name_host;
    /* Shared by every connection: one loop thread. rbuf takes each read;
     * scratch each frame or templated request rendered on its way out,
     * written (or copied into the connection's out) before the next. */
    char *rbuf;
    size_t rbuf_len;
    struct buf *scratch;
    const struct reqid *ids;      /* the wire ids and STOMP names */
    struct request_ring *ring;    /* STOMP: the requests in flight, by id */
    const struct expect *expects; /* --expect, parsed (answer_decode_full) */
    size_t nexpects;
    /* --workload's calls, by verb index, for their own "expect" checks
     * (borrowed from the engine's workload; NULL: none) */
    const struct wl_call *calls;
    size_t ncalls;
    int checks;                   /* any check at all: the decode keeps the tree */
};

/* Moves the reads of p's up connections (IDLE, BUSY) into a set of their
 * own that the loop does not wait on: an answer then wakes nobody, and is
 * read when the owner calls conn_pool_harvest (the pacer's next wake) or
 * watches p->harvest_fd in its loop. Its latency is the kernel's receive
 * stamp (conn.rx_ns), so reading it later changes no figure. Plain TCP
 * only: a TLS record can sit decrypted in OpenSSL, unseen by epoll.
 * @return 0, or -1 (errno) with p->harvest_fd -1 (reads wake the loop). */
int conn_pool_harvest_init(struct conn_pool *p);
/* Reads every connection of p the harvest set says is readable (its wire's
 * on_io, which may end requests and call the owner back); nothing when p
 * has no harvest set. */
void conn_pool_harvest(struct conn_pool *p);
/* Closes the harvest set (after every connection's conn_close). */
void conn_pool_harvest_free(struct conn_pool *p);

/* Readies c (DOWN, nothing open) as connection idx of x's pool (at
 * x->pool->conns[idx]), to target with peer (what that server showed),
 * carrying l, its owner's lane (may be NULL). Nothing is allocated. */
void conn_init(const struct conn_ctx *x, struct conn *c, int idx, struct lane *l,
               const struct target *target, struct conn_peer *peer);
/* Opens c (DOWN): connect, TLS, then wire->on_ready. A connect that fails
 * at once goes to BACKOFF (conn_events.down says so before this returns). */
void conn_start(struct conn *c);
/* Closes the socket and stops c's watchers; nothing is told or counted. */
void conn_close(struct conn *c);
/* Frees c's buffers (after conn_close, at the end of the run). */
void conn_free(struct conn *c);
/* Gives back c's answer buffers (the kept body, STOMP's input) that grew
 * past keep bytes; the next answer grows them again. For an idle
 * connection only (nothing in them is in use). */
void conn_trim(struct conn *c, size_t keep);
/* c failed: closes it, counts the failure under cause, the wire ends what
 * was in flight with kind (wire->on_close; during the TLS handshake or the
 * STOMP login the kind is ERR_HANDSHAKE), and c reconnects after a backoff
 * (10 ms doubling to 1 s per failure of c and of the pool, whichever is
 * longer, +-50 % jitter, back to 10 ms after an answer).
 * why: what happened, completing "the server at URL ..." ("refused the
 * login: bad credentials"); may be NULL. It becomes the first error sample
 * of the kind and, when no connection ever got an answer and GIVE_UP_TRIES
 * setups failed so (one, for a handshake never answered), the line that
 * ends the run (CONN_DOWN_FATAL). */
void conn_fail(struct conn *c, int kind, enum conn_cause cause, const char *why);
/* The same, but the run ends at once when the peer never spoke: it is
 * sure to be the wrong protocol (plain text to TLS, STOMP to HTTP). */
void conn_fail_wrong_protocol(struct conn *c, int kind, const char *why);
/* The peer answered in the wire's protocol (STOMP CONNECTED, HTTP answer
 * bytes): setup failures no longer end the run. */
void conn_spoke(struct conn *c);
/* @return the deadline (s) for connecting and the TLS handshake or STOMP
 * login: --timeout, but at most 2 s while no peer ever spoke, so a peer
 * that accepts and stays silent is told within seconds. */
double conn_setup_deadline_s(const struct conn *c);
/* A TLS connection sent no client certificate (no --cert) and its peer,
 * which never answered, dropped it (st: IO_EOF closed, IO_ERROR reset)
 * after the handshake: a server that requires one says so only then in
 * TLS 1.3. Writes why (completing "the server at URL ...", caller's len
 * bytes) and @return 1; @return 0 (nothing written) when that is not c's
 * case. */
int conn_cert_hint(const struct conn *c, enum io_status st, char *why, size_t len);
/* Closes c cleanly (nothing lost) and tells the owner (CONN_DOWN_CLOSED). */
void conn_close_clean(struct conn *c);
/* The wire is up (IDLE): tells the owner (ready). */
void conn_ready(struct conn *c);
/* HTTP: the request is done and c IDLE again: tells the owner (idle). */
void conn_idle(struct conn *c);
/* r, sent on r->conn, ended with err_kind (REQ_OK: answered well, which also
 * resets the connection's backoff, and sets r->done_ns to the arrival of
 * the connection's last read, c->rx_ns): tells the owner. */
void conn_request_done(struct request *r, int err_kind);
/* Keeps the first error of kind described (stats.samples), made safe;
 * later ones of that kind cost one test. Never allocates. */
void conn_note_error(struct conn *c, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Where the first error of kind may be written in full by a describer of
 * the wire's own (errtext_fault, errtext_decode: ERR_SAMPLE_LEN bytes), or
 * NULL when one is kept already. */
char *conn_error_slot(struct conn *c, int kind);
/* Watches c's socket for events (EV_READ and/or EV_WRITE); an up
 * connection's EV_READ goes to the harvest set when the pool has one. */
void conn_watch(struct conn *c, int events);
/* Reads what the socket has, up to len bytes into buf, and sets c->rx_ns.
 * @return sock_read's outcome (IO_DONE with *n > 0, IO_AGAIN, IO_EOF,
 * IO_ERROR); a TLS failure is recorded in the run's transport figures. */
enum io_status conn_read(struct conn *c, void *buf, size_t len, size_t *n);
/* Writes c->out from c->out_off on. @return IO_DONE (all written, c->out
 * emptied), IO_AGAIN (some left: wait for EV_WRITE) or IO_ERROR. */
enum io_status conn_flush(struct conn *c);
/* Queues n bytes at p (copied when the socket does not take them now)
 * after what c->out still holds, writing what the socket takes. @return 0,
 * or -1 on a write error or out of memory. */
int conn_send_bytes(struct conn *c, const char *p, size_t n);
/* At the end: wire->goodbye on every live connection of x's pool (STOMP
 * DISCONNECT), then up to a second for their receipts (runs x's loop
 * meanwhile). */
void conn_goodbye_all(const struct conn_ctx *x);

/* answer_check.c: --expect. answer_decode_full is the full decode of an
 * answer's body to the request of verb index verb (the encoding's
 * decode_response; with checks, decode_result and each check of c->ctx on
 * the result: the run's --expect, then that call's own workload checks):
 * @return its enc status, and with ENC_OK *broke 1 when a check failed
 * (its first failing value noted as the ERR_CHECK sample), else 0. The
 * decode's and the checks' CPU time is counted in c's pool stats. */
int answer_decode_full(struct conn *c, int verb, const char *body, size_t len,
                       struct enc_result *r, int *broke);

#endif
