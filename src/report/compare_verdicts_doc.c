/* compare_verdicts_doc: compare's verdicts as one document
 * (compare_report.h): one when an arm stopped answering, one per arm and
 * --threshold condition, one per --gate, and one "complete run" error
 * when a signal cut the rounds short; its JUnit file; and the gates'
 * table, whose verdicts are that document's. */
#include "report/compare_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/verdict_files.h"
#include "base/units.h"

/* One verdict per arm and condition. */
static void threshold_verdicts(struct doc_verdicts *d, const struct comparison *c)
{
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < c->plan.thresholds.n; i++) {
            const struct condition *cond = &c->plan.thresholds.c[i];
            const struct cond_result *res = &c->verdict[a].res[i];
            struct doc_verdict *k = doc_verdicts_add(d, DOC_V_THRESHOLD,
                                                     res->pass ? DOC_PASS : DOC_FAIL);
            if (!k)
                return;
            snprintf(k->expr, sizeof k->expr, "%s", cond->expr);
            snprintf(k->name, sizeof k->name, "%c %s", c->arm[a].letter, cond->expr);
            snprintf(k->classname, sizeof k->classname, "rpcbench.compare.threshold");
            snprintf(k->group, sizeof k->group, "arm %c (%s)", c->arm[a].letter,
                     compare_arm_name(&c->arm[a]));
            condition_describe(cond, res, k->detail, sizeof k->detail);
        }
}

/* @return 100 x failed / requests, or NAN without requests. */
static double share_pct(int64_t failed, int64_t requests)
{
    return requests > 0 ? 100.0 * (double)failed / (double)requests : NAN;
}

/* "failed A 0 of 150 (0.0%), B 47 of 150 (31.3%), B allowed +0 points:
 * p 2e-16 < alpha 0.05 (exact stratified test ..., 3 rounds)" into out
 * (len bytes): the detail of a failures verdict, in the text, the page
 * and the JUnit file. */
static void compare_failure_detail(const struct fail_test *f, char *out, size_t len)
{
    char bursts[96] = "";
    if (f->verdict == GATE_INCONCLUSIVE)
        snprintf(bursts, sizeof bursts, "; in bursts (dispersion %.3g): p %.2g, more rounds "
                 "would tell", f->dispersion, f->p_bursts);
    snprintf(out, len, "failed A %lld of %lld (%.1f%%), B %lld of %lld (%.1f%%), B allowed "
             "+%g points: p %.2g %s alpha %g (%s, %zu round%s)%s", (long long)f->failed[0],
             (long long)f->requests[0], share_pct(f->failed[0], f->requests[0]),
             (long long)f->failed[1], (long long)f->requests[1],
             share_pct(f->failed[1], f->requests[1]), f->tol * 100, f->p,
             f->verdict == GATE_PASS ? ">=" : "<", f->alpha, fail_test_method(f),
             f->rounds, f->rounds == 1 ? "" : "s", bursts);
}

int compare_has_gates(const struct comparison *c)
{
    return c->plan.ngates > 0 || c->failures_implied;
}

/* The failures rule as a verdict of its own (compare_failures.c), when
 * one was asked for and no errors gate took its place. */
static void failure_verdict(struct doc_verdicts *d, const struct comparison *c)
{
    if (!c->failures_implied)
        return;
    enum gate_verdict v = c->failures.verdict;
    struct doc_verdict *k = doc_verdicts_add(d, DOC_V_GATE, v == GATE_REGRESSION ? DOC_FAIL
                                                            : v == GATE_INCONCLUSIVE
                                                                ? DOC_INCONCLUSIVE : DOC_PASS);
    if (!k)
        return;
    snprintf(k->expr, sizeof k->expr, "%s", COMPARE_FAILURES_EXPR);
    snprintf(k->name, sizeof k->name, "gate %s", COMPARE_FAILURES_EXPR);
    snprintf(k->classname, sizeof k->classname, "rpcbench.compare.gate");
    compare_failure_detail(&c->failures, k->detail, sizeof k->detail);
}

/* What would decide inconclusive gate g, in words ("" when nothing can be
 * said: no interval, or not inconclusive); terse for a JUnit message,
 * whose detail has DOC_DETAIL_LEN bytes beside the rest. */
