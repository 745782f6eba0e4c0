/* result_targets: the per-target rows of a --targets run (result.h). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/safetext.h"
#include "model/run_result.h"
#include "model/result_json.h"
#include "stats/hdrlog.h"

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
        json_object_object_add(o, "offered", json_object_new_int64(t->offered));
        json_object_object_add(o, "sent", json_object_new_int64(t->sent));
        json_object_object_add(o, "unsent", json_object_new_int64(t->unsent));
        json_object_object_add(o, "ok", json_object_new_int64(t->ok));
        json_object_object_add(o, "errors", json_object_new_int64(t->errors));
        json_object_object_add(o, "unfinished", json_object_new_int64(t->unfinished));
        add_ms(o, "p50_ms", &t->latency, 50.0);
        add_ms(o, "p99_ms", &t->latency, 99.0);
        /* the counts whole (HdrHistogram, as histograms.*): report re-renders
         * the row and a merge adds the ranks' */
        json_object_object_add(o, "latency_us", result_hist_encoded(&t->latency));
        json_object_object_add(o, "latency_exact_us", result_hist_exact(&t->latency));
        json_object_array_add(a, o);
    }
    json_object_object_add((json_object *)root_obj, "targets", a);
}

/* o's number at k, else dflt (a saved file is input: anything may be off). */
static double get_num(json_object *o, const char *k, double dflt)
{
    json_object *v;
    if (!json_object_object_get_ex(o, k, &v) ||
        !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
        return dflt;
    double d = json_object_get_double(v);
    return isfinite(d) ? d : dflt;
}

/* A count: never negative, never past 2^53 (as result_load's). */
static int64_t get_count(json_object *o, const char *k)
{
    double d = get_num(o, k, 0);
    return d < 0 ? 0 : d > 9007199254740992.0 ? INT64_C(9007199254740992) : (int64_t)d;
}

/* Row o into t (its histogram made by result_targets_init). */
static int load_row(json_object *o, struct target_result *t, size_t i, char *err)
{
    json_object *v;
    if (json_object_object_get_ex(o, "url", &v) && json_object_is_type(v, json_type_string))
        safetext(json_object_get_string(v), (size_t)json_object_get_string_len(v), t->url,
                 sizeof t->url, 0);
    t->index = i;
    t->rate = get_num(o, "rate", 0);
    t->start_s = get_num(o, "start_s", 0);
    t->sent = get_count(o, "sent");
    t->ok = get_count(o, "ok");
    t->errors = get_count(o, "errors");
    t->unfinished = get_count(o, "unfinished");
    t->unsent = get_count(o, "unsent");
    /* saved before the ledger: sent was what was offered */
    t->offered = json_object_object_get_ex(o, "offered", &v) ? get_count(o, "offered")
                                                              : t->sent + t->unsent;
    if (!json_object_object_get_ex(o, "latency_us", &v) || !v)
        return 0; /* saved before the rows kept their counts: no percentiles */
    struct hist tmp;
    char why[ERR_LEN] = "not a string";
    if (!json_object_is_type(v, json_type_string) ||
        hdrlog_decode(json_object_get_string(v), (size_t)json_object_get_string_len(v), &tmp,
                      why)) {
        snprintf(err, ERR_LEN, "targets[%zu].latency_us: %.180s", i, why);
        return -1;
    }
    hist_close(&t->latency);
    t->latency = tmp;
    json_object *x = NULL;
    json_object_object_get_ex(o, "latency_exact_us", &x);
    result_hist_load_exact(x, &t->latency);
    return 0;
}

int result_targets_load(void *root_obj, struct run_result *r, char *err)
{
    json_object *a;
    if (!json_object_object_get_ex((json_object *)root_obj, "targets", &a) ||
        !json_object_is_type(a, json_type_array) || json_object_array_length(a) == 0)
        return 0;
    size_t n = json_object_array_length(a);
    if (result_targets_init(r, n)) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *o = json_object_array_get_idx(a, i);
        if (o && json_object_is_type(o, json_type_object) && load_row(o, &r->targets[i], i, err))
            return -1;
    }
    return 0;
}

/* The targets file's order. */
static int file_order(const void *a, const void *b)
{
    const struct target_result *x = a, *y = b;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return strcmp(x->url, y->url);
}

int result_targets_merge(struct run_result *dst, const struct run_result *src)
{
    if (!src->ntargets)
        return 0;
    size_t n = dst->ntargets + src->ntargets;
    struct target_result *t = calloc(n, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < src->ntargets; i++) {
        struct target_result *k = &t[dst->ntargets + i];
        *k = src->targets[i];
        const struct hist *h = &src->targets[i].latency; /* a copy of its own layout */
        k->latency = (struct hist){0};
        if (hist_init(&k->latency, h->lowest, h->highest, h->sigfigs) ||
            hist_merge(&k->latency, h)) {
            for (size_t j = 0; j <= i; j++)
                hist_close(&t[dst->ntargets + j].latency);
            free(t);
            return -1;
        }
    }
    if (dst->ntargets)
        memcpy(t, dst->targets, dst->ntargets * sizeof *t); /* their histograms move */
    free(dst->targets);
    dst->targets = t;
    dst->ntargets = n;
    qsort(t, n, sizeof *t, file_order);
    return 0;
}
