/* compare_gate: `compare --gate METRIC:+TOL%`, the verdict on a comparison.
 *
 * A gate bounds B/A of one of compare's figures: p99:+10% means "B's p99 at
 * most 10 % above A's"; rate:-2% "B's rate at most 2 % below A's". It is
 * judged on the paired interval of B/A (compare_stats.h: Bonferroni alpha
 * spending over the looks of --rounds auto). */
#ifndef RPCBENCH_JUDGE_COMPARE_GATE_H
#define RPCBENCH_JUDGE_COMPARE_GATE_H

#include <stddef.h>

#include "judge/compare_stats.h"
#include "model/metric.h"


#define GATES_MAX 16
#define GATE_ALPHA 0.05       /* the whole sequence's error rate */
#define GATE_AUTO_MAX 12      /* --rounds auto */
#define GATE_MIN_ROUNDS 3     /* the first look */

struct gate {
    char expr[48];            /* as given: "p99:+10%" */
    enum metric fig;
    double tol;               /* fraction: 0.10 */
};

struct gate_result {
    int rc;                   /* compare_stats_ci_level's: 0 an interval, 1 one round, -1 n/a */
    struct ci ci;
    double conf;              /* of this look's interval */
    size_t rounds;            /* the rounds it was judged on */
    enum gate_verdict verdict;
};

/* Parses "METRIC:+TOL%" into g. @return 0, or -1 with err (ERR_LEN,
 * caller-owned) naming the gate and the accepted form. */
int gate_parse(const char *s, struct gate *g, char *err);

/* @return the bound on B/A: 1 + tol, or 1 - tol for the rate. */
double gate_bound(const struct gate *g);

/* @return the metric's name as gates take it ("p99"; static). */
const char *gate_metric_name(enum metric f);

/* Judges g on the k rounds a[i], b[i] (only read) at one look of `looks`
 * (Bonferroni: a 1 - GATE_ALPHA/looks interval). */
void gate_judge(const struct gate *g, const double *a, const double *b, size_t k, int looks,
                struct gate_result *out);

/* @return the method, for reports (static). */
const char *gate_method(void);

#endif