static void gate_needs_text(const struct comparison *c, int g, int terse, char *out, size_t len)
{
    const struct gate_result *r = &c->gate[g];
    out[0] = 0;
    if (r->verdict != GATE_INCONCLUSIVE || !(r->half_width > 0) ||
        c->plan.gates[g].fig == METRIC_ERRORS)
        return; /* decided, no interval, no noise to scale, or counts (their detail says) */
    char bound[16];
    compare_stats_fmt_ratio(gate_bound(&c->plan.gates[g]), bound, sizeof bound);
    double round_s = ceil(r->longer * (double)c->arm[0].cfg.duration_ns / 1e9);
    if (terse && r->rounds_needed < 0)
        snprintf(out, len, "+-%.1f%% now, B/A at the bound: no round count decides it",
                 r->half_width * 100);
    else if (terse)
        snprintf(out, len, "+-%.1f%% now; about %d rounds, or -d %.0fs, would decide it",
                 r->half_width * 100, r->rounds_needed, round_s);
    else if (r->rounds_needed < 0)
        snprintf(out, len, "%s inconclusive: B/A +-%.1f%% after %zu rounds, and B/A sits at the "
                 "bound %s: no number of rounds at this noise would decide it",
                 c->plan.gates[g].expr, r->half_width * 100, r->rounds, bound);
    else
        snprintf(out, len, "%s inconclusive: B/A +-%.1f%% after %zu rounds; at the noise "
                 "measured, about %d rounds would decide it against %s (--rounds %d), or %zu "
                 "rounds %.1fx as long (-d %.0fs)", c->plan.gates[g].expr, r->half_width * 100,
                 r->rounds, r->rounds_needed, bound, r->rounds_needed, r->rounds, r->longer,
                 round_s);
}

/* One verdict per gate: B/A, its interval and the bound. */
static void gate_verdicts(struct doc_verdicts *d, const struct comparison *c)
{
    for (size_t i = 0; i < (size_t)c->plan.ngates; i++) {
        const struct gate_result *r = &c->gate[i];
        struct doc_verdict *k = doc_verdicts_add(d, DOC_V_GATE, r->verdict == GATE_PASS ? DOC_PASS
                                                 : r->verdict == GATE_REGRESSION ? DOC_FAIL
                                                 : DOC_INCONCLUSIVE);
        if (!k)
            return;
        snprintf(k->expr, sizeof k->expr, "%s", c->plan.gates[i].expr);
        snprintf(k->name, sizeof k->name, "gate %s", c->plan.gates[i].expr);
        snprintf(k->classname, sizeof k->classname, "rpcbench.compare.gate");
        char ratio[16], lo[16], hi[16], bound[16];
        compare_stats_fmt_ratio(r->ci.geo_ratio, ratio, sizeof ratio);
        compare_stats_fmt_ratio(r->ci.low, lo, sizeof lo);
        compare_stats_fmt_ratio(r->ci.high, hi, sizeof hi);
        compare_stats_fmt_ratio(gate_bound(&c->plan.gates[i]), bound, sizeof bound);
        if (c->plan.gates[i].fig == METRIC_ERRORS)
            compare_failure_detail(&r->fail, k->detail, sizeof k->detail);
        else if (r->rc == 0) {
            char needs[96];
            gate_needs_text(c, (int)i, 1, needs, sizeof needs);
            snprintf(k->detail, sizeof k->detail,
                     "B/A %s, interval [%s, %s] at %.1f%% after %zu rounds, bound %s%s%s", ratio,
                     lo, hi, r->conf * 100, r->rounds, bound, needs[0] ? "; " : "", needs);
        }
        else if (!gate_unknown_text(&c->plan.gates[i], r, k->detail, sizeof k->detail))
            snprintf(k->detail, sizeof k->detail, "no interval (%zu rounds)", r->rounds);
    }
}

/* An arm's name from its configuration: its rounds may not be merged
 * (none complete when it stopped before round 1). */
static const char *cfg_name(const struct compare_arm *a)
{
    return a->cfg.label[0] ? a->cfg.label : a->cfg.encoding;
}

void compare_stop_text(const struct comparison *c, char *out, size_t len)
{
    const struct compare_stop *s = &c->stop;
    const struct compare_arm *arm = &c->arm[s->arm];
    char when[64];
    if (s->round == 0)
        snprintf(when, sizeof when, "did not answer its call before round 1");
    else
        snprintf(when, sizeof when, "stopped answering in round %zu of %s%d", s->round,
                 c->plan.rounds_auto ? "at most " : "", c->plan.rounds);
    /* the run's line last: cut to fit, it loses its end, not the verdict */
    if (compare_arm_failed(c))
        snprintf(out, len, "arm %c (%s) %s while A answered, a failed arm: %s", arm->letter,
                 cfg_name(arm), when, s->why);
    else if (s->arm == 1)
        snprintf(out, len, "arm %c (%s) %s and A did not answer either, so the comparison "
                 "could not run: B: %s; A: %s", arm->letter, cfg_name(arm), when, s->why,
                 s->other_why);
    else
        snprintf(out, len, "arm %c (%s) %s, so without its baseline the comparison could not "
                 "run: %s", arm->letter, cfg_name(arm), when, s->why);
}

