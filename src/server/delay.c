#include "server/delay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "base/units.h"

/* A double of nanoseconds as int64, saturating: converting one beyond
 * INT64_MAX is undefined (found by fuzzing: --delay exp:5666666667). */
static int64_t to_ns(double v)
{
    return v < 9.2e18 ? (int64_t)v : INT64_C(9200000000000000000);
}

/* Uniform in (0, 1]: never 0, so log() below stays finite. */
static double next_open01(uint64_t *s)
{
    return ((double)(rng_next(s) >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}

static int parse_two(const char *s, int64_t *lo, int64_t *hi, char *err)
{
    char tmp[64];
    const char *colon = strchr(s, ':');
    size_t n = colon ? (size_t)(colon - s) : 0;
    if (!colon || n >= sizeof tmp) {
        snprintf(err, ERR_LEN, "delay: uniform wants LOW:HIGH, got '%s'", s);
        return -1;
    }
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    if (units_parse_duration(tmp, lo, err) < 0 || units_parse_duration(colon + 1, hi, err) < 0)
        return -1;
    if (*hi < *lo) {
        snprintf(err, ERR_LEN, "delay: uniform high is below low in '%s'", s);
        return -1;
    }
    return 0;
}

int delay_parse(const char *spec, uint64_t seed, struct delay *d, char *err)
{
    memset(d, 0, sizeof *d);
    d->rng = seed ^ 0x5deece66dULL;
    if (!strncmp(spec, "uniform:", 8)) {
        d->kind = DELAY_UNIFORM;
        return parse_two(spec + 8, &d->a_ns, &d->b_ns, err);
    }
    if (!strncmp(spec, "exp:", 4)) {
        d->kind = DELAY_EXP;
        return units_parse_duration(spec + 4, &d->a_ns, err);
    }
    if (units_parse_duration(spec, &d->a_ns, err) < 0)
        return -1;
    d->kind = d->a_ns ? DELAY_FIXED : DELAY_NONE;
    return 0;
}

int64_t delay_next(struct delay *d)
{
    switch (d->kind) {
    case DELAY_FIXED:
        return d->a_ns;
    case DELAY_UNIFORM:
        return d->a_ns + to_ns((double)(d->b_ns - d->a_ns) * (1.0 - next_open01(&d->rng)));
    case DELAY_EXP:
        return to_ns(-log(next_open01(&d->rng)) * (double)d->a_ns);
    default:
        return 0;
    }
}

int delay_workers_init(struct delay_workers *w, int n)
{
    w->n = 0;
    w->free_at = NULL;
    if (n <= 0)
        return 0;
    if (!(w->free_at = calloc((size_t)n, sizeof *w->free_at)))
        return -1;
    w->n = n;
    return 0;
}

void delay_workers_free(struct delay_workers *w)
{
    free(w->free_at);
    w->free_at = NULL;
    w->n = 0;
}

int64_t delay_workers_take(struct delay_workers *w, double now, int64_t delay_ns)
{
    if (w->n == 0)
        return delay_ns;
    int k = 0; /* the worker free soonest: a scan, N is small */
    for (int i = 1; i < w->n; i++)
        if (w->free_at[i] < w->free_at[k])
            k = i;
    double start = w->free_at[k] > now ? w->free_at[k] : now;
    double done = start + (double)delay_ns / 1e9;
    w->free_at[k] = done;
    return to_ns((done - now) * 1e9);
}
