/* `rpcbench compare`: A/B of two protocols or two servers.
 *
 * Live: K rounds in blocks A B, B A, ..., the same load each time, so slow
 * drift of the machine or the server (thermal, other tenants, caches
 * warming) falls on both arms alike (comparison.h, the order of the arms);
 * each round pairs an A with a B and the spread of the pairs' ratios gives
 * the confidence interval (compare_stats.h); an arm that stops answering
 * (compare_answer.h: each is called once before round 1) ends the rounds,
 * the complete ones kept and judged. Saved (compare_saved.h): two
 * result files, one round each, compared the same way without an interval,
 * or a saved comparison, rendered again from its rounds. This file runs
 * the command (options, rounds or saved inputs, outputs, exit code); what
 * it finds is judged in judge/comparison.h and written by
 * report/compare_report.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exit_code.h"
#include "base/units.h"
#include "cli/commands.h"
#include "drive/profile_run.h"
#include "drive/round.h"
#include "drive/compare_answer.h"
#include "drive/compare_profile.h"
#include "model/compare_saved.h"
#include "cli/options.h"
#include "cli/option_table.h"
#include "report/compare_report.h"
#include "drive/live_metrics.h"
#include "report/hdrlog_sink.h"
#include "report/plot.h"
#include "model/result_json.h"
#include "model/server_cpu.h"
#include "client/measured_run.h"
#include "dist/dist.h"

/* Each arm's --hdr-log sink, written while its rounds run: the command's,
 * not the comparison's (judge/comparison.h). */
static struct hdrlog_sink hdr[2];

/* What the judging and the reports read of the options (judge/comparison.h):
 * copied, but the saved files' paths, which point into argv; and what the
 * arms are compared by, from the option table. @return 0, or -1 with err
 * (a row of the table says not how to compare it: a bug). */
static int plan_of(const struct options *o, struct compare_plan *p, char *err)
{
    memset(p, 0, sizeof *p);
    int n = options_diff_fields(p->diff_fields, err);
    if (n < 0)
        return -1;
    p->ndiff_fields = (size_t)n;
    p->thresholds = o->thresholds;
    memcpy(p->gates, o->gates, sizeof p->gates);
    p->ngates = o->ngates;
    p->rounds = o->rounds;
    p->rounds_auto = o->rounds_auto;
    /* A gate is a verdict to decide: 3 rounds left an A/A at +-10 %
     * inconclusive (issue 41), so a live compare with a gate and no
     * --rounds looks again after each round, as --rounds auto does. */
    if (o->ngates > 0 && o->npositional == 0 && !options_given(o, "rounds")) {
        p->rounds = GATE_AUTO_MAX;
        p->rounds_auto = 1;
    }
    p->bisect = o->bisect;
    p->longest_round_ns = o->longest_round_ns > 0 ? o->longest_round_ns : 4 * o->cfg.duration_ns;
    snprintf(p->buckets, sizeof p->buckets, "%s", o->cfg.buckets);
    for (int i = 0; i < o->npositional && i < 2; i++)
        p->inputs[p->ninputs++] = o->positional[i];
    return 0;
}

/* ---- outputs ---------------------------------------------------------------- */

static int arm_path(const char *base, char letter, char *out, size_t len, char *err)
{
    if ((size_t)snprintf(out, len, "%s.%c", base, letter) >= len) {
        snprintf(err, ERR_LEN, "file name too long: %.200s", base);
        return -1;
    }
    return 0;
}

/* compare --profile's B - A by function and by module (taken 0: none). */
static struct profile_diff pdiff[2];

/* The comparison as JSON, with the profile's diff when there is one. */
static json_object *to_json(const struct comparison *c)
{
    json_object *j = compare_to_json(c);
    if (pdiff[0].taken)
        json_object_object_add(j, "profile_diff", profile_diff_json(&pdiff[0]));
    if (pdiff[1].taken)
        json_object_object_add(j, "profile_diff_modules", profile_diff_json(&pdiff[1]));
    return j;
}

static int save_json(const char *path, const struct comparison *c, char *err)
{
    json_object *j = to_json(c);
    int rc = result_json_write(j, path, err);
    json_object_put(j);
    return rc;
}

