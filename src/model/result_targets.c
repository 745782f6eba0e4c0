/* result_targets: the per-target rows of a --targets run (result.h). */
#include <json-c/json.h>
#include <stdlib.h>

#include "model/result.h"

/* Per target: 2 significant digits keep a row's histogram at ~26 KB, so a
 * fleet of 1,000 hosts holds ~26 MB of them (3 digits: ~190 KB each). */
#define TARGET_SIGFIGS 2

int result_targets_init(struct run_result *r, size_t n)
{
    r->targets = calloc(n, sizeof *r->targets);
    if (!r->targets)
        return -1;
    r->ntargets = n;
    for (size_t i = 0; i < n; i++)
        if (hist_init(&r->targets[i].latency, 1, INT64_C(3600000000), TARGET_SIGFIGS)) {
            result_targets_free(r);
            return -1;
        }
    return 0;
}

void result_targets_free(struct run_result *r)
{
    for (size_t i = 0; r->targets && i < r->ntargets; i++)
        hist_close(&r->targets[i].latency);
    free(r->targets);
    r->targets = NULL;
    r->ntargets = 0;
}

static void add_ms(json_object *o, const char *k, const struct hist *h, double p)
{
    json_object_object_add(o, k, h->total_count ? json_object_new_double(
                                     (double)hist_percentile(h, p) / 1000.0)
                                                : NULL);
}

void result_targets_json(void *root_obj, const struct run_result *r)
{
    if (!r->ntargets)
        return;
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < r->ntargets; i++) {
        const struct target_result *t = &r->targets[i];
        json_object *o = json_object_new_object();
        json_object_object_add(o, "url", json_object_new_string(t->url));
        json_object_object_add(o, "rate", json_object_new_double(t->rate));
        json_object_object_add(o, "start_s", json_object_new_double(t->start_s));
        json_object_object_add(o, "sent", json_object_new_int64(t->sent));
        json_object_object_add(o, "ok", json_object_new_int64(t->ok));
        json_object_object_add(o, "errors", json_object_new_int64(t->errors));
        json_object_object_add(o, "unfinished", json_object_new_int64(t->unfinished));
        add_ms(o, "p50_ms", &t->latency, 50.0);
        add_ms(o, "p99_ms", &t->latency, 99.0);
        json_object_array_add(a, o);
    }
    json_object_object_add((json_object *)root_obj, "targets", a);
}
