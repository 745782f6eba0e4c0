/* serve_conn_int: what serve_conn.c (life cycle, byte I/O, TLS, sniffing)
 * shares with the two wire protocols it hands connections to, serve_http.c
 * and serve_stomp.c, and with serve_broker.c. Not for use outside serve_*.c.
 *
 * Ownership: a struct sconn is owned by the serve_ctx's list of open
 * connections (ctx->conns) from sconn_start until sconn_free; everything it
 * points to (ssl, its buffers, its wire's state) is its own. A function
 * below that may free c says so, and its caller touches c no more after
 * STEP_GONE or -1. */
#ifndef RPCBENCH_SERVE_CONN_INT_H
#define RPCBENCH_SERVE_CONN_INT_H

#include <http_parser.h>
#include <openssl/ssl.h>
#include <sys/types.h>

#include "base/buf.h"
#include "net/sock.h"
#include "server/serve_conn.h"

#define KEEP_CAP (64 * 1024) /* per-connection buffers above this are freed when done */
#define PATH_LEN 256

/* Where a connection is in its life: TLS handshake first (with
 * --tls-cert), then SNIFF (its first bytes pick the wire protocol), then
 * SERVING (c->wire speaks), and CLOSING after an error answer (write side
 * shut, input drained briefly, then freed). */
enum sconn_phase { PHASE_TLS, PHASE_SNIFF, PHASE_SERVING, PHASE_CLOSING };
enum route { ROUTE_XMLRPC, ROUTE_JSONRPC, ROUTE_NOT_FOUND, ROUTE_BAD_METHOD };
/* What a step left behind: carry on, wait for an event, or the connection
 * is gone (freed, or closing): touch it no more. */
enum step { STEP_GO, STEP_WAIT, STEP_GONE };

/* A wire protocol's side of a connection: serve_conn.c calls these once
 * sniffing chose it (c->wire), and never asks which protocol it is. Every
 * hook is set. Hooks that may free c say so by returning STEP_GONE or -1. */
struct serve_proto {
    /* The wire was just chosen, before its first input: sets up its state.
     * @return 0, or -1 out of memory (c is then freed by the caller). */
    int (*start)(struct sconn *c);
    /* Bytes read: p[0..n) is borrowed (the shared read buffer) and only
     * valid during the call; what must wait is copied into c->in.
     * @return enum step (STEP_GONE: c freed or closing). */
    enum step (*input)(struct sconn *c, const char *p, size_t n);
    /* c->out went out in full after waiting for EV_WRITE.
     * @return enum step (STEP_GONE: c freed or closing). */
    enum step (*written)(struct sconn *c);
    /* Part of a waiting c->out went out: the client reads, so it is alive. */
    void (*progress)(struct sconn *c);
    /* The idle timer fired: frees c, or keeps it (and may re-arm). */
    void (*idle)(struct sconn *c);
    /* c is being freed (by sconn_free, also after a failed start):
     * releases what the wire holds. Must not free c itself. */
    void (*close)(struct sconn *c);
    /* Another connection queued bytes on c->out (the broker's copy of a
     * message for c's subscription): write them out soon. Through this
     * hook the broker reaches a connection without calling its wire's
     * file, so the broker and the STOMP wire do not call each other. */
    void (*queued)(struct sconn *c);
};

/* serve_http.c, serve_stomp.c */
extern const struct serve_proto serve_http, serve_stomp;

struct stomp_conn;

