/* profile_sum: a run's profile summary as JSON and back (profile_sum.h). */
#include "model/profile_sum.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/figure.h"

static void add_num(json_object *o, const char *k, double v)
{
    json_object_object_add(o, k, isfinite(v) ? json_object_new_double(v) : NULL);
}

static json_object *row_json(const struct profile_row *r)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "function", json_object_new_string(r->func));
    json_object_object_add(o, "module", json_object_new_string(r->module));
    add_num(o, "self_ms_per_call", r->self_ms);
    add_num(o, "total_ms_per_call", r->total_ms);
    add_num(o, "self_pct", r->self_pct);
    add_num(o, "total_pct", r->total_pct);
    return o;
}

/* The flame tree as compact rows [function, parent, self, total]. */
static json_object *flame_json(const struct profile_summary *s)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < s->nflame; i++) {
        const struct profile_flame_node *f = &s->flame[i];
        json_object *r = json_object_new_array();
        json_object_array_add(r, json_object_new_string(f->func));
        json_object_array_add(r, json_object_new_int(f->parent));
        json_object_array_add(r, json_object_new_int64(f->self));
        json_object_array_add(r, json_object_new_int64(f->total));
        json_object_array_add(a, r);
    }
    return a;
}

json_object *profile_sum_json(const struct profile_summary *s)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "profiler", json_object_new_string(s->profiler));
    json_object_object_add(o, "sampler", json_object_new_string(s->sampler));
    json_object_object_add(o, "samples", json_object_new_int64(s->samples));
    json_object_object_add(o, "samples_outside_window", json_object_new_int64(s->outside));
    add_num(o, "window_s", s->window_s);
    add_num(o, "rate_hz", s->rate_hz);
    add_num(o, "profiler_cpu_ms", s->profiler_cpu_ms);
    add_num(o, "profiled_cpu_ms", s->profiled_cpu_ms);
    add_num(o, "cpu_ms_per_call", s->cpu_ms_per_call);
    json_object_object_add(o, "saturated", json_object_new_boolean(s->saturated));
    json_object_object_add(o, "note", json_object_new_string(s->note));
    json_object_object_add(o, "top", json_object_new_int(s->top));
    json_object *a = json_object_new_array();
    for (int i = 0; i < s->nrows; i++)
        json_object_array_add(a, row_json(&s->rows[i]));
    json_object_object_add(o, "functions", a);
    json_object *m = json_object_new_array();
    for (int i = 0; i < s->nmodules; i++)
        json_object_array_add(m, row_json(&s->modules[i]));
    json_object_object_add(o, "modules", m);
    json_object_object_add(o, "flame", flame_json(s));
    return o;
}

static json_object *get(json_object *o, const char *k)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* A number, or NAN when absent or null. */
static double num(json_object *o, const char *k)
{
    json_object *v = get(o, k);
    return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))
               ? json_object_get_double(v) : NAN;
}

static void str(json_object *o, const char *k, char *out, size_t len)
{
    json_object *v = get(o, k);
    snprintf(out, len, "%s", v && json_object_is_type(v, json_type_string)
                                 ? json_object_get_string(v) : "");
}

static void load_row(json_object *o, struct profile_row *r)
{
    str(o, "function", r->func, sizeof r->func);
    str(o, "module", r->module, sizeof r->module);
    r->self_ms = num(o, "self_ms_per_call");
    r->total_ms = num(o, "total_ms_per_call");
    r->self_pct = num(o, "self_pct");
    r->total_pct = num(o, "total_pct");
}

/* One saved frame into f. @return 0, or -1 when it is no frame of the
 * tree at index i (a root that is not first, a caller not before it, a
 * negative count). */
static int load_frame(json_object *r, int i, struct profile_flame_node *f)
{
    if (!r || !json_object_is_type(r, json_type_array) || json_object_array_length(r) != 4)
        return -1;
    json_object *name = json_object_array_get_idx(r, 0);
    if (!json_object_is_type(name, json_type_string))
        return -1;
    snprintf(f->func, sizeof f->func, "%s", json_object_get_string(name));
    f->parent = json_object_get_int(json_object_array_get_idx(r, 1));
    f->self = json_object_get_int64(json_object_array_get_idx(r, 2));
    f->total = json_object_get_int64(json_object_array_get_idx(r, 3));
    if (i == 0 ? f->parent != -1 : f->parent < 0 || f->parent >= i)
        return -1;
    return f->self < 0 || f->total < f->self ? -1 : 0;
}

/* The saved flame tree; a bad frame ends it there (what came before is a
 * tree still). */
