/* engine_int: the state of one run, shared by the engine's files
 * (engine*.c, ledger.c). The connections (conn*.c) never include it: they
 * read their context (struct conn_ctx, e->cx), which the engine fills. */
#ifndef RPCBENCH_ENGINE_INT_H
#define RPCBENCH_ENGINE_INT_H

#include <ev.h>
#include <openssl/ssl.h>

#include "base/buf.h"
#include "encoders/encoder.h"
#include "workload/expect.h"
#include "workload/workload.h"
#include "client/conn.h"
#include "client/engine.h"
#include "client/pacer_window.h"
#include "client/periodic.h"
#include "client/replay_sched.h"
#include "client/reqid.h"
#include "client/request_ring.h"
#include "client/sched.h"

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

/* The counts of one interval of the grid, each by its own stamp
 * (interval_rec says which). */
struct ival_tally {
    int64_t due, sent, unsent, ok, errors;
};

/* Every interval's tally, warmup's (k0 <= k <= 0) and window's, by grid
 * index k at now[k - k0]; shown: what each was when its tick closed it,
 * so what came after (a late harvest, the drain) is added at the end. */
struct ledger_ivals {
    struct ival_tally *now, *shown;
    int64_t k0;
    size_t n;
};

struct engine {
    struct ev_loop *loop;
    const struct run_config *cfg;
    struct run_hooks hooks;     /* the caller's (none set: all NULL) */
    const struct encoder *enc;
    const struct wire *wire;    /* HTTP or STOMP, from the target's scheme */
    SSL_CTX *tls;               /* NULL: plain TCP */
    struct run_result *res;
    struct sampler *smp;
    struct agent_link *agent;   /* NULL: the server is sampled here (smp) */

    /* --workload: its calls, and those with templates cut at them
     * (engine_workload.c); each request of such a call is stamped into
     * stamp_body (the wire frames it in cx.scratch): one loop thread. */
    struct workload *wl;        /* NULL: no workload file (--replay: rec's) */
    struct replay_file *rec;      /* --replay: the recording, loaded once (NULL: none) */
    struct tmpl tmpl[RUN_MAX_VERBS];
    struct tmpl_state tstate;
    int wl_xml;                 /* the encoding is XML-RPC: decided once, at load */
    uint64_t seq_next;          /* this process's ${seq} count */
    struct buf stamp_body;
    struct expect expects[RUN_MAX_EXPECTS]; /* --expect, parsed once (answer_check.c) */
    size_t nexpects;
    struct conn_pool pool;      /* the connections (conn.c keeps its counters) */
    struct conn_ctx cx;         /* what they read: filled by engine_setup.c */
    enum engine_phase phase;
    int dispatching;            /* inside dispatch (see engine.c) */
    char fatal[ERR_LEN];        /* PHASE_FAILED: why (the target is unreachable) */
    struct request_ring ring;   /* STOMP: the requests in flight, by id */
    int outstanding;            /* requests sent and not yet ended */
    uint64_t next_id;           /* counter of the last id handed out */
    struct reqid ids;           /* this run's random id base and STOMP names */
    char rbuf[262144];          /* one loop thread: one read buffer (a 2 MB answer in ~10 reads) */
    struct buf scratch;         /* frames and templated requests on the way
                                   out (cx.scratch) */

    int mix_off;                /* every call has its own period: no mix */
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

    /* The latencies answered in the interval the next tick closes, by
     * their arrival stamps; *_next: those stamped past it, read before the
     * tick ran (the next interval's). hook: measured requests only
     * (hooks.on_interval, on_tick, on_snapshot). */
    struct hist ival_hist, ival_next;
    struct hist hook_hist, hook_next;
    int64_t hook_start_ns;      /* where hook_hist's interval began */
    struct ledger_ivals ivals;  /* the intervals' counts (client/ledger.c) */

    /* The lanes (engine_lanes.c): one per target, a run's one --url's
     * or each host of --targets (fleet 1); every run has at least one. */
    struct lane *lanes;
    int nlanes, fleet;
    int multi;                  /* more than one lane: the pacer asks each
                                   (a fleet, or a replay's connections) */
};

/* One target: its connections (pool.conns[first_conn..first_conn +
 * nconns), each knowing its lane), its schedule and verb mix, its rendered
 * requests, its idle and closed connections, its row of the result. The
 * dispatch, the pacer and the ledger work for one lane at a time. */
