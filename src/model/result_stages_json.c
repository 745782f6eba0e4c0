/* result_stages_json: a --stages run's stages in the saved JSON
 * (result_json.h says the fields); result_load.c reads them back. */
#include "model/result_json.h"

#include "model/metric.h"

static void add_num(json_object *o, const char *k, double v)
{
    json_object_object_add(o, k, json_object_new_double(v));
}

static void add_count(json_object *o, const char *k, int64_t v)
{
    json_object_object_add(o, k, json_object_new_int64(v));
}

/* k: v, or k: null when it is not known. */
static void add_known(json_object *o, const char *k, double v)
{
    json_object_object_add(o, k, fig_known(v) ? json_object_new_double(v) : NULL);
}

json_object *result_stages_config_json(const struct run_config *c)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < c->nstages; i++) {
        json_object *o = json_object_new_object();
        add_num(o, "duration_s", (double)c->stages[i].duration_ns / 1e9);
        add_num(o, "from", c->stages[i].from);
        add_num(o, "to", c->stages[i].to);
        json_object_array_add(a, o);
    }
    return a;
}

/* Stage i's figures. */
static json_object *stage_json(const struct run_result *r, size_t i)
{
    const struct run_stage *st = &r->cfg.stages[i];
    const struct stage_result *s = &r->stages[i];
    double len = (double)st->duration_ns / 1e9;
    json_object *o = json_object_new_object();
    add_count(o, "stage", (int64_t)i + 1);
    add_num(o, "start_s", (double)result_stage_start(&r->cfg, i) / 1e9);
    add_num(o, "duration_s", len);
    add_num(o, "from", st->from);
    add_num(o, "to", st->to);
    add_num(o, "offered", result_stage_offered(st));
    add_count(o, "offered_count", s->offered);
    add_count(o, "sent", s->sent);
    add_count(o, "unsent", s->unsent);
    add_count(o, "unsent_given_up", s->unsent_failed);
    add_count(o, "ok", s->ok);
    add_count(o, "errors", s->errors);
    add_count(o, "unfinished", s->unfinished);
    json_object_object_add(o, "answered", result_count_known(s->answered)
                                              ? json_object_new_int64(s->answered) : NULL);
    add_num(o, "rate_achieved", result_stage_achieved(r, i));
    json_object_object_add(o, "latency_ms",
                           result_hist_json(&s->latency, r->cfg.pcts, r->cfg.npcts));
    add_known(o, metric_defs[METRIC_CPU_PCT].json_key, s->server_cpu_pct);
    add_known(o, "server_cpu_ms", s->server_cpu_ms);
    /* the figure's one key (model/metric.c); files before issue 40 wrote
     * "cpu_ms_per_call": loading reads neither, as it is worked out again
     * from server_cpu_ms and answered */
    add_known(o, metric_defs[METRIC_CPU_MS].json_key, result_stage_cpu_per_call(r, i));
    return o;
}

json_object *result_stages_json(const struct run_result *r)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < r->nstages; i++)
        json_object_array_add(a, stage_json(r, i));
    return a;
}

json_object *result_stages_hist_json(const struct run_result *r, int exact)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < r->nstages; i++)
        json_object_array_add(a, exact ? result_hist_exact(&r->stages[i].latency)
                                       : result_hist_encoded(&r->stages[i].latency));
    return a;
}
