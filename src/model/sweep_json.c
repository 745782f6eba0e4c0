/* sweep_json: a sweep as JSON and back (the format: sweep_json.h). A
 * saved file is input from outside: every field is type- and
 * range-checked, and a bad one gives a one-line reason naming it. */
#include "model/sweep_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/safetext.h"
#include "base/version.h"
#include "model/result_json.h"

static const char *const outcome_names[] = {"found", "min_breaks", "max_holds", "interrupted"};

/* ---- writing ------------------------------------------------------------------- */

static json_object *rate_or_null(double r)
{
    return r >= 0 ? json_object_new_double(r) : NULL;
}

static json_object *params_json(const struct sweep_params *p, size_t repeat)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "rate", json_object_new_double(p->rate));
    json_object_object_add(o, "connections", json_object_new_int(p->connections));
    json_object_object_add(o, "vms", json_object_new_int(p->vms));
    json_object_object_add(o, "proto", json_object_new_string(p->proto));
    json_object_object_add(o, "verb", json_object_new_string(p->verb));
    json_object_object_add(o, "repeat", json_object_new_int64((int64_t)repeat));
    return o;
}

/* One entry per (cell, repeat), repeat by repeat: the order they ran in. */
static json_object *cells_json(const struct sweep *s)
{
    json_object *arr = json_object_new_array();
    size_t most = 0;
    for (size_t i = 0; i < s->ncells; i++)
        most = s->cells[i].nreps > most ? s->cells[i].nreps : most;
    for (size_t k = 0; k < most; k++)
        for (size_t i = 0; i < s->ncells; i++) {
            const struct sweep_cell *c = &s->cells[i];
            if (k >= c->nreps)
                continue;
            json_object *e = json_object_new_object();
            json_object_object_add(e, "cell", json_object_new_int64((int64_t)i + 1));
            json_object_object_add(e, "params", params_json(&c->p, k + 1));
            json_object_object_add(e, "result", result_to_json(&c->reps[k]));
            json_object_array_add(arr, e);
        }
    return arr;
}

/* The cells never run (SIGINT), so every cell keeps its number; NULL
 * when there is none. */
static json_object *not_run_json(const struct sweep *s)
{
    json_object *arr = NULL;
    for (size_t i = 0; i < s->ncells; i++) {
        if (s->cells[i].nreps)
            continue;
        if (!arr)
            arr = json_object_new_array();
        json_object *e = json_object_new_object();
        json_object_object_add(e, "cell", json_object_new_int64((int64_t)i + 1));
        json_object_object_add(e, "params", params_json(&s->cells[i].p, 0));
        json_object_array_add(arr, e);
    }
    return arr;
}

static json_object *capacity_json(const struct sweep_capacity *c)
{
    json_object *o = json_object_new_object(), *probes = json_object_new_array();
    json_object_object_add(o, "proto", json_object_new_string(c->proto));
    json_object_object_add(o, "verb", json_object_new_string(c->verb));
    json_object_object_add(o, "condition", json_object_new_string(c->condition));
    json_object_object_add(o, "outcome", json_object_new_string(outcome_names[c->outcome & 3]));
    json_object_object_add(o, "max_good_rate", rate_or_null(c->max_good_rate));
    json_object_object_add(o, "first_bad_rate", rate_or_null(c->first_bad_rate));
    for (size_t k = 0; k < c->nprobes; k++) {
        const struct sweep_probe *p = &c->probes[k];
        json_object *j = json_object_new_object();
        json_object_object_add(j, "rate", json_object_new_double(p->rate));
        json_object_object_add(j, "pass", json_object_new_boolean(p->pass));
        json_object_object_add(j, "reason", json_object_new_string(p->reason));
        json_object_object_add(j, "cell", json_object_new_int64((int64_t)p->cell + 1));
        json_object_array_add(probes, j);
    }
    json_object_object_add(o, "probes", probes);
    return o;
}