static int emit(const struct options *o, const struct comparison *c, char *err)
{
    int rc = 0;
    if (o->format == FORMAT_JSON) {
        json_object *j = to_json(c);
        puts(result_json_text(j));
        json_object_put(j);
    } else {
        rc = compare_write_text(stdout, c, err) || compare_profile_text(stdout, pdiff, err);
    }
    fflush(stdout);
    if (rc == 0 && o->output[0])
        rc = save_json(o->output, c, err);
    for (int a = 0; rc == 0 && o->pct_dist[0] && a < 2; a++) {
        char path[600];
        rc = arm_path(o->pct_dist, c->arm[a].letter, path, sizeof path, err) ||
             hdrlog_percentile_dist(path, &c->arm[a].merged.latency, err);
    }
    if (rc == 0 && o->junit[0])
        rc = compare_write_junit(o->junit, c, err);
    if (rc == 0 && o->html[0])
        rc = compare_write_html(o->html, c, pdiff, err);
    if (rc == 0 && o->plot[0]) {
        const struct run_result *arms[2] = {&c->arm[0].merged, &c->arm[1].merged};
        const char *names[2] = {compare_arm_name(&c->arm[0]), compare_arm_name(&c->arm[1])};
        rc = plot_svg(o->plot, arms, names, 2, err);
    }
    return rc ? -1 : 0;
}

/* ---- the rounds ----------------------------------------------------------- */

static int open_hdr_logs(const char *base, const struct comparison *c, char *err)
{
    for (int a = 0; a < 2; a++) {
        char path[600];
        if (arm_path(base, c->arm[a].letter, path, sizeof path, err) ||
            hdrlog_sink_open(&hdr[a], path, err))
            return -1;
    }
    return 0;
}

/* One round of one arm. @return 0, the signal (> 0) when one ended it or came
 * before it (stop), -1 on error. */
static int run_one(struct comparison *c, int a, size_t i, const struct child_server *cs,
                   const struct options *o, char *err)
{
    if (drive_sigint_seen())
        return drive_sigint_seen(); /* a ^C between rounds: no round starts after it */
    struct compare_arm *arm = &c->arm[a];
    char prefix[96], line[160];
    snprintf(prefix, sizeof prefix, "round %zu/%d %c %.40s", i + 1, c->plan.rounds, arm->letter,
             arm->cfg.label);
    snprintf(line, sizeof line, "round %zu/%d arm %c (%s)", i + 1, c->plan.rounds, arm->letter,
             arm->cfg.label);
    char name[32];
    struct round_tag tag = {.line = line, .prefix = prefix,
                            .labels = {.arm = {arm->letter}, .round = (int)i + 1, .cell = -1},
                            .profile = &o->profile, .profile_name = name,
                            .fold = compare_profile_slot(a, i, arm->letter, name, sizeof name)};
    int rc = drive_round(&arm->cfg, cs, &tag, o->hdr_log[0] ? &hdr[a] : NULL, &arm->rounds[i],
                       err);
    arm->nrounds++; /* initialised either way: freed with the rest */
    return rc;
}

/* run_rounds' return when a signal came before any round was complete: the
 * run exits EXIT_SIGNAL (128 + the signal), with err's line and no report. */
#define RUN_ROUNDS_NONE (-3)
/* run_rounds' return when an arm stopped answering (c->stop) before a
 * round was complete: no report (nothing to compare), but a verdict: the
 * exit code and --junit say which arm (report). */
#define RUN_ROUNDS_STOPPED (-4)

/* --rounds auto: the next rounds longer when these held too few calls
 * for a gate (compare_round_length), said on stderr. */
static void lengthen(struct comparison *c)
{
    int64_t now = c->arm[0].cfg.duration_ns, next = compare_round_length(c, now);
    if (next == now)
        return;
    c->arm[0].cfg.duration_ns = c->arm[1].cfg.duration_ns = next;
    char from[32], to[32], most[32], why[256];
    units_format_duration(now, from, sizeof from);
    units_format_duration(next, to, sizeof to);
    units_format_duration(c->plan.longest_round_ns, most, sizeof most);
    compare_round_length_why(c, why, sizeof why);
    if (dist_is_root())
        fprintf(stderr, "rpcbench compare: rounds %zu and on last %s, not %s: %s (rounds "
                "%zu-%zu; --longest-round %s)\n", c->pairs + 1, to, from, why, c->pairs - 1,
                c->pairs, most);
}

