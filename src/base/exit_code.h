/* exit_code: every exit status rpcbench gives, in one place. The README's
 * exit-status tables (Usage, the capacity search, compare --bisect) tell
 * the user the same list; --help ends with USAGE_EXIT_CODES (cli_args.h).
 *
 * Some numbers carry several names: a site says which outcome it reports,
 * while scripts only see the number. Where several outcomes hold at once,
 * the command decides which one wins (README: 3 before 4, a signal's code
 * before a gate's verdict, ...). */
#ifndef RPCBENCH_EXIT_CODE_H
#define RPCBENCH_EXIT_CODE_H

/* Every command. */
#define EXIT_OK 0         /* success: every --threshold held, every --gate passed */
#define EXIT_RUN_FAILED 1 /* failure at run time: the target unreachable, TLS or the STOMP
                             login refused, the wrong protocol, an input that is not a
                             result, an output that cannot be written; compare: the
                             baseline A stopped answering, or both arms did */
#define EXIT_USAGE 2      /* bad usage (an option, a value, an input file): nothing sent */

/* 3: the outcome failed; the report is still printed and saved. */
#define EXIT_CONDITION_FAILED 3 /* a --threshold condition failed (run, report, sweep,
                                   either arm of compare) */
#define EXIT_NO_SUCCESS 3       /* requests were sent and none succeeded (run, an arm of
                                   compare, every cell of sweep) */
#define EXIT_REGRESSION 3       /* compare --gate: a gate found a regression */
#define EXIT_MIN_BREAKS 3       /* sweep --find-max: even --rate-min breaks the condition */
#define EXIT_ARM_FAILED 3       /* compare: arm B stopped answering (before round 1 or in a
                                   round) while A answered: the candidate is what broke */

/* 4: undecided. */
#define EXIT_INCONCLUSIVE 4     /* compare --gate: a gate is still inconclusive after the
                                   last round */
#define EXIT_MAX_HOLDS 4        /* sweep --find-max: --rate-max still holds (the capacity is
                                   above it) */

/* Ended early by signal sig: 128 + sig, as shells report it (130 SIGINT,
 * 143 SIGTERM). */
#define EXIT_SIGNAL(sig) (128 + (sig))

/* compare --bisect speaks git bisect run instead: EXIT_OK is good,
 * EXIT_SIGNAL still reports a signal (git bisect run stops on it). */
#define EXIT_BISECT_BAD 1       /* a regression, a failed --threshold, or B stopped answering
                                   while A answered */
#define EXIT_BISECT_SKIP 125    /* cannot tell: inconclusive, or it could not run (unreachable,
                                   no request succeeded, a run-time failure, the baseline A
                                   stopped answering) */
#define EXIT_BISECT_ABORT 128   /* a usage error: git bisect run reads 128 and above as
                                   "abort", so a mistyped command marks no commit bad */

/* A forked child's, before it becomes another program (the embedded
 * `serve`): never rpcbench's own status, only what its parent
 * reads of the child, as the shell's codes. */
#define EXIT_CHILD_SETUP 126    /* the child could not be readied (its stdout redirected) */
#define EXIT_CHILD_EXEC 127     /* the program could not be started (exec failed) */

#endif