json_object *sweep_to_json(const struct sweep *s)
{
    json_object *root = json_object_new_object(), *caps = json_object_new_array();
    if (!root || !caps) {
        json_object_put(root);
        json_object_put(caps);
        return NULL;
    }
    json_object_object_add(root, "rpcbench", json_object_new_string(rpcbench_version()));
    json_object_object_add(root, "kind", json_object_new_string(RESULT_KIND_SWEEP));
    json_object_object_add(root, "version", json_object_new_int(SWEEP_JSON_VERSION));
    json_object_object_add(root, "repeats", json_object_new_int64((int64_t)s->repeats));
    json_object_object_add(root, "interrupted", json_object_new_boolean(s->interrupted));
    json_object_object_add(root, "cells", cells_json(s));
    json_object *not_run = not_run_json(s);
    if (not_run)
        json_object_object_add(root, "not_run", not_run);
    for (size_t i = 0; i < s->ncaps; i++)
        json_object_array_add(caps, capacity_json(&s->caps[i]));
    json_object_object_add(root, "capacity", caps);
    return root;
}

int sweep_save(const struct sweep *s, const char *path, char *err)
{
    json_object *j = sweep_to_json(s);
    if (!j) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    int rc = result_json_write(j, path, err);
    json_object_put(j);
    return rc;
}

/* ---- reading: typed fields ---------------------------------------------------- */

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v))
        return v;
    return NULL;
}

/* A number in [lo, hi] at o.key into *out; -1 with err naming where. */
static int num_field(json_object *o, const char *key, double lo, double hi, double *out,
                     const char *where, char *err)
{
    json_object *v = get(o, key);
    if (v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))) {
        *out = json_object_get_double(v);
        if (isfinite(*out) && *out >= lo && *out <= hi)
            return 0;
    }
    snprintf(err, ERR_LEN, "%s.%s: want a number in %g..%g", where, key, lo, hi);
    return -1;
}

static int str_field(json_object *o, const char *key, char *out, size_t len, const char *where,
                     char *err)
{
    json_object *v = get(o, key);
    if (v && json_object_is_type(v, json_type_string) &&
        strlen(json_object_get_string(v)) < len) {
        safetext(json_object_get_string(v), (size_t)json_object_get_string_len(v), out, len, 0);
        return 0;
    }
    snprintf(err, ERR_LEN, "%s.%s: want a string of at most %zu characters", where, key,
             len - 1);
    return -1;
}

static int load_params(json_object *o, struct sweep_params *p, const char *where, char *err)
{
    double conns, vms;
    memset(p, 0, sizeof *p);
    if (!o || !json_object_is_type(o, json_type_object)) {
        snprintf(err, ERR_LEN, "%s: want an object", where);
        return -1;
    }
    if (num_field(o, "rate", 0, 1e9, &p->rate, where, err) ||
        num_field(o, "connections", 0, 1e6, &conns, where, err) ||
        num_field(o, "vms", 0, 1e6, &vms, where, err) ||
        str_field(o, "proto", p->proto, sizeof p->proto, where, err) ||
        str_field(o, "verb", p->verb, sizeof p->verb, where, err))
        return -1;
    p->connections = (int)conns;
    p->vms = (int)vms;
    return 0;
}

/* ---- reading: cells ------------------------------------------------------------- */

static int same_params(const struct sweep_params *a, const struct sweep_params *b)
{
    return a->rate == b->rate && a->connections == b->connections && a->vms == b->vms &&
           !strcmp(a->proto, b->proto) && !strcmp(a->verb, b->verb);
}

/* Saved cell numbers of the loaded cells ([ncells], 0 = none given). */
struct numbering {
    long *saved;
    size_t cap;
};

/* The cell entry e goes to: by its saved number, else by equal params;
 * a new one when none matches. @return its index, or -1 with err. */
static long cell_for(struct sweep *s, struct numbering *nb, long number,
                     const struct sweep_params *p, const char *where, char *err)
{
    for (size_t i = 0; i < s->ncells; i++) {
        if (number ? nb->saved[i] != number : nb->saved[i] || !same_params(p, &s->cells[i].p))
            continue;
        if (!same_params(p, &s->cells[i].p)) {
            snprintf(err, ERR_LEN, "%s: cell %ld with other params than before", where, number);
            return -1;
        }
        return (long)i;
    }
    long i = sweep_add_cell(s, p);
    if (i >= 0 && (size_t)i >= nb->cap) {
        size_t ncap = nb->cap ? nb->cap * 2 : 16;
        long *m = realloc(nb->saved, ncap * sizeof *m);
        if (!m)
            i = -1;
        else
            nb->saved = m, nb->cap = ncap;
    }
    if (i < 0)
        snprintf(err, ERR_LEN, "out of memory");
    else
        nb->saved[i] = number;
    return i;
}

