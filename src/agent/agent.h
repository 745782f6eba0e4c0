/* agent: `rpcbench agent`, the read-only sampler that runs on a server's
 * host so that a run on another host gets the server's CPU without MPI.
 *
 * It answers agent_request.h's two requests, each only with the shared
 * token: its clock (for the run's NTP-style offset estimate) and a stream
 * of /proc samples (agent_wire.h) of the pids or the process name the run
 * asks for, on the run's interval grid, taken by a struct sampler of its
 * own. It reports nothing else and changes nothing. A thread per
 * connection, at most max_conns of them (beyond: closed at once); a
 * request head must come whole within AGENT_REQUEST_TIMEOUT_S and
 * AGENT_REQUEST_MAX bytes; TLS (with client certificates when ca is
 * given) when cert is. */
#ifndef RPCBENCH_AGENT_H
#define RPCBENCH_AGENT_H

#include <stddef.h>

#define AGENT_REQUEST_TIMEOUT_S 5
#define AGENT_DEFAULT_PORT 9465

/* What `rpcbench agent` was asked for (the CLI fills it). */
struct agent_config {
    char listen[300];        /* HOST:PORT */
    char token_file[256];
    const char *tls_cert, *tls_key, *tls_ca; /* NULL without TLS; borrowed */
    int max_conns;
};

struct agent;

/* Reads the token, makes the TLS context and binds, and installs the
 * SIGINT and SIGTERM handlers (without SA_RESTART, for the process:
 * agent_run returns on either from then on); writes the address
 * bound into bound (boundlen bytes, the caller's) and a warning (a
 * world-readable token file) into warn (ERR_LEN, the caller's; "" none).
 * @return the agent (the caller's: agent_free), or NULL with err
 * (ERR_LEN, caller-owned). */
struct agent *agent_start(const struct agent_config *c, char *bound, size_t boundlen,
                          char *warn, char *err);
/* Accepts and serves until SIGINT or SIGTERM (agent_start's handlers). */
void agent_run(struct agent *a);
/* Closes the listening socket and frees a (NULL: nothing). Connection
 * threads still streaming end with the process. */
void agent_free(struct agent *a);

#endif
