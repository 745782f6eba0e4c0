/* rec_wire: listens in on the two byte streams of one connection that
 * `rpcbench record` forwards, and cuts them into whole messages: HTTP
 * requests and responses (http-parser, net/http_response), or STOMP frames
 * (net/stomp), whichever the client's first bytes say (server/serve_sniff,
 * as serve decides). It only reads: the bytes were already forwarded, so
 * nothing here can delay or change them.
 *
 * Bytes are untrusted: a message is kept up to max_msg bytes (a longer
 * body is framed and counted, but handed over marked truncated), and a
 * stream that stops making sense is no longer followed (lost, said once);
 * the proxy forwards it all the same. Nothing here allocates but the
 * per-stream buffers, which are bounded by max_msg. */
#ifndef RPCBENCH_REC_WIRE_H
#define RPCBENCH_REC_WIRE_H

#include <http_parser.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "net/http_response.h"
#include "server/serve_sniff.h"

enum rec_dir { REC_UP, REC_DOWN }; /* client to server, server to client */

#define REC_WHERE_LEN 256

/* One whole message, valid during the callback only. */
struct rec_msg {
    int stomp;              /* 1: a STOMP frame, 0: an HTTP message */
    const char *body;       /* borrowed: the body (or its first max_msg bytes) */
    size_t body_len;
    int truncated;          /* the body was longer than max_msg */
    size_t wire_bytes;      /* the message's bytes on the wire */
    int64_t first_ns;       /* when its first byte and its last byte were read */
    int64_t last_ns;        /* (clock_now_ns) */
    const char *where;      /* HTTP request: the path; STOMP SEND: the destination */
    int auth;               /* HTTP request: it carried an Authorization header */
    unsigned status;        /* HTTP response: its status */
};

/* What the streams say, in order. Every hook is set; ctx is the caller's. */
struct rec_wire_events {
    /* A call: an HTTP request (up) or a STOMP SEND (up). */
    void (*call)(void *ctx, const struct rec_msg *m);
    /* An answer: an HTTP response (down) or a STOMP MESSAGE (down). */
    void (*answer)(void *ctx, const struct rec_msg *m);
    /* The client sent STOMP CONNECT (or STOMP) with a passcode header. */
    void (*passcode)(void *ctx);
    /* dir's stream is no longer followed; why is static text. */
    void (*lost)(void *ctx, enum rec_dir dir, const char *why);
};

struct rec_stream {
    int lost;
    int64_t now_ns;         /* the read being fed */
    int64_t first_ns;       /* the current message's first byte */
    size_t wire;            /* bytes of the current message so far */
    struct buf acc;         /* STOMP: unparsed bytes; HTTP: the body */
    int truncated;
    /* HTTP requests (up) */
    http_parser hp;
    char where[REC_WHERE_LEN];
    size_t where_len;
    char field[16];         /* the header name being read, lowercased */
    size_t field_len;
    int auth, done;
    /* HTTP responses (down) */
    struct http_response resp;
};

struct rec_wire {
    enum sniff_kind kind;   /* SNIFF_MORE until the client's first bytes say */
    char head[16];          /* the client's first bytes, while undecided */
    size_t nhead;
    size_t max_msg;
    struct rec_stream s[2];
    const struct rec_wire_events *ev;
    void *ctx;
};

/* Readies w (the caller's) for a new connection; ev and ctx are borrowed
 * and must outlive it. */
void rec_wire_init(struct rec_wire *w, size_t max_msg, const struct rec_wire_events *ev,
                   void *ctx);
/* n bytes p (borrowed) of dir's stream, read at now_ns. Calls the hooks
 * for every message they end. */
void rec_wire_feed(struct rec_wire *w, enum rec_dir dir, const char *p, size_t n,
                   int64_t now_ns);
/* dir's stream ended (an HTTP response that runs to the close ends here). */
void rec_wire_eof(struct rec_wire *w, enum rec_dir dir, int64_t now_ns);
/* Frees w's buffers (w may be initialised again). */
void rec_wire_free(struct rec_wire *w);

#endif
