/* agent_int: what agent.c and agent_conn.c share (internal to agent/). */
#ifndef RPCBENCH_AGENT_INT_H
#define RPCBENCH_AGENT_INT_H

#include <stdatomic.h>

#include <openssl/ssl.h>

#include "agent/agent.h"
#include "agent/agent_request.h"
#include "net/auth_token.h"

struct agent {
    int lfd;
    SSL_CTX *tls;                   /* NULL: plain TCP */
    char token[AUTH_TOKEN_MAX + 1];
    int max_conns;
    atomic_int active;              /* connection threads running */
    long refused;                   /* closed at once: max_conns were open */
};

/* One connection, its thread's (freed by it). */
struct agent_conn {
    struct agent *agent;
    int fd;
    SSL *ssl;
    char in[AGENT_REQUEST_MAX];
    size_t len;
};

/* A connection thread's body: serves c's requests, then closes and frees
 * c and counts itself out of agent->active. @return NULL. */
void *agent_conn_main(void *c);

#endif
