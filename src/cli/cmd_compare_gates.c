/* cmd_compare_gates: compare's --gate verdicts: judged after every round
 * of --rounds auto, and once on fixed or saved rounds; their text, JSON and
 * exit code (cmd_compare.h). */
#include "cli/cmd_compare.h"

#include <math.h>
#include <stdlib.h>


void compare_gates_text(FILE *out, const struct comparison *c)
{
    if (c->plan.ngates == 0)
        return;
    fprintf(out, "\n%-22s %8s  %-26s %6s  %s\n", "gate", "B/A", "interval of B/A", "rounds",
            "verdict");
    for (int g = 0; g < c->plan.ngates; g++) {
        const struct gate_result *r = &c->gate[g];
        char ratio[16] = "n/a", iv[64] = "n/a";
        if (r->rc >= 0)
            compare_stats_fmt_ratio(r->ci.geo_ratio, ratio, sizeof ratio);
        if (r->rc == 0) {
            char lo[16], hi[16];
            compare_stats_fmt_ratio(r->ci.low, lo, sizeof lo);
            compare_stats_fmt_ratio(r->ci.high, hi, sizeof hi);
            snprintf(iv, sizeof iv, "[%s, %s] %.4g%%", lo, hi, r->conf * 100);
        }
        else if (r->rc == 1)
            snprintf(iv, sizeof iv, "n/a (1 round)");
        fprintf(out, "%-22s %8s  %-26s %6zu  %s\n", c->plan.gates[g].expr, ratio, iv, r->rounds,
                compare_stats_verdict_name(r->verdict));
    }
    fprintf(out, "method: %s; %d look%s, alpha %g per look\n", gate_method(), c->looks,
            c->looks == 1 ? "" : "s", GATE_ALPHA / c->looks);
    int open = 0;
    for (int g = 0; g < c->plan.ngates; g++)
        open |= c->gate[g].verdict == GATE_INCONCLUSIVE;
    if (c->plan.rounds_auto && !c->interrupted && c->pairs < (size_t)c->plan.rounds)
        fprintf(out, "stopped after %zu of at most %d rounds: the outcome was decided%s\n",
                c->pairs, c->plan.rounds, open ? " (a regression; the gates still open could "
                "not change the exit code)" : "");
}

static json_object *num(double v)
{
    return isfinite(v) ? json_object_new_double(v) : NULL;
}

json_object *compare_gates_json(const struct comparison *c)
{
    json_object *arr = json_object_new_array();
    for (int g = 0; g < c->plan.ngates; g++) {
        const struct gate *gt = &c->plan.gates[g];
        const struct gate_result *r = &c->gate[g];
        json_object *o = json_object_new_object();
        json_object_object_add(o, "gate", json_object_new_string(gt->expr));
        json_object_object_add(o, "metric", json_object_new_string(gate_metric_name(gt->fig)));
        json_object_object_add(o, "tolerance_pct", json_object_new_double(gt->tol * 100));
        json_object_object_add(o, "bound", json_object_new_double(gate_bound(gt)));
        json_object_object_add(o, "ratio", r->rc >= 0 ? num(r->ci.geo_ratio) : NULL);
        json_object_object_add(o, "ci_low", r->rc == 0 ? num(r->ci.low) : NULL);
        json_object_object_add(o, "ci_high", r->rc == 0 ? num(r->ci.high) : NULL);
        json_object_object_add(o, "confidence", json_object_new_double(r->conf));
        json_object_object_add(o, "rounds", json_object_new_int64((int64_t)r->rounds));
        json_object_object_add(o, "max_rounds", json_object_new_int64(
                                                     c->saved ? (int64_t)c->pairs : c->plan.rounds));
        json_object_object_add(o, "looks", json_object_new_int(c->looks));
        json_object_object_add(o, "verdict",
                               json_object_new_string(compare_stats_verdict_name(r->verdict)));
        json_object_object_add(o, "method", json_object_new_string("bonferroni"));
        json_object_object_add(o, "alpha", json_object_new_double(GATE_ALPHA));
        json_object_array_add(arr, o);
    }
    return arr;
}
