/* agent_link: the run's side of the agent (agent_link.h): the open with
 * its clock exchanges, the reader thread, and what the engine takes. */
#include "client/agent_link.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "client/agent_link_int.h"
#include "net/tls.h"

#define CLOCK_EXCHANGES 8

/* One GET /v1/clock: our clock before (a) and after (c) the agent's (b).
 * @return 0, or -1 with err (a refused token says so). */
static int clock_exchange(struct agent_link *l, int64_t *a, int64_t *b, int64_t *c, char *err)
{
    char req[AUTH_TOKEN_MAX + 400], line[AGENT_LINE_MAX];
    long clen;
    int n = snprintf(req, sizeof req,
                     "GET /v1/clock HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n",
                     l->t.host, l->token);
    *a = clock_now_ns();
    int status = agent_link_send(l, req, (size_t)n) ? -1 : agent_link_head(l, &clen);
    if (status == 401) {
        snprintf(err, ERR_LEN, "server agent %.200s: wrong token (HTTP 401)", l->url);
        return -1;
    }
    if (status != 200 || agent_link_line(l, line, sizeof line) < 0 ||
        agent_wire_parse_clock(line, b, &l->cores)) {
        char why[ERR_LEN] = "no answer";
        if (status > 0)
            snprintf(why, sizeof why, "HTTP %d", status);
        else if (l->ssl)
            tls_last_error(why, sizeof why);
        snprintf(err, ERR_LEN, "server agent %.80s: not an agent's answer (%.120s)", l->url,
                 why);
        return -1;
    }
    *c = clock_now_ns();
    return 0;
}

/* NTP-style: the exchange with the shortest round trip bounds the offset
 * best (dist_mpi.c's sync_one does the same for ranks). */
static int estimate_offset(struct agent_link *l, char *err)
{
    int64_t best = INT64_MAX;
    for (int i = 0; i < CLOCK_EXCHANGES; i++) {
        int64_t a, b, c;
        if (clock_exchange(l, &a, &b, &c, err))
            return -1;
        if (c - a < best) {
            best = c - a;
            l->offset_ns = b - (a + (c - a) / 2);
            l->error_ns = (c - a + 1) / 2;
        }
    }
    return 0;
}

/* GET /v1/server: the server to sample is there on the agent's host, as
 * the CLI checks a local one, so that a wrong pid or name fails before
 * anything is sent instead of leaving a whole run's server figures n/a.
 * Nothing to check (no pid, no name): 0 at once. @return 0, or -1 with
 * err. */
static int check_server(struct agent_link *l, char *err)
{
    char req[AUTH_TOKEN_MAX + 512], line[AGENT_LINE_MAX] = "";
    long clen;
    if (!l->query[0])
        return 0;
    int n = snprintf(req, sizeof req,
                     "GET /v1/server?%s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n",
                     l->query + 1, l->t.host, l->token); /* the query less its '&' */
    int status = n < 0 || (size_t)n >= sizeof req || agent_link_send(l, req, (size_t)n)
                     ? -1 : agent_link_head(l, &clen);
    if (status == 200 && agent_link_line(l, line, sizeof line) >= 0)
        return 0;
    if (status == 404 && agent_link_line(l, line, sizeof line) >= 0)
        snprintf(err, ERR_LEN, "server agent %.60s, on its host: %.150s", l->url, line);
    else
        snprintf(err, ERR_LEN, "server agent %.80s: no answer to the server check (HTTP %d)",
                 l->url, status);
    return -1;
}

/* What the agent is to watch, as the query's end ("&pid=1,2" or
 * "&name=N"; "" for neither). */
static void watch_query(struct agent_link *l, const struct run_config *cfg)
{
    size_t used = 0;
    l->query[0] = '\0';
    if (cfg->server_name[0])
        snprintf(l->query, sizeof l->query, "&name=%s", cfg->server_name);
    for (size_t i = 0; i < cfg->nserver_pids && used < sizeof l->query; i++) {
        int w = snprintf(l->query + used, sizeof l->query - used, "%s%d", i ? "," : "&pid=",
                         (int)cfg->server_pids[i]);
        used += w > 0 ? (size_t)w : 0;
    }
}

static int link_init(struct agent_link *l, const struct run_config *cfg, char *warn, char *err)
{
    l->fd = -1;
    snprintf(l->url, sizeof l->url, "%s", cfg->agent_url);
    if (target_parse(cfg->agent_url, "/", &l->t, err) ||
        auth_token_read(cfg->agent_token_file, l->token, warn, err))
        return -1;
    if (l->t.scheme != SCHEME_HTTP && l->t.scheme != SCHEME_HTTPS) {
        snprintf(err, ERR_LEN, "--server-agent: http://HOST:PORT or https://HOST:PORT");
        return -1;
    }
    if (l->t.scheme == SCHEME_HTTPS) {
        struct tls_client_opts o = {.cacert = cfg->cacert[0] ? cfg->cacert : NULL,
                                    .cert = cfg->cert[0] ? cfg->cert : NULL,
                                    .key = cfg->key[0] ? cfg->key : NULL,
                                    .insecure = cfg->tls_insecure};
        if (!(l->tls_ctx = tls_client_ctx(&o, err)))
            return -1;
    }
    watch_query(l, cfg);
    return 0;
}

struct agent_link *agent_link_open(const struct run_config *cfg, char *warn, char *err)
{
    struct agent_link *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, ERR_LEN, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->cv, NULL);
    if (link_init(l, cfg, warn, err) || agent_link_connect(l, err) || estimate_offset(l, err) ||
        check_server(l, err))
        goto fail;
    if (pthread_create(&l->reader, NULL, agent_link_reader, l)) {
        snprintf(err, ERR_LEN, "server agent: no thread");
        goto fail;
    }
    l->reader_started = 1;
    return l;
fail:
    agent_link_close(l);
    return NULL;
}

void agent_link_start(struct agent_link *l, int64_t m0_ns, int64_t interval_ns)
{
    pthread_mutex_lock(&l->mu);
    if (!l->started) {
        l->started = 1;
        l->m0_ns = m0_ns;
        l->interval_ns = interval_ns;
        pthread_cond_signal(&l->cv);
    }
    pthread_mutex_unlock(&l->mu);
}

void agent_link_close(struct agent_link *l)
{
    if (!l)
        return;
    pthread_mutex_lock(&l->mu);
    l->stopping = 1;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->mu);
    if (l->fd >= 0)
        shutdown(l->fd, SHUT_RDWR); /* wakes the reader from its read */
    if (l->reader_started)
        pthread_join(l->reader, NULL);
    tls_free(l->ssl);
    if (l->tls_ctx)
        SSL_CTX_free(l->tls_ctx);
    if (l->fd >= 0)
        close(l->fd);
    pthread_mutex_destroy(&l->mu);
    pthread_cond_destroy(&l->cv);
    free(l);
}
