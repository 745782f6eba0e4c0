/* compare_failures: the failures rule of compare's verdicts (issue 41;
 * comparison.h): a candidate that fails more than its baseline is a
 * regression whatever its latency, judged on the rounds' counts. */
#include "judge/comparison.h"

#include <string.h>

/* @return n, or 0 for a count the input did not hold (-1). */
static int64_t known(int64_t n)
{
    return n > 0 ? n : 0;
}

/* Round r's requests that did not end ok: errors, unfinished, unsent. */
static int64_t failed_of(const struct run_result *r)
{
    return known(r->errors) + known(r->unfinished) + known(r->unsent);
}

/* Pass when not even independent requests would show an excess in B; a
 * regression when it shows with the rounds' dispersion too (failures in
 * bursts weigh as the bursts they are); between the two, inconclusive: B
 * failed more, in bursts the rounds do not agree on, and more rounds would
 * tell (--rounds auto goes on; at the last look it blocks, exit 4, rather
 * than pass a candidate that may fail). */
static enum gate_verdict fail_verdict(const struct fail_test *f)
{
    if (!(f->p < f->alpha))
        return GATE_PASS;
    return f->p_bursts < f->alpha ? GATE_REGRESSION : GATE_INCONCLUSIVE;
}

void compare_failure_test(const struct comparison *c, size_t k, double tol,
                          struct fail_test *out)
{
    static struct count_table t[1000]; /* --rounds is at most 1000 */
    memset(out, 0, sizeof *out);
    k = k < 1000 ? k : 1000;
    for (size_t i = 0; i < k; i++) {
        const struct run_result *a = &c->arm[0].rounds[i], *b = &c->arm[1].rounds[i];
        t[i] = (struct count_table){failed_of(a), failed_of(a) + known(a->ok), failed_of(b),
                                    failed_of(b) + known(b->ok)};
        out->failed[0] += t[i].fail_a;
        out->requests[0] += t[i].n_a;
        out->failed[1] += t[i].fail_b;
        out->requests[1] += t[i].n_b;
    }
    count_test_allow(t, k, tol);
    out->tol = tol;
    out->rounds = k;
    out->p = count_test_stratified(t, k, &out->method);
    out->dispersion = count_test_dispersion(t, k);
    out->p_bursts = out->dispersion > 1 ? count_test_scaled(t, k, out->dispersion) : out->p;
    out->alpha = GATE_ALPHA / (c->looks > 0 ? c->looks : 1);
    out->verdict = fail_verdict(out);
}

int compare_failures_open(const struct comparison *c)
{
    int open = c->failures_implied && c->failures.verdict == GATE_INCONCLUSIVE;
    for (int g = 0; g < c->plan.ngates; g++)
        open |= c->plan.gates[g].fig == METRIC_ERRORS && c->gate[g].verdict == GATE_INCONCLUSIVE;
    return open;
}

int compare_failures_regressed(const struct comparison *c)
{
    int bad = c->failures_implied && c->failures.verdict == GATE_REGRESSION;
    for (int g = 0; g < c->plan.ngates; g++)
        bad |= c->plan.gates[g].fig == METRIC_ERRORS && c->gate[g].verdict == GATE_REGRESSION;
    return bad;
}
