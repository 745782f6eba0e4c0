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

#include "results/result.h"

json_object *result_to_json(const struct run_result *r);
/* Every JSON document rpcbench writes is printed this way: pretty, slashes
 * not escaped ("http://..."), numbers with at most 10 significant digits,
 * so no binary noise (99.900000000000006) reaches the reader.
 * @return j's text, owned by j (valid until j changes or is freed). */
const char *result_json_text(json_object *j);
/* The same text into path. @return 0, or -1 with err. */
int result_json_write(json_object *j, const char *path, char *err);
/* Writes the JSON result to path. @return 0, or -1 with err. */
int result_save(const struct run_result *r, const char *path, char *err);
/* Reads a saved result (histograms, counters, timeline, config figures)
 * into r, which this initialises. @return 0, or -1 with err. */
int result_load(struct run_result *r, const char *path, char *err);
/* The same from a parsed document (borrowed). */
int result_load_json(struct run_result *r, json_object *root, char *err);
/* compare --output writes "kind": RESULT_KIND_COMPARE; a run has no kind. */
#define RESULT_KIND_COMPARE "compare"
/* Whether a parsed document (borrowed, may be NULL) is a saved comparison. */
int result_json_is_comparison(json_object *root);
/* Merging results is result_merge.h. */
/* Names of the run-wide histograms under "histograms" and "exact_us", in
 * the order latency, service, send_lag, pacing_lag, handshake. */
extern const char *const result_hist_names[5];
/* Adds the figures of a latency histogram ({min, mean, max, stddev, pNN}, ms;
 * null when the histogram is empty). */
json_object *result_hist_json(const struct hist *h, const double *pcts, size_t npcts);

#endif
