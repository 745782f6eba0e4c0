/* result_json: a run's result as JSON (--output), with stable field names,
 * and back again, so `report` and `compare` work from saved files.
 *
 * The merged latency histograms are saved whole, as HdrHistogram's
 * compressed V2 encoding in base64 (the form HdrHistogram's own tools
 * exchange), under "histograms": {"latency_us", "service_us", "send_lag_us",
 * "pacing_lag_us", "handshake_us", "verbs": {name: ...}}; values are
 * microseconds. "exact_us" beside them keeps what the buckets lose (exact
 * min, max, sums), so a loaded result prints the run's own figures.
 * Re-bucketing and merging read them, never the rounded figures. */
#ifndef RPCBENCH_RESULT_JSON_H
#define RPCBENCH_RESULT_JSON_H

#include <json-c/json.h>

#include "model/run_result.h"

/* Errors go into err (ERR_LEN bytes, caller-owned) as one line. */

/* @return a new JSON document of r (r only read), the caller's to
 * json_object_put. */
json_object *result_to_json(const struct run_result *r);
/* Every JSON document rpcbench writes is printed this way: pretty, slashes
 * not escaped ("http://..."), numbers with at most 10 significant digits,
 * so no binary noise (99.900000000000006) reaches the reader; every string
 * valid UTF-8 without controls (base/safetext.h: j's unsafe strings are
 * replaced by their safe form, which is why j is not const).
 * @return j's text, owned by j (valid until j changes or is freed). */
const char *result_json_text(json_object *j);
/* The same, on one line (no blanks, no line breaks), for a line of a
 * file that holds other lines (--requests-log's config line).
 * @return j's text, owned by j. */
const char *result_json_line(json_object *j);
/* The same text into path (created or truncated; j stays the caller's).
 * @return 0, or -1 with err. */
int result_json_write(json_object *j, const char *path, char *err);
/* Writes r (only read) as JSON to path. @return 0, or -1 with err. */
int result_save(const struct run_result *r, const char *path, char *err);
/* A run's configuration as a saved result holds it: a new object
 * {"config": {...}, "target": {"url", "proto"}} (the caller's to put),
 * which result_config_load reads back; c and target_url only read. The
 * --requests-log header carries it. */
json_object *result_config_json(const struct run_config *c, const char *target_url);
/* Reads root's "config" and "target" (a saved result, or
 * result_config_json's object; borrowed) into cfg, which the caller
 * zeroed: what is absent keeps a saved result's defaults. */
void result_config_load(json_object *root, struct run_config *cfg);
/* Reads a saved result (histograms, counters, timeline, config figures)
 * into r, which this initialises (zeroed first, so result_free is safe
 * whatever the outcome): r is then the caller's to result_free, on
 * failure too. @return 0, or -1 with err naming path. */
int result_load(struct run_result *r, const char *path, char *err);
/* The same from a parsed document (borrowed: still the caller's to
 * json_object_put; r keeps no pointer into it). */
int result_load_json(struct run_result *r, json_object *root, char *err);
/* compare --output writes "kind": RESULT_KIND_COMPARE; a run has no kind. */
#define RESULT_KIND_COMPARE "compare"
/* @return 1 when a parsed document (borrowed, may be NULL) is a saved
 * comparison, else 0. */
int result_json_is_comparison(json_object *root);
/* sweep --output writes "kind": RESULT_KIND_SWEEP (sweep_json.h). */
#define RESULT_KIND_SWEEP "sweep"
/* @return 1 when a parsed document (borrowed, may be NULL) is a saved
 * sweep, else 0. */
int result_json_is_sweep(json_object *root);
/* Names of the run-wide histograms under "histograms" and "exact_us", in
 * the order latency, service, send_lag, pacing_lag, handshake. */
extern const char *const result_hist_names[5];
/* Figures v (METRIC_N of them, enum metric order: metric_values) as a new
 * JSON object, each by its one key (model/metric.h), null where unknown, a
 * count as an integer: a run's "figures" and each compare arm's. The
 * caller's to put. */
json_object *result_figures_json(const double *v);
/* The figures of a latency histogram as a new JSON object ({min, mean,
 * max, stddev, pNN}, ms; each null when the histogram is empty), the
 * caller's to put (or to add to a parent). h and pcts only read. */
json_object *result_hist_json(const struct hist *h, const double *pcts, size_t npcts);
/* h's counts as HdrHistogram V2 compressed, base64 (a JSON string; NULL
 * when it cannot be encoded), and what that loses ({min, max, sum, sum_sq},
 * us): new objects, the caller's. */
json_object *result_hist_encoded(const struct hist *h);
json_object *result_hist_exact(const struct hist *h);
/* result_hist_load_exact: result_hist_exact's figures x
 * back into h, decoded from its buckets, when they are h's (else, or x
 * NULL, h stays as its buckets say). */
void result_hist_load_exact(json_object *x, struct hist *h);

/* result_stages_json.c, for a --stages run: config.stages
 * [{duration_s, from, to}], the top-level "stages" (one object a stage:
 * stage, start_s, duration_s, from, to, offered (requests), sent, ok,
 * errors, unfinished, rate_achieved, latency_ms, server_cpu_pct,
 * server_cpu_ms, cpu_ms_per_call: null when unknown) and the stages'
 * histograms as an array (exact: their exact_us). New objects, the
 * caller's; c and r only read. */
json_object *result_stages_config_json(const struct run_config *c);
json_object *result_stages_json(const struct run_result *r);
json_object *result_stages_hist_json(const struct run_result *r, int exact);

#endif
