#include "judge/compare_stats.h"
#include "judge/compare_stats_testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/figure.h"

/* t_{0.975, df} for df = 1..30 (any statistics table). */
static const double t975[30] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double compare_stats_t975(int df)
{
    if (df < 1)
        return 0;
    return df <= 30 ? t975[df - 1] : 1.96;
}

int compare_stats_ci(const double *a, const double *b, size_t k, struct ci *out)
{
    return compare_stats_ci_level(a, b, k, 0.95, out);
}

/* P(|T| < t) for Student's t with integer df: the closed sums of
 * Abramowitz & Stegun 26.7.3 (odd df) and 26.7.4 (even df). */
static double t_central(double t, int df)
{
    double th = atan(t / sqrt((double)df)), c2 = cos(th) * cos(th), s = sin(th);
    if (df % 2 == 0) {
        double term = 1, sum = 1;
        for (int j = 2; j <= df - 2; j += 2) {
            term *= c2 * (j - 1) / j;
            sum += term;
        }
        return s * sum;
    }
    if (df == 1)
        return 2 * th / M_PI;
    double term = cos(th), sum = term;
    for (int j = 3; j <= df - 2; j += 2) {
        term *= c2 * (j - 1) / j;
        sum += term;
    }
    return 2 / M_PI * (th + s * sum);
}

double compare_stats_t_quantile(double conf, int df)
{
    if (df < 1 || !(conf > 0) || !(conf < 1))
        return 0;
    double lo = 0, hi = 1;
    while (t_central(hi, df) < conf && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-10 * hi; i++) { /* bisection: monotone in t */
        double mid = (lo + hi) / 2;
        if (t_central(mid, df) < conf)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

int compare_stats_ci_level(const double *a, const double *b, size_t k, double conf,
                           struct ci *out)
{
    memset(out, 0, sizeof *out);
    if (k == 0)
        return -1;
    double sum = 0;
    for (size_t i = 0; i < k; i++) {
        if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i]))
            return -1;
        sum += log(b[i] / a[i]);
    }
    double n = (double)k;
    double mean = sum / n;
    out->geo_ratio = out->low = out->high = exp(mean);
    if (k < 2)
        return 1;
    double ss = 0; /* two passes: no cancellation when the ratios agree */
    for (size_t i = 0; i < k; i++) {
        double d = log(b[i] / a[i]) - mean;
        ss += d * d;
    }
    double t = conf == 0.95 ? compare_stats_t975((int)k - 1)
                            : compare_stats_t_quantile(conf, (int)k - 1);
    double half = t * sqrt(ss / (n - 1)) / sqrt(n);
    out->low = exp(mean - half);
    out->high = exp(mean + half);
    return 0;
}

void compare_stats_fmt_ratio(double x, char *out, size_t len)
{
    if (!fig_known(x) || x < 0)
        snprintf(out, len, "n/a");
    else
        snprintf(out, len, "%.*f", x < 9.9995 ? 3 : x < 99.995 ? 1 : 0, x);
}

int compare_stats_significant(const struct ci *ci)
{
    return ci->low > 1.0 || ci->high < 1.0;
}

int compare_stats_significant_shown(const struct ci *ci)
{
    char lo[16], hi[16];
    compare_stats_fmt_ratio(ci->low, lo, sizeof lo);
    compare_stats_fmt_ratio(ci->high, hi, sizeof hi);
    struct ci shown = {.low = strtod(lo, NULL), .high = strtod(hi, NULL)};
    return compare_stats_significant(&shown);
}

double compare_stats_look_conf(double alpha, int looks)
{
    return 1 - alpha / (looks < 1 ? 1 : looks);
}

enum gate_verdict compare_stats_gate(const struct ci *ci, double bound, int higher_is_worse)
{
    if (higher_is_worse)
        return ci->low > bound ? GATE_REGRESSION : ci->high < bound ? GATE_PASS
                                                                     : GATE_INCONCLUSIVE;
    return ci->high < bound ? GATE_REGRESSION : ci->low > bound ? GATE_PASS : GATE_INCONCLUSIVE;
}

const char *compare_stats_verdict_name(enum gate_verdict v)
{
    return v == GATE_PASS ? "pass" : v == GATE_REGRESSION ? "regression" : "inconclusive";
}