static int load_entry(struct sweep *s, struct numbering *nb, json_object *e, const char *arr,
                      size_t k, char *err)
{
    char where[48];
    snprintf(where, sizeof where, "%s[%zu]", arr, k);
    struct sweep_params p;
    double number = 0;
    if (get(e, "cell") && num_field(e, "cell", 1, 1e9, &number, where, err))
        return -1;
    snprintf(where, sizeof where, "%s[%zu].params", arr, k);
    if (load_params(get(e, "params"), &p, where, err))
        return -1;
    long i = cell_for(s, nb, (long)number, &p, where, err);
    if (i < 0)
        return -1;
    json_object *res = NULL;
    if (!json_object_object_get_ex(e, "result", &res) && strstr(where, "not_run"))
        return 0; /* a cell that was not run */
    static struct run_result r; /* large: keep it off the stack */
    int rc = result_load_json(&r, get(e, "result"), err);
    if (rc == 0 && sweep_add_rep(s, (size_t)i, &r)) {
        snprintf(err, ERR_LEN, "out of memory");
        rc = -1;
    }
    if (rc && !strstr(err, "memory")) {
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, ERR_LEN, "%s[%zu].result: %.180s", arr, k, why);
    }
    result_free(&r);
    return rc;
}

/* When every cell has its saved number, the cells in that order (the
 * cells never run come last in the file, wherever their numbers are). */
static void in_number_order(struct sweep *s, struct numbering *nb)
{
    for (size_t i = 0; i < s->ncells; i++)
        if (!nb->saved[i])
            return;
    for (size_t i = 1; i < s->ncells; i++) /* insertion sort: nearly sorted already */
        for (size_t j = i; j > 0 && nb->saved[j - 1] > nb->saved[j]; j--) {
            struct sweep_cell c = s->cells[j];
            long n = nb->saved[j];
            s->cells[j] = s->cells[j - 1];
            nb->saved[j] = nb->saved[j - 1];
            s->cells[j - 1] = c;
            nb->saved[j - 1] = n;
        }
}

/* ---- reading: capacity searches ------------------------------------------------ */

/* A probe's saved cell number to a loaded cell's index. */
static int probe_cell(const struct sweep *s, const struct numbering *nb, double number,
                      size_t *cell)
{
    for (size_t i = 0; i < s->ncells; i++)
        if (nb->saved[i] == (long)number) {
            *cell = i;
            return 0;
        }
    for (size_t i = 0; i < s->ncells; i++)
        if (nb->saved[i])
            return -1; /* numbered cells, and none has it */
    if (number < 1 || number > (double)s->ncells)
        return -1;
    *cell = (size_t)number - 1;
    return 0;
}

static int load_probe(const struct sweep *s, const struct numbering *nb, json_object *o,
                      struct sweep_probe *p, const char *where, char *err)
{
    double number;
    json_object *pass = get(o, "pass"), *reason = get(o, "reason");
    memset(p, 0, sizeof *p);
    if (num_field(o, "rate", 0, 1e9, &p->rate, where, err) ||
        num_field(o, "cell", 1, 1e9, &number, where, err))
        return -1;
    if (!pass || !json_object_is_type(pass, json_type_boolean)) {
        snprintf(err, ERR_LEN, "%s.pass: want true or false", where);
        return -1;
    }
    p->pass = json_object_get_boolean(pass);
    if (reason && json_object_is_type(reason, json_type_string))
        safetext(json_object_get_string(reason), (size_t)json_object_get_string_len(reason),
                 p->reason, sizeof p->reason, 0);
    if (probe_cell(s, nb, number, &p->cell)) {
        snprintf(err, ERR_LEN, "%s.cell: %g is no cell of the sweep", where, number);
        return -1;
    }
    return 0;
}

static double rate_field(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    double d = v && (json_object_is_type(v, json_type_double) ||
                     json_object_is_type(v, json_type_int)) ? json_object_get_double(v) : -1;
    return isfinite(d) && d >= 0 ? d : -1;
}

