/* compare_verdicts: compare's --gate verdicts (judged after every round of
 * --rounds auto, and once on fixed or saved rounds) and the exit code they
 * give, the exit code an arm that stopped answering gives, and its
 * --threshold verdicts on each merged arm (comparison.h). */
#include "judge/comparison.h"

#include "base/exit_code.h"

/* Round i's figure of gate g in each arm: the run's, or its call's (the
 * same statistics either way: the gate is judged on these alone). */
static void gate_figures(const struct comparison *c, const struct gate *g, size_t i, double *a,
                         double *b)
{
    const struct run_result *ra = &c->arm[0].rounds[i], *rb = &c->arm[1].rounds[i];
    if (g->call[0]) {
        *a = metric_call_value(ra, g->call, g->fig);
        *b = metric_call_value(rb, g->call, g->fig);
        return;
    }
    double va[METRIC_N], vb[METRIC_N];
    compare_figures(c, ra, va);
    compare_figures(c, rb, vb);
    *a = va[g->fig];
    *b = vb[g->fig];
}

int compare_judge_gates(struct comparison *c, size_t k)
{
    const struct compare_plan *p = &c->plan;
    double a[1000], b[1000]; /* --rounds is at most 1000 */
    int decided = 1, regression = 0, errors_gate = 0;
    compare_set_cpu_basis(c, k);
    for (int g = 0; g < p->ngates; g++) {
        enum metric f = p->gates[g].fig;
        for (size_t i = 0; i < k && i < 1000; i++)
            gate_figures(c, &p->gates[g], i, &a[i], &b[i]);
        gate_judge(&p->gates[g], a, b, k < 1000 ? k : 1000, c->looks, &c->gate[g]);
        if (f == METRIC_ERRORS) { /* decided on the counts, never n/a */
            compare_failure_test(c, k, p->gates[g].tol, &c->gate[g].fail);
            c->gate[g].verdict = c->gate[g].fail.verdict;
            errors_gate = 1;
        }
        decided &= c->gate[g].verdict != GATE_INCONCLUSIVE;
        regression |= c->gate[g].verdict == GATE_REGRESSION;
    }
    /* any verdict asked for fails on a candidate that fails more, unless
     * an errors gate says how much more it may */
    compare_failure_test(c, k, 0, &c->failures);
    c->failures_implied = !errors_gate && (p->ngates || p->thresholds.n || p->bisect);
    regression |= c->failures_implied && c->failures.verdict == GATE_REGRESSION;
    decided &= !(c->failures_implied && c->failures.verdict == GATE_INCONCLUSIVE);
    /* one regression fixes the exit code (compare_gates_exit): the gates
     * still open could not change it */
    return decided || regression;
}

int compare_gates_exit(const struct comparison *c)
{
    int regression = 0, inconclusive = 0;
    for (int g = 0; g < c->plan.ngates; g++) {
        regression |= c->gate[g].verdict == GATE_REGRESSION;
        inconclusive |= c->gate[g].verdict == GATE_INCONCLUSIVE;
    }
    regression |= compare_failures_regressed(c);
    inconclusive |= compare_failures_open(c);
    if (c->plan.bisect)
        return regression ? EXIT_BISECT_BAD : inconclusive ? EXIT_BISECT_SKIP : EXIT_OK;
    return regression ? EXIT_REGRESSION : inconclusive ? EXIT_INCONCLUSIVE : EXIT_OK;
}

int compare_arm_failed(const struct comparison *c)
{
    return c->stop.arm == 1 && c->stop.other_answered;
}

int compare_stop_exit(const struct comparison *c)
{
    if (c->stop.arm < 0)
        return EXIT_OK;
    if (compare_arm_failed(c)) /* the candidate broke: as a regression */
        return c->plan.bisect ? EXIT_BISECT_BAD : EXIT_ARM_FAILED;
    /* no baseline to judge B against: this commit cannot be told */
    return c->plan.bisect ? EXIT_BISECT_SKIP : EXIT_RUN_FAILED;
}

void compare_judge_thresholds(struct comparison *c)
{
    for (int a = 0; a < 2; a++)
        if (c->arm[a].have_merged)
            verdict_judge(&c->verdict[a], &c->plan.thresholds, &c->arm[a].merged);
}

size_t compare_thresholds_failed(const struct comparison *c)
{
    if (!c->plan.thresholds.n)
        return 0;
    return c->verdict[0].failed + c->verdict[1].failed;
}