/* The rounds in blocks A B, B A (compare_first_arm_planned: a steady
 * drift of the server cannot favour an arm) until --rounds (or --rounds
 * auto decides), or an arm stops answering: a run that could not happen
 * (unreachable, given up) is that arm's, recorded in c->stop, and ends the
 * rounds; the round it broke off is not paired. @return 0, or the signal
 * (> 0) that ended them; c->pairs the complete rounds. */
static int rounds_loop(struct comparison *c, const struct child_server *cs,
                       const struct options *o, char *err)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < (size_t)c->plan.rounds; i++) {
        int first = compare_first_arm_planned(i), a = first;
        rc = run_one(c, a, i, cs, o, err);
        if (rc == 0)
            rc = run_one(c, a = !first, i, cs, o, err);
        if (rc < 0) {
            compare_arm_stopped(c, a, i + 1, err, cs);
            return 0;
        }
        if (c->arm[0].nrounds == i + 1 && c->arm[1].nrounds == i + 1)
            c->pairs = i + 1;
        lengthen(c);
        if (rc == 0 && c->plan.rounds_auto && gate_is_look(c->pairs, (size_t)c->plan.rounds) &&
            compare_judge_gates(c, c->pairs)) /* a look: stop once every gate is decided */
            break;
    }
    return rc;
}

/* Says on stderr which arm stopped answering, in which round, and what is
 * reported. */
static void say_stopped(const struct comparison *c)
{
    static char text[DOC_KV_VALUE];
    compare_stop_text(c, text, sizeof text);
    if (c->pairs) /* one line, the run's own last (it may hold a ';') */
        fprintf(stderr, "rpcbench compare: reporting %zu complete round(s): %s\n", c->pairs,
                text);
    else
        fprintf(stderr, "rpcbench compare: no round complete, nothing to compare: %s\n", text);
}

/* Checks that both arms answer (one call each: compare_preflight), then
 * runs the rounds (rounds_loop). @return 0 with c->pairs complete rounds
 * (c->interrupted: the signal that cut them short; c->stop: an arm that
 * stopped answering), RUN_ROUNDS_NONE, RUN_ROUNDS_STOPPED, or -1 with
 * err. */
static int run_rounds(struct comparison *c, const struct options *o, char *err)
{
    struct child_server cs = {0};
    if ((!c->arm[0].cfg.url[0] || !c->arm[1].cfg.url[0]) &&
        dist_spawn_server(&c->arm[0].cfg, &cs, err))
        return -1;
    int rc = compare_preflight(c, &cs) ? 0 : rounds_loop(c, &cs, o, err);
    spawn_stop(&cs);
    if (c->stop.arm >= 0) {
        say_stopped(c);
        return c->pairs ? 0 : RUN_ROUNDS_STOPPED;
    }
    if (rc > 0) {
        c->interrupted = rc; /* the signal */
        fprintf(stderr, "rpcbench compare: interrupted; reporting %zu complete round(s)\n", c->pairs);
    }
    if (rc > 0 && c->pairs == 0) {
        snprintf(err, ERR_LEN, "interrupted (%s) before round 1 was complete: nothing to "
                 "compare, nothing written", result_signal_name(rc));
        return RUN_ROUNDS_NONE;
    }
    if (c->pairs == 0) {
        snprintf(err, ERR_LEN, "no complete round");
        return -1;
    }
    return 0;
}

/* Arms with one label (an A/A, or --label X) get "-A" and "-B", so every
 * table, file and plot line tells them apart. */
static void label_arms(struct comparison *c)
{
    struct run_config *a = &c->arm[0].cfg, *b = &c->arm[1].cfg;
    if (strcmp(a->label, b->label))
        return;
    char base[sizeof a->label];
    snprintf(base, sizeof base, "%s", a->label);
    snprintf(a->label, sizeof a->label, "%.*s-A", (int)sizeof a->label - 3, base);
    snprintf(b->label, sizeof b->label, "%.*s-B", (int)sizeof b->label - 3, base);
}

static int setup_live(struct comparison *c, struct options *o, char *err)
{
    /* no --proto and the simulator: compare the two encodings; a single
     * --proto is both arms' (README), which may make an A/A */
    if (!o->url[0] && !o->encoding_given)
        snprintf(o->encoding, sizeof o->encoding, "xmlrpc,jsonrpc");
    for (int a = 0; a < 2; a++) {
        if (options_arm(o, a, &c->arm[a].cfg, err))
            return -1;
        c->arm[a].rounds = calloc((size_t)c->plan.rounds, sizeof *c->arm[a].rounds);
        if (!c->arm[a].rounds) {
            snprintf(err, ERR_LEN, "out of memory");
            return -1;
        }
    }
    label_arms(c);
    if (o->rounds == 2)
        fprintf(stderr, "compare: 2 rounds give an interval too wide to show most differences; "
                        "use 3 or more\n");
    return o->hdr_log[0] ? open_hdr_logs(o->hdr_log, c, err) : 0;
}

