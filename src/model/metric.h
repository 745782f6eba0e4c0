/* metric: the figures of a run that outputs and verdicts name, one row
 * each, so that compare's table, its JSON and its page, --gate, the
 * --threshold conditions, the sweep's columns and every CSV say the same
 * figure by the same names and take it from a result the same way (issues
 * 25 and 40). This is the only list of figures: a new figure is one row
 * here, with its JSON/CSV key, column head, unit and where it shows. */
#ifndef RPCBENCH_METRIC_H
#define RPCBENCH_METRIC_H

#include <stddef.h>

#include "model/run_result.h"

/* In the order compare's tables show them: the first METRIC_N are
 * compare's figures (its tables, JSON, page and --gate); those after it
 * only --threshold conditions name (METRIC_ALL rows in all). */
enum metric {
    METRIC_P50, METRIC_P90, METRIC_P99, METRIC_MEAN, METRIC_RATE, METRIC_ERRORS,
    METRIC_CPU_PCT, METRIC_CPU_MS, METRIC_BYTES, METRIC_CLIENT_CPU_MS,
#ifdef RPCBENCH_TEST_FIGURE
    /* The figure-row build's one more figure (make figure-row-build,
     * tests/it_figure_row.py): a row added here is seen everywhere. */
    METRIC_TEST_FIGURE,
#endif
    METRIC_N,
    METRIC_MAX = METRIC_N, METRIC_MIN, METRIC_UNFINISHED, METRIC_SEND_LAG_MAX, METRIC_ALL
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
    const char *name;     /* what the user writes (--gate p99:+10%, --threshold p99<5ms) */
    const char *label;    /* a table's row ("p99 latency") */
    /* Its one key in every JSON and CSV: compare's figures, the summary and
     * sweep CSVs, a stage of a saved result ("p99_ms"); NULL for the
     * conditions' own figures, which no file keys. */
    const char *json_key;
    const char *html_id;  /* compare's page: the cells' element ids ("p99") */
    const char *head;     /* a column's head, its unit after it where one is picked ("p99") */
    enum metric_unit unit; /* also its kind: a latency is MU_MS */
    int higher_better;    /* a drop is the regression (the rate) */
    int sweep_col;        /* its column in the sweep's table, 1..metric_sweep_n(); 0: none */
    /* 1: a line of a run's report (text and page) and a column of its
     * csv-summary, after the lines the report builds itself (latency,
     * rate, errors and the server's CPU have sections of their own). */
    int run_line;
    /* The value in r (only read); FIG_UNKNOWN where it does not exist (no answer,
     * CPU not sampled); NULL for the conditions' own figures (judge/condition.c). */
    double (*value)(const struct run_result *r);
};

extern const struct metric_def metric_defs[METRIC_ALL];

/* @return compare's figure (below METRIC_N) whose name is s[0..len), or NULL. */
const struct metric_def *metric_find(const char *s, size_t len);
/* @return any figure (a condition's too) whose name is the string s, or NULL. */
const struct metric_def *metric_named(const char *s);
/* @return how many figures the sweep's table has (rows with a sweep_col);
 * at most METRIC_N, which sizes arrays of them. */
int metric_sweep_n(void);
/* @return the figure of the sweep table's column k (0..metric_sweep_n()-1). */
enum metric metric_sweep_fig(int k);
/* Every figure of compare of r into v (METRIC_N values, the caller's), as value. */
void metric_values(const struct run_result *r, double *v);

/* @return 1 when f has a per-call figure (CALL.METRIC in --gate, as in
 * --threshold): the latencies p50, p90, p99 and mean; else 0. */
int metric_per_call(enum metric f);
/* Figure f of r's call named call (a verb, or a --workload line's name),
 * from that call's own histogram as f's value takes the run's; FIG_UNKNOWN
 * when r has no such call, it had no answer, or f has no per-call figure. */
double metric_call_value(const struct run_result *r, const char *call, enum metric f);

#endif
