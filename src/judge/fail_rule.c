/* fail_rule: a run's failures judged on the counts (fail_rule.h). */
#include "judge/fail_rule.h"

#include <stdio.h>

#include "judge/count_test.h"

int fail_rule_allowed(const struct cond_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        enum cond_metric k = l->c[i].kind;
        if (k == CM_ERRORS || k == CM_ERROR_SHARE || k == CM_UNFINISHED ||
            k == CM_UNFINISHED_SHARE)
            return 1;
    }
    return 0;
}

/* r's failed requests, and all of its requests that ended or not. */
static void counts(const struct run_result *r, int64_t *failed, int64_t *all)
{
    int64_t e = r->errors > 0 ? r->errors : 0, u = r->unfinished > 0 ? r->unfinished : 0;
    int64_t s = r->unsent > 0 ? r->unsent : 0, ok = r->ok > 0 ? r->ok : 0;
    *failed = e + u + s;
    *all = *failed + ok;
}

static double pct(int64_t a, int64_t b)
{
    return b > 0 ? 100.0 * (double)a / (double)b : 0;
}

int fail_rule_judge(const struct run_result *r, const struct run_result *base, char *why,
                    size_t len)
{
    int64_t f, n, bf = 0, bn = 0;
    counts(r, &f, &n);
    why[0] = '\0';
    if (f == 0)
        return 0;
    if (!base) {
        snprintf(why, len, "failures: %lld of %lld requests failed (%.1f%%), and no errors or "
                 "unfinished condition allows any", (long long)f, (long long)n, pct(f, n));
        return 1;
    }
    counts(base, &bf, &bn);
    struct count_table t = {bf, bn, f, n};
    double p = count_test_fisher(&t);
    if (p >= FAIL_RULE_ALPHA)
        return 0;
    snprintf(why, len, "failures: %lld of %lld requests failed (%.1f%%), beyond the baseline's "
             "%lld of %lld: p %.2g", (long long)f, (long long)n, pct(f, n), (long long)bf,
             (long long)bn, p);
    return 1;
}