static void load_flame(json_object *a, struct profile_summary *s)
{
    size_t n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
    for (size_t i = 0; i < n && s->nflame < PROFILE_MAX_FLAME; i++)
        if (load_frame(json_object_array_get_idx(a, i), s->nflame, &s->flame[s->nflame]) == 0)
            s->nflame++;
        else
            break;
}

void profile_sum_load(json_object *o, struct profile_summary *s)
{
    memset(s, 0, sizeof *s);
    if (!o || !json_object_is_type(o, json_type_object))
        return;
    s->taken = 1;
    str(o, "profiler", s->profiler, sizeof s->profiler);
    str(o, "note", s->note, sizeof s->note);
    str(o, "sampler", s->sampler, sizeof s->sampler);
    s->samples = (int64_t)num(o, "samples");
    s->outside = (int64_t)num(o, "samples_outside_window");
    s->window_s = num(o, "window_s");
    s->rate_hz = num(o, "rate_hz");
    double cpu = num(o, "profiler_cpu_ms"); /* null or absent: NaN */
    s->profiler_cpu_ms = isfinite(cpu) ? fig_from_marker(cpu) : FIG_UNKNOWN;
    double profiled = num(o, "profiled_cpu_ms");
    s->profiled_cpu_ms = isfinite(profiled) ? fig_from_marker(profiled) : FIG_UNKNOWN;
    s->cpu_ms_per_call = num(o, "cpu_ms_per_call");
    json_object *sat = get(o, "saturated");
    s->saturated = sat && json_object_get_boolean(sat);
    double top = num(o, "top");
    s->top = isfinite(top) && top > 0 && top <= PROFILE_MAX_ROWS ? (int)top : PROFILE_DEFAULT_TOP;
    json_object *a = get(o, "functions");
    size_t n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
    for (size_t i = 0; i < n && s->nrows < PROFILE_MAX_ROWS; i++)
        load_row(json_object_array_get_idx(a, i), &s->rows[s->nrows++]);
    a = get(o, "modules");
    n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
    for (size_t i = 0; i < n && s->nmodules < PROFILE_MAX_MODULES; i++)
        load_row(json_object_array_get_idx(a, i), &s->modules[s->nmodules++]);
    load_flame(get(o, "flame"), s);
}

static json_object *diff_row_json(const struct profile_diff_row *r)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "function", json_object_new_string(r->func));
    json_object_object_add(o, "module", json_object_new_string(r->module));
    add_num(o, "a_self_ms_per_call", r->a_self);
    add_num(o, "b_self_ms_per_call", r->b_self);
    add_num(o, "delta_self_ms_per_call", r->d_self);
    add_num(o, "delta_lo", r->lo);
    add_num(o, "delta_hi", r->hi);
    add_num(o, "delta_total_ms_per_call", r->d_total);
    add_num(o, "ratio", r->ratio);
    json_object_object_add(o, "significant", json_object_new_boolean(r->significant));
    return o;
}

/* Each arm's profiler and its cost, A then B. @return a new array. */
static json_object *diff_arms_json(const struct profile_diff *d)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < 2; i++) {
        const struct profile_diff_arm *arm = &d->arm[i];
        json_object *o = json_object_new_object();
        json_object_object_add(o, "label", json_object_new_string(d->names[i]));
        json_object_object_add(o, "profiler", json_object_new_string(arm->profiler));
        json_object_object_add(o, "note", json_object_new_string(arm->note));
        add_num(o, "profiler_cpu_ms", arm->own_cpu_ms);
        add_num(o, "server_cpu_ms", arm->server_cpu_ms);
        json_object_array_add(a, o);
    }
    return a;
}

json_object *profile_diff_json(const struct profile_diff *d)
{
    json_object *o = json_object_new_object();
    if (d->refused[0]) {
        json_object_object_add(o, "refused", json_object_new_string(d->refused));
        return o;
    }
    json_object_object_add(o, "rounds", json_object_new_int(d->rounds));
    add_num(o, "confidence", d->conf);
    add_num(o, "delta_cpu_ms_per_call", d->d_cpu);
    add_num(o, "delta_cpu_lo", d->d_cpu_lo);
    add_num(o, "delta_cpu_hi", d->d_cpu_hi);
    json_object_object_add(o, "summary", json_object_new_string(d->summary));
    json_object *a = json_object_new_array();
    for (int i = 0; i < d->nrows; i++)
        json_object_array_add(a, diff_row_json(&d->rows[i]));
    json_object_object_add(o, "functions", a);
    json_object_object_add(o, "profilers", diff_arms_json(d));
    return o;
}
