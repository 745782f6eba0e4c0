#include "results/compare_saved.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "results/result_json.h"
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

/* compare A.json B.json: one round per arm. */
static int load_pair(const char *const *paths, struct run_result *rounds[2], size_t nrounds[2],
                     char *err)
{
    for (int a = 0; a < 2; a++) {
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

/* compare AB.json: a saved comparison, every round of both arms. */
static int load_comparison(const char *path, struct run_result *rounds[2], size_t nrounds[2],
                           char *err)
{
    json_object *root = json_object_from_file(path), *arr[2];
    size_t n = comparison_rounds(root, arr);
    int rc = -1;
    if (n == 0)
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
                       size_t nrounds[2], char *err)
{
    rounds[0] = rounds[1] = NULL;
    nrounds[0] = nrounds[1] = 0;
    if (npaths == 2)
        return load_pair(paths, rounds, nrounds, err);
    if (npaths == 1)
        return load_comparison(paths[0], rounds, nrounds, err);
    snprintf(err, ERR_LEN, "give two saved results (A.json B.json), one saved comparison, or none");
    return -1;
}
