/* comparison: what `rpcbench compare` knows once its rounds are in, and
 * what it judges of them: each arm's rounds and their merge, the figures,
 * the paired intervals of B/A and what each says, the --gate and
 * --threshold verdicts and the exit code the gates give. cli/cmd_compare.c
 * fills it (options, live rounds or saved inputs); report/compare_report.h
 * writes it. */
#ifndef RPCBENCH_JUDGE_COMPARISON_H
#define RPCBENCH_JUDGE_COMPARISON_H

#include <stddef.h>

#include "judge/compare_gate.h"
#include "judge/compare_stats.h"
#include "judge/condition.h"
#include "judge/verdict.h"
#include "model/config_diff.h"
#include "model/metric.h"
#include "model/run_result.h"

/* What the judging and the reports read of the command line, copied from
 * compare's options by cli/cmd_compare.c: judge/ and report/ never see the
 * options themselves. */
struct compare_plan {
    struct cond_list thresholds;   /* --threshold, judged on each arm's merged result */
    struct gate gates[GATES_MAX];  /* --gate */
    int ngates;
    int rounds;                    /* --rounds: K, or auto's maximum */
    int rounds_auto;               /* --rounds auto: a look after each block (gate_is_look) */
    int bisect;                    /* --bisect: git bisect run's exit codes */
    int64_t longest_round_ns;      /* --longest-round: --rounds auto lengthens rounds up to it */
    char buckets[sizeof ((struct run_config *)0)->buckets]; /* --buckets spec */
    /* what two arms are compared by (config_diff.h), from the option table */
    struct config_field diff_fields[CONFIG_FIELDS_MAX];
    size_t ndiff_fields;
    const char *inputs[2];         /* the saved files as given (compare A.json B.json, or
                                      AB.json); the caller's, only read; none live */
    int ninputs;
};

/* One arm: its config, its rounds (malloc'd, each result its own, freed
 * by the caller), and their merge. */
struct compare_arm {
    struct run_config cfg;
    char letter;
    struct run_result *rounds;
    size_t nrounds;
    struct run_result merged;
    int have_merged;
    double fig[METRIC_N];            /* of the merged result */
};

/* An arm that stopped answering (issue 41): its run could not happen (the
 * target unreachable, the run gave up: measured_run's one line) at the
 * pre-flight call before round 1 or in a round. The rounds before it are
 * kept; the round it broke off is not (its other arm alone, unpaired).
 * Which arm it is decides the verdict: B stopping while A answers is a
 * failed arm (the candidate broke), A stopping, or both, is a comparison
 * that could not run (nothing to judge B against). */
struct compare_stop {
    int arm;               /* 0 A, 1 B; -1 none stopped */
    size_t round;          /* the round it could not run, from 1; 0 the pre-flight */
    int other_answered;    /* B stopped, and A then answered one call */
    char why[ERR_LEN];     /* the failed run's line */
    char other_why[ERR_LEN]; /* B stopped and A did not answer either: A's line */
};

/* Which server CPU-ms per call the comparison shows and judges: net of
 * the idle baseline when every round of both arms has one (the verdict
 * then is on what the calls cost, not on the server's background), else
 * raw; CPU_RAW_REFUSED says a round meant to take a baseline has none to
 * use (refused as not idle: result_refuse_idle), so raw is shown. */
enum cpu_basis { CPU_RAW, CPU_NET, CPU_RAW_REFUSED };

