/* engine_int: what the engine core and its connection code share. */
#ifndef RPCBENCH_ENGINE_INT_H
#define RPCBENCH_ENGINE_INT_H

#include <ev.h>
#include <http_parser.h>

#include "buf.h"
#include "encoder.h"
#include "engine.h"
#include "sched.h"

enum conn_state { CONN_DOWN, CONN_CONNECTING, CONN_IDLE, CONN_BUSY, CONN_BACKOFF };

/* The request a connection carries (HTTP: one at a time). */
struct inflight {
    int verb;            /* index into the verb mix */
    uint64_t id;
    int64_t intended_ns;
    int64_t sent_ns;
    int measured;        /* intended inside the measured window */
    int queued;          /* waited for a free connection */
};

struct engine;

struct conn {
    struct engine *eng;
    int fd;
    enum conn_state state;
    ev_io io;
    ev_timer timer;        /* request timeout, or reconnect backoff */
    double backoff_s;
    http_parser parser;
    struct buf body;       /* response body (not kept with --validate none) */
    int message_done;
    int too_large;
    size_t out_off;        /* partial write: what of `out` is still to go */
    struct buf out;
    struct inflight req;
    struct conn *next_idle;
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
    struct run_result *res;
    struct sampler *smp;

    struct prepared prep[RUN_MAX_VERBS];
    int wrr_current[RUN_MAX_VERBS]; /* smooth weighted round robin state */
    struct conn *conns;
    struct conn *idle;          /* stack of idle connections */
    int nbackoff;               /* connections waiting to reconnect */
    int inflight;
    uint64_t next_id;
    char rbuf[65536];           /* one loop thread: one read buffer */

    struct sched sched;
    int timerfd;
    ev_io pace;
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
    int64_t ival_sent, ival_ok, ival_errors;
    int64_t total_sent_window;
};

/* conn_http.c */
void conn_http_init(struct engine *e, struct conn *c);
void conn_http_start(struct conn *c);   /* connect, then idle */
void conn_http_send(struct conn *c);    /* c->req filled in; writes it */
void conn_http_close(struct conn *c);
int conn_http_prepare(struct engine *e, int verb, const struct enc_request *body, char *err);

/* engine.c, called by the connection code */
void engine_conn_idle(struct engine *e, struct conn *c);
void engine_conn_backoff(struct engine *e, struct conn *c);
void engine_request_done(struct engine *e, struct conn *c, int err_kind, size_t rx_bytes);

#endif
