/* compare_profile: see compare_profile.h. */
#include "cli/compare_profile.h"

#include <math.h>
#include <string.h>

#include "model/server_cpu.h"
#include "report/report.h"

static struct fold *folds[2][DIFF_MAX_ROUNDS];

struct fold **compare_profile_slot(int a, size_t i, char letter, char *name, size_t len)
{
    snprintf(name, len, "%c.r%zu", letter, i + 1);
    return i < DIFF_MAX_ROUNDS ? &folds[a][i] : NULL;
}

int compare_profile_diff(const struct comparison *c, const struct profile_opts *o,
                         struct profile_diff *d, char *err)
{
    static double cpu[2][DIFF_MAX_ROUNDS];
    static int sat[2][DIFF_MAX_ROUNDS];
    struct profile_arm arm[2];
    size_t k = c->pairs < DIFF_MAX_ROUNDS ? c->pairs : DIFF_MAX_ROUNDS;
    memset(d, 0, sizeof *d);
    if (!o->on || c->saved)
        return 0;
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
    if (profile_diff(&arm[0], &arm[1], k, o->saturated_ok, o->top, d)) {
        snprintf(err, ERR_LEN, "--profile: out of memory");
        return -1;
    }
    return 0;
}

int compare_profile_text(FILE *out, const struct profile_diff *d, char *err)
{
    struct doc_table t;
    if (!d->taken)
        return 0;
    if (d->refused[0]) {
        fprintf(out, "\nserver profile: %s\n", d->refused);
        return 0;
    }
    if (report_profile_diff_doc(d, &t, err))
        return -1;
    doc_table_text(out, &t);
    doc_table_free(&t);
    return 0;
}

void compare_profile_free(void)
{
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < DIFF_MAX_ROUNDS; i++) {
            fold_free(folds[a][i]);
            folds[a][i] = NULL;
        }
}