/* The whole comparison. Large: callers keep it static. */
struct comparison {
    struct compare_plan plan;
    struct compare_arm arm[2];
    size_t pairs;                 /* rounds with both arms */
    int saved;                    /* compare A.json B.json */
    struct ci ci[METRIC_N];
    int ci_rc[METRIC_N];             /* compare_stats_ci's return */
    int interrupted;              /* the signal that ended the rounds early; 0 none */
    struct gate_result gate[GATES_MAX]; /* per --gate, at the last look */
    int looks;                    /* the looks planned: MAX - 2 for --rounds auto, else 1 */
    struct verdict verdict[2];    /* --threshold, per arm's merged result */
    /* The failures rule with no allowance (errors:+0%), judged with the
     * gates; it is a verdict of its own (failures_implied) when one is
     * asked for (a --gate, --threshold or --bisect) and no errors gate
     * says what B may fail. */
    struct fail_test failures;
    int failures_implied;
    enum cpu_basis cpu_basis;     /* of METRIC_CPU_MS everywhere (compare_set_cpu_basis) */
    struct compare_stop stop;     /* an arm that stopped answering (live rounds only) */
    /* --rounds auto lengthened the rounds (compare_round_length): first
     * from round `from` (1-based; 0: never), from from_ns, and last to
     * to_ns, because a round before it held `calls` answered calls, fewer
     * than the `need` of the gate `what` (compare_gate_min_calls), or
     * cpu_ms of the server's CPU (a CPU gate's; unknown for others). */
    struct round_length {
        size_t from;
        int64_t from_ns, to_ns, calls, need;
        double cpu_ms;
        int cpu_gate;    /* `what` is a cpu_ms_per_call gate: its CPU is said */
        char what[128];
    } longer;
};

/* Zeroes c, copies plan p into it (p only read; its inputs stay the
 * caller's), names the arms 'A' and 'B', marks no arm stopped, and plans
 * the looks at the gates:
 * one on fixed or saved rounds, one after each whole block from
 * GATE_MIN_ROUNDS to the maximum with --rounds auto (gate_is_look). */
void comparison_init(struct comparison *c, const struct compare_plan *p);

/* A round's CPU per call rests on at least this many answered calls per
 * arm: with fewer, one slow call or one clock tick (10 ms) moves it by
 * several percent, and a +-10 % cpu_ms_per_call gate cannot decide. */
#define COMPARE_MIN_CALLS_CPU 30
/* ... and at least this much of the server's CPU (ms): /proc counts it in
 * 10 ms ticks, so less than a second of it is more than 1 % quantisation
 * per end of the window (an A/A at +-10 % stayed inconclusive after 12
 * rounds of 240 ms each). */
#define COMPARE_MIN_CPU_MS 1000.0

/* A percentile rests on the calls beyond it: with fewer than this many
 * per round and arm, p99's ratio between two rounds of one server moves by
 * tens of percent (an A/A at 50/s, 5 s rounds: 2 or 3 calls beyond p99),
 * and a +-10 % gate cannot decide. */
#define COMPARE_TAIL_CALLS 10

/* --rounds auto's longer rounds: after each whole block (A B, B A: the
 * rounds c->pairs - 1 and c->pairs, so both of a block have one length),
 * when an arm answered fewer calls in one of them than a gate needs
 * (compare_gate_min_calls; for a cpu_ms_per_call gate also less than
 * COMPARE_MIN_CPU_MS of server CPU), the next rounds are twice as long as
 * round_ns, at most c->plan.longest_round_ns; c->longer records the
 * first lengthening and the last reason. @return the next rounds' length
 * (ns): round_ns when nothing changes. */
int64_t compare_round_length(struct comparison *c, int64_t round_ns);

/* Why the rounds were lengthened, for stderr and the report: "a round held
 * N answered calls, too few for p99:+10% (1000 calls at least)", with the
 * server's CPU for a CPU gate, into buf
 * (caller's, n bytes, always terminated). */
void compare_round_length_why(const struct comparison *c, char *buf, size_t n);

/* Merges each arm's first c->pairs rounds into its merged result
 * (result_init'd here; have_merged says so), then takes the figures and the
 * paired intervals. @return 0, or -1 with err (ERR_LEN, caller-owned: no
 * memory, a merge failed); what was made is freed with the rest by the
 * caller. */
