/* agent_link: a run's side of `rpcbench agent` (--server-agent URL): the
 * server's CPU, memory and machine figures sampled on its own host.
 *
 * Opening connects, checks the token and estimates the agent's clock
 * offset with NTP-style exchanges (as rank 0 does for MPI ranks: the
 * agent's clock read between our send and our receive, the exchange with
 * the shortest round trip kept, its half round trip the error bound), all
 * before the run sends anything, so that a refusal fails the run early.
 *
 * Then a reader thread of its own holds the stream: agent_link_start asks
 * the agent for a sample at each point of the run's interval grid, mapped
 * onto the agent's clock and a little ahead (AGENT_LINK_LEAD), so that
 * sample k is in when the engine closes interval k; the thread keeps the
 * last samples under a mutex and the engine's tick only takes sample k if
 * it came (agent_link_take never waits on the network). A sample that did
 * not come, or that came from a dead agent, is unknown (-1), never 0. */
#ifndef RPCBENCH_AGENT_LINK_H
#define RPCBENCH_AGENT_LINK_H

#include <stdint.h>

#include "base/err.h"
#include "model/run_result.h"
#include "proc/sampler.h"

struct agent_link;

/* Opens cfg->agent_url (http:// or https://; over TLS with cfg's --cacert,
 * --cert, --key and --insecure) with the token of cfg->agent_token_file,
 * for the pids or the name in cfg. warn (ERR_LEN, the caller's) gets a
 * warning or "" (a world-readable token file).
 * @return the link (the caller's: agent_link_close), or NULL with err
 * (ERR_LEN, caller-owned; "server agent http://h:9465: wrong token
 * (HTTP 401)", a TLS failure, no answer). */
struct agent_link *agent_link_open(const struct run_config *cfg, char *warn, char *err);

/* Starts the stream: sample k covers the interval that ends at m0_ns + k *
 * interval_ns (this host's CLOCK_MONOTONIC). Never blocks on the network
 * (the reader thread sends the request). A second call does nothing. */
void agent_link_start(struct agent_link *l, int64_t m0_ns, int64_t interval_ns);

/* Puts sample k's server and machine figures into p (the caller's; its
 * t_ns and client_pct are left alone): the agent's, or FIG_UNKNOWN
 * (base/figure.h) when sample k did not come in time. Never blocks on the network.
 * @return 1 when sample k was there, else 0. */
int agent_link_take(struct agent_link *l, int64_t k, struct proc_point *p);

/* After the run: the server's CPU time over the samples (ms; FIG_UNKNOWN:
 * the last interval's sample missing), where it came from ("agent
 * schedstat", "" unknown) into res, the clock offset and its error, the
 * agent's cores and steal, and a warning when samples stopped coming
 * before the end (the agent died or went silent). */
void agent_link_summarise(const struct agent_link *l, struct run_result *res);

/* Stops the reader thread, closes the connection, frees l (NULL: no-op). */
void agent_link_close(struct agent_link *l);

#endif
