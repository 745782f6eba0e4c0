/* fail_rule: the failures rule of issue 41 for one run, as sweep judges
 * its cells and --find-max its probes (compare's, on paired rounds, is
 * comparison.h's): a run whose requests failed (errors, unfinished,
 * unsent: every offered request that did not end ok) beyond chance fails
 * its conditions, unless they say what may fail (an errors or unfinished
 * condition, which then decides alone). */
#ifndef RPCBENCH_JUDGE_FAIL_RULE_H
#define RPCBENCH_JUDGE_FAIL_RULE_H

#include <stddef.h>

#include "judge/condition.h"
#include "model/run_result.h"

#define FAIL_RULE_ALPHA 0.05

/* @return 1 when l (only read) has an errors or unfinished condition (of
 * the run, a verb or a stage): the user said what may fail; else 0. */
int fail_rule_allowed(const struct cond_list *l);

/* Judges r against base (both only read; base NULL: none). With a base,
 * r fails when its failure share exceeds base's beyond chance (Fisher's
 * exact test, one-sided, p < FAIL_RULE_ALPHA); without, when any request
 * failed. @return 1 when r fails the rule, with why ("failures: 47 of 150
 * requests failed (31.3%), the baseline's 0 of 150: p 1.2e-16"; len bytes,
 * the caller's), else 0 (why ""). */
int fail_rule_judge(const struct run_result *r, const struct run_result *base, char *why,
                    size_t len);

#endif
