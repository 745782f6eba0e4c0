/* comparison: a comparison's merge, figures, intervals and what each says
 * (comparison.h). */
#include "judge/comparison.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/result_merge.h"
#include "model/server_cpu.h"

/* The answered calls gate g's figure rests on in round r: the run's, or
 * its call's for a per-call gate. */
static int64_t gate_calls(const struct run_result *r, const struct gate *g)
{
    if (!g->call[0])
        return result_answered_calls(r);
    for (size_t i = 0; i < r->nverbs; i++)
        if (!strcmp(r->verbs[i].name, g->call))
            return r->verbs[i].latency.total_count;
    return 0;
}

/* @return the answered calls per round and arm gate g needs:
 * COMPARE_TAIL_CALLS beyond its percentile (p99 1000, p90 100),
 * COMPARE_MIN_CALLS_CPU for p50, the mean and CPU per call, 0 for the
 * rest (rate, errors, bytes: counts, or figures of every call). */
static int64_t compare_gate_min_calls(const struct gate *g)
{
    switch (g->fig) {
    case METRIC_P99:
        return (int64_t)(COMPARE_TAIL_CALLS / 0.01);
    case METRIC_P90:
        return (int64_t)(COMPARE_TAIL_CALLS / 0.10);
    case METRIC_P50:
    case METRIC_MEAN:
    case METRIC_CPU_MS:
        return COMPARE_MIN_CALLS_CPU;
    default:
        return 0;
    }
}

/* Round r too short for gate g: fewer calls than it needs, or (CPU per
 * call) less server CPU than COMPARE_MIN_CPU_MS. Records the first such
 * in *l (calls, need, cpu_ms, what). @return 1 when too short. */
static int too_short(const struct run_result *r, const struct gate *g, struct round_length *l)
{
    int64_t calls = gate_calls(r, g), need = compare_gate_min_calls(g);
    double cpu = g->fig == METRIC_CPU_MS ? result_cpu_ms_per_call(r) * (double)calls : INFINITY;
    if (calls >= need && !(cpu < COMPARE_MIN_CPU_MS))
        return 0;
    l->calls = calls;
    l->need = need;
    l->cpu_gate = g->fig == METRIC_CPU_MS;
    l->cpu_ms = l->cpu_gate ? cpu : FIG_UNKNOWN;
    snprintf(l->what, sizeof l->what, "%s", g->expr);
    return 1;
}

/* The last whole block's rounds (c->pairs - 2, c->pairs), either arm:
 * @return 1 when one was too short for a gate (too_short), else 0. */
static int block_too_short(struct comparison *c, struct round_length *l)
{
    for (int a = 0; a < 2; a++)
        for (size_t i = c->pairs - 2; i < c->pairs; i++)
            for (int g = 0; g < c->plan.ngates; g++)
                if (too_short(&c->arm[a].rounds[i], &c->plan.gates[g], l))
                    return 1;
    return 0;
}

int64_t compare_round_length(struct comparison *c, int64_t round_ns)
{
    if (!c->plan.rounds_auto || c->pairs < 2 || c->pairs % 2 ||
        round_ns >= c->plan.longest_round_ns)
        return round_ns;
    struct round_length l = c->longer;
    if (!block_too_short(c, &l))
        return round_ns;
    int64_t next = round_ns * 2 < c->plan.longest_round_ns ? round_ns * 2
                                                           : c->plan.longest_round_ns;
    if (!c->longer.from) {
        l.from = c->pairs + 1;
        l.from_ns = round_ns;
    }
    l.to_ns = next;
    c->longer = l;
    return next;
}

void compare_round_length_why(const struct comparison *c, char *buf, size_t n)
{
    const struct round_length *l = &c->longer;
    char cpu[64] = "";
    if (fig_known(l->cpu_ms))
        snprintf(cpu, sizeof cpu, " and %.0f ms of server CPU (%.0f at least)", l->cpu_ms,
                 COMPARE_MIN_CPU_MS);
    else if (l->cpu_gate)
        snprintf(cpu, sizeof cpu, " and server CPU unknown");
    snprintf(buf, n, "a round held %lld answered calls%s, too few for %s (%lld calls at least)",
             (long long)l->calls, cpu, l->what, (long long)l->need);
}

