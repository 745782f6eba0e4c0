/* condition: the verdict grammar (`--threshold`), one parser and one
 * evaluator over a run's result, shared by every subcommand that judges.
 *
 *   CONDITION := [VERB "." | "stage" N "."] METRIC OP VALUE[UNIT]
 *   LIST      := CONDITION{","CONDITION}
 *   OP        := < | <= | > | >= | =
 *   METRIC    := pNN (p50, p99, p99.9) | mean | max | min        latency: VALUE needs us|ms|s|m|h
 *              | errors      a count (errors=0), or with % the share of requests sent
 *              | unfinished  never answered: a count, or with % the share of requests sent
 *              | rate        achieved / target, % (needs a target rate)
 *              | server_cpu  mean server CPU, % of one core (the % optional)
 *              | cpu_ms_per_call   server CPU-ms per answered request (bare or ms)
 *              | send_lag_pNN | send_lag_max   the pacer's lag, a duration
 *   VERB (one verb's own histogram and counters) takes the latency metrics,
 *   errors and unfinished only. stageN (stage N of a --stages run, from 1:
 *   its own histogram, counts and server CPU; rate is sent / offered over
 *   the stage) takes every metric but the send lags.
 *
 * Unfinished requests (never answered when the run ended) are in the
 * latency figures as censored values (result.h): a figure they reach is a
 * lower bound, and a condition it already breaks fails. Unless some
 * unfinished condition of the list allows them, they also count as errors
 * in errors conditions, and any latency condition on a run (or verb) with
 * unfinished requests fails, saying how many.
 *
 * Values are compared in the metric's unit: ms for durations, % for
 * shares, a count for errors. A metric with nothing to measure (no
 * successful response, CPU not sampled, no target rate, a verb the result
 * lacks) is n/a, and an n/a condition fails. Nothing here allocates except
 * condition_json, whose object is the caller's. */
#ifndef RPCBENCH_CONDITION_H
#define RPCBENCH_CONDITION_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/err.h"
#include "model/run_result.h"

#define COND_MAX 32
#define COND_EXPR_LEN 96

/* The accepted form, for error messages and --help. */
#define COND_FORM "METRIC OP VALUE[UNIT], e.g. p99<100ms, errors<0.1%, rate>=99%, " \
                  "getAllVmStats.p99<200ms"

enum cond_op { COND_LT, COND_LE, COND_GT, COND_GE, COND_EQ };

enum cond_metric {
    CM_PCT, CM_MEAN, CM_MAX, CM_MIN,         /* latency */
    CM_ERRORS, CM_ERROR_SHARE, CM_RATE, CM_SERVER_CPU, CM_CPU_MS_PER_CALL,
    CM_SEND_LAG_PCT, CM_SEND_LAG_MAX, CM_UNFINISHED, CM_UNFINISHED_SHARE,
    CM_FIGURE, /* any other figure of model/metric.h with a value: the whole run's, bare */
};

struct condition {
    char expr[COND_EXPR_LEN]; /* as written: "getAllVmStats.p99<200ms" */
    char verb[64];            /* "" for the whole run */
    int stage;                /* stageN.: N (from 1); 0 for the whole run */
    char metric[32];          /* "p99", "errors", "send_lag_max" */
    enum cond_metric kind;
    double pct;               /* of CM_PCT and CM_SEND_LAG_PCT */
    int fig;                  /* of CM_FIGURE: its enum metric */
    enum cond_op op;
    double bound;             /* in the metric's unit (cond_unit) */
};

struct cond_list {
    struct condition c[COND_MAX];
    size_t n;
};

/* One condition's outcome. */
struct cond_result {
    int na;        /* nothing to measure: value meaningless, pass 0 */
    double value;  /* in the metric's unit */
    int pass;
    char why[48];  /* what n/a means here ("no successful response") */
    int lower_bound;    /* value is a lower bound (censored values reach it) */
    int64_t unfinished; /* of the run (or verb) the value is of, when relevant */
    int unallowed;      /* failed because unfinished requests are not allowed */
};

/* Parses one comma-separated list s (only read) and appends its
 * conditions to l. @return 0, or -1 with err (ERR_LEN, caller-owned; one
 * line naming the bad condition and showing COND_FORM); l then keeps only
 * the conditions it had before. */
int condition_parse_list(const char *s, struct cond_list *l, char *err);

/* Judges every condition of l into out[0..l->n) (unfinished requests are
 * allowed when l holds an unfinished condition). @return how many failed. */
size_t condition_eval_list(const struct cond_list *l, const struct run_result *r,
                           struct cond_result *out);

/* "p99 = 20.13ms, bound < 5ms" (or "p99 n/a (no successful response), bound
 * < 5ms") into buf (len bytes, always terminated). @return buf. */
const char *condition_describe(const struct condition *c, const struct cond_result *res,
                               char *buf, size_t len);

/* The JSON array [{expr, metric, verb, value, unit, bound, op, pass}] (value
 * null when n/a), a new object the caller owns (json_object_put, or add it
 * to a parent). @return NULL only when memory cannot be had. */
json_object *condition_json(const struct cond_list *l, const struct cond_result *res);

/* @return 0 when every per-verb condition of l names a verb of cfg (only
 * read) and every per-stage one a stage of cfg, or -1 with err naming the
 * condition and the verbs (or stages) there are. */
int condition_check_verbs(const struct cond_list *l, const struct run_config *cfg, char *err);

#endif
