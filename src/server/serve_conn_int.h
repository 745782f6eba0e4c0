/* serve_conn_int: what serve_conn.c (life cycle, byte I/O, TLS, sniffing)
 * shares with the two protocols it hands connections to, serve_http.c and
 * serve_stomp.c. Not for use outside serve_*.c. */
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

/* TLS first (when --tls-cert), then SNIFF (first bytes pick the protocol),
 * then HTTP or STOMP, and CLOSING after an error answer. */
enum proto { PROTO_TLS, PROTO_SNIFF, PROTO_HTTP, PROTO_STOMP, PROTO_CLOSING };
enum route { ROUTE_XMLRPC, ROUTE_JSONRPC, ROUTE_NOT_FOUND, ROUTE_BAD_METHOD };
/* What a step left behind: carry on, wait for an event, or the connection
 * is gone (freed, or closing): touch it no more. */
enum step { STEP_GO, STEP_WAIT, STEP_GONE };

struct stomp_conn;

struct conn {
    struct serve_ctx *ctx;
    struct conn *prev, *next;
    int fd;
    SSL *ssl;         /* NULL for plain TCP */
    enum proto proto;
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
    /* STOMP, allocated when sniffed */
    struct stomp_conn *stomp;
};

/* serve_conn.c: the connection's byte I/O is net/sock's, on (c->fd, c->ssl). */
/* Writes c->out; what the socket does not take waits for EV_WRITE, and the
 * protocol hears of the end through its *_written(). @return STEP_GO all
 * written, STEP_WAIT, or STEP_GONE (error: c freed). */
enum step sconn_flush(struct conn *c);
/* Starts or stops reading; starting also reads bytes OpenSSL holds. */
void sconn_reading(struct conn *c, int on);
void sconn_free(struct conn *c);
void sconn_idle_restart(struct conn *c, double after);
/* Closes the write side and drains input briefly before closing. */
void sconn_linger_start(struct conn *c);
/* Frees a buffer above KEEP_CAP, else empties it. */
void sconn_trim(struct buf *b);

/* Counts the requests in body (a JSON-RPC batch has many) into
 * ctx->requests and draws a --delay for each: @return the longest, after
 * which the whole body is answered at once. */
int64_t sconn_batch_delay(struct serve_ctx *ctx, const struct encoder *enc, const char *body,
                          size_t len);

/* serve_broker.c: who subscribed to what, across connections, as VDSM's
 * stompserver keeps it. */
#define SUB_NAME_LEN 256
struct sub {
    struct sub *next; /* in its hash bucket */
    struct conn *c;
    uint32_t hash;
    int ack;          /* not ack:auto: MESSAGEs carry message-id and ack */
    char id[SUB_NAME_LEN];
    char dest[SUB_NAME_LEN];
};
/* Registers s (allocated by the caller; its c, id, dest, ack filled).
 * Never fails: a table that cannot grow gets longer chains (and without
 * even the first table, s gets no messages). */
void broker_subscribe(struct serve_ctx *ctx, struct sub *s);
/* Unregisters and frees s. */
void broker_unsubscribe(struct serve_ctx *ctx, struct sub *s);
/* Queues body as a MESSAGE to every subscription of dest (and with
 * parents set, of its dot-separated parents too: "a.b" subscribers get
 * "a.b.c", as VDSM's find_subscribers). Headers: destination, subscription,
 * content-type ctype, then the NULL-terminated pairs extra (may be NULL),
 * then message-id and ack for ack:client subscriptions. Frames for from
 * are only queued (its caller flushes); other connections are kicked, and
 * skipped (counted in dropped_copies) while more than BROKER_BACKLOG
 * bytes wait for them. Nothing is freed here.
 * @return subscriptions matched, or -1 when from's frame could not be had
 * (out of memory: the caller frees from). */
#define BROKER_BACKLOG (8u << 20)
int broker_deliver(struct conn *from, const char *dest, int parents, const char *ctype,
                   const char *const *extra, const char *body, size_t len);

/* serve_http.c */
void serve_http_init(struct conn *c);
enum step serve_http_input(struct conn *c, const char *p, size_t n);
/* c->out went out in full. */
enum step serve_http_written(struct conn *c);

/* serve_stomp.c */
/* @return 0, or -1 out of memory. */
int serve_stomp_start(struct conn *c);
enum step serve_stomp_input(struct conn *c, const char *p, size_t n);
enum step serve_stomp_written(struct conn *c);
/* The idle timer fired: drop c, or not while answers are owed. */
void serve_stomp_idle(struct conn *c);
/* Wrote something: the client is reading, so it is alive. */
void serve_stomp_progress(struct conn *c);
void serve_stomp_free(struct conn *c);
/* A frame was queued on c from another connection: write it out soon. */
void serve_stomp_kick(struct conn *c);

#endif
