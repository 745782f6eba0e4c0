/* agent: the accept loop and the connections of `rpcbench agent`
 * (agent.h). Blocking sockets with timeouts, one thread each: a stream
 * sleeps until its next sample, which no event loop would make simpler. */
#include "agent/agent.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "agent/agent_int.h"
#include "base/err.h"
#include "net/listen.h"
#include "net/tls.h"

static volatile sig_atomic_t stopping;
/* agent_free's, while streams still run. volatile: a static only written
 * is a dead store the optimiser drops, and LeakSanitizer then reported the
 * agent as leaked whenever a stream outlived the accept loop. */
static struct agent *volatile lingering;

static void on_stop(int sig)
{
    (void)sig;
    stopping = 1;
}

struct agent *agent_start(const struct agent_config *c, char *bound, size_t boundlen,
                          char *warn, char *err)
{
    struct agent *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, ERR_LEN, "out of memory");
        return NULL;
    }
    a->lfd = -1;
    a->max_conns = c->max_conns;
    if (auth_token_read(c->token_file, a->token, warn, err))
        goto fail;
    if (c->tls_cert && !(a->tls = tls_server_ctx(c->tls_cert, c->tls_key, c->tls_ca, err)))
        goto fail;
    a->lfd = net_listen_at(c->listen, "--listen", 16, bound, boundlen, err);
    if (a->lfd < 0)
        goto fail;
    /* before the caller says it listens: a SIGTERM right after that line
     * stops the agent as any other, not by the default action */
    struct sigaction sa = {.sa_handler = on_stop}; /* no SA_RESTART: poll returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return a;
fail:
    agent_free(a);
    return NULL;
}

/* Takes one accepted connection: a thread of its own, or closed at once
 * when max_conns are open (the peer sees the close). */
static void take(struct agent *a, int fd)
{
    struct agent_conn *c = NULL;
    pthread_t t;
    pthread_attr_t attr;
    if (atomic_load(&a->active) >= a->max_conns || !(c = calloc(1, sizeof *c))) {
        a->refused++;
        close(fd);
        return;
    }
    c->agent = a;
    c->fd = fd;
    atomic_fetch_add(&a->active, 1);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, agent_conn_main, c)) {
        atomic_fetch_sub(&a->active, 1);
        close(fd);
        free(c);
    }
    pthread_attr_destroy(&attr);
}

void agent_run(struct agent *a)
{
    struct pollfd p = {.fd = a->lfd, .events = POLLIN};
    while (!stopping) {
        if (poll(&p, 1, 500) <= 0)
            continue;
        int fd = accept4(a->lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd >= 0)
            take(a, fd);
        else if (errno == EMFILE || errno == ENFILE || errno == ENOMEM)
            usleep(100 * 1000); /* out of fds: the pending peer would make poll spin */
    }
}

void agent_free(struct agent *a)
{
    if (!a)
        return;
    if (a->lfd >= 0)
        close(a->lfd);
    a->lfd = -1;
    if (atomic_load(&a->active) > 0) {
        /* a stream's thread still reads it: it stays, held here, until the
         * process's exit ends the threads and frees all */
        lingering = a;
        return;
    }
    if (a->tls)
        SSL_CTX_free(a->tls);
    free(a);
}
