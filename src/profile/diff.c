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

/* A callee takes its caller's place in the sentence when it carries at
 * least this share of the caller's B - A with callees: it explains the
 * same difference, more precisely (a planted function under the
 * request's handler). Below it, the callee is part of its caller's
 * figure, and the caller is named (a planted function whose clock reads
 * are half its cost). */
#define CALLEE_SHARE (2.0 / 3.0)
#define EXPLAIN_MAX 2 /* functions the sentence names */
/* A change under this share of the largest is not named: noise. */
#define EXPLAIN_FLOOR 0.05
/* A named function whose own code explains less than this share of its
 * change (a request's handler, 0 in itself) is followed by the callees
 * that explain it, each with at least PART_SHARE of it. */
#define OWN_SHARE 0.25
#define PART_SHARE 0.2

/* A function the sentence names, and the callees that explain it. */
struct explainer {
    struct profile_diff_row row;
    struct profile_diff_row part[EXPLAIN_MAX];
    int nparts;
};

static int by_total_change(const void *x, const void *y)
{
    double a = fabs(((const struct profile_diff_row *)x)->d_total);
    double b = fabs(((const struct profile_diff_row *)y)->d_total);
    return a < b ? 1 : a > b ? -1 : 0;
}

/* 1 when row i is a candidate under row `under` (any row when under is
 * n): not under itself, called by it, its change of the same sign; never
 * "[unknown]" (the root of perf's stacks cut short names nothing). */
static int beneath(const struct profile_diff_row *c, size_t n, const int64_t *calls,
                   size_t under, size_t i)
{
    if (strcmp(c[i].func, "[unknown]") == 0) /* perf's frame without a name: no answer */
        return 0;
    return under == n || (i != under && calls[under * n + i] > 0 &&
                          (c[i].d_total > 0) == (c[under].d_total > 0));
}

/* Which of c[0..n) (by |d_total|, descending), among those under row
 * `under` (n: all), explain the difference, each by its own total, a
 * caller and its callee never both: into pick (indices, at most
 * EXPLAIN_MAX). calls: fold_calls's n x n. Where each calls the other (a
 * JIT's code and the runtime it calls back, recursion), the callee is the
 * one called in more samples. A change under floor x the first
 * candidate's is left out. @return how many. */
static size_t explainers(const struct profile_diff_row *c, size_t n, const int64_t *calls,
                         size_t under, double floor, size_t *pick)
{
    size_t k = 0;
    double first = -1;
    for (size_t i = 0; i < n; i++) {
        if (!beneath(c, n, calls, under, i))
            continue;
        if (first < 0)
            first = fabs(c[i].d_total);
        if (fabs(c[i].d_total) <= floor * first)
            break;
        size_t rel = k;
        for (size_t j = 0; j < k && rel == k; j++)
            if (calls[pick[j] * n + i] || calls[i * n + pick[j]])
                rel = j;
        if (rel == k && k < EXPLAIN_MAX)
            pick[k++] = i;
        else if (rel < k && calls[pick[rel] * n + i] > calls[i * n + pick[rel]] &&
                 c[i].d_total / c[pick[rel]].d_total >= CALLEE_SHARE)
            pick[rel] = i;
    }
    return k;
}

/* Indices into rows sorted by |d_total|, descending (by_total_change):
 * ascending indices, n at most EXPLAIN_MAX. */
static void sort_indices(size_t *at, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && at[j] < at[j - 1]; j--) {
            size_t t = at[j];
            at[j] = at[j - 1];
            at[j - 1] = t;
        }
}

/* The functions that explain B - A, named in the sentence: the rows
 * all[0..n) by their totals' change, among the most changed, with which
 * calls which in every round of both arms; and, for one whose own code
 * explains little of its change (a request's handler), the callees that
 * explain it. Into ex (EXPLAIN_MAX, copied). @return how many, or -1
 * (out of memory). */
static int explaining(const struct profile_arm *const arms[2], size_t k,
                      struct profile_diff_row *all, size_t n, struct explainer *ex)
{
    static int64_t calls[PROFILE_MAX_ROWS * PROFILE_MAX_ROWS]; /* large: off the stack */
    const char *names[PROFILE_MAX_ROWS];
    size_t m = n < PROFILE_MAX_ROWS ? n : PROFILE_MAX_ROWS, at[EXPLAIN_MAX], part[EXPLAIN_MAX];
    qsort(all, n, sizeof *all, by_total_change);
    memset(calls, 0, sizeof calls);
    for (size_t i = 0; i < m; i++)
        names[i] = all[i].func;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < k; i++)
            if (fold_calls(arms[a]->folds[i], names, m, calls))
                return -1;
    size_t got = explainers(all, m, calls, m, EXPLAIN_FLOOR, at);
    sort_indices(at, got); /* a callee that took its caller's place may lead now */
    for (size_t i = 0; i < got; i++) {
        ex[i].row = all[at[i]];
        ex[i].nparts = 0;
        if (fabs(all[at[i]].d_self) >= OWN_SHARE * fabs(all[at[i]].d_total))
            continue;
        size_t np = explainers(all, m, calls, at[i], 0, part);
        sort_indices(part, np);
        for (size_t j = 0; j < np; j++)
            if (fabs(all[part[j]].d_total) >= PART_SHARE * fabs(all[at[i]].d_total))
                ex[i].part[ex[i].nparts++] = all[part[j]];
    }
    return (int)got;
}

/* The one line: the whole difference, and what explains it
 * (ex[0..nex)), with the parts of a handler's change its callees explain. */
static void summary(struct profile_diff *d, const struct explainer *ex, int nex)
{
    char *s = d->summary;
    const size_t len = sizeof d->summary;
    const char *more = d->d_cpu >= 0 ? "more" : "less";
    size_t n = (size_t)snprintf(s, len, "%s costs %.3f ms %s per call than %s (%.0f%% CI "
                                "%.3f..%.3f)", d->names[1], fabs(d->d_cpu), more, d->names[0],
                                100 * d->conf, d->d_cpu_lo, d->d_cpu_hi);
    for (int i = 0; i < nex && n < len; i++) {
        const struct profile_diff_row *r = &ex[i].row;
        if (i)
            n += (size_t)snprintf(s + n, len - n, ", then %s %.3f ms", r->func, r->d_total);
        else
            n += (size_t)snprintf(s + n, len - n, "; %s explains %.3f ms with its callees "
                                  "(%.3f ms in itself", r->func, r->d_total, r->d_self);
        for (int j = 0; j < ex[i].nparts && n < len; j++)
            n += (size_t)snprintf(s + n, len - n, "%s %s %.3f", j ? "," : i ? " (of it" :
                                  "; of it", ex[i].part[j].func, ex[i].part[j].d_total);
        if ((!i || ex[i].nparts) && n < len)
            n += (size_t)snprintf(s + n, len - n, ")");
    }
}

/* Every function's row, the most explaining first, into d, and the
 * sentence. */
static int rows(const struct profile_arm *a, const struct profile_arm *b, size_t k,
                struct profile_diff *d)
{
    struct explainer ex[EXPLAIN_MAX];
    int nex;
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
    if ((nex = explaining(arms, k, all, n, ex)) < 0)
        goto out;
    summary(d, ex, nex);
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
    return rows(a, b, k, d);
}
