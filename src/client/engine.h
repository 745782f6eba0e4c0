/* engine: the load loop of one run: open-loop pacing, connections, and the
 * recording of every request into the result.
 *
 * Latency counts from each request's intended send time (no coordinated
 * omission); service time from the actual write; send lag is the difference.
 * The run ends at warmup + duration: no new sends, in-flight requests get
 * until their timeout, and what was never sent or is still pending at the
 * end is `unfinished`. sent = ok + errors + unfinished always holds. */
#ifndef RPCBENCH_ENGINE_H
#define RPCBENCH_ENGINE_H

#include "model/run_result.h"
#include "net/target.h"
#include "base/units.h"

struct sampler;
struct agent_link;

/* Runs cfg against target, filling res (initialised by the caller with
 * result_init), calling hooks (copied; NULL or any of its members NULL:
 * none) while it goes. cfg, target, smp and res stay the caller's and must
 * outlive the call; smp (the /proc sampler, started and sampled here) may
 * be NULL; so may agent (agent_link.h, opened by the caller: started
 * with the grid and taken from at each tick, its server and machine
 * figures replacing smp's). Everything the run allocates is freed before it returns.
 * @return 0 (the run happened, whatever its errors; res holds it), or -1
 * with a one-line err (ERR_LEN) when it could not start (bad options for
 * the wire, unreachable target, out of memory). */
int engine_run(const struct run_config *cfg, const struct run_hooks *hooks,
               const struct target *target, struct sampler *smp, struct agent_link *agent,
               struct run_result *res, char *err);

#endif
