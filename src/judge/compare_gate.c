/* compare_gate: --gate parsed and judged (compare_gate.h). */
#include "judge/compare_gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"

const char *gate_metric_name(enum metric f)
{
    return f >= 0 && f < METRIC_N ? metric_defs[f].name : "?";
}

/* The gate's grammar in the error, its metric names from the table. */
static int bad(const char *s, const char *why, char *err)
{
    char lower[160] = "", higher[64] = "";
    for (int i = 0; i < METRIC_N; i++) {
        char *list = metric_defs[i].higher_better ? higher : lower;
        size_t size = metric_defs[i].higher_better ? sizeof higher : sizeof lower, n = strlen(list);
        snprintf(list + n, size - n, "%s%s", n ? " " : "", metric_defs[i].name);
    }
    snprintf(err, ERR_LEN, "--gate: '%.40s': %s; accepted: METRIC:+TOL%% (METRIC %s) or "
             "%s:-TOL%%, e.g. p99:+10%%, or a call's add.p99:+10%%", s, why, lower, higher);
    return -1;
}

/* The metric of s[0..n), or of its part after the last dot, with the call
 * before that dot into g->call. @return it, or NULL with why. */
static const struct metric_def *metric_of(const char *s, size_t n, struct gate *g,
                                          const char **why)
{
    const struct metric_def *m = metric_find(s, n);
    const char *dot = memrchr(s, '.', n);
    *why = "unknown metric";
    if (m || !dot)
        return m;
    m = metric_find(dot + 1, n - (size_t)(dot + 1 - s));
    if (!m)
        return NULL;
    if (dot == s || (size_t)(dot - s) >= sizeof g->call) {
        *why = dot == s ? "no call before the '.'" : "the call's name is too long";
        return NULL;
    }
    if (!metric_per_call(m - metric_defs)) {
        *why = "a call's gate takes p50, p90, p99 or mean";
        return NULL;
    }
    snprintf(g->call, sizeof g->call, "%.*s", (int)(dot - s), s);
    return m;
}

int gate_parse(const char *s, struct gate *g, char *err)
{
    memset(g, 0, sizeof *g);
    const char *colon = strrchr(s, ':'), *why;
    if (!colon)
        return bad(s, "no ':'", err);
    const struct metric_def *m = metric_of(s, (size_t)(colon - s), g, &why);
    if (!m)
        return bad(s, why, err);
    g->fig = (enum metric)(m - metric_defs);
    char want = m->higher_better ? '-' : '+';
    if (colon[1] != want)
        return bad(s, want == '+' ? "a lower-is-better metric takes +" : "rate takes -", err);
    char *end;
    double pct = strtod(colon + 2, &end);
    if (end == colon + 2 || strcmp(end, "%") || !(pct >= 0) || pct > 1000 ||
        (want == '-' && pct >= 100))
        return bad(s, "the tolerance is a percentage (0..1000, below 100 for rate)", err);
    if (strlen(s) >= sizeof g->expr)
        return bad(s, "too long", err);
    snprintf(g->expr, sizeof g->expr, "%s", s);
    g->tol = pct / 100;
    return 0;
}

int gate_is_look(size_t k, size_t max)
{
    return k >= GATE_MIN_ROUNDS && k <= max && (k % 2 == 0 || k == max);
}

int gate_looks(size_t max)
{
    int n = 0;
    for (size_t k = GATE_MIN_ROUNDS; k <= max; k++)
        n += gate_is_look(k, max);
    return n > 0 ? n : 1;
}

int gate_check_calls(const struct gate *g, int n, const struct run_config *cfg, char *err)
{
    for (int i = 0; i < n; i++) {
        size_t j = 0;
        while (g[i].call[0] && j < cfg->nverbs && strcmp(cfg->verbs[j].name, g[i].call))
            j++;
        if (!g[i].call[0] || j < cfg->nverbs)
            continue;
        char list[160] = "";
        for (j = 0; j < cfg->nverbs; j++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", cfg->verbs[j].name);
        }
        snprintf(err, ERR_LEN, "--gate: '%.60s': no call '%.40s' (it has %s)", g[i].expr,
                 g[i].call, list);
        return -1;
    }
    return 0;
}

