/* engine_int: the state of one run, shared by the engine (engine.c), its
 * timeline (engine_timeline.c) and, read only but for scratch buffers,
 * the wires (conn_http.c, conn_stomp.c: prepared requests, ids, config). */
#ifndef RPCBENCH_ENGINE_INT_H
#define RPCBENCH_ENGINE_INT_H

#include <ev.h>
#include <openssl/ssl.h>

#include "base/buf.h"
#include "encoders/encoder.h"
#include "encoders/expect.h"
#include "encoders/workload.h"
#include "client/conn.h"
#include "client/engine.h"
#include "client/pacer_window.h"
#include "client/periodic.h"
#include "client/reqid.h"
#include "client/request_ring.h"
#include "client/sched.h"

/* A request rendered once per verb: HTTP head and body in one buffer, id
 * slot offset into it. */
struct prepared {
    struct enc_request req;
    size_t body_len;
};

#define TIMER_FIRED (-1)

/* Where a run is, in the order it gets there (FAILED from any earlier
 * phase). Only engine.c and engine_setup.c move it. */
enum engine_phase {
    PHASE_CONNECTING, /* the connections come up; nothing sent yet */
    PHASE_SENDING,    /* from the first send: warmup, then the measured window */
    PHASE_ENDED,      /* the window is over (or a signal came): no more sends */
    PHASE_DRAINING,   /* ... and the loop stops once the last answer is in */
    PHASE_FAILED,     /* the run cannot go on: fatal says why */
};

struct engine {
    struct ev_loop *loop;
    const struct run_config *cfg;
    struct run_hooks hooks;     /* the caller's (none set: all NULL) */
    const struct target *target;
    const struct encoder *enc;
    const struct wire *wire;    /* HTTP or STOMP, from the target's scheme */
    SSL_CTX *tls;               /* NULL: plain TCP */
    struct run_result *res;
    struct sampler *smp;
    struct agent_link *agent;   /* NULL: the server is sampled here (smp) */

    struct prepared prep[RUN_MAX_VERBS];
    /* --workload: its calls, and those with templates cut at them
     * (engine_workload.c); each request of such a call is stamped into
     * stamp_body (and, with the wire's head, stamp_msg): one loop thread. */
    struct workload *wl;        /* NULL: no workload file */
    struct tmpl tmpl[RUN_MAX_VERBS];
    struct tmpl_state tstate;
    int wl_xml;                 /* the encoding is XML-RPC: decided once, at load */
    uint64_t seq_next;          /* this process's ${seq} count */
    struct buf stamp_body, stamp_msg;
    struct expect expects[RUN_MAX_EXPECTS]; /* --expect, parsed once (answer_check.c) */
    size_t nexpects;
    int wrr_current[RUN_MAX_VERBS]; /* smooth weighted round robin state */
    struct conn_pool pool;      /* the connections (conn.c keeps its counters) */
    struct conn *idle;          /* stack of idle connections (HTTP) */
    struct conn *spare;         /* HTTP: connections not open, opened on demand */
    int nspare;
    enum engine_phase phase;
    int dispatching;            /* inside dispatch (see engine.c) */
    char fatal[ERR_LEN];        /* PHASE_FAILED: why (the target is unreachable) */
    int rr;                     /* round robin over connections (STOMP; a lane's) */
    struct request_ring ring;   /* STOMP: the requests in flight, by id */
    int64_t all_busy_ns;        /* when the last idle connection was taken */
    int outstanding;            /* requests sent and not yet ended */
    uint64_t next_id;           /* counter of the last id handed out */
    struct reqid ids;           /* this run's random id base and STOMP names */
    char rbuf[262144];          /* one loop thread: one read buffer (a 2 MB answer in ~10 reads) */
    struct buf scratch;         /* small frames rendered on the way out */

