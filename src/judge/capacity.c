#include "judge/capacity.h"

#include <math.h>

/* The lowest failure and the highest pass below it (-1: none). */
static void bracket(const double *rates, const int *pass, size_t n, double *good, double *bad)
{
    *good = *bad = -1;
    for (size_t i = 0; i < n; i++)
        if (!pass[i] && (*bad < 0 || rates[i] < *bad))
            *bad = rates[i];
    for (size_t i = 0; i < n; i++)
        if (pass[i] && (*bad < 0 || rates[i] < *bad) && rates[i] > *good)
            *good = rates[i];
}

/* Halfway between good and bad; a whole rate when the gap allows it, so
 * the probes read 93/s rather than 93.75/s. */
static double midpoint(double good, double bad)
{
    double m = (good + bad) / 2;
    double r = round(m);
    return bad - good > 2 && r > good && r < bad ? r : m;
}

static void finish(struct capacity_state *st, enum capacity_outcome o)
{
    st->done = 1;
    st->outcome = o;
    st->next = 0;
}

void capacity_step(const struct capacity_bounds *b, const double *rates, const int *pass,
                   size_t n, struct capacity_state *st)
{
    bracket(rates, pass, n, &st->good, &st->bad);
    st->done = 0;
    st->outcome = CAPACITY_FOUND;
    if (st->good < 0) {
        if (st->bad >= 0 && st->bad <= b->rate_min)
            return finish(st, CAPACITY_MIN_BREAKS);
        st->next = b->rate_min; /* the start (or a failure above a min never tried) */
        return;
    }
    if (st->bad < 0) {
        if (st->good >= b->rate_max)
            return finish(st, CAPACITY_MAX_HOLDS);
        st->next = fmin(st->good * 2, b->rate_max);
        return;
    }
    if ((st->bad - st->good) / st->good <= b->resolution)
        return finish(st, CAPACITY_FOUND);
    st->next = midpoint(st->good, st->bad);
}
