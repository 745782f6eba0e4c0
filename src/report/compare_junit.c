/* compare_junit: compare's --junit file (compare_report.h): one testcase
 * per arm and --threshold condition, one per --gate, and one "complete
 * run" error when a signal cut the rounds short. */
#include "report/compare_report.h"

#include <stdio.h>
#include <string.h>

#include "report/junit.h"
#include "report/verdict_files.h"

/* One testcase per arm and condition. @return the cases written. */
static size_t threshold_cases(const struct comparison *c, struct junit_case *cases)
{
    size_t n = 0;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < c->plan.thresholds.n; i++) {
            const struct condition *cond = &c->plan.thresholds.c[i];
            const struct cond_result *res = &c->verdict[a].res[i];
            struct junit_case *k = &cases[n++];
            char line[200];
            memset(k, 0, sizeof *k);
            snprintf(k->name, sizeof k->name, "%c %s", c->arm[a].letter, cond->expr);
            snprintf(k->classname, sizeof k->classname, "rpcbench.compare.threshold");
            k->failed = !res->pass;
            snprintf(k->message, sizeof k->message, "arm %c (%.60s): %s: %s", c->arm[a].letter,
                     compare_arm_name(&c->arm[a]),
                     condition_describe(cond, res, line, sizeof line), k->failed ? "FAIL" : "pass");
        }
    return n;
}

/* One testcase per gate: a regression and an inconclusive gate both fail
 * the testcase (neither lets a CI pipeline through; the message says
 * which). @return the cases written. */
static size_t gate_cases(const struct comparison *c, struct junit_case *cases)
{
    for (size_t i = 0; i < (size_t)c->plan.ngates; i++) {
        const struct gate_result *r = &c->gate[i];
        struct junit_case *k = &cases[i];
        memset(k, 0, sizeof *k);
        snprintf(k->name, sizeof k->name, "gate %s", c->plan.gates[i].expr);
        snprintf(k->classname, sizeof k->classname, "rpcbench.compare.gate");
        k->failed = r->verdict != GATE_PASS;
        char ratio[16], lo[16], hi[16], bound[16];
        compare_stats_fmt_ratio(r->ci.geo_ratio, ratio, sizeof ratio);
        compare_stats_fmt_ratio(r->ci.low, lo, sizeof lo);
        compare_stats_fmt_ratio(r->ci.high, hi, sizeof hi);
        compare_stats_fmt_ratio(gate_bound(&c->plan.gates[i]), bound, sizeof bound);
        if (r->rc == 0)
            snprintf(k->message, sizeof k->message,
                     "B/A %s, interval [%s, %s] at %.1f%% after %zu rounds, bound %s: %s", ratio,
                     lo, hi, r->conf * 100, r->rounds, bound,
                     compare_stats_verdict_name(r->verdict));
        else
            snprintf(k->message, sizeof k->message, "no interval (%zu rounds): %s", r->rounds,
                     compare_stats_verdict_name(r->verdict));
    }
    return (size_t)c->plan.ngates;
}

int compare_write_junit(const char *path, const struct comparison *c, char *err)
{
    static struct junit_case cases[2 * COND_MAX + GATES_MAX + 1];
    size_t n = threshold_cases(c, cases);
    n += gate_cases(c, cases + n);
    if (c->interrupted) {
        char why[120];
        snprintf(why, sizeof why, "interrupted by %s after %zu complete round(s) of %d: the "
                 "verdicts cover only those", result_signal_name(c->interrupted), c->pairs,
                 c->plan.rounds);
        verdict_junit_interrupted(&cases[n++], "compare", why);
    }
    return junit_write(path, "rpcbench compare", cases, n, err);
}