double gate_bound(const struct gate *g)
{
    return metric_defs[g->fig].higher_better ? 1 - g->tol : 1 + g->tol;
}

/* @return whether n rounds with log-ratio deviation s give an interval
 * (at conf) narrower than dist on each side. */
static int decides(double conf, double s, double dist, int n)
{
    return compare_stats_t_quantile(conf, n - 1) * s / sqrt(n) < dist;
}

/* What would decide an inconclusive gate, from the noise its rounds
 * showed (issue 41: "say how many rounds, or how long a round, would
 * decide the tolerance"). The interval is m +- t(conf, k-1) s / sqrt(k)
 * on the log ratios; at the same s, n rounds decide once t(conf, n-1)
 * s / sqrt(n) is below the distance from m to the bound. Rounds L times
 * as long have about s / sqrt(L) (each round's noise is the mean of its
 * calls'), so k rounds decide at L = (half-width / distance)^2. Both
 * assume the noise and B/A stay as measured: an estimate, said as one. */
static void gate_needs(const struct gate *g, struct gate_result *out)
{
    out->half_width = NAN;
    out->longer = NAN;
    out->rounds_needed = 0;
    if (out->rc != 0 || out->verdict != GATE_INCONCLUSIVE || out->rounds < 2)
        return;
    double mid = log(out->ci.geo_ratio), h = (log(out->ci.high) - log(out->ci.low)) / 2;
    double dist = fabs(log(gate_bound(g)) - mid);
    out->half_width = exp(h) - 1;
    out->rounds_needed = -1;
    if (!(dist > 0) || !(h > 0))
        return;
    out->longer = (h / dist) * (h / dist);
    double s = h * sqrt((double)out->rounds) /
               compare_stats_t_quantile(out->conf, (int)out->rounds - 1);
    int lo = (int)out->rounds, hi = GATE_NEEDS_MAX; /* lo undecided; t s / sqrt(n) falls with n */
    if (!decides(out->conf, s, dist, hi))
        return;
    while (hi - lo > 1) {
        int n = lo + (hi - lo) / 2;
        *(decides(out->conf, s, dist, n) ? &hi : &lo) = n;
    }
    out->rounds_needed = hi;
}

void gate_judge(const struct gate *g, const double *a, const double *b, size_t k, int looks,
                struct gate_result *out)
{
    memset(out, 0, sizeof *out);
    out->conf = compare_stats_look_conf(GATE_ALPHA, looks);
    out->rounds = k;
    for (size_t i = 0; i < k; i++) { /* an unknown figure has no ratio: no interval */
        out->unknown[0] += !fig_known(a[i]);
        out->unknown[1] += !fig_known(b[i]);
    }
    out->rc = compare_stats_ci_level(a, b, k, out->conf, &out->ci);
    out->verdict = out->rc == 0 ? compare_stats_gate(&out->ci, gate_bound(g), !metric_defs[g->fig].higher_better)
                                : GATE_INCONCLUSIVE;
    gate_needs(g, out);
}

const char *fail_test_method(const struct fail_test *f)
{
    if (f->rounds < 2)
        return "Fisher's exact test, one-sided";
    return f->method == COUNT_EXACT ? "exact stratified test (Fisher's, per round, combined as "
                                      "the exact Cochran-Mantel-Haenszel), one-sided"
                                    : "Cochran-Mantel-Haenszel test (normal, continuity-"
                                      "corrected), one-sided";
}

int gate_unknown_text(const struct gate *g, const struct gate_result *r, char *out, size_t len)
{
    out[0] = '\0';
    if (!r->unknown[0] && !r->unknown[1])
        return 0;
    snprintf(out, len, "%s%s%s unknown (%s) in %zu of %zu rounds of A and %zu of B", g->call,
             g->call[0] ? "." : "", gate_metric_name(g->fig),
             g->call[0] ? "the call had no answer" : "not measured", r->unknown[0], r->rounds,
             r->unknown[1]);
    return 1;
}

const char *gate_method(void)
{
    return "Bonferroni alpha spending: alpha 5% split evenly over the looks (one after each "
           "whole block A B, B A from round 4, and after the last round), each look a paired "
           "t-interval of the rounds' log ratios";
}
