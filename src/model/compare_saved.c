#include "model/compare_saved.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/result_json.h"
#include "model/sweep_json.h"
#include "base/units.h"

/* Room for n results, counted as they load, so the caller frees only
 * what was loaded. */
static int alloc_rounds(struct run_result **rounds, size_t n, char *err)
{
    *rounds = calloc(n, sizeof **rounds);
    if (!*rounds) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    return 0;
}

void compare_saved_file(const char *arg, char *path, size_t len)
{
    const char *hash = strrchr(arg, '#');
    size_t n = hash && access(arg, F_OK) != 0 ? (size_t)(hash - arg) : strlen(arg);
    snprintf(path, len, "%.*s", (int)n, arg);
}

/* The cell's repeats moved out of s into *rounds, labelled with what
 * sets the cell apart ("rate=8,proto=jsonrpc"). */
static int take_cell(struct sweep *s, size_t cell, struct run_result **rounds, size_t *n,
                     char *err)
{
    struct sweep_cell *c = &s->cells[cell];
    if (c->nreps == 0 || alloc_rounds(rounds, c->nreps, err)) {
        if (c->nreps == 0)
            snprintf(err, ERR_LEN, "cell %zu was not run", cell + 1);
        return -1;
    }
    char label[64];
    unsigned vary = sweep_varying(s);
    sweep_params_text(&c->p, vary ? vary : SWEEP_P_PROTO, label, sizeof label);
    for (size_t k = 0; k < c->nreps; k++) {
        (*rounds)[k] = c->reps[k];
        snprintf((*rounds)[k].cfg.label, sizeof (*rounds)[k].cfg.label, "%s", label);
    }
    *n = c->nreps;
    c->nreps = 0; /* the rounds own them now */
    return 0;
}

/* S.json#SEL: the selected cell's repeats as rounds. @return 0, 1 when arg
 * names no cell (a plain file), -1 or -2 (a bad selector) with err. */
static int load_cell(const char *arg, struct run_result **rounds, size_t *n, char *err)
{
    char path[1024], why[ERR_LEN];
    compare_saved_file(arg, path, sizeof path);
    if (!strcmp(path, arg))
        return 1;
    static struct sweep s;
    size_t cell;
    int rc = sweep_load(&s, path, err);
    if (rc == 0 && sweep_select(&s, arg + strlen(path) + 1, &cell, why)) {
        snprintf(err, ERR_LEN, "%.100s: %.150s", arg, why);
        rc = -2;
    }
    if (rc == 0 && take_cell(&s, cell, rounds, n, why)) {
        snprintf(err, ERR_LEN, "%.100s: %.150s", arg, why);
        rc = -1;
    }
    sweep_free(&s);
    return rc;
}

