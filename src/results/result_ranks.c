/* result_ranks: a distributed run's ranks, written out (result_ranks.h). */
#include "results/result_ranks.h"

static void add_d(json_object *o, const char *k, double v)
{
    json_object_object_add(o, k, json_object_new_double(v));
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
    double total = 0;
    for (size_t i = 0; i < r->nranks; i++) {
        const struct rank_rec *k = &r->ranks[i];
        total += k->client_cpu_pct > 0 ? k->client_cpu_pct : 0;
        json_object *o = json_object_new_object();
        add_i(o, "rank", k->rank);
        json_object_object_add(o, "host", json_object_new_string(k->host));
        add_i(o, "sent", k->sent);
        add_i(o, "ok", k->ok);
        add_i(o, "errors", k->errors);
        add_d(o, "achieved", k->achieved);
        add_d(o, "send_lag_p99", k->send_lag_p99_ms);
        add_d(o, "client_cpu_pct", k->client_cpu_pct);
        add_d(o, "clock_offset_us", k->clock_offset_us);
        json_object_object_add(o, "lost", json_object_new_boolean(k->lost));
        json_object_array_add(a, o);
    }
    json_object_object_add(root, "ranks", a);
    add_d(root, "clock_error_us", r->clock_error_us);
    add_d(root, "client_cpu_total_pct", total);
}

void report_ranks(FILE *out, const struct run_result *r)
{
    if (!r->nranks)
        return;
    double total = 0;
    int known = 0;
    fprintf(out, "\n%-5s %-20s %8s %8s %7s %10s %9s %8s %11s\n", "rank", "host", "sent", "ok",
            "errors", "achieved/s", "lag p99", "cpu %", "clock us");
    for (size_t i = 0; i < r->nranks; i++) {
        const struct rank_rec *k = &r->ranks[i];
        fprintf(out, "%-5d %-20.20s %8lld %8lld %7lld %10.2f %7.3fms %8.1f %11.1f%s\n", k->rank,
                k->host, (long long)k->sent, (long long)k->ok, (long long)k->errors, k->achieved,
                k->send_lag_p99_ms, k->client_cpu_pct, k->clock_offset_us,
                k->lost ? "  LOST" : "");
        if (k->client_cpu_pct >= 0) {
            total += k->client_cpu_pct;
            known++;
        }
    }
    fprintf(out, "ranks       %zu; client CPU %.1f%% of a core in total; clock offsets known to "
            "%.1f us\n", r->nranks, known ? total : -1.0, r->clock_error_us);
}
