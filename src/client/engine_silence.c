/* engine_silence: the hint for a server that accepted and never answered.
 *
 * Such a server is not given up on (a slow first answer is a slow server),
 * but its user hears of it early: one line on stderr, while the run goes
 * on, once a server that never sent a byte has had a request of ours out
 * for SILENCE_HINT_S since our first write to it. The wait counts from that
 * write, not from the start of the run, so a run whose first request
 * comes late (a ramp from 0, a low Poisson rate, a fleet's spread starts)
 * hears of it as soon as one that sends at once. A STOMP server that never
 * answers CONNECT is given up on by the login deadline instead (2 s).
 *
 * The timer looks every SILENCE_POLL_S until each target has spoken (then
 * it stops: a healthy run pays one look), or wakes when a wait falls due. */
#include <stdio.h>

#include "base/clock.h"
#include "client/engine_int.h"

#define SILENCE_HINT_S 3.0
#define SILENCE_POLL_S 0.25

/* Since when lane i's server, which never spoke, has been silent with a
 * request of ours out (our first write to it). @return that time, 0 when
 * it is not so now, or -1 when it spoke (it needs no more looks). */
static int64_t silent_since(const struct engine *e, int i, const struct target **t)
{
    const struct lane *l = &e->lanes[i];
    const struct conn_peer *peer = &l->peer;
    *t = l->target;
    if (peer->spoke)
        return -1;
    for (int k = l->first_conn; k < l->first_conn + l->nconns && peer->first_tx_ns; k++)
        if (e->pool.conns[k].state == CONN_BUSY) /* HTTP: its request is out */
            return peer->first_tx_ns;
    return 0;
}

static void say(const struct engine *e, int silent, const struct target *first)
{
    if (e->fleet)
        fprintf(stderr, "rpcbench: no answer yet: %d of the %d targets accepted a connection "
                "but sent no byte in %.0fs (the first, %.100s:%d): are they the right ports "
                "and scheme (stomp://? http://?)\n", silent, e->nlanes, SILENCE_HINT_S,
                first->host, first->port);
    else
        fprintf(stderr, "rpcbench: no answer yet: the server at %s accepted %s but sent no "
                "byte in %.0fs: is it the right port and scheme (stomp://? http://?)\n",
                e->res->target_url, e->pool.n == 1 ? "the connection" : "connections",
                SILENCE_HINT_S);
}

static void silence_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    struct engine *e = w->data;
    const int64_t hint_ns = (int64_t)(SILENCE_HINT_S * NS_PER_S);
    int64_t now = clock_now_ns(), due = now + (int64_t)(SILENCE_POLL_S * NS_PER_S);
    int silent = 0, quiet = 0, n = e->nlanes;
    const struct target *first = NULL, *t;
    if (engine_ended(e))
        return;
    for (int i = 0; i < n; i++) {
        int64_t since = silent_since(e, i, &t);
        quiet += since >= 0;
        if (since > 0 && now - since >= hint_ns && silent++ == 0)
            first = t;
        else if (since > 0 && since + hint_ns < due)
            due = since + hint_ns;
    }
    if (silent) { /* said once: the run goes on */
        say(e, silent, first);
        return;
    }
    if (!quiet) /* every server spoke */
        return;
    ev_timer_set(w, (double)(due - now) / 1e9, 0);
    ev_timer_start(loop, w);
}

void engine_silence_init(struct engine *e)
{
    ev_init(&e->silence, silence_cb);
    e->silence.data = e;
}

void engine_silence_start(struct engine *e)
{
    ev_timer_set(&e->silence, SILENCE_POLL_S, 0);
    ev_timer_start(e->loop, &e->silence);
}
