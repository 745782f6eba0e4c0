/* engine: one run's event loop (see engine.h): its phases, the
 * connections' events, the end and the drain. The pacer's timer and
 * wakes are engine_pace.c's; what is due is sent by engine_dispatch.c, and
 * recorded by engine_record.c. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "base/clock.h"
#include "client/engine_int.h"
#include "proc/sampler.h"
#include "client/agent_link.h"
#include "client/reqlog.h"

/* The run cannot go on: the first reason is kept (e->fatal), and the loop
 * stops; engine_run then fails with it. */
__attribute__((format(printf, 2, 3))) static void fail(struct engine *e, const char *fmt, ...)
{
    if (e->phase != PHASE_FAILED) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->fatal, sizeof e->fatal, fmt, ap);
        va_end(ap);
        e->phase = PHASE_FAILED;
    }
    ev_break(e->loop, EVBREAK_ALL);
}

/* c takes requests, and has since free_at. Requests that fell due after
 * every connection got busy and before free_at waited for this one: they
 * are the queued ones. One due later waited for the client alone (an
 * answer read on the pacer's wake, after it came): its lag is the pacer's. */
static void take_back(struct engine *e, struct conn *c, int64_t free_at)
{
    struct lane *l = c->lane;
    int64_t busy_since = l->idle || e->wire->multiplex ? INT64_MAX : l->all_busy_ns;
    if (!e->wire->multiplex) {
        c->next_idle = l->idle;
        l->idle = c;
    }
    if (e->phase == PHASE_SENDING)
        engine_dispatch(e, l, busy_since, free_at);
}

/* conn_events.ready: c is up now. */
static void conn_up(void *owner, struct conn *c)
{
    take_back(owner, c, clock_now_ns());
}

/* conn_events.idle: c's answer is in; c was free from its arrival on. */
static void conn_answered(void *owner, struct conn *c)
{
    take_back(owner, c, c->rx_ns);
    if (c->state == CONN_IDLE) /* still idle: nothing was due for it */
        lanes_trim_idle(owner, c);
}

/* HTTP: c, closed, is kept closed until a request needs it. */
static void make_spare(struct engine *e, struct conn *c)
{
    struct lane *l = c->lane;
    c->next_spare = l->spare;
    l->spare = c;
    l->nspare++;
    /* A backlog waits for no completion now: dispatch opens this one again. */
    if (e->phase == PHASE_SENDING && !e->dispatching)
        engine_dispatch(e, l, l->idle ? INT64_MAX : l->all_busy_ns, clock_now_ns());
}

/* A TCP connect failed (why). Before the run began and before any
 * connection got through, the target is unreachable: the run stops and
 * engine_run fails with one line. A fleet (--targets) stops only when
 * every host is: a host that cannot be connected counts its requests as
 * connect errors in its own row, and its connection retries with the
 * usual backoff (lanes_unreachable, engine_lanes.c). */
static void connect_failed(struct engine *e, struct lane *l, const char *why)
{
    if (e->phase != PHASE_CONNECTING)
        return;
    if (e->fleet) {
        if (lanes_unreachable(e, l))
            fail(e, "cannot connect to any of the %d targets (the last, %.100s:%d: %s)",
                 e->nlanes, l->target->host, l->target->port, why);
        return;
    }
    if (!e->pool.reached)
        fail(e, "cannot connect to %.100s:%d: %s", l->target->host, l->target->port, why);
}