void comparison_init(struct comparison *c, const struct compare_plan *p)
{
    memset(c, 0, sizeof *c);
    c->plan = *p;
    c->arm[0].letter = 'A';
    c->arm[1].letter = 'B';
    c->stop.arm = -1;
    /* one look on fixed or saved rounds; auto's after each block (gate_is_look) */
    c->looks = p->rounds_auto && p->ninputs == 0 ? gate_looks((size_t)p->rounds) : 1;
}

/* @return 1 when r was to take an idle baseline (a named server, and
 * --idle-baseline or its default says so), else 0. */
static int meant_idle(const struct run_result *r)
{
    return r->nwatched > 0 && server_cpu_idle_ns(&r->cfg) > 0;
}

/* @return 1 when a and b watched the same server: the same pids. */
static int same_server(const struct run_result *a, const struct run_result *b)
{
    if (a->nwatched == 0 || a->nwatched != b->nwatched)
        return 0;
    for (size_t i = 0; i < a->nwatched; i++)
        if (a->watched_pids[i] != b->watched_pids[i])
            return 0;
    return 1;
}

/* The lowest baseline of r's server among the first k rounds but r;
 * FIG_UNKNOWN when none. */
static double quiet_level(const struct comparison *c, size_t k, const struct run_result *r)
{
    double q = FIG_UNKNOWN;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < k && i < c->arm[a].nrounds; i++) {
            const struct run_result *o = &c->arm[a].rounds[i];
            if (o != r && o->idle.n > 0 && same_server(o, r) &&
                (!fig_known(q) || o->idle.mean_pct < q))
                q = o->idle.mean_pct;
        }
    return q;
}

static void refuse_busy_baselines(struct comparison *c, size_t k)
{
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < k && i < c->arm[a].nrounds; i++) {
            struct run_result *r = &c->arm[a].rounds[i];
            if (r->idle.n > 0)
                result_refuse_idle_above(r, quiet_level(c, k, r));
        }
}

void compare_set_cpu_basis(struct comparison *c, size_t k)
{
    int all = k > 0, meant = 0;
    refuse_busy_baselines(c, k);
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < k && i < c->arm[a].nrounds; i++) {
            all &= c->arm[a].rounds[i].idle.n > 0;
            meant |= meant_idle(&c->arm[a].rounds[i]);
        }
    c->cpu_basis = all ? CPU_NET : meant ? CPU_RAW_REFUSED : CPU_RAW;
}

/* The metric table's values (model/metric.h), with CPU-ms per call net
 * of idle on that basis. */
void compare_figures(const struct comparison *c, const struct run_result *r, double *v)
{
    metric_values(r, v);
    if (c->cpu_basis == CPU_NET) {
        struct cpu_per_call cpc;
        result_cpu_per_call(r, &cpc);
        v[METRIC_CPU_MS] = cpc.net;
    }
}

/* Merges each arm's rounds, then takes the figures and the intervals. */
int compare_summarise(struct comparison *c, char *err)
{
    compare_set_cpu_basis(c, c->pairs);
    for (int a = 0; a < 2; a++) {
        struct compare_arm *arm = &c->arm[a];
        if (result_init(&arm->merged, &arm->rounds[0].cfg)) {
            snprintf(err, ERR_LEN, "out of memory");
            return -1;
        }
        arm->have_merged = 1;
        for (size_t i = 0; i < c->pairs; i++)
            if (result_merge(&arm->merged, &arm->rounds[i], RESULT_MERGE_SEQUENTIAL, err))
                return -1;
        compare_figures(c, &arm->merged, arm->fig);
    }
    double *va = calloc(c->pairs * 2 * METRIC_N, sizeof *va);
    if (!va) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    double *vb = va + c->pairs * METRIC_N;
    for (size_t i = 0; i < c->pairs; i++) {
        compare_figures(c, &c->arm[0].rounds[i], va + i * METRIC_N);
        compare_figures(c, &c->arm[1].rounds[i], vb + i * METRIC_N);
    }
    double a[2 * 1000], b[2 * 1000]; /* --rounds is at most 1000 */
    for (int f = 0; f < METRIC_N; f++) {
        for (size_t i = 0; i < c->pairs; i++) {
            a[i] = va[i * METRIC_N + f];
            b[i] = vb[i * METRIC_N + f];
        }
        c->ci_rc[f] = compare_stats_ci(a, b, c->pairs, &c->ci[f]);
    }
    free(va);
    return 0;
}