struct lane {
    int index, first_conn, nconns;
    double rate;                /* per second (a fleet's host's own) */
    int64_t offset_ns;          /* its first send, after the sends begin */
    struct target_result *row;  /* its row of the result (NULL: no fleet) */
    const struct target *target;
    const struct fleet_target *ft; /* its line of the targets file (NULL: no fleet) */
    struct prepared prep[RUN_MAX_VERBS]; /* each verb's request, its Host line */
    struct sched sched;         /* the weighted mix's, at its rate */
    struct periodic periodic;   /* its calls with their own period */
    struct replay_sched replay; /* --replay: its recorded connection's calls */
    uint32_t rec_conn;          /* ... which (the recording's, from 0) */
    int wrr_current[RUN_MAX_VERBS]; /* smooth weighted round robin state */
    /* The schedule and verb mix where the requests never sent began (at
     * the end), replayed when the run is over to censor their waits. */
    struct sched unsent;
    int unsent_wrr[RUN_MAX_VERBS], have_unsent;
    struct conn *idle;          /* stack of idle connections (HTTP) */
    struct conn *spare;         /* HTTP: connections not open, opened on demand */
    int nspare;
    int64_t all_busy_ns;        /* when its last idle connection was taken */
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

/* The stage of a --stages run in which an answer that arrived at at_ns
 * counts: the one running then; after the window, the one it ended in.
 * NULL without stages. */
static inline struct stage_result *engine_stage_at(const struct engine *e, int64_t at_ns)
{
    return engine_stage(e, at_ns < e->end_ns ? at_ns : e->end_ns - 1);
}

/* ledger.c: the one place a request is counted (see its head).
 * ledger_note: event x of a request, into every view of the result.
 * ledger_sent: r was written at r->sent_ns (queued: it found every
 * connection busy when due; on_demand: on a connection opened for it).
 * engine_request_ended: conn_events' response_done and the ring's expire
 * (owner: the engine); a request whose write failed (sent_ns 0) is
 * unsent. engine_fail_unconnectable: a request due when every connection
 * waits to reconnect is given up now (unsent), with the last failure's
 * kind, under verb (the one due_take gave with intended).
 * engine_count_unsent: at the end, the requests due and never written
 * are unsent (where they began is kept); engine_censor_unsent: once the
 * run is over (over_ns), their waits are recorded as lower bounds.
 * engine_count_in_flight: a measured request in flight when the run is
 * over is unfinished, its wait censored (a ring walk's callback: owner is
 * the engine). ledger_ivals_init: the interval tallies from grid index k0
 * (@return 0, or -1 out of memory; ledger_ivals_free frees them).
 * ledger_ival_close: interval k's tally as its tick closes it (NULL:
 * none), kept as shown. ledger_ivals_settle: at the end, what each
 * interval got after its tick into e->res's intervals (the stamps past
 * the last into the last); @return the sum of it. */
enum ledger_event {
    LEDGER_SENT,       /* written to the wire, at sent_ns */
    LEDGER_ENDED,      /* answered (REQ_OK) or failed (kind), at at_ns */
    LEDGER_UNFINISHED, /* sent, no end when the run was over (at_ns) */
    LEDGER_UNSENT,     /* never written: given up at at_ns (kind), or left
                          waiting at the end (kind LEDGER_LEFT) */
};
#define LEDGER_LEFT (-4)
struct ledger_entry {
    enum ledger_event ev;
    int kind, verb, measured, queued, on_demand;
    struct lane *lane;                   /* its target's */
    int64_t intended_ns, sent_ns, at_ns; /* at_ns 0: not known yet */
    const struct request *r;             /* its bytes and connection (may be NULL) */
};
void ledger_sent(struct engine *e, const struct request *r, int queued, int on_demand);
void engine_request_ended(void *owner, struct request *r, int kind);
void engine_fail_unconnectable(struct engine *e, struct lane *l, int64_t intended, int verb);
void engine_count_unsent(struct engine *e, struct lane *l);
void engine_censor_unsent(struct engine *e, struct lane *l);
void engine_count_in_flight(void *owner, const struct request *r);
int ledger_ivals_init(struct engine *e, int64_t k0);
const struct ival_tally *ledger_ival_close(struct engine *e, int64_t k);
struct ival_tally ledger_ivals_settle(struct engine *e);
void ledger_ivals_free(struct engine *e);

/* engine_silence.c: the hint for a server that accepted and never
 * answered. engine_silence_init: once, with the loop; engine_silence_start:
 * when the sends begin (end_run stops e->silence). */
void engine_silence_init(struct engine *e);
void engine_silence_start(struct engine *e);

/* engine_record.c. engine_pick_verb: the verb of lane l's next request,
 * by the mix's weights (smooth weighted round robin, l's own state).
 * engine_fold_conn_stats: the pool's counts into the result, once, at the
 * end. */
int engine_pick_verb(const struct engine *e, struct lane *l);
void engine_fold_conn_stats(struct engine *e);

/* engine_workload.c. engine_workload_call: the method and params (a new
 * reference, may be NULL) of verb i of a --workload run. @return 0, or -1
 * with err (the file changed since the options were checked, or XML-RPC
 * given named params). engine_workload_compile: cuts verb i's rendered
 * request at its templates, if it has any (@return 0, or -1 with err).
 * engine_stamp: verb r->verb's request with fresh values and r's id in
 * e->stamp_body; @return 1 so, 0 when the call has no templates (its
 * prepared bytes go, their id stamped by the dispatch), -1 out of memory.
 * engine_workload_free: at teardown. */
int engine_workload_call(struct engine *e, size_t i, const char **method, json_object **params,
                         char *err);
int engine_workload_compile(struct engine *e, size_t i, const struct enc_request *body, char *err);
int engine_stamp(struct engine *e, const struct request *r);
void engine_workload_free(struct engine *e);

/* engine_lanes.c. engine_due_peek: the intended time of lane l's next
 * send, the mix's or a periodic call's (not consumed). */
int64_t engine_due_peek(const struct engine *e, const struct lane *l);

/* engine_dispatch.c. engine_dispatch: sends what is due of lane l while
 * one of its connections is free; a request due in [busy_since, free_at)
 * waited for the server (queued). engine_send_on_free: the pacer's wake
 * sends what is due on l's connections free already, opening none.
 * engine_wake_on_answers: whether answers wake the loop (on) or wait for
 * the pacer's wake in the harvest set. @return of engine_all_gave_up: 1
 * when every connection of l opened is waiting to reconnect. */
void engine_dispatch(struct engine *e, struct lane *l, int64_t busy_since, int64_t free_at);
/* engine_dispatch with no connection freed: what is due goes out (a
 * lanes_each callback). */
void engine_dispatch_all(struct engine *e, struct lane *l);
void engine_send_on_free(struct engine *e, struct lane *l);
void engine_wake_on_answers(struct engine *e, int on);
int engine_all_gave_up(const struct engine *e, const struct lane *l);

/* engine_pace.c: the libev callbacks of the pacer, started by engine.c.
 * engine_arm_cb (e->arm, before each sleep) sets the timer for the next
 * window's wake; engine_pace_cb (e->pace, the timerfd) is that wake: it
 * sends what is due and reads the answers that came; engine_poll_cb
 * (e->poll) is --busy-poll's spin. */
void engine_arm_cb(struct ev_loop *loop, ev_prepare *w, int revents);
void engine_pace_cb(struct ev_loop *loop, ev_io *w, int revents);
void engine_poll_cb(struct ev_loop *loop, ev_idle *w, int revents);

/* engine_lanes.c: the run's targets, one lane each (see struct lane).
 * lanes_setup makes a lane per target of hooks.targets (this rank's share
 * under mpirun) and their result rows, or the one lane of target (no
 * --targets), and says how many connections the pool needs (@return 0,
 * or -1 with err). lanes_each calls fn for every lane; lanes_each_due only
 * for the lanes with a send due by now (a run of one target: its lane,
 * always). lanes_next: the lane whose next
 * send is due first after now (NULL: none is to come; the lanes due
 * already wait for a connection to be free). lanes_begin starts every
 * lane's schedule from now (a fleet's each at its spread offset).
 * lanes_offered: the rate the lanes' schedules offer over [a, b), the
 * mix's and the periodic calls'. lanes_free frees what lanes_setup made
 * and the lanes' prepared requests. */
int lanes_setup(struct engine *e, const struct target *target, int *connections, char *err);
/* A connect of lane l failed while the connections come up: the lane is
 * unreachable unless one of its connections was up. @return 1 when every
 * lane is unreachable (the run cannot go on), else 0. lanes_last_kind:
 * the error kind of l's latest connection failure (the pool's last when
 * none of l's is waiting), for its requests that find no connection. */
int lanes_unreachable(struct engine *e, struct lane *l);
int lanes_last_kind(const struct engine *e, const struct lane *l);
void lanes_each(struct engine *e, void (*fn)(struct engine *e, struct lane *l));
void lanes_each_due(struct engine *e, void (*fn)(struct engine *e, struct lane *l));
struct lane *lanes_next(struct engine *e);
void lanes_begin(struct engine *e, int64_t now);
/* @return the rate the whole run offers (per second, every rank's
 * together): the mix's rate and the calls with their own period, of
 * every target; what the reports call the target rate. */
double lanes_target_rate(const struct engine *e);
double lanes_offered(const struct engine *e, int64_t a_ns, int64_t b_ns);
/* c (a fleet's, idle: its answer is in) gives back its grown answer
 * buffers when its host is polled slowly (engine_lanes.c says how
 * slowly); nothing without --targets. */
void lanes_trim_idle(struct engine *e, struct conn *c);
void lanes_free(struct engine *e);

/* engine_setup.c, for engine_run. engine_setup_transport picks the wire
 * and TLS from the target's scheme, makes sure of the file descriptors and,
 * for STOMP, sizes the request ring (expire: its callback). @return 0, or
 * -1 with err; what was made is freed by engine_run's teardown either way.
 * engine_setup_requests renders every verb's request once (e->prep).
 * @return 0, or -1 with err (bad --params, encoder refusal).
 * engine_setup_transport also fills e->cx but its loop (setup_loop's). */
int engine_setup_transport(struct engine *e, int connections, request_end_fn expire, char *err);
int engine_setup_requests(struct engine *e, char *err);
/* The start of the sends: now, or the common start of a distributed run
 * (hooks.on_start), slept until. @return it, or 0 when the run must not
 * start (PHASE_FAILED, e->fatal says why; the loop is told to stop). */
int64_t engine_agree_start(struct engine *e);

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
/* Tells run_hooks.on_window that the measured window opens (end 0) or
 * closes (end 1, with e->end_ns final). */
void timeline_window_edge(struct engine *e, int end);

#endif
