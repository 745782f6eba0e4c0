/* metric: the figures of a run that outputs and verdicts name, one row
 * each, so that compare's table, its JSON and its page, --gate and the
 * sweep's columns say the same figure by the same names and take it from
 * a result the same way (issue 25). A new figure is one row here. */
#ifndef RPCBENCH_METRIC_H
#define RPCBENCH_METRIC_H

#include <stddef.h>

#include "model/run_result.h"

/* In the order compare's tables show them. */
enum metric {
    METRIC_P50, METRIC_P90, METRIC_P99, METRIC_MEAN, METRIC_RATE, METRIC_ERRORS,
    METRIC_CPU_PCT, METRIC_CPU_MS, METRIC_BYTES, METRIC_CLIENT_CPU_MS, METRIC_N
};

/* What a value is, for a writer to show it. */
enum metric_unit {
    MU_MS,     /* latency, ms (the table picks one time unit for all) */
    MU_PER_S,  /* requests per second */
    MU_COUNT,  /* requests */
    MU_PCT,    /* % of one core */
    MU_CPU_MS, /* CPU-ms per call (the server's) or per answer (the client's) */
    MU_BYTES   /* bytes */
};

struct metric_def {
    const char *name;     /* what the user writes (--gate p99:+10%) */
    const char *label;    /* a table's row ("p99 latency") */
    const char *json_key; /* compare's JSON ("p99_ms") */
    const char *html_id;  /* compare's page: the cells' element ids ("p99") */
    enum metric_unit unit;
    int higher_better;    /* a drop is the regression (the rate) */
    /* The value in r (only read); FIG_UNKNOWN where it does not exist (no answer,
     * CPU not sampled). */
    double (*value)(const struct run_result *r);
};

extern const struct metric_def metric_defs[METRIC_N];

/* @return the row whose name is s[0..len), or NULL. */
const struct metric_def *metric_find(const char *s, size_t len);
/* Every metric of r into v (METRIC_N values, the caller's), as value. */
void metric_values(const struct run_result *r, double *v);

/* @return 1 when f has a per-call figure (CALL.METRIC in --gate, as in
 * --threshold): the latencies p50, p90, p99 and mean; else 0. */
int metric_per_call(enum metric f);
/* Figure f of r's call named call (a verb, or a --workload line's name),
 * from that call's own histogram as f's value takes the run's; FIG_UNKNOWN
 * when r has no such call, it had no answer, or f has no per-call figure. */
double metric_call_value(const struct run_result *r, const char *call, enum metric f);

#endif
