/* sweep_json: a sweep (sweep.h) as one JSON document (sweep --output) and
 * back, so `report S.json` re-renders it and `compare S.json#SEL ...`
 * takes its cells.
 *
 * {"rpcbench": version, "kind": "sweep", "version": 1, "repeats": N,
 *  "interrupted": bool,
 *  "cells": [{"cell": n, "params": {rate, connections, vms, proto, verb,
 *             repeat}, "result": {a whole run result, as result_to_json
 *             writes it, histograms included}}],   one per (cell, repeat)
 *  "not_run": [{"cell": n, "params": {...}}],     cells SIGINT left out
 *  "capacity": [{proto, verb, condition, outcome ("found", "min_breaks",
 *                "max_holds", "interrupted"), max_good_rate, first_bad_rate
 *                (null: none), probes: [{rate, pass, reason, cell}]}]}
 * "cell" numbers are 1-based, as the table shows them; "repeat" too.
 * Cells never run (SIGINT) are listed apart, so "cells" holds only runs
 * and every cell keeps its number: "not_run": [{"cell": n, "params":
 * {..., "repeat": 0}}] (left out when every cell ran).
 * Loading groups the entries into cells by "cell" when present, else by
 * equal params (repeat aside), in first-seen order. */
#ifndef RPCBENCH_SWEEP_JSON_H
#define RPCBENCH_SWEEP_JSON_H

#include <json-c/json.h>

#include "model/result_json.h" /* RESULT_KIND_SWEEP, result_json_is_sweep */
#include "model/sweep.h"

#define SWEEP_JSON_VERSION 1

/* err is ERR_LEN bytes, caller-owned; a reason is one line. */

/* @return a new document of s (only read), the caller's to json_object_put;
 * NULL when memory cannot be had. */
json_object *sweep_to_json(const struct sweep *s);
/* Writes s (only read) to path as result_json_write does.
 * @return 0, or -1 with err. */
int sweep_save(const struct sweep *s, const char *path, char *err);
/* Reads a saved sweep into s, which this initialises (sweep_init first, so
 * sweep_free is safe whatever the outcome): s is then the caller's to
 * sweep_free, on failure too. @return 0, or -1 with err naming path. */
int sweep_load(struct sweep *s, const char *path, char *err);
/* The same from a parsed document (borrowed; s keeps no pointer into it). */
int sweep_load_json(struct sweep *s, json_object *root, char *err);

#endif