/* conn_events.down: c is no longer free (HTTP: off the idle stack). */
static void conn_went_down(void *owner, struct conn *c, enum conn_down how, const char *why)
{
    struct engine *e = owner;
    struct lane *l = c->lane;
    for (struct conn **pp = &l->idle; *pp; pp = &(*pp)->next_idle)
        if (*pp == c) {
            *pp = c->next_idle;
            break;
        }
    if (how == CONN_DOWN_FATAL) { /* the run cannot work: it ends with why */
        if (e->fleet) /* every host given up or unreachable */
            fail(e, "none of the %d targets answered (the last, %s)", e->nlanes, why);
        else
            fail(e, "%s", why);
        return;
    }
    if (how == CONN_DOWN_CLOSED) {
        if (e->cfg->rate > 0)
            make_spare(e, c); /* reopened when a request needs it, never to sit silent */
        else
            conn_start(c);
        return;
    }
    if (why)
        connect_failed(e, l, why);
    /* The last connection gave up: the backlog cannot go anywhere, so it
     * is given up now rather than waiting for a connection that may never
     * come. */
    if (e->phase == PHASE_SENDING && engine_all_gave_up(e, l) && !e->dispatching) /* else dispatch sees it */
        engine_dispatch(e, l, INT64_MAX, INT64_MAX);
}

/* conn_events.backoff_over: c (DOWN) may connect again. No connection is
 * opened that will not speak: one closed silent sets VDSM's protocol
 * detector spinning at 100 % of a core. So once nothing is left to send,
 * c stays closed; and HTTP at a set rate keeps it as a spare, opened when
 * a request needs it (as a connection the server closed), not ahead of
 * one that may never come. STOMP speaks at once (CONNECT), and a closed
 * loop uses c at once. */
static void conn_may_retry(void *owner, struct conn *c)
{
    struct engine *e = owner;
    if (e->phase >= PHASE_ENDED)
        return;
    if (e->phase == PHASE_SENDING && !e->wire->multiplex && e->cfg->rate > 0)
        conn_went_down(e, c, CONN_DOWN_CLOSED, NULL);
    else
        conn_start(c);
}

/* conn_events.give_up_alone: a fleet's host that never spoke failed its
 * setups (c's): it alone is given up, its requests failing as its
 * connection's last failure while the connection retries with the usual
 * backoff (at most one try a second), unless every host is now given up
 * or unreachable. @return 1 when the others go on, 0 when the run must
 * end (or it is no fleet). */
static int host_gives_up_alone(void *owner, struct conn *c)
{
    struct engine *e = owner;
    if (!e->fleet)
        return 0;
    c->peer->gave_up = 1;
    for (int i = 0; i < e->nlanes; i++)
        if (!e->lanes[i].peer.gave_up && !e->lanes[i].unreachable)
            return 1;
    return 0;
}

static const struct conn_events engine_events = {
    .ready = conn_up,
    .idle = conn_answered,
    .down = conn_went_down,
    .response_done = engine_request_ended,
    .backoff_over = conn_may_retry,
    .give_up_alone = host_gives_up_alone,
};

/* No separate reachability probe: a connection closed without a byte sets
 * VDSM's protocol detector spinning at 100 % CPU until its 10 s timeout,
 * which the run would then measure. The run's own first connection tells
 * an unreachable target (connect_failed). For the same reason HTTP opens
 * one connection ahead and the others when a request finds none free (up
 * to --connections): a pool opened ahead would leave the unused ones
 * silent. STOMP connections speak at once (CONNECT), and a closed loop
 * uses every connection from the start. */
static void open_lane(struct engine *e, struct lane *l)
{
    int lazy = !e->wire->multiplex && e->cfg->rate > 0;
    int n = l->nconns, first = l->first_conn;
    for (int i = first; i < first + n; i++)
        conn_init(&e->cx, &e->pool.conns[i], i, l, l->target, &l->peer);
    for (int i = first + n - 1; i >= first; i--) {
        if (lazy && i > first)
            make_spare(e, &e->pool.conns[i]);
        else
            conn_start(&e->pool.conns[i]);
    }
}

static void open_pool(struct engine *e)
{
    e->pool.ev = &engine_events;
    e->pool.owner = e;
    lanes_each(e, open_lane);
}

/* The request ring's before_reap: answers first, then timeouts. */
static void harvest_owner(void *owner)
{
    struct engine *e = owner;
    conn_pool_harvest(&e->pool);
}

static void harvest_cb(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    (void)revents;
    harvest_owner(w->data);
}