static int load_capacity(struct sweep *s, const struct numbering *nb, json_object *o, size_t k,
                         char *err)
{
    char where[64], proto[16], verb[128], cond[256], outcome[16];
    snprintf(where, sizeof where, "capacity[%zu]", k);
    if (str_field(o, "proto", proto, sizeof proto, where, err) ||
        str_field(o, "verb", verb, sizeof verb, where, err) ||
        str_field(o, "condition", cond, sizeof cond, where, err))
        return -1;
    long i = sweep_add_capacity(s, proto, verb, cond);
    if (i < 0) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    struct sweep_capacity *c = &s->caps[i];
    c->outcome = CAPACITY_INTERRUPTED;
    if (str_field(o, "outcome", outcome, sizeof outcome, where, err) == 0)
        for (int n = 0; n < 4; n++)
            if (!strcmp(outcome, outcome_names[n]))
                c->outcome = (enum capacity_outcome)n;
    c->max_good_rate = rate_field(o, "max_good_rate");
    c->first_bad_rate = rate_field(o, "first_bad_rate");
    json_object *probes = get(o, "probes");
    size_t n = probes && json_object_is_type(probes, json_type_array)
                   ? json_object_array_length(probes) : 0;
    for (size_t j = 0; j < n; j++) {
        struct sweep_probe p;
        snprintf(where, sizeof where, "capacity[%zu].probes[%zu]", k, j);
        if (load_probe(s, nb, json_object_array_get_idx(probes, j), &p, where, err))
            return -1;
        if (sweep_add_probe(c, &p)) {
            snprintf(err, ERR_LEN, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* ---- reading: the document ----------------------------------------------------- */

static int load_all(struct sweep *s, json_object *root, struct numbering *nb, char *err)
{
    json_object *cells = get(root, "cells"), *caps = get(root, "capacity");
    if (!result_json_is_sweep(root)) {
        snprintf(err, ERR_LEN, "not a saved sweep (sweep --output)");
        return -1;
    }
    if (!cells || !json_object_is_type(cells, json_type_array)) {
        snprintf(err, ERR_LEN, "cells: want an array");
        return -1;
    }
    if (caps && !json_object_is_type(caps, json_type_array) &&
        !json_object_is_type(caps, json_type_null)) {
        snprintf(err, ERR_LEN, "capacity: want an array");
        return -1;
    }
    for (size_t k = 0; k < json_object_array_length(cells); k++)
        if (load_entry(s, nb, json_object_array_get_idx(cells, k), "cells", k, err))
            return -1;
    json_object *not_run = get(root, "not_run");
    size_t nnot = not_run && json_object_is_type(not_run, json_type_array)
                      ? json_object_array_length(not_run) : 0;
    for (size_t k = 0; k < nnot; k++)
        if (load_entry(s, nb, json_object_array_get_idx(not_run, k), "not_run", k, err))
            return -1;
    in_number_order(s, nb);
    size_t ncaps = caps && json_object_is_type(caps, json_type_array)
                       ? json_object_array_length(caps) : 0;
    for (size_t k = 0; k < ncaps; k++)
        if (load_capacity(s, nb, json_object_array_get_idx(caps, k), k, err))
            return -1;
    double repeats = 0;
    for (size_t i = 0; i < s->ncells; i++)
        repeats = (double)s->cells[i].nreps > repeats ? (double)s->cells[i].nreps : repeats;
    char ignore[ERR_LEN];
    double saved;
    if (get(root, "repeats") && num_field(root, "repeats", 0, 1e6, &saved, "", ignore) == 0)
        repeats = saved;
    s->repeats = (size_t)repeats;
    json_object *intr = get(root, "interrupted");
    s->interrupted = intr && json_object_get_boolean(intr);
    return 0;
}

int sweep_load_json(struct sweep *s, json_object *root, char *err)
{
    struct numbering nb = {NULL, 0};
    sweep_init(s);
    int rc = load_all(s, root, &nb, err);
    free(nb.saved);
    return rc;
}

int sweep_load(struct sweep *s, const char *path, char *err)
{
    sweep_init(s);
    json_object *root = json_object_from_file(path);
    if (!root) {
        const char *why = json_util_get_last_err();
        char reason[128] = "";
        snprintf(reason, sizeof reason, "%s", why ? why : "");
        reason[strcspn(reason, "\n")] = '\0';
        snprintf(err, ERR_LEN, "%.100s: cannot read it as JSON%s%.60s", path,
                 reason[0] ? ": " : "", reason);
        return -1;
    }
    int rc = sweep_load_json(s, root, err);
    json_object_put(root);
    if (rc) {
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, ERR_LEN, "%.100s: %.150s", path, why);
    }
    return rc;
}
