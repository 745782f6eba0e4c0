/* compare_profile: see compare_profile.h. */
#include "drive/compare_profile.h"

#include <math.h>
#include <string.h>

#include "base/figure.h"
#include "model/server_cpu.h"
#include "report/report.h"

static struct fold *folds[2][DIFF_MAX_ROUNDS];
static struct fold *mfolds[2][DIFF_MAX_ROUNDS]; /* by module (fold_by_module) */

struct fold **compare_profile_slot(int a, size_t i, char letter, char *name, size_t len)
{
    snprintf(name, len, "%c.r%zu", letter, i + 1);
    return i < DIFF_MAX_ROUNDS ? &folds[a][i] : NULL;
}

/* Each round's fold by module, into mfolds. @return 0, or -1 (out of
 * memory). */
static int by_module(size_t k)
{
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < k; i++)
            if (folds[a][i] && ((mfolds[a][i] = fold_new()) == NULL ||
                                fold_by_module(folds[a][i], mfolds[a][i])))
                return -1;
    return 0;
}

/* x + y where both are known, else FIG_UNKNOWN: a sum missing a round is
 * no sum. */
static double known_sum(double x, double y)
{
    return fig_known(x) && fig_known(y) ? x + y : FIG_UNKNOWN;
}

/* An arm's profiler, its first round's caveat, and its own CPU beside
 * the server's over k rounds, into d. */
static void arm_profiler(const struct compare_arm *arm, size_t k, struct profile_diff_arm *d)
{
    snprintf(d->profiler, sizeof d->profiler, "%s", k ? arm->rounds[0].profile.profiler : "");
    snprintf(d->note, sizeof d->note, "%s", k ? arm->rounds[0].profile.note : "");
    d->own_cpu_ms = d->server_cpu_ms = k ? 0 : FIG_UNKNOWN;
    for (size_t i = 0; i < k; i++) {
        d->own_cpu_ms = known_sum(d->own_cpu_ms, arm->rounds[i].profile.profiler_cpu_ms);
        d->server_cpu_ms = known_sum(d->server_cpu_ms, arm->rounds[i].server_cpu_ms);
    }
}

int compare_profile_diff(const struct comparison *c, const struct profile_opts *o,
                         struct profile_diff d[2], char *err)
{
    static double cpu[2][DIFF_MAX_ROUNDS];
    static int sat[2][DIFF_MAX_ROUNDS];
    struct profile_arm arm[2];
    size_t k = c->pairs < DIFF_MAX_ROUNDS ? c->pairs : DIFF_MAX_ROUNDS;
    memset(d, 0, 2 * sizeof *d);
    if (!o->on)
        return 0;
    if (c->saved) { /* a saved run keeps its top rows, not the stacks a diff needs */
        d[0].taken = 1;
        snprintf(d[0].refused, sizeof d[0].refused, "no diff of saved results: they keep their "
                 "top functions, not the stacks per round (run compare --profile itself)");
        return 0;
    }
    for (int a = 0; a < 2; a++) {
        for (size_t i = 0; i < k; i++) {
            struct cpu_per_call cpc;
            result_cpu_per_call(&c->arm[a].rounds[i], &cpc);
            cpu[a][i] = cpc.raw;
            sat[a][i] = c->arm[a].rounds[i].profile.saturated;
        }
        arm[a] = (struct profile_arm){.name = compare_arm_name(&c->arm[a]), .folds = folds[a],
                                      .cpu_ms = cpu[a], .saturated = sat[a]};
    }
    if (profile_diff(&arm[0], &arm[1], k, o->saturated_ok, o->top, &d[0]) || by_module(k))
        goto oom;
    arm[0].folds = mfolds[0];
    arm[1].folds = mfolds[1];
    if (profile_diff(&arm[0], &arm[1], k, o->saturated_ok, PROFILE_MAX_MODULES, &d[1]))
        goto oom;
    d[1].modules = 1;
    for (int a = 0; a < 2; a++)
        arm_profiler(&c->arm[a], k, &d[0].arm[a]);
    d[1].arm[0] = d[0].arm[0];
    d[1].arm[1] = d[0].arm[1];
    return 0;
oom:
    snprintf(err, ERR_LEN, "--profile: out of memory");
    return -1;
}

int compare_profile_text(FILE *out, const struct profile_diff d[2], char *err)
{
    struct doc_table t;
    struct doc_table_style st;
    if (!d[0].taken)
        return 0;
    if (d[0].refused[0]) {
        fprintf(out, "\nserver profile: %s\n", d[0].refused);
        return 0;
    }
    for (int i = 0; i < 2; i++) {
        if (report_profile_diff_doc(&d[i], &t, &st, err))
            return -1;
        doc_table_text(out, &t, &st.text);
        doc_table_free(&t);
    }
    return 0;
}

void compare_profile_free(void)
{
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < DIFF_MAX_ROUNDS; i++) {
            fold_free(folds[a][i]);
            fold_free(mfolds[a][i]);
            folds[a][i] = mfolds[a][i] = NULL;
        }
}
