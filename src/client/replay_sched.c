/* replay_sched: a recorded connection's send times (replay_sched.h). */
#include "client/replay_sched.h"

#define NEVER (INT64_MAX / 4)

void replay_sched_init(struct replay_sched *s, const struct rec_call *c, size_t n, int64_t t0_ns,
                       int64_t period_ns, double speed, int loop)
{
    *s = (struct replay_sched){.c = c, .n = n, .t0_ns = t0_ns, .period_ns = period_ns,
                               .speed = speed > 0 ? speed : 1, .loop = loop};
}

/* The intended time of recorded time t_ns in round k. */
static int64_t at(const struct replay_sched *s, int64_t t_ns, uint64_t k)
{
    double rel = ((double)t_ns + (double)k * (double)s->period_ns) / s->speed;
    return rel >= (double)NEVER ? NEVER : s->t0_ns + (int64_t)rel;
}

int64_t replay_sched_peek(const struct replay_sched *s, int *verb)
{
    if (s->i >= s->n || (s->round > 0 && !s->loop))
        return NEVER;
    if (verb)
        *verb = s->c[s->i].verb;
    return at(s, s->c[s->i].t_ns, s->round);
}

int64_t replay_sched_take(struct replay_sched *s, int *verb)
{
    int64_t t = replay_sched_peek(s, verb);
    if (t == NEVER)
        return t;
    if (++s->i == s->n) {
        s->i = 0;
        s->round++;
    }
    return t;
}

/* The calls of round 0 recorded before t_ns (binary search). */
static size_t before(const struct replay_sched *s, int64_t t_ns)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->c[mid].t_ns < t_ns)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The calls intended before t: whole rounds, then a part of one. */
static int64_t count_before(const struct replay_sched *s, int64_t t)
{
    if (t <= s->t0_ns || !s->n)
        return 0;
    double rec = (double)(t - s->t0_ns) * s->speed; /* in the recording's time */
    uint64_t rounds = s->loop ? (uint64_t)(rec / (double)s->period_ns) : 0;
    double part = rec - (double)rounds * (double)s->period_ns;
    int64_t in = part > (double)NEVER ? NEVER : (int64_t)part;
    /* a call at exactly part is intended at t: not before it */
    size_t k = before(s, in + ((double)in < part));
    return (int64_t)(rounds * s->n + k);
}

int64_t replay_sched_count(const struct replay_sched *s, int64_t a_ns, int64_t b_ns)
{
    return b_ns <= a_ns ? 0 : count_before(s, b_ns) - count_before(s, a_ns);
}
