/* compare_verdicts_doc: compare's verdicts as one document
 * (compare_report.h): one per arm and --threshold condition, one per
 * --gate, and one "complete run" error when a signal cut the rounds
 * short; and its JUnit file. */
#include "report/compare_report.h"

#include <stdio.h>
#include <string.h>

#include "report/verdict_files.h"

/* One verdict per arm and condition. */
static void threshold_verdicts(struct doc_verdicts *d, const struct comparison *c)
{
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < c->plan.thresholds.n; i++) {
            const struct condition *cond = &c->plan.thresholds.c[i];
            const struct cond_result *res = &c->verdict[a].res[i];
            struct doc_verdict *k = doc_verdicts_add(d, DOC_V_THRESHOLD,
                                                     res->pass ? DOC_PASS : DOC_FAIL);
            if (!k)
                return;
            snprintf(k->expr, sizeof k->expr, "%s", cond->expr);
            snprintf(k->name, sizeof k->name, "%c %s", c->arm[a].letter, cond->expr);
            snprintf(k->classname, sizeof k->classname, "rpcbench.compare.threshold");
            snprintf(k->group, sizeof k->group, "arm %c (%s)", c->arm[a].letter,
                     compare_arm_name(&c->arm[a]));
            condition_describe(cond, res, k->detail, sizeof k->detail);
        }
}

/* One verdict per gate: B/A, its interval and the bound. */
static void gate_verdicts(struct doc_verdicts *d, const struct comparison *c)
{
    for (size_t i = 0; i < (size_t)c->plan.ngates; i++) {
        const struct gate_result *r = &c->gate[i];
        struct doc_verdict *k = doc_verdicts_add(d, DOC_V_GATE, r->verdict == GATE_PASS ? DOC_PASS
                                                 : r->verdict == GATE_REGRESSION ? DOC_FAIL
                                                 : DOC_INCONCLUSIVE);
        if (!k)
            return;
        snprintf(k->expr, sizeof k->expr, "%s", c->plan.gates[i].expr);
        snprintf(k->name, sizeof k->name, "gate %s", c->plan.gates[i].expr);
        snprintf(k->classname, sizeof k->classname, "rpcbench.compare.gate");
        char ratio[16], lo[16], hi[16], bound[16];
        compare_stats_fmt_ratio(r->ci.geo_ratio, ratio, sizeof ratio);
        compare_stats_fmt_ratio(r->ci.low, lo, sizeof lo);
        compare_stats_fmt_ratio(r->ci.high, hi, sizeof hi);
        compare_stats_fmt_ratio(gate_bound(&c->plan.gates[i]), bound, sizeof bound);
        if (r->rc == 0)
            snprintf(k->detail, sizeof k->detail,
                     "B/A %s, interval [%s, %s] at %.1f%% after %zu rounds, bound %s", ratio, lo,
                     hi, r->conf * 100, r->rounds, bound);
        else
            snprintf(k->detail, sizeof k->detail, "no interval (%zu rounds)", r->rounds);
    }
}

void compare_verdicts_doc(struct doc_verdicts *d, const struct comparison *c)
{
    doc_verdicts_init(d, "rpcbench compare");
    threshold_verdicts(d, c);
    gate_verdicts(d, c);
    if (c->interrupted) {
        char why[120];
        snprintf(why, sizeof why, "interrupted by %s after %zu complete round(s) of %d: the "
                 "verdicts cover only those", result_signal_name(c->interrupted), c->pairs,
                 c->plan.rounds);
        verdict_doc_interrupted(d, "compare", why);
    }
}

int compare_write_junit(const char *path, const struct comparison *c, char *err)
{
    static struct doc_verdicts d;
    compare_verdicts_doc(&d, c);
    return doc_verdicts_junit(path, &d, err);
}
