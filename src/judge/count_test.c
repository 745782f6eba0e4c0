/* count_test: Fisher's exact test and its stratified form (count_test.h). */
#include "judge/count_test.h"

#include <math.h>
#include <stdlib.h>

/* One table's hypergeometric law: N requests, m failures, nb of them B's;
 * X (B's failures) runs over lo..hi. */
struct hyper {
    double N, m, nb;
    int64_t lo, hi, obs;
};

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static double lchoose(double n, double k)
{
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

/* The law of t's X; a table with an arm of no request or no failure has
 * one value (lo = hi), which tells nothing. */
static struct hyper hyper_of(const struct count_table *t)
{
    int64_t na = t->n_a > 0 ? t->n_a : 0, nb = t->n_b > 0 ? t->n_b : 0;
    int64_t fa = clamp(t->fail_a, 0, na), fb = clamp(t->fail_b, 0, nb);
    int64_t N = na + nb, m = fa + fb;
    struct hyper h = {(double)N, (double)m, (double)nb, 0, 0, fb};
    h.lo = nb - (N - m) > 0 ? nb - (N - m) : 0;
    h.hi = m < nb ? m : nb;
    return h;
}

/* log P(X = x) */
static double hyper_lp(const struct hyper *h, int64_t x)
{
    return lchoose(h->m, (double)x) + lchoose(h->N - h->m, h->nb - (double)x) -
           lchoose(h->N, h->nb);
}

double count_test_fisher(const struct count_table *t)
{
    struct hyper h = hyper_of(t);
    double p = 0;
    for (int64_t x = h.obs; x <= h.hi; x++)
        p += exp(hyper_lp(&h, x));
    return p < 1 ? p : 1;
}

/* Table h's X against its mean and variance under "B no worse": the
 * hypergeometric's. @return 0 for a table that tells nothing, else 1. */
static int table_moments(const struct hyper *h, double *e, double *v)
{
    if (h->lo == h->hi || h->N < 2)
        return 0;
    double na = h->N - h->nb;
    *e = h->m * h->nb / h->N;
    *v = h->m * (h->N - h->m) * na * h->nb / (h->N * h->N * (h->N - 1));
    return *v > 0;
}

double count_test_dispersion(const struct count_table *t, size_t k)
{
    double sum = 0, sq = 0, n = 0, fails = 0, reqs = 0, inv = 0;
    for (size_t i = 0; i < k; i++) {
        double na = (double)t[i].n_a, nb = (double)t[i].n_b;
        if (na <= 0 || nb <= 0)
            continue;
        double fa = (double)clamp(t[i].fail_a, 0, t[i].n_a);
        double fb = (double)clamp(t[i].fail_b, 0, t[i].n_b), d = fb / nb - fa / na;
        sum += d;
        sq += d * d;
        n++;
        fails += fa + fb;
        reqs += na + nb;
        inv += 1 / na + 1 / nb;
    }
    double p = reqs > 0 ? fails / reqs : 0, expect = p * (1 - p) * inv / (n > 0 ? n : 1);
    if (n < 3 || !(expect > 0))
        return 1;
    double var = (sq - sum * sum / n) / (n - 1);
    return var > 0 ? var / expect : 0;
}

/* The Cochran-Mantel-Haenszel statistic's one-sided normal tail, with
 * the continuity correction: sum of X against its mean and variance,
 * the variance times phi (1: independent requests). */
static double cmh_normal(const struct count_table *t, size_t k, double phi)
{
    double s = 0, e = 0, v = 0;
    for (size_t i = 0; i < k; i++) {
        struct hyper h = hyper_of(&t[i]);
        double ei, vi;
        if (!table_moments(&h, &ei, &vi))
            continue;
        s += (double)h.obs;
        e += ei;
        v += vi;
    }
    if (v <= 0)
        return 1;
    double z = (s - e - 0.5) / sqrt(v * phi);
    return 0.5 * erfc(z / sqrt(2));
}

/* Convolves the law of table h into dist (len values from offset lo;
 * tmp as long as the result). @return the new length. */
static size_t convolve(double *dist, size_t len, const struct hyper *h, double *tmp)
{
    size_t w = (size_t)(h->hi - h->lo) + 1, n = len + w - 1;
    for (size_t j = 0; j < n; j++)
        tmp[j] = 0;
    for (size_t x = 0; x < w; x++) {
        double p = exp(hyper_lp(h, h->lo + (int64_t)x));
        for (size_t j = 0; j < len; j++)
            tmp[j + x] += dist[j] * p;
    }
    for (size_t j = 0; j < n; j++)
        dist[j] = tmp[j];
    return n;
}

/* The exact stratified p-value, or -1 when the support or the work of
 * the convolution (its length times each table's width, summed) is too
 * long: 200000 values or 3e7 products, a few tens of ms at most. */
static double exact(const struct count_table *t, size_t k)
{
    size_t total = 1;
    double work = 0;
    int64_t lo = 0, obs = 0;
    for (size_t i = 0; i < k; i++) {
        struct hyper h = hyper_of(&t[i]);
        work += (double)total * (double)(h.hi - h.lo + 1);
        total += (size_t)(h.hi - h.lo);
        lo += h.lo;
        obs += h.obs;
        if (total > COUNT_EXACT_MAX || work > 3e7)
            return -1;
    }
    double *dist = calloc(2 * total, sizeof *dist);
    if (!dist)
        return -1;
    size_t len = 1;
    dist[0] = 1;
    for (size_t i = 0; i < k; i++) {
        struct hyper h = hyper_of(&t[i]);
        len = convolve(dist, len, &h, dist + total);
    }
    double p = 0;
    for (size_t j = (size_t)(obs - lo); j < len; j++)
        p += dist[j];
    free(dist);
    return p < 1 ? p : 1;
}

double count_test_stratified(const struct count_table *t, size_t k, enum count_method *method)
{
    double p = exact(t, k);
    if (method)
        *method = p >= 0 ? COUNT_EXACT : COUNT_NORMAL;
    return p >= 0 ? p : cmh_normal(t, k, 1);
}

double count_test_scaled(const struct count_table *t, size_t k, double phi)
{
    return cmh_normal(t, k, phi > 0 ? phi : 1);
}

void count_test_allow(struct count_table *t, size_t k, double tol)
{
    for (size_t i = 0; i < k; i++) {
        int64_t na = t[i].n_a > 0 ? t[i].n_a : 0;
        double extra = tol > 0 ? floor(tol * (double)na + 0.5) : 0;
        t[i].fail_a = clamp(t[i].fail_a + (int64_t)extra, 0, na);
    }
}