    struct sched sched;         /* the weighted mix's, at --rate */
    struct periodic periodic;   /* --workload's calls with their own period */
    int mix_off;                /* every call has its own period: no mix */
    /* The schedule and verb mix where the requests never sent began (at
     * the end), replayed when the run is over to censor their waits. */
    struct sched unsent;
    int unsent_wrr[RUN_MAX_VERBS];
    int have_unsent;
    int64_t over_ns;            /* when the run gave up on what is left */
    int timerfd;
    int64_t armed_ns;           /* what timerfd is set for (0: not set,
                                   TIMER_FIRED: went off, not set since) */
    int arm_pending;            /* the timer is wanted for the next send */
    struct pacer_window window; /* how long a wake waits for later sends */
    int timer_ahead;            /* the timer was set for a time still to come */
    ev_io pace;
    ev_prepare arm;             /* sets the timer once per loop turn (engine.c) */
    ev_io harvest;              /* the pool's harvest set, watched in the loop
                                   only while answers must wake it (engine.c) */
    ev_idle poll;               /* --busy-poll: the pacer runs every loop turn */
    ev_timer tick;
    ev_timer end;
    ev_timer silence;           /* the hint for a peer that never answered */
    ev_signal sigint, sigterm;
    int64_t m0_ns;              /* measured window starts */
    int64_t end_ns;             /* no sends from here */
    int64_t startup_deadline_ns;
    int64_t tick_k;             /* next tick index on the grid m0 + k*interval */

    struct hist ival_hist;      /* latencies completed in this interval */
    struct hist hook_hist;      /* the same, measured requests only (hooks.on_interval) */
    int64_t hook_start_ns;      /* where hook_hist's interval began */
    /* The interval's counts. Measured requests only (intended inside the
     * window), as requests.* count them, so the intervals sum to those;
     * warm counts what the warmup intervals show. */
    struct ival_counts {
        int64_t sent, ok, errors;
    } ival, warm;
    int64_t ival_ahead;         /* measured sends due at or after the next tick,
                                   made before it ran (the pacer wakes early) */
    int64_t warm_ahead;         /* the same for warmup sends (before m0_ns) */

    /* --targets (engine_lanes.c): one lane per target, nlanes 0 without.
     * The fields above that belong to one target (target, prep, sched,
     * unsent, the mix's state, idle, spare, all_busy_ns) hold lane
     * lane_at's; lane_enter swaps another's in. */
    struct lane *lanes;
    int nlanes, lane_at;
};

/* One target of a --targets run: its connections
 * (pool.conns[first_conn..first_conn + nconns)) and, while another lane
 * is entered, its share of the engine's state. */
struct lane {
    int first_conn, nconns;
    double rate;                /* per second */
    int64_t offset_ns;          /* its first send, after the sends begin */
    struct target_result *row;  /* its row of the result */
    const struct target *target;
    const struct fleet_target *ft; /* its line of the targets file (stages) */
    struct prepared prep[RUN_MAX_VERBS];
    struct sched sched, unsent;
    struct periodic periodic;   /* its calls with their own period */
    int unsent_wrr[RUN_MAX_VERBS], have_unsent, wrr_current[RUN_MAX_VERBS];
    struct conn *idle, *spare;
    int nspare;
    int64_t all_busy_ns;
    int rr;                     /* STOMP: its next connection in turn */
    int trim;                   /* polled slowly: its connections give back
                                   their grown buffers (lanes_trim_idle) */
    int unreachable;            /* a connect failed before any of its
                                   connections was up (lanes_unreachable) */
    struct conn_peer peer;      /* what its server showed (conn.c) */
};

/* No more sends: the window is over, a signal came, or the run failed. */
static inline int engine_ended(const struct engine *e)
{
    return e->phase >= PHASE_ENDED;
}

/* The stage of a --stages run that a measured request intended at
 * intended_ns counts in, or NULL (no stages). */
static inline struct stage_result *engine_stage(const struct engine *e, int64_t intended_ns)
{
    int i = e->res->nstages ? result_stage_of(e->cfg, intended_ns - e->m0_ns) : -1;
    return i < 0 ? NULL : &e->res->stages[i];
}

/* engine_record.c: the result's writes (see its head).
 * engine_pick_verb: the verb of the next request, by the mix's weights
 * (smooth weighted round robin). engine_request_ended: conn_events'
 * response_done and the ring's expire (owner: the engine).
 * engine_fail_unconnectable: a request due when every connection waits to
 * reconnect fails now, with the last failure's kind, counted under verb
 * (the one due_take gave with intended). engine_count_unsent:
 * at the end, the requests due and never sent are unfinished (where they
 * began is kept); engine_censor_unsent: when the run is over, their waits
 * are recorded as lower bounds. engine_count_in_flight: a measured request
 * in flight at the end is unfinished, its wait censored (a ring walk's
 * callback: owner is the engine). engine_fold_conn_stats: the pool's
 * counts into the result, once, at the end. */