/* The measured window is over (or SIGINT): stop sending, close the last
 * interval, then let in-flight requests finish within their timeout. */
static void end_run(struct engine *e, int64_t at_ns)
{
    if (engine_ended(e))
        return;
    e->phase = PHASE_ENDED;
    if (at_ns < e->end_ns)
        e->end_ns = at_ns;
    ev_timer_stop(e->loop, &e->tick);
    ev_timer_stop(e->loop, &e->silence);
    ev_io_stop(e->loop, &e->pace);
    ev_prepare_stop(e->loop, &e->arm);
    ev_idle_stop(e->loop, &e->poll); /* the drain only waits for answers */
    engine_wake_on_answers(e, 1);
    lanes_each(e, engine_count_unsent);
    if (e->tick_k > 0 || e->end_ns > e->m0_ns)
        timeline_close(e, e->tick_k > 0 ? e->tick_k : 1, e->end_ns);
    timeline_window_edge(e, 1);
    if (e->smp) {
        e->res->server_cpu_ms = sampler_server_cpu_ms(e->smp);
        snprintf(e->res->server_cpu_source, sizeof e->res->server_cpu_source, "%s",
                 sampler_cpu_source(e->smp));
    }
    e->res->duration_s = (double)(e->end_ns - e->m0_ns) / 1e9;
    if (e->res->duration_s < 0)
        e->res->duration_s = 0;
    /* A fleet's spread starts and the periodic calls' phases offer less in
     * the window than their nominal rates: the target is what the window
     * was offered (a rank of a fleet offers only its own hosts'). */
    int dealt = (e->fleet || e->rec) && e->cfg->split_ranks > 1; /* lanes dealt to ranks */
    if (e->cfg->rate > 0 && e->end_ns > e->m0_ns &&
        (e->lanes[0].periodic.n || e->fleet || e->rec) && !dealt)
        e->res->cfg.rate = lanes_offered(e, e->m0_ns, e->end_ns);
    else if (e->end_ns > e->m0_ns && dealt) /* a rank's share: its own hosts' or connections' */
        e->res->share_offered = lanes_offered(e, e->m0_ns, e->end_ns);
    result_stages_cpu(e->res); /* the samples are all in, the window's end known */
}

static void end_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    struct engine *e = w->data;
    if (!engine_ended(e)) {
        /* Requests due before the end that a late pacer wake-up has not
         * sent yet go out now on any free connection: only those no
         * connection could take are left unfinished. */
        conn_pool_harvest(&e->pool);
        lanes_each(e, engine_dispatch_all);
        end_run(e, e->end_ns);
        if (e->outstanding == 0) {
            ev_break(loop, EVBREAK_ALL);
            return;
        }
        e->phase = PHASE_DRAINING;
        /* Grace: the longest a request sent just now may take. */
        ev_timer_set(w, (double)e->cfg->timeout_ns / 1e9 + 0.5, 0);
        ev_timer_start(loop, w);
        return;
    }
    ev_break(loop, EVBREAK_ALL); /* grace over: what is left is unfinished */
}

static void sig_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)revents;
    struct engine *e = w->data;
    e->res->interrupted = w->signum; /* SIGINT or SIGTERM: reported by name */
    conn_pool_harvest(&e->pool); /* what had come by the signal is answered */
    end_run(e, clock_now_ns());
    /* A second ^C kills the process outright. */
    signal(w->signum, SIG_DFL);
    ev_break(loop, EVBREAK_ALL);
}