double compare_ratio(double a, double b)
{
    return a > 0 && b >= 0 ? b / a : NAN;
}

double compare_figure_ratio(const struct comparison *c, int f)
{
    return c->ci_rc[f] >= 0 ? c->ci[f].geo_ratio : NAN;
}

/* What interval ci (rc: compare_stats_ci's) of c's rounds says, as text. */
static enum cmp_verdict verdict_of(const struct comparison *c, int rc, const struct ci *ci,
                                   char *out, size_t len)
{
    static const char *const words[] = {
        [CMP_B_LOWER] = "B lower", [CMP_B_HIGHER] = "B higher",
        [CMP_TOO_FEW] = "too few rounds to tell",
        [CMP_NO_DIFFERENCE] = "no significant difference"};
    if (rc == 1) {
        snprintf(out, len, "n/a (1 round)");
        return CMP_NA_ONE_ROUND;
    }
    if (rc < 0) {
        snprintf(out, len, "n/a");
        return CMP_NA;
    }
    char lo[16], hi[16];
    compare_stats_fmt_ratio(ci->low, lo, sizeof lo);
    compare_stats_fmt_ratio(ci->high, hi, sizeof hi);
    enum cmp_verdict v = compare_stats_significant_shown(ci)
                             ? (ci->high < 1 ? CMP_B_LOWER : CMP_B_HIGHER)
                         : c->pairs < 3 ? CMP_TOO_FEW
                                        : CMP_NO_DIFFERENCE;
    snprintf(out, len, "[%s, %s] %s", lo, hi, words[v]);
    return v;
}

enum cmp_verdict compare_verdict(const struct comparison *c, int f, char *out, size_t len)
{
    return verdict_of(c, c->ci_rc[f], &c->ci[f], out, len);
}

int compare_call_ci(const struct comparison *c, const char *call, enum metric f, struct ci *out)
{
    double a[1000], b[1000]; /* --rounds is at most 1000 */
    size_t k = c->pairs < 1000 ? c->pairs : 1000;
    for (size_t i = 0; i < k; i++) {
        a[i] = metric_call_value(&c->arm[0].rounds[i], call, f);
        b[i] = metric_call_value(&c->arm[1].rounds[i], call, f);
    }
    return compare_stats_ci(a, b, k, out);
}

enum cmp_verdict compare_call_verdict(const struct comparison *c, const char *call,
                                      enum metric f, double *ratio, char *out, size_t len)
{
    struct ci ci;
    int rc = compare_call_ci(c, call, f, &ci);
    *ratio = rc >= 0 ? ci.geo_ratio : NAN;
    return verdict_of(c, rc, &ci, out, len);
}

int compare_too_few_rounds(const struct comparison *c)
{
    for (int f = 0; c->pairs == 2 && f < METRIC_N; f++)
        if (c->ci_rc[f] == 0 && !compare_stats_significant_shown(&c->ci[f]))
            return 1;
    return 0;
}

int compare_first_arm_planned(size_t i)
{
    return (int)(i % 2);
}

int compare_first_arm(const struct comparison *c, size_t i)
{
    if (i >= c->arm[0].nrounds || i >= c->arm[1].nrounds)
        return -1;
    double a = c->arm[0].rounds[i].start_unix, b = c->arm[1].rounds[i].start_unix;
    if (!(a > 0 && b > 0) || a == b)
        return -1;
    return a < b ? 0 : 1;
}

size_t compare_config_diff(const struct comparison *c, struct config_diff *d)
{
    return config_diff(&c->arm[0].rounds[0], &c->arm[1].rounds[0], c->plan.diff_fields,
                       c->plan.ndiff_fields, d);
}

const char *compare_arm_name(const struct compare_arm *a)
{
    return a->merged.cfg.label[0] ? a->merged.cfg.label : a->merged.cfg.encoding;
}