/* compare A.json B.json: one round per arm, or a sweep cell's repeats. */
static int load_pair(const char *const *paths, struct run_result *rounds[2], size_t nrounds[2],
                     char *err)
{
    for (int a = 0; a < 2; a++) {
        int rc = load_cell(paths[a], &rounds[a], &nrounds[a], err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            continue;
        if (alloc_rounds(&rounds[a], 1, err))
            return -1;
        nrounds[a] = 1; /* result_load leaves it freeable whatever happens */
        if (result_load(&rounds[a][0], paths[a], err))
            return -1;
    }
    return 0;
}

/* One arm's n saved rounds, from its "rounds" array. */
static int load_arm_rounds(json_object *arr, size_t n, struct run_result **rounds, size_t *nrounds,
                           char *err)
{
    if (alloc_rounds(rounds, n, err))
        return -1;
    for (size_t i = 0; i < n; i++) {
        *nrounds = i + 1; /* result_load_json leaves it freeable whatever happens */
        if (result_load_json(&(*rounds)[i], json_object_array_get_idx(arr, i), err))
            return -1;
    }
    return 0;
}

/* The arms' round arrays of a saved comparison, and how many rounds both
 * have; 0 when root is not one. */
static size_t comparison_rounds(json_object *root, json_object *rounds[2])
{
    json_object *arms;
    if (!result_json_is_comparison(root) || !json_object_object_get_ex(root, "arms", &arms) ||
        !json_object_is_type(arms, json_type_array) || json_object_array_length(arms) != 2)
        return 0;
    size_t n = 0;
    for (size_t a = 0; a < 2; a++) {
        if (!json_object_object_get_ex(json_object_array_get_idx(arms, a), "rounds", &rounds[a]) ||
            !json_object_is_type(rounds[a], json_type_array))
            return 0;
        size_t len = json_object_array_length(rounds[a]);
        n = a == 0 || len < n ? len : n;
    }
    return n;
}

/* A string member of o into out (n bytes, always terminated; "" absent). */
static void copy_string(json_object *o, const char *key, char *out, size_t n)
{
    json_object *v;
    const char *str = json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
                          ? json_object_get_string(v) : "";
    snprintf(out, n, "%s", str);
}

/* The saved "stopped" (compare_json's stop_json) into *stop; arm -1 when
 * absent or not "A" / "B". */
static void load_stop(json_object *root, struct saved_stop *stop)
{
    json_object *o, *v;
    char arm[4];
    memset(stop, 0, sizeof *stop);
    stop->arm = -1;
    if (!json_object_object_get_ex(root, "stopped", &o) || !json_object_is_type(o, json_type_object))
        return;
    copy_string(o, "arm", arm, sizeof arm);
    if (strcmp(arm, "A") && strcmp(arm, "B"))
        return;
    stop->arm = arm[0] == 'B';
    if (json_object_object_get_ex(o, "round", &v) && json_object_is_type(v, json_type_int) &&
        json_object_get_int64(v) >= 0)
        stop->round = (size_t)json_object_get_int64(v);
    stop->a_answered = json_object_object_get_ex(o, "a_answered", &v) && json_object_get_boolean(v);
    copy_string(o, "why", stop->why, sizeof stop->why);
    copy_string(o, "a_why", stop->a_why, sizeof stop->a_why);
}

/* compare AB.json: a saved comparison, every round of both arms. */
static int load_comparison(const char *path, struct run_result *rounds[2], size_t nrounds[2],
                           struct saved_stop *stop, char *err)
{
    json_object *root = json_object_from_file(path), *arr[2];
    size_t n = comparison_rounds(root, arr);
    int rc = -1;
    load_stop(root, stop);
    if (n == 0 && result_json_is_sweep(root))
        snprintf(err, ERR_LEN, "%.120s: a saved sweep: name two of its cells, "
                 "FILE#SEL FILE#SEL (SEL: 3, or rate=8,proto=jsonrpc)", path);
    else if (n == 0)
        snprintf(err, ERR_LEN, "%.120s: not a saved comparison (compare --output) with "
                 "rounds; to compare two run results give both", path);
    else if (load_arm_rounds(arr[0], n, &rounds[0], &nrounds[0], err) == 0 &&
             load_arm_rounds(arr[1], n, &rounds[1], &nrounds[1], err) == 0)
        rc = 0;
    else {
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, ERR_LEN, "%.100s: a round: %.120s", path, why);
    }
    json_object_put(root);
    return rc;
}

int compare_load_saved(const char *const *paths, size_t npaths, struct run_result *rounds[2],
                       size_t nrounds[2], struct saved_stop *stop, char *err)
{
    rounds[0] = rounds[1] = NULL;
    nrounds[0] = nrounds[1] = 0;
    memset(stop, 0, sizeof *stop);
    stop->arm = -1;
    if (npaths == 2)
        return load_pair(paths, rounds, nrounds, err);
    if (npaths == 1)
        return load_comparison(paths[0], rounds, nrounds, stop, err);
    snprintf(err, ERR_LEN, "give two saved results (A.json B.json), one saved comparison, or none");
    return -1;
}