static void begin(struct engine *e)
{
    int64_t now = engine_agree_start(e);
    const struct run_config *cfg = e->cfg;
    if (!now)
        return;
    /* Read back to back with now: the wall-clock twin of m0_ns. */
    e->res->start_unix = clock_realtime_s() + (double)cfg->warmup_ns / 1e9;
    e->phase = PHASE_SENDING;
    e->m0_ns = now + cfg->warmup_ns;
    e->end_ns = e->m0_ns + cfg->duration_ns;
    e->hook_start_ns = e->m0_ns;
    if (e->hooks.reqlog)
        reqlog_begin(e->hooks.reqlog, cfg, e->res->target_url);
    /* The interval grid is aligned to the measured window's start; warmup
     * ticks (k <= 0) only print progress. */
    e->tick_k = -((cfg->warmup_ns - 1) / cfg->interval_ns); /* first tick after t0 */
    if (cfg->warmup_ns == 0) {
        timeline_window_edge(e, 0);
        if (e->smp)
            sampler_start(e->smp, now);
        if (e->agent)
            agent_link_start(e->agent, e->m0_ns, cfg->interval_ns);
        e->tick_k = 1;
    }
    periodic_longest(cfg, &e->mix_off);
    e->mix_off |= e->rec != NULL; /* a replay sends the recorded calls alone */
    if (cfg->rate > 0) /* the target rate the reports judge by: every call, every target */
        e->res->cfg.rate = lanes_target_rate(e);
    lanes_begin(e, now);
    ev_timer_set(&e->tick, (double)(e->m0_ns + e->tick_k * cfg->interval_ns - now) / 1e9, 0);
    ev_timer_start(e->loop, &e->tick);
    ev_timer_set(&e->end, (double)(e->end_ns - now) / 1e9, 0);
    ev_timer_start(e->loop, &e->end);
    engine_silence_start(e);
    ev_io_start(e->loop, &e->pace);
    ev_prepare_start(e->loop, &e->arm);
    if (cfg->busy_poll && cfg->rate > 0)
        ev_idle_start(e->loop, &e->poll);
    lanes_each(e, engine_dispatch_all);
}

/* Waits (bounded by the timeout) for the connections to come up, so the
 * first intended sends are not charged with connection setup. */
static void startup_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    struct engine *e = w->data;
    int ready = 0, opened = 0;
    for (int i = 0; i < e->pool.n; i++) {
        const struct conn *c = &e->pool.conns[i];
        ready += c->state == CONN_IDLE;
        /* Not waited for: a fleet's unreachable host (it retries), and a
         * connection that was up and went down since (the server closed it,
         * or is gone): its reconnects are the run's, counted there, and
         * waiting them out held the window back by the whole --timeout. */
        int went_down = c->ever_up && c->state == CONN_BACKOFF; /* DOWN: not counted anyway */
        opened += c->state != CONN_DOWN && !went_down &&
                  !(e->fleet && c->state == CONN_BACKOFF && !c->ever_up);
    }
    if (ready < opened && clock_now_ns() < e->startup_deadline_ns)
        return; /* the repeating timer looks again */
    ev_timer_stop(loop, w);
    /* A failure in the same loop turn (a handshake given up on at the
     * deadline shared with this timer) has stopped the run already. */
    if (e->phase == PHASE_CONNECTING)
        begin(e);
}

static int setup_loop(struct engine *e, char *err)
{
    /* The kernel may defer a sleeping thread's timer by its slack (50 us by
     * default) to batch wake-ups; the pacer wants its nanoseconds. */
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    e->loop = ev_loop_new(EVFLAG_AUTO);
    e->cx.loop = e->loop;
    e->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (!e->loop || e->timerfd < 0) {
        snprintf(err, ERR_LEN, "cannot create the event loop: %s", strerror(errno));
        return -1;
    }
    ev_io_init(&e->pace, engine_pace_cb, e->timerfd, EV_READ);
    ev_prepare_init(&e->arm, engine_arm_cb);
    pacer_window_init(&e->window, e->cfg->pacer_window_auto, e->cfg->pacer_window_ns);
    e->arm.data = e;
    /* Open loop on plain TCP: answers wait for the pacer's wake (above). */
    if (e->cfg->rate > 0 && !e->cfg->busy_poll && !e->tls &&
        conn_pool_harvest_init(&e->pool) == 0) {
        ev_io_init(&e->harvest, harvest_cb, e->pool.harvest_fd, EV_READ);
        e->harvest.data = e;
        e->ring.before_reap = harvest_owner;
    }
    ev_idle_init(&e->poll, engine_poll_cb);
    e->poll.data = e;
    e->pace.data = e;
    ev_init(&e->tick, timeline_tick_cb);
    e->tick.data = e;
    ev_init(&e->end, end_cb);
    e->end.data = e;
    engine_silence_init(e);
    if (e->wire->multiplex)
        request_ring_start_reaper(&e->ring, e->loop);
    ev_signal_init(&e->sigint, sig_cb, SIGINT);
    e->sigint.data = e;
    ev_signal_start(e->loop, &e->sigint);
    ev_signal_init(&e->sigterm, sig_cb, SIGTERM);
    e->sigterm.data = e;
    ev_signal_start(e->loop, &e->sigterm);
    return 0;
}

