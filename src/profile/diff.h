/* diff: compare --profile's B - A (model/profile_sum.h's struct
 * profile_diff) from each arm's rounds: the folds (fold.h) and each
 * round's CPU-ms per call. Round i of A is paired with round i of B, as
 * compare pairs its other figures. */
#ifndef RPCBENCH_DIFF_H
#define RPCBENCH_DIFF_H

#include <stddef.h>

#include "model/profile_sum.h"
#include "profile/fold.h"

#define DIFF_MAX_ROUNDS 1000 /* compare's --rounds at most; more are left out */

/* One arm: its rounds' folds (k of them; NULL entries: that round has no
 * profile, and the diff is refused) and CPU-ms per call. */
struct profile_arm {
    const char *name;
    struct fold *const *folds;
    const double *cpu_ms;
    const int *saturated;   /* per round: taken under saturation */
};

/* Fills d (zeroed first) with B - A over k rounds at confidence 0.95,
 * top rows shown: refused (d->refused says why) when a round has no
 * profile or none is known per call, or when one was saturated and not
 * saturated_ok. @return 0, or -1 when out of memory. */
int profile_diff(const struct profile_arm *a, const struct profile_arm *b, size_t k,
                 int saturated_ok, int top, struct profile_diff *d);

#endif
