/* verdict: --threshold judged on one result (verdict.h). */
#include "judge/verdict.h"

#include <stdio.h>

#include "base/exit_code.h"
#include "base/units.h"

void verdict_judge(struct verdict *v, const struct cond_list *conds, const struct run_result *r)
{
    v->conds = conds;
    v->failed = condition_eval_list(conds, r, v->res);
    v->interrupted[0] = '\0';
    if (r->interrupted) {
        char planned[32];
        units_format_duration(r->cfg.duration_ns, planned, sizeof planned);
        snprintf(v->interrupted, sizeof v->interrupted,
                 "interrupted by %s after %.2fs of the planned %s: the verdicts cover only that "
                 "part", result_signal_name(r->interrupted), r->duration_s, planned);
    }
}

int verdict_judged(const struct verdict *v)
{
    return v && v->conds && v->conds->n;
}

int verdict_exit(const struct verdict *v, int code)
{
    return verdict_judged(v) && v->failed ? EXIT_CONDITION_FAILED : code;
}