/* The run is over (over_ns): the requests still in flight are
 * unfinished, those never written have waited until now (censored). */
static void count_left(struct engine *e)
{
    e->over_ns = clock_now_ns();
    lanes_each(e, engine_censor_unsent);
    for (int i = 0; e->pool.conns && i < e->pool.n; i++) {
        struct conn *c = &e->pool.conns[i];
        if (c->ctx && c->req.live && c->req.measured)
            engine_count_in_flight(e, &c->req);
        c->req.live = 0;
    }
    request_ring_each_live(&e->ring, engine_count_in_flight, e);
    if (e->hooks.reqlog) /* the instant their censored waits end at */
        reqlog_end(e->hooks.reqlog, e->over_ns - e->m0_ns);
}

static void teardown(struct engine *e)
{
    for (int i = 0; e->pool.conns && i < e->pool.n; i++) {
        struct conn *c = &e->pool.conns[i];
        if (!c->ctx)
            continue; /* setup failed before this connection began */
        conn_close(c);
        conn_free(c);
    }
    request_ring_free(&e->ring);
    engine_fold_conn_stats(e);
    if (e->loop && e->pool.harvest_fd >= 0)
        ev_io_stop(e->loop, &e->harvest);
    conn_pool_harvest_free(&e->pool);
    free(e->pool.conns);
    if (e->tls)
        SSL_CTX_free(e->tls);
    lanes_free(e);
    hist_close(&e->ival_hist);
    hist_close(&e->ival_next);
    hist_close(&e->hook_hist);
    hist_close(&e->hook_next);
    ledger_ivals_free(e);
    hist_close(&e->pool.stats.handshake);
    buf_free(&e->scratch);
    engine_workload_free(e);
    if (e->timerfd >= 0)
        close(e->timerfd);
    if (e->loop) {
        /* libev keeps signal ownership process-wide: a later run's loop
         * (compare's next round) may take SIGINT only once this one lets go. */
        ev_signal_stop(e->loop, &e->sigint);
        ev_signal_stop(e->loop, &e->sigterm);
        ev_loop_destroy(e->loop);
    }
}

/* What the run needs before its loop: the encoding, the pool, the
 * histograms, the wire and TLS, the rendered requests, the loop's
 * watchers. @return 0, or -1 with err (teardown frees what was made). */
static int prepare(struct engine *e, const struct target *target, char *err)
{
    const struct run_config *cfg = e->cfg;
    e->timerfd = -1;
    e->pool.harvest_fd = -1;
    e->enc = enc_find(cfg->encoding);
    reqid_init(&e->ids);
    e->res->closed_loop = cfg->rate <= 0;
    if (!e->enc) {
        snprintf(err, ERR_LEN, "unknown protocol '%s'", cfg->encoding);
        return -1;
    }
    int nconns;
    if (lanes_setup(e, target, &nconns, err))
        return -1;
    e->pool.conns = calloc((size_t)nconns, sizeof *e->pool.conns);
    e->pool.n = nconns;
    int64_t k0 = -((cfg->warmup_ns + cfg->interval_ns - 1) / cfg->interval_ns);
    if (!e->pool.conns || hist_init_latency(&e->ival_hist) || hist_init_latency(&e->hook_hist) ||
        hist_init_latency(&e->ival_next) || hist_init_latency(&e->hook_next) ||
        hist_init_latency(&e->pool.stats.handshake) || ledger_ivals_init(e, k0)) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    if (engine_setup_transport(e, nconns, engine_request_ended, err) ||
        engine_setup_requests(e, err))
        return -1;
    return setup_loop(e, err);
}