/* compare A.json B.json, or compare AB.json (compare_saved.h). */
static int load_saved(struct comparison *c, char *err)
{
    struct run_result *rounds[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    static struct saved_stop stop; /* two error lines: off the stack */
    int rc = compare_load_saved((const char *const *)c->plan.inputs, (size_t)c->plan.ninputs,
                                rounds, n, &stop, err);
    for (int a = 0; a < 2; a++) {
        c->arm[a].rounds = rounds[a];
        c->arm[a].nrounds = n[a];
    }
    c->pairs = n[0] < n[1] ? n[0] : n[1];
    c->saved = 1;
    /* an arm that stopped answering decides as it did live (stop_decides) */
    c->stop.arm = stop.arm;
    c->stop.round = stop.round;
    c->stop.other_answered = stop.a_answered;
    snprintf(c->stop.why, sizeof c->stop.why, "%s", stop.why);
    snprintf(c->stop.other_why, sizeof c->stop.other_why, "%s", stop.a_why);
    return rc;
}

/* The latencies of every run of arm that ran: what its --hdr-log was
 * given, a round left unpaired included (the other arm stopped answering,
 * or a signal came between the arms), which the comparison leaves out. */
static int64_t latencies_run(const struct compare_arm *arm)
{
    int64_t n = 0;
    for (size_t i = 0; i < arm->nrounds; i++)
        n += arm->rounds[i].latency.total_count;
    return n;
}

static void cleanup(struct comparison *c, char *err)
{
    for (int a = 0; a < 2; a++) {
        struct compare_arm *arm = &c->arm[a];
        if (hdr[a].f && hdrlog_sink_close(&hdr[a], err) == 0 &&
            hdr[a].total != latencies_run(arm))
            fprintf(stderr, "compare: --hdr-log %c holds %lld values for %lld latencies\n",
                    arm->letter, (long long)hdr[a].total, (long long)latencies_run(arm));
        for (size_t i = 0; i < arm->nrounds; i++)
            result_free(&arm->rounds[i]);
        free(arm->rounds);
        if (arm->have_merged)
            result_free(&arm->merged);
    }
}

/* How many rounds asked for a profile and got none (the profiler failed). */
static size_t profiles_lost(const struct comparison *c)
{
    size_t lost = 0;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < c->arm[a].nrounds; i++)
            lost += (size_t)c->arm[a].rounds[i].profile.lost;
    return lost;
}

/* @return 1 when arm a's merged rounds sent requests and none succeeded. */
static int no_success(const struct comparison *c, int a)
{
    const struct run_result *m = &c->arm[a].merged;
    return c->arm[a].have_merged && m->offered > 0 && m->ok == 0;
}

/* An arm that stopped answering gives the code (compare_stop_exit: B a
 * failed arm, A could not run), ahead of what its rounds said, since they
 * are not all there; but not when a signal came before A could answer
 * (nothing was judged: the signal's code), nor under --bisect when none
 * of the baseline's requests succeeded (it cannot tell what B did: skip).
 * @return 1 when it does, with *code. */
static int stop_decides(const struct comparison *c, int *code)
{
    if (c->stop.arm < 0 || (c->interrupted && !compare_arm_failed(c)))
        return 0;
    if (c->plan.bisect && no_success(c, 0))
        return 0;
    *code = compare_stop_exit(c);
    return 1;
}

/* As run's (README): first an arm that stopped answering (stop_decides);
 * then EXIT_NO_SUCCESS when an arm sent requests and none succeeded, so
 * there is nothing to compare; else EXIT_SIGNAL (130 SIGINT, 143 SIGTERM)
 * when one cut the rounds short; else EXIT_CONDITION_FAILED when a
 * --threshold failed; else the gates' verdict (the failures rule's
 * included), and when that is EXIT_OK, EXIT_RUN_FAILED if a round's
 * profile was lost. --bisect makes "nothing to compare" a skip, but a
 * candidate that failed every call while the baseline answered bad (the
 * failures rule: it is what broke), a failed threshold bad, and leaves a
 * lost profile out (the commit's verdict is the load's). */
