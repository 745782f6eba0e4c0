/* result_ranks: a distributed run's ranks, written out (result_ranks.h). */
#include "model/result_ranks.h"

#include <stdlib.h>

#include "base/safetext.h"

static void add_d(json_object *o, const char *k, double v)
{
    json_object_object_add(o, k, json_object_new_double(v));
}

/* k: v, or k: null when the figure is not known. */
static void add_fig(json_object *o, const char *k, double v)
{
    json_object_object_add(o, k, fig_known(v) ? json_object_new_double(v) : NULL);
}

static void add_i(json_object *o, const char *k, int64_t v)
{
    json_object_object_add(o, k, json_object_new_int64(v));
}

void result_ranks_json(json_object *root, const struct run_result *r)
{
    if (!r->nranks)
        return;
    json_object *a = json_object_new_array();
    double total = FIG_UNKNOWN; /* the ranks' known figures summed; none known: unknown */
    for (size_t i = 0; i < r->nranks; i++) {
        const struct rank_rec *k = &r->ranks[i];
        if (fig_known(k->client_cpu_pct))
            total = (fig_known(total) ? total : 0) + k->client_cpu_pct;
        json_object *o = json_object_new_object();
        add_i(o, "rank", k->rank);
        json_object_object_add(o, "host", json_object_new_string(k->host));
        add_i(o, "sent", k->sent);
        add_i(o, "unsent", k->unsent);
        add_i(o, "ok", k->ok);
        add_i(o, "errors", k->errors);
        add_d(o, "achieved", k->achieved);
        add_d(o, "send_lag_p99", k->send_lag_p99_ms);
        add_fig(o, "client_cpu_pct", k->client_cpu_pct);
        add_d(o, "clock_offset_us", k->clock_offset_us);
        json_object_object_add(o, "lost", json_object_new_boolean(k->lost));
        json_object_array_add(a, o);
    }
    json_object_object_add(root, "ranks", a);
    add_d(root, "clock_error_us", r->clock_error_us);
    add_fig(root, "client_cpu_total_pct", total);
}

static double get_d(json_object *o, const char *k, double dflt)
{
    json_object *v;
    return json_object_object_get_ex(o, k, &v) && v ? json_object_get_double(v) : dflt;
}

int result_ranks_load(json_object *root, struct run_result *r)
{
    json_object *a;
    if (!json_object_object_get_ex(root, "ranks", &a) || !json_object_is_type(a, json_type_array))
        return 0;
    size_t n = json_object_array_length(a);
    if (!n)
        return 0;
    r->ranks = calloc(n, sizeof *r->ranks);
    if (!r->ranks)
        return -1;
    r->nranks = n;
    for (size_t i = 0; i < n; i++) {
        json_object *o = json_object_array_get_idx(a, i), *h;
        struct rank_rec *k = &r->ranks[i];
        k->rank = (int)get_d(o, "rank", (double)i);
        if (json_object_object_get_ex(o, "host", &h) && json_object_is_type(h, json_type_string))
            safetext(json_object_get_string(h), (size_t)json_object_get_string_len(h), k->host,
                     sizeof k->host, 0);
        k->sent = (int64_t)get_d(o, "sent", 0);
        k->unsent = (int64_t)get_d(o, "unsent", 0);
        k->ok = (int64_t)get_d(o, "ok", 0);
        k->errors = (int64_t)get_d(o, "errors", 0);
        k->achieved = get_d(o, "achieved", 0);
        k->send_lag_p99_ms = get_d(o, "send_lag_p99", 0);
        /* null, absent, or the -1 of older files: unknown */
        k->client_cpu_pct = fig_from_marker(get_d(o, "client_cpu_pct", FIG_UNKNOWN));
        k->clock_offset_us = get_d(o, "clock_offset_us", 0);
        k->lost = json_object_object_get_ex(o, "lost", &h) && json_object_get_boolean(h);
    }
    r->clock_error_us = get_d(root, "clock_error_us", 0);
    return 0;
}
