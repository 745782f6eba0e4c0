/* compare_answer: whether compare's arms answer (issue 41). One call to
 * each arm before round 1 (the pre-flight), so that an arm that is down
 * is judged before a round of the other is spent; and, when B stops
 * answering during the rounds, one call to A, which tells a candidate
 * that broke (a failed arm) from a comparison that could not run (both
 * down: the machine, a shared server). What an arm that stopped gives is
 * judged in judge/comparison.h (compare_stop_exit). Internal to cli/. */
#ifndef RPCBENCH_COMPARE_ANSWER_H
#define RPCBENCH_COMPARE_ANSWER_H

#include <stddef.h>

#include "client/spawn.h"
#include "judge/comparison.h"

/* The pre-flight: one call to A, then one to B (only when A answered:
 * without A nothing can be judged, whatever B says). cs: the embedded
 * simulator the rounds use (cs->pid 0: none). The calls are outside every
 * figure, quiet, and sample no server. A signal that ends a call is noted
 * for the rounds (drive_sigint_seen), which then start none.
 * @return 0 when both answered (or a signal came), else -1 with c->stop
 * set (round 0). */
int compare_preflight(struct comparison *c, const struct child_server *cs);

/* Records in c->stop that arm a could not run round `round` (from 1),
 * with why (the run's one line, copied); when a is B, calls A once to
 * tell a failed arm (A answered) from a comparison that could not run
 * (c->stop.other_why: why A did not). A signal during that call counts as
 * A not answering and sets c->interrupted. */
void compare_arm_stopped(struct comparison *c, int a, size_t round, const char *why,
                         const struct child_server *cs);

#endif