int engine_pick_verb(struct engine *e);
/* engine_silence.c: the hint for a server that accepted and never
 * answered. engine_silence_init: once, with the loop; engine_silence_start:
 * when the sends begin (end_run stops e->silence). */
void engine_silence_init(struct engine *e);
void engine_silence_start(struct engine *e);
void engine_request_ended(void *owner, struct request *r, int kind);
void engine_fail_unconnectable(struct engine *e, int64_t intended, int verb);
void engine_count_unsent(struct engine *e);
void engine_censor_unsent(struct engine *e);
void engine_count_in_flight(void *owner, const struct request *r);
void engine_fold_conn_stats(struct engine *e);

/* engine_workload.c. engine_workload_call: the method and params (a new
 * reference, may be NULL) of verb i of a --workload run. @return 0, or -1
 * with err (the file changed since the options were checked, or XML-RPC
 * given named params). engine_workload_compile: cuts verb i's rendered
 * request at its templates, if it has any (@return 0, or -1 with err).
 * engine_stamp: verb r->verb's request with fresh values and r's id in
 * e->stamp_body; @return 1 so, 0 when the call has no templates (its
 * prepared bytes go as they are), -1 out of memory. engine_workload_free:
 * at teardown. */
int engine_workload_call(struct engine *e, size_t i, const char **method, json_object **params,
                         char *err);
int engine_workload_compile(struct engine *e, size_t i, const struct enc_request *body, char *err);
int engine_stamp(struct engine *e, const struct request *r);
void engine_workload_free(struct engine *e);

/* engine_dispatch.c. engine_due_peek: the intended time of the next
 * send, the mix's or a periodic call's (not consumed). */
int64_t engine_due_peek(const struct engine *e);

/* engine_dispatch.c. engine_dispatch: sends what is due while a
 * connection is free; a request due in [busy_since, free_at) waited for
 * the server (queued). engine_send_on_free: the pacer's wake sends what
 * is due on the connections free already, opening none.
 * engine_wake_on_answers: whether answers wake the loop (on) or wait for
 * the pacer's wake in the harvest set. @return of engine_all_gave_up: 1
 * when every connection opened is waiting to reconnect. */
void engine_dispatch(struct engine *e, int64_t busy_since, int64_t free_at);
/* engine_dispatch with no connection freed: what is due goes out (a
 * lanes_each callback). */
void engine_dispatch_all(struct engine *e);
void engine_send_on_free(struct engine *e);
void engine_wake_on_answers(struct engine *e, int on);
int engine_all_gave_up(const struct engine *e);

/* engine_pace.c: the libev callbacks of the pacer, started by engine.c.
 * engine_arm_cb (e->arm, before each sleep) sets the timer for the next
 * window's wake; engine_pace_cb (e->pace, the timerfd) is that wake: it
 * sends what is due and reads the answers that came; engine_poll_cb
 * (e->poll) is --busy-poll's spin. */
void engine_arm_cb(struct ev_loop *loop, ev_prepare *w, int revents);
void engine_pace_cb(struct ev_loop *loop, ev_io *w, int revents);
void engine_poll_cb(struct ev_loop *loop, ev_idle *w, int revents);

/* engine_lanes.c: --targets. lanes_setup makes a lane per target of
 * hooks.targets (this rank's share under mpirun) and their result rows,
 * and says how many connections the pool needs (@return 0, or -1 with
 * err; nothing to do without --targets). lane_enter makes lane i's state
 * the engine's (no-op without lanes, or when it is already).
 * lane_of_conn: the lane of connection c (0 without lanes). lanes_each
 * calls fn for every lane entered in turn (once, without lanes);
 * lanes_each_due only for the lanes with a send due by now.
 * lanes_enter_next enters the lane whose next send is due first after
 * now (@return 1), the lanes due already waiting for a connection to be
 * free (@return 0: none is to come).
 * lanes_begin starts every lane's schedule from now (each at its spread
 * offset). lanes_offered: the rate all the lanes' schedules (or the one
 * target's) offer over [a, b), the mix's and the periodic calls'. lanes_count: a measured request of lane i sent (kind
 * LANE_SENT), ended (REQ_OK with lat_us, or an error kind) or left
 * unfinished (LANE_UNFINISHED). lanes_free frees what lanes_setup made
 * and the prepared requests of the lanes not entered. */