struct sconn {
    struct serve_ctx *ctx;            /* borrowed */
    struct sconn *prev, *next;        /* in ctx->conns */
    int fd;                           /* owned */
    SSL *ssl;                         /* owned; NULL for plain TCP */
    enum sconn_phase phase;
    const struct serve_proto *wire;   /* NULL until sniffed */
    ev_io rio, wio;
    ev_timer idle, delay;
    struct buf in;    /* unparsed input kept while busy (HTTP) or mid-frame (STOMP) */
    size_t in_off;
    struct buf out;   /* the unwritten rest of what is being sent */
    size_t out_off;
    int close_after, linger;
    /* HTTP */
    http_parser parser;
    struct buf body;  /* the current request's body */
    char path[PATH_LEN];
    size_t path_len;
    enum route route;
    int busy, keep_alive;
    int fail_status;  /* 413/414 chosen by a parser callback */
    char field[8];    /* start of the header name being read, lowercased */
    size_t field_len;
    int expect_continue;
    /* STOMP, allocated by its start */
    struct stomp_conn *stomp;
};

/* serve_conn.c: the connection's byte I/O is net/sock's, on (c->fd, c->ssl). */
/* Writes c->out from c->out_off; what the socket does not take waits for
 * EV_WRITE, and the wire hears of the end through its written hook. The
 * client's conn_flush answers alike; neither frees the connection.
 * @return IO_DONE (all written, c->out emptied), IO_AGAIN (the rest goes
 * on EV_WRITE, armed here), or IO_ERROR (the socket failed: the caller
 * frees c). */
enum io_status sconn_flush(struct sconn *c);
/* Starts or stops reading; starting also reads bytes OpenSSL holds. */
void sconn_reading(struct sconn *c, int on);
/* Closes and frees c with all it owns (its wire's state first), and takes
 * it out of ctx->conns. */
void sconn_free(struct sconn *c);
/* (Re)arms the idle timer to fire after `after` seconds. */
void sconn_idle_restart(struct sconn *c, double after);
/* Closes the write side and drains input briefly before closing (phase
 * CLOSING); c is freed later, by the loop. */
void sconn_linger_start(struct sconn *c);
/* Frees b's memory when above KEEP_CAP, else empties it (keeping it). */
void sconn_trim(struct buf *b);

/* Counts the requests in body (borrowed; a JSON-RPC batch has many) into
 * ctx->requests and draws a --delay for each.
 * @return the longest delay in ns (0: answer now), after which the whole
 * body is answered at once. */
int64_t sconn_batch_delay(struct serve_ctx *ctx, const struct encoder *enc, const char *body,
                          size_t len);

/* serve_broker.c: who subscribed to what, across connections, as VDSM's
 * stompserver keeps it. */
#define SUB_NAME_LEN 256
struct sub {
    struct sub *next; /* in its hash bucket */
    struct sconn *c;  /* borrowed: the subscriber */
    uint32_t hash;
    int ack;          /* not ack:auto: MESSAGEs carry message-id and ack */
    char id[SUB_NAME_LEN];
    char dest[SUB_NAME_LEN];
};
/* Registers s (allocated by the caller with malloc; its c, id, dest, ack
 * filled); the table holds it until broker_unsubscribe. Never fails: a
 * table that cannot grow gets longer chains (and without even the first
 * table, s gets no messages). */
void broker_subscribe(struct serve_ctx *ctx, struct sub *s);
/* Unregisters s and frees it. */
void broker_unsubscribe(struct serve_ctx *ctx, struct sub *s);
/* Queues body (borrowed, copied) as a MESSAGE to every subscription of
 * dest (and with parents set, of its dot-separated parents too: "a.b"
 * subscribers get "a.b.c", as VDSM's find_subscribers). Headers:
 * destination, subscription, content-type ctype (NULL: none), then the
 * NULL-terminated pairs extra (may be NULL), then message-id and ack for
 * ack:client subscriptions. Frames for from are only queued (its caller
 * flushes); other connections are kicked, and skipped (counted in
 * dropped_copies) while more than BROKER_BACKLOG bytes wait for them.
 * Nothing is freed here.
 * @return subscriptions matched (>= 0), or -1 when from's frame could not
 * be had (out of memory: the caller frees from). */
#define BROKER_BACKLOG (8u << 20)
int broker_deliver(struct sconn *from, const char *dest, int parents, const char *ctype,
                   const char *const *extra, const char *body, size_t len);


#endif
