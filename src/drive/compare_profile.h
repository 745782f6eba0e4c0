/* compare_profile: compare --profile's rounds' stacks and their B - A
 * (profile/diff.h), for cmd_compare: one fold per arm and round, the diff
 * once the rounds are in, and its table after the report (text) or in the
 * JSON. Internal to cli/. */
#ifndef RPCBENCH_COMPARE_PROFILE_H
#define RPCBENCH_COMPARE_PROFILE_H

#include <stdio.h>

#include "judge/comparison.h"
#include "model/profile_sum.h"
#include "profile/diff.h"
#include "profile/session.h"

/* @return where round i of arm a keeps its fold (i < DIFF_MAX_ROUNDS; NULL
 * beyond), and its --profile-out name ("A.r1") into name (len bytes). */
struct fold **compare_profile_slot(int a, size_t i, char letter, char *name, size_t len);
/* Computes the diff of c's complete rounds into d[0] by function and d[1]
 * by module (d->taken 0 without --profile). @return 0, or -1 with err
 * (out of memory). */
int compare_profile_diff(const struct comparison *c, const struct profile_opts *o,
                         struct profile_diff d[2], char *err);
/* Both diffs as text on out (nothing when not taken). @return 0, or -1
 * with err. */
int compare_profile_text(FILE *out, const struct profile_diff d[2], char *err);
/* Frees every round's fold. */
void compare_profile_free(void);

#endif
