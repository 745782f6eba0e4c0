/* compare_saved: the saved inputs of `rpcbench compare`.
 *
 * Either two run results (run --output; one round per arm, compared without
 * a confidence interval; either may be a cell of a saved sweep, S.json#SEL
 * with SEL as sweep_select takes it, whose repeats are its rounds), or one
 * saved comparison (compare --output keeps
 * every round of both arms whole, histograms and all, so it can be
 * rendered again with other buckets, percentiles or plots). */
#ifndef RPCBENCH_COMPARE_SAVED_H
#define RPCBENCH_COMPARE_SAVED_H

#include <stddef.h>

#include "model/run_result.h"

/* A saved comparison's arm that stopped answering (its "stopped"), so
 * that judging the file again gives the verdict the live compare gave:
 * arm 0 A, 1 B, -1 none; the round it could not run; B's case: whether A
 * then answered, and A's line when not. */
struct saved_stop {
    int arm;
    size_t round;
    int a_answered;
    char why[ERR_LEN], a_why[ERR_LEN];
};

/* Loads paths[0..npaths) (1 or 2 of them) into rounds[a] (nrounds[a]
 * results each, arm A then B; as many rounds in both), and a saved
 * comparison's stopped arm into *stop (arm -1 when none, or two files).
 * Whatever was loaded, even on failure, is the caller's to result_free
 * and free. The arrays rounds[0] and rounds[1] are malloc'd here.
 * @return 0, or -1 with a one-line reason in err (ERR_LEN, caller-owned),
 * or -2 with err when a #SEL names no single cell (a usage error). */
int compare_load_saved(const char *const *paths, size_t npaths, struct run_result *rounds[2],
                       size_t nrounds[2], struct saved_stop *stop, char *err);

/* The file an argument names: arg itself, or for S.json#SEL (when arg is
 * no file itself) the part before the last '#', into path (len bytes, the
 * caller's, always terminated). */
void compare_saved_file(const char *arg, char *path, size_t len);

#endif