/* An arm that stopped answering: a failure of the candidate when A
 * answered (it broke; CI must not pass it), else an error (nothing was
 * judged to its end), named after the arm so the report says which. */
static void stop_verdict(struct doc_verdicts *d, const struct comparison *c)
{
    if (c->stop.arm < 0)
        return;
    struct doc_verdict *k = doc_verdicts_add(d, DOC_V_RUN,
                                             compare_arm_failed(c) ? DOC_FAIL : DOC_ERROR);
    if (!k)
        return;
    snprintf(k->expr, sizeof k->expr, "arm %c answers", c->arm[c->stop.arm].letter);
    snprintf(k->name, sizeof k->name, "%s", k->expr);
    snprintf(k->classname, sizeof k->classname, "rpcbench.compare.arm");
    compare_stop_text(c, k->detail, sizeof k->detail);
}

void compare_verdicts_doc(struct doc_verdicts *d, const struct comparison *c)
{
    doc_verdicts_init(d, "rpcbench compare");
    stop_verdict(d, c);
    if (c->pairs == 0) /* an arm stopped before a round was complete: nothing else judged */
        return;
    threshold_verdicts(d, c);
    gate_verdicts(d, c);
    failure_verdict(d, c);
    if (c->interrupted) {
        char why[120];
        snprintf(why, sizeof why, "interrupted by %s after %zu complete round(s) of %d: the "
                 "verdicts cover only those", result_signal_name(c->interrupted), c->pairs,
                 c->plan.rounds);
        verdict_doc_interrupted(d, "compare", why);
    }
}

/* The gates' method and looks, and why --rounds auto stopped early, into
 * t's notes. */
static void gates_notes(struct doc_table *t, const struct comparison *c)
{
    int open = 0, n = snprintf(t->notes, sizeof t->notes, "method: %s; %d look%s, alpha %g "
                               "per look", gate_method(), c->looks, c->looks == 1 ? "" : "s",
                               GATE_ALPHA / c->looks);
    for (int g = 0; g < c->plan.ngates; g++)
        open |= c->gate[g].verdict == GATE_INCONCLUSIVE;
    int errs = c->failures_implied;
    for (int g = 0; g < c->plan.ngates; g++)
        errs |= c->plan.gates[g].fig == METRIC_ERRORS;
    if (errs && n > 0 && (size_t)n < sizeof t->notes)
        n += snprintf(t->notes + n, sizeof t->notes - (size_t)n, "\nerrors: on the counts of "
                      "failed requests (errors, unfinished, unsent), each round's arms against "
                      "each other: %s; a regression when p < alpha; errors:+T%% allows B's "
                      "failure share T points above A's", fail_test_method(&c->failures));
    for (int g = 0; g < c->plan.ngates; g++) {
        char needs[320];
        gate_needs_text(c, g, 0, needs, sizeof needs);
        if (needs[0] && n > 0 && (size_t)n < sizeof t->notes)
            n += snprintf(t->notes + n, sizeof t->notes - (size_t)n, "\n%s", needs);
    }
    if (c->longer.from && n > 0 && (size_t)n < sizeof t->notes) {
        char from[32], to[32], why[256];
        units_format_duration(c->longer.from_ns, from, sizeof from);
        units_format_duration(c->longer.to_ns, to, sizeof to);
        compare_round_length_why(c, why, sizeof why);
        n += snprintf(t->notes + n, sizeof t->notes - (size_t)n, "\nrounds lengthened from "
                      "round %zu, from %s up to %s: %s", c->longer.from, from, to, why);
    }
    /* an arm that stopped answering ended them too, and says so in the header */
    if (c->plan.rounds_auto && !c->interrupted && c->stop.arm < 0 &&
        c->pairs < (size_t)c->plan.rounds && n > 0 && (size_t)n < sizeof t->notes)
        snprintf(t->notes + n, sizeof t->notes - (size_t)n, "\nstopped after %zu of at most %d "
                 "rounds: the outcome was decided%s", c->pairs, c->plan.rounds, open ? " (a "
                 "regression; the gates still open could not change the exit code)" : "");
}

/* A failures verdict's row: B's failure share over A's ("-" when A has
 * none), the p-value, the rounds and v's word. */