#define LANE_SENT (-2)
#define LANE_UNFINISHED (-3)
int lanes_setup(struct engine *e, int *connections, char *err);
/* A connect of lane i failed while the connections come up: the lane is
 * unreachable unless one of its connections was up. @return 1 when every
 * lane is unreachable (the run cannot go on), else 0. lanes_last_kind:
 * the error kind of the entered lane's latest connection failure (the
 * pool's last without lanes), for its requests that find no connection. */
int lanes_unreachable(struct engine *e, int i);
int lanes_last_kind(const struct engine *e);
void lane_enter(struct engine *e, int i);
int lane_of_conn(const struct engine *e, const struct conn *c);
void lanes_each(struct engine *e, void (*fn)(struct engine *e));
void lanes_each_due(struct engine *e, void (*fn)(struct engine *e));
int lanes_enter_next(struct engine *e);
void lanes_begin(struct engine *e, int64_t now);
/* @return the rate the whole run offers (per second, every rank's
 * together): the mix's rate and the calls with their own period, of
 * every target; what the reports call the target rate. */
double lanes_target_rate(const struct engine *e);
double lanes_offered(const struct engine *e, int64_t a_ns, int64_t b_ns);
void lanes_count(struct engine *e, int lane, int kind, int64_t lat_us);
/* c (a fleet's, idle: its answer is in) gives back its grown answer
 * buffers when its host is polled slowly (engine_lanes.c says how
 * slowly); nothing without lanes. */
void lanes_trim_idle(struct engine *e, struct conn *c);
void lanes_free(struct engine *e);

/* engine_setup.c, for engine_run. engine_setup_transport picks the wire
 * and TLS from the target's scheme, makes sure of the file descriptors and,
 * for STOMP, sizes the request ring (expire: its callback). @return 0, or
 * -1 with err; what was made is freed by engine_run's teardown either way.
 * engine_setup_requests renders every verb's request once (e->prep).
 * @return 0, or -1 with err (bad --params, encoder refusal). */
int engine_setup_transport(struct engine *e, int connections, request_end_fn expire, char *err);
int engine_setup_requests(struct engine *e, char *err);
/* engine_render_requests: the rendering alone, for the lane entered
 * (engine_setup_requests calls it, after the --expect checks). */
int engine_render_requests(struct engine *e, char *err);
/* The start of the sends: now, or the common start of a distributed run
 * (hooks.on_start), slept until. @return it, or 0 when the run must not
 * start (PHASE_FAILED, e->fatal says why; the loop is told to stop). */
int64_t engine_agree_start(struct engine *e);

/* answer_check.c: --expect. answer_checks_setup parses cfg's checks into
 * e (@return 0, or -1 with err: they were checked before the run, so a
 * bug). answer_decode_full is the full decode of an answer's body (the
 * encoding's decode_response; with checks, decode_result and each check
 * on the result): @return its enc status, and with ENC_OK *broke 1 when
 * a check failed (its first failing value noted as the ERR_CHECK sample),
 * else 0. The decode's and the checks' CPU time is counted in
 * c's pool stats. */
int answer_checks_setup(struct engine *e, char *err);
int answer_decode_full(struct conn *c, const char *body, size_t len, struct enc_result *r,
                       int *broke);

/* engine_timeline.c: the interval grid. timeline_close closes the interval
 * ending at t_ns (grid index k; k <= 0 is warmup, k == 0 starts the /proc
 * sampler); timeline_tick_cb is e->tick's callback; timeline_flush_hook
 * hands the latencies since the last call to the interval hook. */
void timeline_close(struct engine *e, int64_t k, int64_t t_ns);
void timeline_tick_cb(struct ev_loop *loop, ev_timer *w, int revents);
void timeline_flush_hook(struct engine *e, const struct interval_rec *rec, int64_t t_ns);
/* The live view to hooks.on_snapshot (nothing without one): rec the
 * interval just closed (NULL: the drain), latency the measured ok
 * latencies since the last view (NULL in warmup), warmup 1 for the
 * warmup's intervals. */
void timeline_snapshot(struct engine *e, const struct interval_rec *rec,
                       const struct hist *latency, int warmup);
/* Adds what finished after the last interval closed (the drain) to the
 * last interval, so the intervals sum to requests.ok and errors. */
void timeline_fold_drain(struct engine *e);
/* Tells run_hooks.on_window that the measured window opens (end 0) or
 * closes (end 1, with e->end_ns final). */
void timeline_window_edge(struct engine *e, int end);

#endif