int compare_summarise(struct comparison *c, char *err);

/* Refuses the idle baseline of each of the first k rounds (of either
 * arm) that is above the server's quiet level, the lowest baseline another
 * of them took of the same server (the same pids): the other arm's run
 * may have left it busy (result_refuse_idle_above). Then sets
 * c->cpu_basis from those rounds. compare_summarise and
 * compare_judge_gates call it before they take figures. */
void compare_set_cpu_basis(struct comparison *c, size_t k);

/* The figures of one result of c (enum metric order, v has METRIC_N):
 * latencies in ms, CPU-ms per call on c->cpu_basis, NAN where a figure
 * does not exist (no answer, CPU not sampled). */
void compare_figures(const struct comparison *c, const struct run_result *r, double *v);

/* @return b/a, or NAN when a is 0 or unknown, or b negative (unknown). */
double compare_ratio(double a, double b);

/* The one estimator of figure f's B/A, shown by every table and format
 * (the figures table, the gates, JSON, HTML, JUnit): the geometric mean of
 * the rounds' ratios, the centre of its interval (with one round, that
 * round's ratio). @return it, or NAN when a round's ratio is undefined. */
double compare_figure_ratio(const struct comparison *c, int f);

/* The estimator, named once (the text and HTML say it under the table). */
#define COMPARE_RATIO_METHOD "B/A: the geometric mean of the rounds' ratios; the interval is " \
                             "the paired t-interval of those ratios"

/* What figure f's 95 % interval of B/A says, judged on the interval as
 * printed (its ends rounded as the table gives them), one value per
 * wording of compare_verdict's text: the HTML styles by the value, so a
 * rewording of the text cannot change the page's styling. */
enum cmp_verdict {
    CMP_NA_ONE_ROUND,   /* "n/a (1 round)": no interval */
    CMP_NA,             /* "n/a": a round's ratio is undefined */
    CMP_B_LOWER,        /* "[.., ..] B lower": the interval is below 1 */
    CMP_B_HIGHER,       /* "[.., ..] B higher": above 1 */
    CMP_TOO_FEW,        /* "[.., ..] too few rounds to tell": includes 1, 2 rounds */
    CMP_NO_DIFFERENCE   /* "[.., ..] no significant difference": includes 1 */
};

/* "[0.91, 0.98] B lower", "n/a (1 round)", ... as the text says it, into
 * out (len bytes, the caller's). @return which verdict it is. */
enum cmp_verdict compare_verdict(const struct comparison *c, int f, char *out, size_t len);

/* The paired 95 % interval of call's figure f (metric_per_call) over c's
 * rounds, as the whole run's figures have theirs (compare_stats_ci, the
 * rounds' own per-call values). @return compare_stats_ci's: 0 with *out,
 * 1 one round, -1 a ratio undefined (the call absent or unanswered in a
 * round of an arm). */
int compare_call_ci(const struct comparison *c, const char *call, enum metric f, struct ci *out);

/* The same as compare_verdict says it, for call's figure f: "[0.91, 0.98]
 * B lower", "n/a", ... into out (len bytes, the caller's), its estimator
 * (the geometric mean of the rounds' ratios; NAN when undefined) into
 * *ratio. @return which verdict it is. */
enum cmp_verdict compare_call_verdict(const struct comparison *c, const char *call,
                                      enum metric f, double *ratio, char *out, size_t len);

/* @return 1 when a figure's interval includes 1 only because there are 2
 * rounds (the text says why under its table), else 0. */
int compare_too_few_rounds(const struct comparison *c);

