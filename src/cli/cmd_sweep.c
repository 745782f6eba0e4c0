/* `rpcbench sweep`: a grid of runs (the cross product of the lists given),
 * or a capacity search per --proto x --verb (drive/sweep_search.c); see README
 * "`rpcbench sweep`". Repeats are interleaved (every cell once, then again), so slow
 * drift of the machine falls on every cell alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exit_code.h"
#include "drive/profile_run.h"
#include "drive/round.h"
#include "drive/sweep_search.h"
#include "cli/cmd_sweep.h"
#include "judge/fail_rule.h"
#include "drive/live_metrics.h"
#include "cli/commands.h"
#include "client/measured_run.h"
#include "dist/dist.h"
#include "judge/condition.h"
#include "report/html.h"
#include "model/result_json.h"
#include "report/sweep_out.h"
#include "model/sweep_json.h"

/* ---- running ---------------------------------------------------------------- */

/* Every cell once, then again, --repeat times. */
static int run_grid(struct sweep_cmd *c, char *err)
{
    c->w.runs_total = c->w.s.ncells * c->w.s.repeats;
    for (size_t r = 0; r < c->w.s.repeats; r++)
        for (size_t i = 0; i < c->w.s.ncells; i++) {
            char what[100];
            if (c->w.s.repeats > 1)
                snprintf(what, sizeof what, "cell %zu/%zu repeat %zu/%zu", i + 1, c->w.s.ncells,
                         r + 1, c->w.s.repeats);
            else
                snprintf(what, sizeof what, "cell %zu/%zu", i + 1, c->w.s.ncells);
            int rc = sweep_runs_cell(&c->w, i, &c->cfgs[i], what, err);
            if (rc < 0)
                return -1;
            if (rc > 0) {
                c->w.interrupted = rc; /* the signal */
                return 0;
            }
        }
    return 0;
}

/* ---- verdicts and outputs ----------------------------------------------------- */

/* The failures rule (judge/fail_rule.h) on repeat r of cell i, unless the
 * conditions l say what may fail: against the --baseline cell's same
 * repeat (its last when it has fewer), or without one (or for the
 * baseline itself) any failure. @return 1 when it failed, said on out. */
static int judge_failures(FILE *out, const struct sweep_cmd *c, const struct cond_list *l,
                          long baseline, size_t i, size_t r)
{
    const struct run_result *base = NULL;
    if (fail_rule_allowed(l))
        return 0;
    if (baseline >= 0 && (size_t)baseline != i && c->w.s.cells[baseline].nreps > 0) {
        const struct sweep_cell *b = &c->w.s.cells[baseline];
        base = &b->reps[r < b->nreps ? r : b->nreps - 1];
    }
    char why[200];
    if (!fail_rule_judge(&c->w.s.cells[i].reps[r], base, why, sizeof why))
        return 0;
    fprintf(out, "threshold (failures): cell %zu repeat %zu: %s: FAIL\n", i + 1, r + 1, why);
    return 1;
}

/* --threshold on every run of every cell: the failures on out. @return how
 * many (cell, repeat, condition) failed, the failures rule's included. */
static size_t judge_thresholds(FILE *out, const struct sweep_cmd *c, long baseline)
{
    const struct cond_list *l = &c->o->thresholds;
    size_t failed = 0;
    struct cond_result res[COND_MAX];
    for (size_t i = 0; l->n && i < c->w.s.ncells; i++)
        for (size_t r = 0; r < c->w.s.cells[i].nreps; r++) {
            failed += (size_t)judge_failures(out, c, l, baseline, i, r);
            condition_eval_list(l, &c->w.s.cells[i].reps[r], res);
            for (size_t k = 0; k < l->n; k++) {
                char why[200];
                if (res[k].pass)
                    continue;
                failed++;
                fprintf(out, "threshold %s: cell %zu repeat %zu: %s: FAIL\n", l->c[k].expr,
                        i + 1, r + 1, condition_describe(&l->c[k], &res[k], why, sizeof why));
            }
        }
    if (l->n && !failed)
        fprintf(out, "threshold: every condition held in every run\n");
    return failed;
}