static int exit_code(const struct comparison *c)
{
    int code = EXIT_OK, b_broke = 0;
    if (stop_decides(c, &code))
        return code;
    for (int a = 0; a < 2; a++) {
        if (no_success(c, a)) {
            fprintf(stderr, "rpcbench compare: arm %c: none of its %lld requests succeeded\n",
                    c->arm[a].letter, (long long)c->arm[a].merged.offered);
            b_broke = a == 1 && code == EXIT_OK && compare_failures_regressed(c);
            code = EXIT_NO_SUCCESS;
        }
    }
    if (b_broke && c->plan.bisect)
        return EXIT_BISECT_BAD;
    if (code != EXIT_OK && c->plan.bisect)
        return EXIT_BISECT_SKIP;
    if (code == EXIT_OK && c->interrupted)
        code = EXIT_SIGNAL(c->interrupted);
    if (code == EXIT_OK && compare_thresholds_failed(c)) /* a budget broken: as a regression */
        code = c->plan.bisect ? EXIT_BISECT_BAD : EXIT_CONDITION_FAILED;
    if (code == EXIT_OK)
        code = compare_gates_exit(c);
    size_t lost = code == EXIT_OK && !c->plan.bisect ? profiles_lost(c) : 0;
    if (lost) {
        fprintf(stderr, "rpcbench compare: --profile: %zu of the rounds have no profile (the "
                "profiler failed: see above)\n", lost);
        code = EXIT_RUN_FAILED;
    }
    return code;
}

/* The command line: options, then at most two saved files, readable.
 * @return 0, 1 after --help or --version, or -1 with err (usage). */
static int parse_command(int argc, char **argv, struct options *o, char *err)
{
    int rc = options_parse(argc, argv, CMD_COMPARE, NULL, o, err);
    if (rc)
        return rc;
    int server = o->server_pid[0] || o->cfg.server_name[0];
    if (o->npositional == 0 && (drive_profile_alone(&o->profile, "compare", err) ||
                                profile_check(&o->profile, server, err)))
        return -1;
    if (o->npositional > 2) {
        snprintf(err, ERR_LEN, "give two saved results (A.json B.json), one saved comparison, "
                 "or none");
        return -1;
    }
    for (int i = 0; i < o->npositional; i++) {
        char path[1024]; /* S.json#SEL: a sweep's cell */
        compare_saved_file(o->positional[i], path, sizeof path);
        if (cli_check_readable(NULL, path, err))
            return -1;
    }
    return 0;
}

/* One arm's round, in ns: the idle baseline, the warmup and the window. */
static int64_t arm_round_ns(const struct run_config *cfg)
{
    return server_cpu_idle_ns(cfg) + cfg->warmup_ns + cfg->duration_ns;
}

/* Under --bisect, what each commit will cost, before it starts (issue 41:
 * git bisect run repeats it for every commit it tries, so the user must
 * know it up front): the rounds' time, at most and at least. */
static void print_bisect_cost(const struct comparison *c)
{
    if (!c->plan.bisect || !dist_is_root())
        return;
    int64_t pair = arm_round_ns(&c->arm[0].cfg) + arm_round_ns(&c->arm[1].cfg);
    char most[32], least[32], one[32];
    units_format_duration(pair * c->plan.rounds, most, sizeof most);
    units_format_duration(pair * GATE_MIN_ROUNDS, least, sizeof least);
    units_format_duration(pair / 2, one, sizeof one);
    if (c->plan.rounds_auto)
        fprintf(stderr, "rpcbench compare: --bisect: each commit costs %s to %s (%d to %d "
                "rounds x 2 arms x about %s: idle baseline, warmup and window), plus starting "
                "the servers; --rounds auto stops once the outcome is decided\n", least, most,
                GATE_MIN_ROUNDS, c->plan.rounds, one);
    else
        fprintf(stderr, "rpcbench compare: --bisect: each commit costs %s (%d rounds x 2 arms "
                "x about %s: idle baseline, warmup and window), plus starting the servers\n",
                most, c->plan.rounds, one);
}

/* A per-call --gate (CALL.METRIC) names a call both arms send (live: of
 * their workloads or verbs; saved: of their first rounds). @return 0, or
 * -1 with err. */
