/* compare_answer: one call to an arm, before round 1 and after B stopped
 * answering (compare_answer.h). */
#include "drive/compare_answer.h"

#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "drive/round.h"
#include "dist/dist.h"

/* How long the call waits for its answer at most: the answer does not
 * decide (call_arm), so a server that stalls costs this, not --timeout.
 * The engine's bound on a connection's setup until a server first
 * answers. */
#define CALL_TIMEOUT_NS (2 * NS_PER_S)

/* The arm's configuration cut to one call: one request (one per rank of
 * a distributed run, each rank's share), on one connection, with nothing
 * around it: no warmup, no stages, no server sampled (no pids, name or
 * agent, so no idle baseline either), no progress. The target, wire,
 * TLS, auth, verbs and checks stay the arm's: the call tells whether a
 * round of this arm could run. */
static void call_config(const struct run_config *arm, struct run_config *p)
{
    *p = *arm;
    if (p->timeout_ns > CALL_TIMEOUT_NS)
        p->timeout_ns = CALL_TIMEOUT_NS;
    p->duration_ns = NS_PER_MS;
    p->rate = 1000.0 * dist_size(); /* due at k / rate while k / rate < 1 ms: k < ranks */
    p->arrival = ARRIVAL_CONSTANT;
    p->warmup_ns = 0;
    p->nstages = 0;
    p->connections = 1;
    p->nserver_pids = 0;
    p->server_name[0] = '\0';
    p->agent_url[0] = '\0';
    p->idle_baseline_ns = 0;
    p->quiet = 1;
}

/* One call to arm a of c, against cs for an arm without --url. The arm
 * answers when the call's run could happen, as a round's must: the
 * target reached, TLS and the STOMP login through, its protocol spoken
 * (measured_run's test). What the call got back is a round's business: a
 * server that stalls or fails its calls is judged on the rounds' counts,
 * and one that resets every request is given up in its first round, with
 * the engine's hint (one call is too few to say which protocol it wants).
 * @return 1 answered, 0 not (why, ERR_LEN: the run's line), or minus the
 * signal that ended it (noted for the rounds). */
static int call_arm(const struct comparison *c, int a, const struct child_server *cs, char *why)
{
    static struct run_config cfg; /* large: off the stack */
    static struct run_result res;
    call_config(&c->arm[a].cfg, &cfg);
    drive_catch_sigint();
    int rc = dist_measured_run(&cfg, NULL, cs, &res, why); /* every rank decides alike */
    drive_catch_sigint(); /* the engine let SIGINT go: a ^C is noted again */
    int sig = rc == 0 ? res.interrupted : 0;
    result_free(&res);
    if (sig) {
        drive_note_signal(sig);
        return -sig;
    }
    return rc == 0;
}

/* c->stop: arm a could not run round (0: the pre-flight call), why. */
static void record(struct comparison *c, int a, size_t round, const char *why)
{
    c->stop.arm = a;
    c->stop.round = round;
    snprintf(c->stop.why, sizeof c->stop.why, "%s", why);
}

int compare_preflight(struct comparison *c, const struct child_server *cs)
{
    for (int a = 0; a < 2; a++) {
        char why[ERR_LEN] = "";
        int rc = call_arm(c, a, cs, why);
        if (rc < 0)
            return 0; /* a signal: run_one starts no round after it */
        if (rc == 0) {
            record(c, a, 0, why);
            c->stop.other_answered = a == 1; /* A answered just before */
            return -1;
        }
    }
    return 0;
}

void compare_arm_stopped(struct comparison *c, int a, size_t round, const char *why,
                         const struct child_server *cs)
{
    record(c, a, round, why);
    if (a != 1) /* A stopped: no baseline, whatever B says */
        return;
    int rc = call_arm(c, 0, cs, c->stop.other_why);
    if (rc < 0) {
        c->interrupted = -rc;
        snprintf(c->stop.other_why, sizeof c->stop.other_why, "interrupted by %s before it "
                 "answered", result_signal_name(-rc));
    }
    c->stop.other_answered = rc > 0;
}