/* The connections come up, then the loop runs the run (startup_cb begins
 * it). @return 0, or -1 with err when it failed (PHASE_FAILED). */
static int run_loop(struct engine *e, char *err)
{
    open_pool(e);
    ev_timer startup;
    ev_timer_init(&startup, startup_cb, 0.001, 0.001);
    startup.data = e;
    e->startup_deadline_ns = clock_now_ns() + e->cfg->timeout_ns;
    ev_timer_start(e->loop, &startup);
    if (e->phase != PHASE_FAILED) /* a connect may fail at once, before the loop runs */
        ev_run(e->loop, 0);
    ev_timer_stop(e->loop, &startup);
    if (e->phase == PHASE_FAILED) {
        snprintf(err, ERR_LEN, "%s", e->fatal);
        return -1;
    }
    return 0;
}

/* Under MPI, this rank's counts that came after their intervals closed
 * (own: settled into its own intervals already) go to rank 0, and the
 * other ranks' come back added: those join the last interval. */
static void settle_ranks(struct engine *e, const struct ival_tally *own)
{
    struct ival_tally all = *own;
    struct tick_data t = {.last = 1, .hook = &e->hook_hist, .sent = &all.sent, .ok = &all.ok,
                          .errors = &all.errors, .unsent = &all.unsent, .due = &all.due};
    e->hooks.on_tick(e->hooks.dist_ctx, &t);
    struct run_result *res = e->res;
    if (!res->nintervals)
        return;
    struct interval_rec *last = &res->intervals[res->nintervals - 1];
    last->sent += all.sent - own->sent;
    last->ok += all.ok - own->ok;
    last->errors += all.errors - own->errors;
    last->unsent += all.unsent - own->unsent;
    last->due += all.due - own->due;
}

/* After the loop: the goodbyes, what is left unfinished or unsent, then
 * what came after each interval closed (the drain too) joins it (and,
 * under MPI, the other ranks' drains the last), and the rate. */
static void finish(struct engine *e)
{
    struct run_result *res = e->res;
    if (!engine_ended(e))
        end_run(e, clock_now_ns());
    if (e->wire->goodbye && !res->interrupted)
        conn_goodbye_all(&e->cx);
    count_left(e);
    struct ival_tally late = ledger_ivals_settle(e);
    if (e->hooks.on_tick)
        settle_ranks(e, &late);
    timeline_snapshot(e, NULL, &e->hook_hist, 0); /* the drain's answers */
    if (e->hook_hist.total_count) { /* answers that came in the drain */
        struct interval_rec drain = {.t = (double)(clock_now_ns() - e->m0_ns) / 1e9,
                                     .server_cpu_pct = FIG_UNKNOWN,
                                     .client_cpu_pct = FIG_UNKNOWN,
                                     .server_rss_kb = FIG_UNKNOWN};
        timeline_flush_hook(e, &drain, clock_now_ns());
    }
    /* Achieved is what was written to the wire. */
    res->rate_achieved = res->duration_s > 0 ? (double)res->sent / res->duration_s : 0;
}

int engine_run(const struct run_config *cfg, const struct run_hooks *hooks,
               const struct target *target, struct sampler *smp, struct agent_link *agent,
               struct run_result *res, char *err)
{
    struct engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    e->cfg = cfg;
    if (hooks)
        e->hooks = *hooks;
    e->res = res;
    e->smp = smp;
    e->agent = agent;
    int rc = prepare(e, target, err) || run_loop(e, err) ? -1 : 0;
    if (rc == 0)
        finish(e);
    teardown(e);
    free(e);
    return rc;
}