static int emit(struct sweep_cmd *c, long baseline, char *err)
{
    const struct options *o = c->o;
    int rc = 0;
    if (o->format == FORMAT_JSON) {
        json_object *j = sweep_to_json(&c->w.s);
        rc = j ? 0 : -1;
        if (j)
            puts(result_json_text(j));
        json_object_put(j);
    } else if (o->format == FORMAT_CSV) {
        rc = sweep_table_csv(stdout, &c->w.s, baseline);
    } else {
        rc = c->w.s.ncells ? sweep_table_text(stdout, &c->w.s, baseline, err) : 0;
        if (rc == 0)
            sweep_capacity_text(stdout, &c->w.s);
    }
    if (rc && !err[0])
        snprintf(err, ERR_LEN, "out of memory");
    fflush(stdout);
    if (rc == 0 && o->output[0])
        rc = sweep_save(&c->w.s, o->output, err);
    if (rc == 0 && c->a->csv[0]) {
        FILE *f = fopen(c->a->csv, "w");
        rc = !f || sweep_table_csv(f, &c->w.s, baseline) || ferror(f) ? -1 : 0;
        if ((f && fclose(f)) || rc)
            rc = -1, snprintf(err, ERR_LEN, "--csv: cannot write '%.200s'", c->a->csv);
    }
    if (rc == 0 && o->plot[0] && c->w.s.ncells)
        rc = sweep_plot_svg(o->plot, &c->w.s, err);
    if (rc == 0 && o->html[0] && c->w.s.ncells)
        rc = html_write_sweep(o->html, &c->w.s, baseline, err);
    return rc;
}

/* EXIT_SIGNAL when interrupted (130 SIGINT, 143 SIGTERM); else
 * EXIT_NO_SUCCESS when requests went out and none succeeded in any cell;
 * else EXIT_CONDITION_FAILED when a --threshold failed; else the searches'
 * code (sweep_search_exit), and when that is EXIT_OK, EXIT_RUN_FAILED if a
 * run's profile was lost (asked for, the profiler failed). */
static int exit_code(const struct sweep_cmd *c, size_t thr_failed)
{
    int64_t sent = 0, ok = 0, lost = 0;
    for (size_t i = 0; i < c->w.s.ncells; i++)
        for (size_t r = 0; r < c->w.s.cells[i].nreps; r++) {
            sent += c->w.s.cells[i].reps[r].offered;
            ok += c->w.s.cells[i].reps[r].ok;
            lost += c->w.s.cells[i].reps[r].profile.lost;
        }
    if (c->w.interrupted)
        return EXIT_SIGNAL(c->w.interrupted);
    if (sent > 0 && ok == 0) {
        fprintf(stderr, "rpcbench sweep: none of the %lld requests succeeded\n", (long long)sent);
        return EXIT_NO_SUCCESS;
    }
    if (thr_failed)
        return EXIT_CONDITION_FAILED;
    int code = c->a->find_max ? sweep_search_exit(&c->w) : EXIT_OK;
    if (code == EXIT_OK && lost) {
        fprintf(stderr, "rpcbench sweep: --profile: %lld of the runs have no profile (the "
                "profiler failed: see above)\n", (long long)lost);
        code = EXIT_RUN_FAILED;
    }
    return code;
}

/* A probe's run_config (drive/sweep_search.h's sweep_cell_config_fn):
 * ctx is the command's options. */
static int probe_config(const void *ctx, const struct sweep_params *p, struct run_config *cfg,
                        char *err)
{
    return sweep_cell_config(ctx, p, cfg, err);
}

/* The searches --find-max asks for, from the command line a (kept). */
static struct sweep_search_plan search_plan(const struct sweep_cmd *c)
{
    const struct sweep_args *a = c->a;
    return (struct sweep_search_plan){
        .protos = a->protos, .nprotos = a->nprotos, .verbs = a->verbs, .nverbs = a->nverbs,
        .connections = a->conns[0], .vms = a->vms[0], .rate_min = a->rate_min,
        .rate_max = a->rate_max, .resolution = a->resolution, .find = &a->find,
        .find_text = a->find_text, .config = probe_config, .ctx = c->o};
}

/* Every search's config checked before anything runs; a --proto not
 * given is named by run's default. @return 0, or -1 with err (usage). */