static int failure_row(struct doc_table *t, const char *expr, const struct fail_test *f,
                       const char *id, const struct doc_verdict *v, char *err)
{
    char ratio[16] = "-", p[64], rounds[24];
    double sa = share_pct(f->failed[0], f->requests[0]);
    double sb = share_pct(f->failed[1], f->requests[1]);
    if (sa > 0 && fig_known(sb))
        compare_stats_fmt_ratio(sb / sa, ratio, sizeof ratio);
    snprintf(p, sizeof p, "p %.2g (counts)", f->p);
    snprintf(rounds, sizeof rounds, "%zu", f->rounds);
    const char *cells[5] = {expr, ratio, p, rounds, doc_verdict_word(v)};
    return doc_table_add_row(t, cells, id, v->status == DOC_PASS ? 0 : DOC_ROW_MARKED, err);
}

/* Gate g's row: B/A, its interval, the rounds, and v's word. */
static int gate_row(struct doc_table *t, const struct comparison *c, int g,
                    const struct doc_verdict *v, char *err)
{
    const struct gate_result *r = &c->gate[g];
    if (c->plan.gates[g].fig == METRIC_ERRORS) {
        char fid[16];
        snprintf(fid, sizeof fid, "g%d", g + 1);
        return failure_row(t, c->plan.gates[g].expr, &r->fail, fid, v, err);
    }
    char ratio[16] = "n/a", iv[64] = "n/a", rounds[24], id[16];
    if (r->rc >= 0)
        compare_stats_fmt_ratio(r->ci.geo_ratio, ratio, sizeof ratio);
    if (r->rc == 0) {
        char lo[16], hi[16];
        compare_stats_fmt_ratio(r->ci.low, lo, sizeof lo);
        compare_stats_fmt_ratio(r->ci.high, hi, sizeof hi);
        snprintf(iv, sizeof iv, "[%s, %s] %.4g%%", lo, hi, r->conf * 100);
    } else if (r->unknown[0] || r->unknown[1]) {
        snprintf(iv, sizeof iv, "n/a (figure unknown)");
    } else if (r->rc == 1) {
        snprintf(iv, sizeof iv, "n/a (1 round)");
    }
    snprintf(rounds, sizeof rounds, "%zu", r->rounds);
    snprintf(id, sizeof id, "g%d", g + 1);
    const char *cells[5] = {c->plan.gates[g].expr, ratio, iv, rounds, doc_verdict_word(v)};
    /* no pass stands out: a regression, and a gate left open */
    return doc_table_add_row(t, cells, id, v->status == DOC_PASS ? 0 : DOC_ROW_MARKED, err);
}

int compare_gates_doc(const struct comparison *c, struct doc_table *t,
                      struct doc_table_style *st, char *err)
{
    static const char *const heads[5] = {"gate", "B/A", "interval of B/A", "rounds",
                                         "verdict"};
    static const int widths[5] = {-22, 8, -26, 6, 0}, gaps[5] = {0, 0, 1, 0, 1};
    doc_table_init(t, 5);
    doc_table_style_init(st);
    for (int k = 0; k < 5; k++) {
        snprintf(t->heads[k], DOC_CELL_LEN, "%s", heads[k]);
        t->width[k] = widths[k];
        t->gap[k] = gaps[k];
    }
    snprintf(t->id, sizeof t->id, "gates");
    snprintf(t->cell_ids, sizeof t->cell_ids, "gate");
    snprintf(t->col_id[4], sizeof t->col_id[4], "verdict");
    st->html.left = st->html.stick_last = 1;
    if (!compare_has_gates(c))
        return 0;
    gates_notes(t, c);
    struct doc_verdicts d;
    compare_verdicts_doc(&d, c);
    int g = 0, rc = 0;
    for (size_t i = 0; i < d.n && !rc; i++) { /* the gates' verdicts, in order; the implied last */
        if (d.v[i].kind != DOC_V_GATE)
            continue;
        rc = g < c->plan.ngates ? gate_row(t, c, g, &d.v[i], err)
                                : failure_row(t, COMPARE_FAILURES_EXPR, &c->failures,
                                              "g-failures", &d.v[i], err);
        g++;
    }
    doc_verdicts_free(&d);
    return rc ? -1 : 0;
}

int compare_write_junit(const char *path, const struct comparison *c, char *err)
{
    struct doc_verdicts d;
    compare_verdicts_doc(&d, c);
    int rc = doc_verdicts_junit(path, &d, err);
    doc_verdicts_free(&d);
    return rc;
}