/* ---- the order of the arms ------------------------------------------------
 *
 * compare runs the arms of a round one after the other, so the second is
 * measured later; on a server whose cost drifts (caches warming, memory
 * growing, a neighbour's load) always running B second would give B the
 * drift as a difference. The rounds go in blocks A B, B A (A B B A, as
 * bench part P does): a drift that is linear over a block adds +d to one
 * round's log ratio and -d to the next, so it cancels in the geometric
 * mean over every two rounds, and what is left of it widens the interval
 * instead of moving it. Chosen over a seeded random order within pairs,
 * which cancels a drift only on average over many rounds (and with 3 to 6
 * rounds may well run B second in most of them); ABBA cancels it in every
 * block, deterministically, and is the same on every rerun. */

/* @return the arm that runs first in round i (from 0) of a live compare:
 * 0 (A) in even rounds, 1 (B) in odd ones. */
int compare_first_arm_planned(size_t i);

/* @return the arm that ran first in round i of c, from the rounds' own
 * start times (so a saved comparison says it too): 0 A, 1 B, -1 unknown
 * (a start not recorded, or both alike). */
int compare_first_arm(const struct comparison *c, size_t i);

/* The parameters the arms differ in (config_diff.h), from each arm's first
 * round (an arm's rounds share one configuration), into d
 * (CONFIG_DIFF_MAX entries). @return how many; 0 is an A/A, whose
 * differences are noise. */
size_t compare_config_diff(const struct comparison *c, struct config_diff *d);

/* @return the arm's label, or its encoding without one; a pointer into a. */
const char *compare_arm_name(const struct compare_arm *a);

/* ---- verdicts (compare_verdicts.c) ---------------------------------------- */

/* Judges every --gate on the first k paired rounds (c->gate filled; an
 * errors gate on the counts, compare_failure_test) and the failures rule
 * (c->failures, c->failures_implied). @return 1 when the outcome is
 * decided: every gate is (pass or regression), or one is a regression
 * (the failures rule's included), which more rounds cannot undo; else 0. */
int compare_judge_gates(struct comparison *c, size_t k);

/* The failures rule on the first k rounds with allowance tol (a
 * fraction of the requests) into *out, judged at GATE_ALPHA / c->looks
 * (compare_failures.c). A round's failures are its errors, unfinished
 * and unsent requests; its requests those and the ok ones. */
void compare_failure_test(const struct comparison *c, size_t k, double tol,
                          struct fail_test *out);

/* @return 1 when the failures rule found B failing more than allowed
 * (the implied rule, or an errors gate), else 0. */
int compare_failures_regressed(const struct comparison *c);

/* @return 1 when the failures rule (implied, or an errors gate) is still
 * inconclusive: B failed more, in bursts the rounds do not agree on. */
int compare_failures_open(const struct comparison *c);

/* @return the exit code the gates give (README, base/exit_code.h): EXIT_OK
 * all pass, EXIT_REGRESSION a regression (the failures rule's included),
 * else EXIT_INCONCLUSIVE an inconclusive gate; with --bisect EXIT_OK,
 * EXIT_BISECT_BAD or EXIT_BISECT_SKIP. EXIT_OK without --gate and
 * without a failure regression. */
int compare_gates_exit(const struct comparison *c);

/* @return 1 when B stopped answering while A answered (c->stop): a
 * failed arm, whatever the rounds before said; else 0. */
int compare_arm_failed(const struct comparison *c);

/* @return the exit code an arm that stopped gives (README, base/exit_code.h):
 * EXIT_OK when none did; EXIT_ARM_FAILED for a failed arm
 * (compare_arm_failed; EXIT_BISECT_BAD with --bisect); else, A stopped or
 * both did, EXIT_RUN_FAILED (EXIT_BISECT_SKIP with --bisect). */
int compare_stop_exit(const struct comparison *c);

/* --threshold judged on each merged arm (c->verdict filled; the verdicts
 * point at c->plan.thresholds, so c must stay where it is). Nothing
 * without --threshold. */
void compare_judge_thresholds(struct comparison *c);

/* @return how many (arm, condition) pairs failed; 0 without --threshold. */
size_t compare_thresholds_failed(const struct comparison *c);

#endif
