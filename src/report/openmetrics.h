/* openmetrics: a run's live figures in the exposition format Prometheus
 * scrapes (--metrics-listen): the OpenMetrics text format, or Prometheus'
 * older text format 0.0.4 for a scraper that does not ask for
 * OpenMetrics. The state follows the run through the engine's live views
 * (model/run_result.h's struct live_view, one per interval), so a scrape
 * reads figures at most one --interval old; the figures are the report's:
 *
 *   rpcbench_requests_total{call}            offered (due) in the measured window
 *   rpcbench_sent_total{call}                written to the wire
 *   rpcbench_answers_total{call,outcome}     ok, error, unfinished, unsent
 *   rpcbench_errors_total{kind}              the report's error kinds
 *   rpcbench_latency_seconds                 histogram of the ok answers'
 *                                            latency, from the intended send
 *   rpcbench_rate_offered, _rate_achieved    requests/s (achieved: the last
 *                                            interval)
 *   rpcbench_in_flight, rpcbench_queued_total, rpcbench_pacer_lag_p99_seconds
 *   rpcbench_server_cpu_percent, rpcbench_server_rss_bytes,
 *   rpcbench_client_cpu_percent, rpcbench_machine_steal_percent
 *   rpcbench_warmup                          1 while the warmup goes
 *
 * each with the labels run (the run's label), arm, round, cell and target
 * where they apply. Nothing here allocates but om_render's buffer. */
#ifndef RPCBENCH_OPENMETRICS_H
#define RPCBENCH_OPENMETRICS_H

#include "base/buf.h"
#include "model/run_result.h"
#include "stats/buckets.h"

/* Which run of a command the figures are: compare's arm and round, sweep's
 * cell (0 / "" / -1: not set, no label). */
struct om_labels {
    char arm[8];
    int round;
    int cell;
};

struct om_state {
    struct om_labels labels;
    char run[64], target[512];
    int have_run;                  /* a run began: there is something to show */
    int warmup, done;
    double edges_s[BUCKETS_MAX + 1];
    int nedges;
    int64_t le[BUCKETS_MAX + 1];    /* ok answers at or below each edge */
    int64_t count;                  /* ok answers */
    double sum_s;                   /* their latencies' sum */
    struct live_counts {            /* copied from the run as it goes */
        int64_t requests[RUN_MAX_VERBS], ok[RUN_MAX_VERBS], errors[RUN_MAX_VERBS],
            unfinished[RUN_MAX_VERBS], unsent[RUN_MAX_VERBS];
        char verb[RUN_MAX_VERBS][64];
        size_t nverbs;
        int64_t err[ERR_KINDS], queued;
    } c;
    double rate_offered, rate_achieved, pacer_lag_p99_s;
    int64_t in_flight;
    /* FIG_UNKNOWN (base/figure.h): unknown, no sample written */
    double server_cpu, client_cpu, steal, server_rss_kb;
};

/* The latency buckets' edges: a --buckets spec given as edges
 * ("START:END:STEP" or a list) gives those; "auto" or "" a fixed log
 * scale (1, 2, 5 from 100 us to 60 s), since a scraped histogram's edges
 * must not move during a run. Clears s. @return 0, or -1 with err (ERR_LEN,
 * caller-owned: a spec that does not parse). */
int om_init(struct om_state *s, const char *buckets_spec, char *err);

/* A new run begins (its counters start from 0; the edges stay): cfg is
 * only read. */
void om_begin_run(struct om_state *s, const struct run_config *cfg,
                  const struct om_labels *labels);
/* Takes one live view in (engine's, only read). */
void om_take_view(struct om_state *s, const struct live_view *v);
/* The run is over: its final counters (res, only read). */
void om_run_done(struct om_state *s, const struct run_result *res);

/* The exposition text into out (reset first): OpenMetrics when
 * openmetrics (ends with "# EOF"), else Prometheus' text format 0.0.4.
 * @return 0, or -1 when memory cannot be had. */
int om_render(const struct om_state *s, int openmetrics, struct buf *out);

/* The content types of the two formats. */
#define OM_CONTENT_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define OM_TEXT_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

#endif