static int check_searches(struct sweep_cmd *c, char *err)
{
    static struct run_config cfg;
    struct sweep_search_plan plan = search_plan(c);
    for (size_t ip = 0; ip < plan.nprotos; ip++)
        for (size_t ib = 0; ib < plan.nverbs; ib++) {
            struct sweep_params p;
            sweep_search_params(&plan, ip, ib, plan.rate_min, &p);
            if (sweep_cell_config(c->o, &p, &cfg, err))
                return -1;
            snprintf(c->a->protos[ip], sizeof c->a->protos[ip], "%s", cfg.encoding);
            if (condition_check_verbs(&c->a->find, &cfg, err)) {
                cli_name_error("--find-max", err); /* a verb this search does not send */
                return -1;
            }
        }
    return 0;
}

static int run_searches(struct sweep_cmd *c, char *err)
{
    struct sweep_search_plan plan = search_plan(c);
    return sweep_search_run(&c->w, &plan, err);
}

/* ---- the command ------------------------------------------------------------ */

/* Everything checked before the first request. @return 0, 1 for --help, or
 * -1 with err (usage). */
static int setup(struct sweep_cmd *c, int argc, char **argv, long *baseline, char *err)
{
    int rc = options_parse(argc, argv, CMD_SWEEP, c->a, c->o, err);
    if (rc)
        return rc;
    options_distribute(c->o); /* under mpirun: files are rank 0's */
    if (dist_rank() != 0)
        c->a->csv[0] = '\0';
    if (sweep_args_check(c->a, c->o, err) || drive_profile_alone(&c->o->profile, "sweep", err) ||
        profile_check(&c->o->profile, c->o->server_pid[0] || c->o->cfg.server_name[0],
                      err))
        return -1;
    c->w.profile = &c->o->profile;
    c->w.quiet = c->o->cfg.quiet;
    if (c->a->find_max)
        return check_searches(c, err);
    if (sweep_args_cells(c->a, c->o, &c->w.s, &c->cfgs, err))
        return -1;
    size_t cell;
    *baseline = -1;
    if (!c->o->baseline[0])
        return 0;
    if (sweep_select(&c->w.s, c->o->baseline, &cell, err)) {
        cli_name_error("--baseline", err);
        return -1;
    }
    *baseline = (long)cell;
    return 0;
}

static void cleanup(struct sweep_cmd *c)
{
    sweep_runs_stop(&c->w);
    sweep_free(&c->w.s);
    free(c->cfgs);
}

int cmd_sweep(int argc, char **argv)
{
    static struct options o;
    static struct sweep_args a;
    static struct sweep_cmd c;
    memset(&c, 0, sizeof c);
    c.o = &o;
    c.a = &a;
    sweep_init(&c.w.s);
    char err[ERR_LEN] = "";
    long baseline = -1;
    int rc = setup(&c, argc, argv, &baseline, err);
    if (rc) {
        cleanup(&c);
        if (rc > 0)
            return EXIT_OK; /* --help, --version */
        fprintf(stderr, "rpcbench sweep: %s\n", err);
        return EXIT_USAGE;
    }
    drive_catch_sigint();
    if (o.hdr_log[0])
        rc = hdrlog_sink_open(&c.w.hdr, o.hdr_log, err);
    if (rc == 0)
        rc = live_metrics_start(o.metrics_listen, &o.cfg, err);
    if (rc == 0)
        rc = a.find_max ? run_searches(&c, err) : run_grid(&c, err);
    live_metrics_stop(o.metrics_linger_ns);
    int run_failed = rc != 0;
    if (run_failed) /* still show what was measured before it */
        fprintf(stderr, "rpcbench sweep: %s\n", err);
    c.w.s.interrupted = c.w.interrupted;
    if (c.w.interrupted)
        fprintf(stderr, "rpcbench sweep: interrupted; reporting the %zu run(s) done\n",
                c.w.runs_done);
    err[0] = '\0';
    rc = emit(&c, baseline, err);
    size_t thr_failed = judge_thresholds(o.format == FORMAT_TEXT ? stdout : stderr, &c,
                                         baseline);
    int code = run_failed ? EXIT_RUN_FAILED : exit_code(&c, thr_failed);
    cleanup(&c);
    if (rc) {
        fprintf(stderr, "rpcbench sweep: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    return code;
}
