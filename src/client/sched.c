#include "client/sched.h"

#include <math.h>

#include "base/clock.h"
#include "base/rng.h"

/* Intended time of request k for a constant rate: computed from k, not by
 * adding 1/R k times, so rounding never drifts. */
static int64_t constant_time(const struct sched *s, uint64_t k)
{
    return s->t0_ns + (int64_t)llround((double)k * (double)NS_PER_S / s->rate);
}

/* Segment i of a staged schedule (0: the lead, i: stage i - 1) into its
 * length (s), starting and ending rates. @return 0, or -1 past the last. */
static int segment(const struct sched *s, size_t i, double *len_s, double *a, double *b)
{
    if (i > s->nstages)
        return -1;
    const struct run_stage *st = &s->stages[i ? i - 1 : 0];
    *len_s = (double)(i ? st->duration_ns : s->lead_ns) / 1e9;
    *a = st->from;
    *b = i ? st->to : st->from;
    return 0;
}

/* The time tau (s, in [0, len]) at which a ramp a -> b over len has
 * offered x requests: the root of a*tau + (b - a)*tau^2/(2*len) = x,
 * written 2x / (a + sqrt(a^2 + 2(b - a)x/len)), the form that loses no
 * digits when a ~ b (it tends to x/a) and needs no case for a = 0 (it is
 * sqrt(2*x*len/b) there). For a falling ramp the root is real while x is
 * within the segment's count; rounding is clamped. */
static double ramp_inverse(double a, double b, double len, double x)
{
    if (x <= 0)
        return 0;
    double disc = a * a + 2 * (b - a) * x / len;
    double den = a + sqrt(disc > 0 ? disc : 0);
    double tau = den > 0 ? 2 * x / den : len;
    return tau < len ? tau : len;
}

/* The intended time of the arrival at cumulative count c (c never
 * decreases from one call to the next: the cached segment moves on). */
static int64_t staged_time(struct sched *s, double c)
{
    double len, a, b;
    while (segment(s, s->seg, &len, &a, &b) == 0) {
        double n = (a + b) / 2 * len;
        if (c < s->seg_count + n) {
            double tau = ramp_inverse(a, b, len, c - s->seg_count);
            return s->t0_ns + s->seg_ns + (int64_t)llround(tau * 1e9);
        }
        s->seg_count += n;
        s->seg_ns += s->seg ? s->stages[s->seg - 1].duration_ns : s->lead_ns;
        s->seg++;
    }
    return SCHED_NEVER;
}

static void advance(struct sched *s)
{
    if (s->stages) {
        if (s->arrival == ARRIVAL_CONSTANT) {
            s->next_ns = staged_time(s, (double)s->k);
            return;
        }
        s->next_ns = staged_time(s, s->poisson_s);
        s->poisson_s += -log1p(-rng_u01(&s->rng));
        return;
    }
    if (s->arrival == ARRIVAL_CONSTANT) {
        s->next_ns = constant_time(s, s->k);
        return;
    }
    s->next_ns = s->t0_ns + (int64_t)llround(s->poisson_s * (double)NS_PER_S);
    /* Exponential gap with mean 1/R: -ln(1-U)/R, U in [0,1). */
    s->poisson_s += -log1p(-rng_u01(&s->rng)) / s->rate;
}

void sched_init(struct sched *s, enum arrival arrival, double rate, int64_t t0_ns, uint64_t seed)
{
    *s = (struct sched){.stages = NULL}; /* a constant rate: no stages */
    s->arrival = arrival;
    s->rate = rate;
    s->t0_ns = t0_ns;
    s->k = 0;
    s->stride = 1;
    s->rng = seed;
    /* The first Poisson arrival is one gap after t0, like every other. */
    s->poisson_s = arrival == ARRIVAL_POISSON ? -log1p(-rng_u01(&s->rng)) / rate : 0;
    advance(s);
}

void sched_init_stages(struct sched *s, enum arrival arrival, const struct run_stage *st,
                       size_t n, int64_t lead_ns, int64_t t0_ns, uint64_t seed)
{
    *s = (struct sched){.arrival = arrival, .rate = 1, .t0_ns = t0_ns, .stride = 1, .rng = seed,
                        .stages = st, .nstages = n, .lead_ns = lead_ns};
    /* The first Poisson arrival is one unit gap in, like every other. */
    s->poisson_s = arrival == ARRIVAL_POISSON ? -log1p(-rng_u01(&s->rng)) : 0;
    advance(s);
}

/* The count N(t) the whole schedule has offered by t_ns. */
static double count_at(const struct sched *s, int64_t t_ns)
{
    double t = (double)(t_ns - s->t0_ns) / 1e9, n = 0, len, a, b;
    if (t <= 0)
        return 0;
    if (!s->stages)
        return s->rate * t;
    for (size_t i = 0; segment(s, i, &len, &a, &b) == 0 && t > 0; i++) {
        double tau = t < len ? t : len;
        n += a * tau + (len > 0 ? (b - a) * tau * tau / (2 * len) : 0);
        t -= len;
    }
    return n;
}

double sched_offered(const struct sched *s, int64_t a_ns, int64_t b_ns)
{
    if (b_ns <= a_ns)
        return 0;
    return (count_at(s, b_ns) - count_at(s, a_ns)) / ((double)(b_ns - a_ns) / 1e9);
}

/* Moves on n requests of the whole schedule. */
static void skip(struct sched *s, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        s->k++;
        advance(s);
    }
}

void sched_split(struct sched *s, unsigned ranks, unsigned rank)
{
    if (ranks <= 1)
        return;
    s->stride = ranks;
    skip(s, rank);
}

int64_t sched_take(struct sched *s)
{
    int64_t t = s->next_ns;
    skip(s, s->stride);
    return t;
}
