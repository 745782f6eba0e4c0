/* cmd_compare_gates: compare's --gate verdicts: judged after every round
 * of --rounds auto, and once on fixed or saved rounds; their text, JSON and
 * exit code (cmd_compare.h). */
#include "cli/cmd_compare.h"

#include <math.h>
#include <stdlib.h>

#include "base/exit_code.h"

int compare_judge_gates(struct cmp *c, size_t k)
{
    const struct options *o = c->o;
    double a[1000], b[1000]; /* --rounds is at most 1000 */
    int decided = 1, regression = 0;
    for (int g = 0; g < o->ngates; g++) {
        enum metric f = o->gates[g].fig;
        for (size_t i = 0; i < k && i < 1000; i++) {
            double va[METRIC_N], vb[METRIC_N];
            compare_figures(&c->arm[0].rounds[i], va);
            compare_figures(&c->arm[1].rounds[i], vb);
            a[i] = va[f];
            b[i] = vb[f];
        }
        gate_judge(&o->gates[g], a, b, k < 1000 ? k : 1000, c->looks, &c->gate[g]);
        decided &= c->gate[g].verdict != GATE_INCONCLUSIVE;
        regression |= c->gate[g].verdict == GATE_REGRESSION;
    }
    /* one regression fixes the exit code (compare_gates_exit): the gates
     * still open could not change it */
    return decided || regression;
}

int compare_gates_exit(const struct cmp *c)
{
    int regression = 0, inconclusive = 0;
    for (int g = 0; g < c->o->ngates; g++) {
        regression |= c->gate[g].verdict == GATE_REGRESSION;
        inconclusive |= c->gate[g].verdict == GATE_INCONCLUSIVE;
    }
    if (c->o->bisect)
        return regression ? EXIT_BISECT_BAD : inconclusive ? EXIT_BISECT_SKIP : EXIT_OK;
    return regression ? EXIT_REGRESSION : inconclusive ? EXIT_INCONCLUSIVE : EXIT_OK;
}

void compare_gates_text(FILE *out, const struct cmp *c)
{
    if (c->o->ngates == 0)
        return;
    fprintf(out, "\n%-22s %8s  %-26s %6s  %s\n", "gate", "B/A", "interval of B/A", "rounds",
            "verdict");
    for (int g = 0; g < c->o->ngates; g++) {
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
        fprintf(out, "%-22s %8s  %-26s %6zu  %s\n", c->o->gates[g].expr, ratio, iv, r->rounds,
                compare_stats_verdict_name(r->verdict));
    }
    fprintf(out, "method: %s; %d look%s, alpha %g per look\n", gate_method(), c->looks,
            c->looks == 1 ? "" : "s", GATE_ALPHA / c->looks);
    int open = 0;
    for (int g = 0; g < c->o->ngates; g++)
        open |= c->gate[g].verdict == GATE_INCONCLUSIVE;
    if (c->o->rounds_auto && !c->interrupted && c->pairs < (size_t)c->o->rounds)
        fprintf(out, "stopped after %zu of at most %d rounds: the outcome was decided%s\n",
                c->pairs, c->o->rounds, open ? " (a regression; the gates still open could "
                "not change the exit code)" : "");
}

static json_object *num(double v)
{
    return isfinite(v) ? json_object_new_double(v) : NULL;
}

json_object *compare_gates_json(const struct cmp *c)
{
    json_object *arr = json_object_new_array();
    for (int g = 0; g < c->o->ngates; g++) {
        const struct gate *gt = &c->o->gates[g];
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
                                                     c->saved ? (int64_t)c->pairs : c->o->rounds));
        json_object_object_add(o, "looks", json_object_new_int(c->looks));
        json_object_object_add(o, "verdict",
                               json_object_new_string(compare_stats_verdict_name(r->verdict)));
        json_object_object_add(o, "method", json_object_new_string("bonferroni"));
        json_object_object_add(o, "alpha", json_object_new_double(GATE_ALPHA));
        json_object_array_add(arr, o);
    }
    return arr;
}
