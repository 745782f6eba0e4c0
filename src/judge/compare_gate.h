/* compare_gate: `compare --gate METRIC:+TOL%`, the verdict on a comparison.
 *
 * A gate bounds B/A of one of compare's figures: p99:+10% means "B's p99 at
 * most 10 % above A's"; rate:-2% "B's rate at most 2 % below A's". It is
 * judged on the paired interval of B/A (compare_stats.h: Bonferroni alpha
 * spending over the looks of --rounds auto). CALL.METRIC:+TOL% bounds one
 * call's figure (add.p99:+10%: the call named add, as --threshold names
 * it; METRIC a latency: metric_per_call), judged the same way on that
 * call's figure of each round. */
#ifndef RPCBENCH_JUDGE_COMPARE_GATE_H
#define RPCBENCH_JUDGE_COMPARE_GATE_H

#include <stddef.h>

#include <stdint.h>

#include "judge/compare_stats.h"
#include "judge/count_test.h"
#include "model/metric.h"


#define GATES_MAX 16
#define GATE_ALPHA 0.05       /* the whole sequence's error rate */
#define GATE_AUTO_MAX 12      /* --rounds auto */
#define GATE_MIN_ROUNDS 4     /* the first look: two whole blocks (A B, B A) */
#define GATE_NEEDS_MAX 1000   /* beyond it, "no number of rounds" */

struct gate {
    char expr[128];           /* as given: "p99:+10%", "add.p99:+10%" */
    char call[64];            /* "add"; "" the whole run */
    enum metric fig;
    double tol;               /* fraction: 0.10 */
};

/* The failures rule (issue 41): B's failed requests (errors, unfinished
 * and unsent: every offered request that did not end ok) against A's, on
 * the counts of the rounds (count_test.h). A regression when B's failure
 * share exceeds A's by more than tol beyond chance: the one-sided p-value
 * below alpha; else a pass (no evidence that B fails more). */
struct fail_test {
    double tol;                /* the allowance, a fraction: errors:+1% is 0.01 */
    int64_t failed[2], requests[2]; /* A's and B's, summed over the rounds */
    size_t rounds;
    double p;                  /* one-sided */
    enum count_method method;
    double dispersion;         /* count_test_dispersion of the rounds (1: too few) */
    double p_bursts;           /* p with the variance times the dispersion (> 1), else p */
    double alpha;              /* GATE_ALPHA / looks */
    enum gate_verdict verdict; /* GATE_PASS, GATE_REGRESSION, or GATE_INCONCLUSIVE:
                                  an excess in bursts the rounds do not agree on */
};

/* --rounds auto looks at the gates only after a whole block (A B, B A),
 * so that each look has A first as often as B and a drift of the machine
 * cancels, from GATE_MIN_ROUNDS on, and after the last round max.
 * @return 1 when the rounds done (k) are a look, else 0. */
int gate_is_look(size_t k, size_t max);

/* @return the looks --rounds auto:max plans (gate_is_look), at least 1:
 * what alpha is spent over. */
int gate_looks(size_t max);

/* @return the test's name, for reports (static). */
const char *fail_test_method(const struct fail_test *f);

struct gate_result {
    int rc;                   /* compare_stats_ci_level's: 0 an interval, 1 one round, -1 n/a */
    size_t unknown[2];        /* rounds of A, of B whose figure is unknown (not measured):
                                 no interval, so never a pass (gate_unknown_text) */
    struct ci ci;
    double conf;              /* of this look's interval */
    size_t rounds;            /* the rounds it was judged on */
    enum gate_verdict verdict;
    struct fail_test fail;    /* an errors gate's: its verdict is this test's */
    /* What an inconclusive gate with an interval needs (gate_needs): NAN
     * and 0 otherwise. */
    double half_width;        /* the interval's half-width now, a fraction of B/A (log scale) */
    int rounds_needed;        /* rounds that would decide it at the noise measured; -1: none
                                 up to GATE_NEEDS_MAX (B/A sits at the bound) */
    double longer;            /* or rounds this many times as long, at the same count */
};

/* Parses "METRIC:+TOL%" or "CALL.METRIC:+TOL%" into g (errors:+TOL%
 * allows B's failure share TOL points above A's: fail_test). A call may
 * hold dots itself ("Host.getStats.p99": the metric follows the last).
 * @return 0, or -1 with err (ERR_LEN, caller-owned) naming the gate and
 * the accepted form. */
int gate_parse(const char *s, struct gate *g, char *err);

/* @return 0 when every per-call gate of g[0..n) names a call (verb) of
 * cfg, else -1 with err (ERR_LEN, caller-owned): "'x.p99:+10%': no call
 * 'x' (it has add, list)", for a usage error before the first request. */
int gate_check_calls(const struct gate *g, int n, const struct run_config *cfg, char *err);

/* @return the bound on B/A: 1 + tol, or 1 - tol for the rate. */
double gate_bound(const struct gate *g);

/* @return the metric's name as gates take it ("p99"; static). */
const char *gate_metric_name(enum metric f);

/* Judges g on the k rounds a[i], b[i] (only read) at one look of `looks`
 * (Bonferroni: a 1 - GATE_ALPHA/looks interval). An errors gate's verdict
 * is then the caller's to set from its fail_test (compare_judge_gates).
 * An inconclusive verdict with an interval also gets what would decide
 * it: out->half_width, rounds_needed and longer. */
void gate_judge(const struct gate *g, const double *a, const double *b, size_t k, int looks,
                struct gate_result *out);

/* @return the method, for reports (static). */
const char *gate_method(void);

/* "server_cpu unknown in 3 of 3 rounds of A and 3 of B (not measured)"
 * into out (len bytes, the caller's) when some round's figure of g was
 * unknown (r->unknown), else "". @return 1 when it said so, else 0. */
int gate_unknown_text(const struct gate *g, const struct gate_result *r, char *out, size_t len);

#endif