static int gate_calls(const struct comparison *c, const struct run_config *a,
                      const struct run_config *b, char *err)
{
    return gate_check_calls(c->plan.gates, c->plan.ngates, a, err) ||
           gate_check_calls(c->plan.gates, c->plan.ngates, b, err) ? -1 : 0;
}

/* The rounds of both arms: loaded from saved files, or run live.
 * @return 0, or as run_rounds (RUN_ROUNDS_NONE, -1) with err; *usage set
 * when the failure is the command line's. */
static int measure(struct comparison *c, struct options *o, int *usage, char *err)
{
    int rc;
    if (o->npositional > 0) {
        rc = load_saved(c, err);
        *usage = rc == -2; /* S.json#SEL names no single cell */
        if (rc == 0 && gate_calls(c, &c->arm[0].rounds[0].cfg, &c->arm[1].rounds[0].cfg, err)) {
            *usage = 1;
            return -1;
        }
        return rc;
    }
    rc = setup_live(c, o, err);
    *usage = rc != 0 && c->arm[1].rounds == NULL; /* bad --proto, --server-pid, ... */
    if (rc == 0 && condition_check_verbs(&c->plan.thresholds, &c->arm[0].cfg, err)) {
        cli_name_error("--threshold", err); /* a verb neither arm sends */
        *usage = 1;
        return -1;
    }
    if (rc == 0 && gate_calls(c, &c->arm[0].cfg, &c->arm[1].cfg, err)) {
        *usage = 1; /* before the first request */
        return -1;
    }
    if (rc == 0 && live_metrics_start(o->metrics_listen, &o->cfg, err))
        return -1;
    if (rc == 0)
        print_bisect_cost(c);
    return rc == 0 ? run_rounds(c, o, err) : rc;
}

/* Merges, judges and writes the complete rounds; with none complete
 * because an arm stopped answering (measured RUN_ROUNDS_STOPPED) there is
 * nothing to compare, and only the --junit file is written: its one
 * testcase says which arm (compare_verdicts_doc), for CI to show.
 * @return 0, or -1 with err. */
static int report(struct comparison *c, struct options *o, int measured, char *err)
{
    if (measured == RUN_ROUNDS_STOPPED)
        return o->junit[0] ? compare_write_junit(o->junit, c, err) : 0;
    int rc = compare_summarise(c, err);
    if (rc == 0)
        rc = compare_profile_diff(c, &o->profile, pdiff, err);
    if (rc == 0) {
        compare_judge_gates(c, c->pairs);
        compare_judge_thresholds(c);
    }
    return rc == 0 ? emit(o, c, err) : -1;
}

int cmd_compare(int argc, char **argv)
{
    static struct options o; /* large: keep it off the stack */
    static struct comparison c;
    char err[ERR_LEN] = "";
    int rc = parse_command(argc, argv, &o, err);
    if (rc == 1)
        return EXIT_OK; /* --help, --version */
    if (rc < 0) {
        fprintf(stderr, "rpcbench compare: %s\n", err);
        return o.bisect ? EXIT_BISECT_ABORT : EXIT_USAGE; /* stop bisect, not "bad" */
    }
    options_distribute(&o);
    static struct compare_plan plan; /* large, as c */
    if (plan_of(&o, &plan, err)) {
        fprintf(stderr, "rpcbench compare: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    comparison_init(&c, &plan);
    memset(hdr, 0, sizeof hdr);
    int usage = 0;
    rc = measure(&c, &o, &usage, err);
    if (rc == 0 || rc == RUN_ROUNDS_STOPPED)
        rc = report(&c, &o, rc, err);
    int code = rc == 0 ? exit_code(&c) : EXIT_OK;
    live_metrics_stop(o.metrics_linger_ns);
    char cerr[ERR_LEN] = "";
    cleanup(&c, cerr);
    compare_profile_free();
    if (rc == 0 && cerr[0]) {
        snprintf(err, ERR_LEN, "%s", cerr);
        rc = -1;
    }
    if (rc == RUN_ROUNDS_NONE) {
        fprintf(stderr, "rpcbench compare: %s\n", err);
        return EXIT_SIGNAL(c.interrupted);
    }
    if (rc) {
        fprintf(stderr, "rpcbench compare: %s\n", err);
        return usage ? (o.bisect ? EXIT_BISECT_ABORT : EXIT_USAGE)
                     : o.bisect ? EXIT_BISECT_SKIP : EXIT_RUN_FAILED;
    }
    return code;
}
