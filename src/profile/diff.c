/* diff: B - A per function across paired rounds (diff.h). */
#include "profile/diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/compare_stats.h"
#include "profile/strmap.h"

#define CONF 0.95

/* Mean of x[0..k) into *mean and its interval at CONF into *lo, *hi (both
 * the mean when k < 2). */
static void mean_ci(const double *x, size_t k, double *mean, double *lo, double *hi)
{
    double s = 0, ss = 0;
    for (size_t i = 0; i < k; i++)
        s += x[i];
    *mean = s / (double)k;
    for (size_t i = 0; i < k; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    double h = k > 1 ? compare_stats_t_quantile(CONF, (int)k - 1) * sqrt(ss / (double)(k - 1)) /
                       sqrt((double)k) : 0;
    *lo = *mean - h;
    *hi = *mean + h;
}

/* Why the rounds cannot be diffed ("" they can), into why (len bytes). */
static void refusal(const struct profile_arm *arm, size_t k, int saturated_ok, char *why,
                    size_t len)
{
    for (size_t i = 0; i < k && !why[0]; i++) {
        if (!arm->folds[i] || !isfinite(arm->cpu_ms[i]))
            snprintf(why, len, "round %zu of %s has no profile, or no CPU per call to "
                     "scale it by", i + 1, arm->name);
        else if (arm->saturated[i] && !saturated_ok)
            snprintf(why, len, "round %zu of %s: profile %s; no diff (--profile-saturated "
                     "diffs it anyway)", i + 1, arm->name, PROFILE_SATURATED_TEXT);
    }
}

/* Every function of every round, once: the rows' candidates. */
static int all_functions(const struct profile_arm *const arms[2], size_t k, struct strmap *m)
{
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < k; i++) {
            struct fold_func *fn;
            size_t n;
            if (fold_functions(arms[a]->folds[i], &fn, &n))
                return -1;
            for (size_t j = 0; j < n; j++)
                if (!strmap_get(m, fn[j].name, fn[j].module[0] ? fn[j].module : NULL)) {
                    free(fn);
                    return -1;
                }
            free(fn);
        }
    return 0;
}

/* One function's row over the k paired rounds. */
static void diff_row(const struct profile_arm *a, const struct profile_arm *b, size_t k,
                     const struct strmap_entry *e, struct profile_diff_row *r)
{
    double ds[DIFF_MAX_ROUNDS], dt = 0, as = 0, bs = 0;
    for (size_t i = 0; i < k && i < DIFF_MAX_ROUNDS; i++) {
        double x = fold_share(a->folds[i], e->key, 1) * a->cpu_ms[i];
        double y = fold_share(b->folds[i], e->key, 1) * b->cpu_ms[i];
        ds[i] = y - x;
        as += x / (double)k;
        bs += y / (double)k;
        dt += (fold_share(b->folds[i], e->key, 0) * b->cpu_ms[i] -
               fold_share(a->folds[i], e->key, 0) * a->cpu_ms[i]) / (double)k;
    }
    snprintf(r->func, sizeof r->func, "%s", e->key);
    snprintf(r->module, sizeof r->module, "%s", e->aux ? e->aux : "");
    mean_ci(ds, k < DIFF_MAX_ROUNDS ? k : DIFF_MAX_ROUNDS, &r->d_self, &r->lo, &r->hi);
    r->a_self = as;
    r->b_self = bs;
    r->d_total = dt;
    r->ratio = as > 0 ? bs / as : NAN;
    r->significant = k > 1 && (r->lo > 0 || r->hi < 0);
}

static int by_explained(const void *x, const void *y)
{
    double a = fabs(((const struct profile_diff_row *)x)->d_self);
    double b = fabs(((const struct profile_diff_row *)y)->d_self);
    return a < b ? 1 : a > b ? -1 : 0;
}

/* The one line: the whole difference, and what its first row explains. */
static void summary(struct profile_diff *d)
{
    const char *more = d->d_cpu >= 0 ? "more" : "less";
    int n = snprintf(d->summary, sizeof d->summary, "%s costs %.3f ms %s per call than %s "
                     "(%.0f%% CI %.3f..%.3f)", d->names[1], fabs(d->d_cpu), more, d->names[0],
                     100 * d->conf, d->d_cpu_lo, d->d_cpu_hi);
    if (d->nrows && n > 0 && (size_t)n < sizeof d->summary)
        snprintf(d->summary + n, sizeof d->summary - (size_t)n, "; %s explains %.3f ms "
                 "(with its callees %.3f ms)", d->rows[0].func, d->rows[0].d_self,
                 d->rows[0].d_total);
}

/* Every function's row, the most explaining first, into d. */
static int rows(const struct profile_arm *a, const struct profile_arm *b, size_t k,
                struct profile_diff *d)
{
    const struct profile_arm *const arms[2] = {a, b};
    struct strmap m;
    strmap_init(&m);
    struct profile_diff_row *all = NULL;
    int rc = -1;
    if (all_functions(arms, k, &m) || !(all = calloc(m.n ? m.n : 1, sizeof *all)))
        goto out;
    size_t n = 0;
    for (size_t i = 0; i < m.cap; i++)
        if (m.slots[i].key)
            diff_row(a, b, k, &m.slots[i], &all[n++]);
    qsort(all, n, sizeof *all, by_explained);
    for (size_t i = 0; i < n && d->nrows < PROFILE_MAX_ROWS; i++)
        d->rows[d->nrows++] = all[i];
    rc = 0;
out:
    free(all);
    strmap_free(&m);
    return rc;
}

int profile_diff(const struct profile_arm *a, const struct profile_arm *b, size_t k,
                 int saturated_ok, int top, struct profile_diff *d)
{
    memset(d, 0, sizeof *d);
    d->taken = 1;
    d->rounds = (int)k;
    d->conf = CONF;
    d->top = top;
    snprintf(d->names[0], sizeof d->names[0], "%s", a->name);
    snprintf(d->names[1], sizeof d->names[1], "%s", b->name);
    refusal(a, k, saturated_ok, d->refused, sizeof d->refused);
    refusal(b, k, saturated_ok, d->refused, sizeof d->refused);
    if (d->refused[0] || k == 0)
        return 0;
    double dc[DIFF_MAX_ROUNDS];
    for (size_t i = 0; i < k && i < DIFF_MAX_ROUNDS; i++) {
        if (fold_index(a->folds[i]) || fold_index(b->folds[i]))
            return -1;
        dc[i] = b->cpu_ms[i] - a->cpu_ms[i];
    }
    mean_ci(dc, k < DIFF_MAX_ROUNDS ? k : DIFF_MAX_ROUNDS, &d->d_cpu, &d->d_cpu_lo, &d->d_cpu_hi);
    if (rows(a, b, k, d))
        return -1;
    summary(d);
    return 0;
}
