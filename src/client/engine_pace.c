/* engine_pace: the pacer's timer and wakes (see engine_int.h). The loop
 * arms one absolute timerfd per sleep, for the last send due within the
 * next window (pacer_window.h), and the wake sends what is due; answers
 * that came meanwhile are read on it (the harvest), stamped by the kernel
 * on arrival, so reading them late changes no figure. */
#include <sys/timerfd.h>

#include "base/clock.h"
#include "client/engine_int.h"

/* Answers wait in the harvest set (conn_pool_harvest_init) while the
 * pacer's next wake is at most this far beyond the window: the wake reads
 * them, so an answer costs no wake-up of its own. Farther (low rates), at a
 * backlog that waits for a completion, and in the drain, answers wake the
 * loop. The window counts on top: with --pacer-window 1ms at 20k/s the
 * next wake is always ~1 ms away, and answers waking the loop there made
 * five times the wakes. */
#define HARVEST_WAIT_NS (1 * NS_PER_MS)

/* At most this many sends share a wake (pacer_window.h says why they
 * share one). */
#define WINDOW_MAX_SENDS 64

/* The wake for the window of lane l that opens at first: at the last send
 * due within it, never before any is due (nothing goes out early); each
 * send's lag still counts from its own intended time. */
static int64_t window_end(const struct engine *e, const struct lane *l, int64_t first)
{
    int64_t last = first, horizon = first + pacer_window_ns(&e->window);
    if (horizon > e->end_ns)
        horizon = e->end_ns - 1;
    struct sched s = l->sched; /* a copy: looking ahead draws nothing */
    if (e->mix_off)
        return last;
    for (int i = 1; i < WINDOW_MAX_SENDS; i++) {
        sched_take(&s);
        if (sched_peek(&s) > horizon)
            break;
        last = sched_peek(&s);
    }
    return last;
}

/* Sets the timer for at_ns (0: unset). Setting a timerfd also clears a
 * fired one, so the pacer's wake needs no read of it. */
static void set_timer(struct engine *e, int64_t at_ns)
{
    if (at_ns == e->armed_ns)
        return;
    e->armed_ns = at_ns;
    struct itimerspec its = {0};
    its.it_value.tv_sec = at_ns / NS_PER_S;
    its.it_value.tv_nsec = at_ns % NS_PER_S;
    timerfd_settime(e->timerfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* The loop is about to sleep: the timer is set for the wake of the next
 * send's window, unless it is set so already. A fired timer nobody asked
 * for again (a backlog waiting for a completion) is unset, or its fd would
 * keep the loop awake. */
void engine_arm_cb(struct ev_loop *loop, ev_prepare *w, int revents)
{
    (void)loop;
    (void)revents;
    struct engine *e = w->data;
    if (engine_ended(e))
        return;
    struct lane *l = &e->lanes[0];
    if (e->multi) { /* what is due goes out, the timer is for the next lane's */
        lanes_each_due(e, engine_dispatch_all);
        l = lanes_next(e);
        e->arm_pending = l != NULL;
    }
    if (e->arm_pending) {
        int64_t first = engine_due_peek(e, l);
        int64_t at_ns = first < e->end_ns ? window_end(e, l, first) : first, now = clock_now_ns();
        engine_wake_on_answers(e, at_ns >= e->end_ns ||
                               at_ns - now > HARVEST_WAIT_NS + pacer_window_ns(&e->window));
        set_timer(e, at_ns);
        /* A deadline already past when the loop goes to sleep makes a wake
         * late by the client's own work, not by the timer */
        e->timer_ahead = at_ns > now;
    } else if (e->armed_ns == TIMER_FIRED) {
        set_timer(e, 0);
    }
    e->arm_pending = 0;
}

/* A pacer wake that was due at due_ns came at now: the measured window
 * counts it, and if the loop slept for it (the timer's own lateness, what
 * bench_timer measures as the machine's floor), it chooses the auto
 * window. */
static void note_wake(struct engine *e, int64_t due_ns, int64_t now)
{
    if (due_ns <= 0)
        return; /* not armed by arm_cb: nothing was due */
    struct pacer_stats *p = &e->res->pacer;
    int64_t w = pacer_window_ns(&e->window);
    if (due_ns >= e->m0_ns && due_ns < e->end_ns) {
        if (p->wakes == 0 || w < p->window_min_ns)
            p->window_min_ns = w;
        if (w > p->window_max_ns)
            p->window_max_ns = w;
        p->window_sum_ns += (double)w;
        p->wakes++;
    }
    if (e->timer_ahead)
        pacer_window_wake(&e->window, now - due_ns);
}

void engine_pace_cb(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    (void)revents;
    struct engine *e = w->data;
    note_wake(e, e->armed_ns, clock_now_ns());
    e->armed_ns = TIMER_FIRED; /* readable until arm_cb sets it again */
    lanes_each_due(e, engine_send_on_free);
    conn_pool_harvest(&e->pool); /* frees the connections answered since */
    lanes_each_due(e, engine_dispatch_all);
}

/* --busy-poll: an idle watcher keeps libev polling with a zero timeout, so
 * the vCPU never halts and no timer interrupt is needed: on a virtual
 * machine a halted vCPU may wake late (the hypervisor counts it as steal;
 * figures in bench/RESULTS.md). Answers are read on the turn they arrive,
 * never behind a spin. */
void engine_poll_cb(struct ev_loop *loop, ev_idle *w, int revents)
{
    (void)loop;
    (void)revents;
    struct engine *e = w->data;
    if (e->multi && !engine_ended(e))
        lanes_each_due(e, engine_dispatch_all);
    else if (!engine_ended(e) && engine_due_peek(e, &e->lanes[0]) <= clock_now_ns())
        engine_dispatch_all(e, &e->lanes[0]);
}

