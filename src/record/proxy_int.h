/* proxy_int: what proxy.c (listening, the loop, the end) shares with
 * proxy_pair.c (one client connection and its connection to the server).
 * Not for use outside src/record/proxy*.c. */
#ifndef RPCBENCH_PROXY_INT_H
#define RPCBENCH_PROXY_INT_H

#include "base/buf.h"
#include "record/proxy.h"
#include "record/rec_calls.h"
#include "record/rec_wire.h"

#define PROXY_MARKS 64 /* chunks whose added latency waits to be measured */
#define PROXY_SETUP_S 10.0 /* the connect to the server and both TLS handshakes, at most */

/* Where one side is: connecting (the server's), TLS handshake, open. */
enum side_phase { SIDE_CONNECTING, SIDE_HANDSHAKE, SIDE_OPEN };

/* A chunk queued for this side: the stream offset of its first byte and
 * when it was read from the other side. */
struct mark {
    uint64_t pos;
    int64_t read_ns;
};

struct side {
    struct pair *pair;
    int fd;                 /* owned */
    SSL *ssl;               /* owned; NULL: plain */
    enum side_phase phase;
    int want_write;         /* the handshake waits for writability */
    /* What a TLS read or write that could not go on waits for, as OpenSSL
     * said: a read may want the socket writable, and a write readable (a
     * renegotiation: the peer's handshake must come first). Each is
     * watched that way only (update): a write that wants a read, watched
     * for writability, would wake at once, for ever. */
    int read_wants_write, write_wants_read;
    int eof;                /* read its end */
    int shut;               /* its write side was shut (after the other's eof) */
    ev_io rio, wio;
    struct buf out;         /* bytes for this side, not yet written */
    size_t out_off;
    uint64_t queued, written; /* stream offsets */
    struct mark marks[PROXY_MARKS];
    int nmarks, mark0;
};

/* A client connection (side 0, REC_UP's source) and its server connection
 * (side 1). Owned by the proxy's list from pair_start to pair_close. */
struct pair {
    struct proxy *px;       /* borrowed */
    struct pair *prev, *next;
    struct side s[2];
    ev_timer setup;         /* until both sides are open */
    ev_timer idle;          /* --idle-timeout: checks last_io_ns (not re-armed per byte) */
    int64_t last_io_ns;     /* the last byte read or written, either side */
    struct rec_wire wire;
    struct rec_calls calls;
};

/* Takes the accepted, non-blocking fd and starts the connection to the
 * server. @return 0, or -1 (fd closed, counted). */
int pair_start(struct proxy *px, int fd);
/* Closes and frees a pair: its calls still waiting are recorded as
 * unanswered. */
void pair_close(struct pair *pr);

#endif
