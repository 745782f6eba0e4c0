/* serve_fleet: N simulated hosts in one loop (serve_fleet.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "net/sock.h"
#include "server/serve_fleet.h"

#define FLEET_RBUF (64 * 1024)

static void on_signal(struct ev_loop *loop, ev_signal *w, int revents);

/* SIGINT and SIGTERM on the default loop, from before the caller says it
 * listens (serve_fleet_start's last step). */
static void arm_signals(struct serve_fleet *f)
{
    struct ev_loop *loop = EV_DEFAULT;
    ev_signal_init(&f->sigint_w, on_signal, SIGINT);
    ev_signal_init(&f->sigterm_w, on_signal, SIGTERM);
    f->sigint_w.data = f->sigterm_w.data = f;
    ev_signal_start(loop, &f->sigint_w);
    ev_signal_start(loop, &f->sigterm_w);
}

int serve_fleet_start(struct serve_fleet *f, const struct server_config *c, char *err)
{
    /* Per host: its listening socket, its clients' connections. */
    long want = (long)c->hosts * 4 + 64;
    long have = sock_raise_fd_limit(want);
    if (have >= 0 && have < (long)c->hosts + 16) {
        snprintf(err, ERR_LEN, "--hosts %d needs at least %d open files, and the limit is %ld "
                 "(ulimit -n; hard limit %ld)", c->hosts, c->hosts + 16, have,
                 sock_fd_limit_max());
        return -1;
    }
    f->hosts = calloc((size_t)c->hosts, sizeof *f->hosts);
    f->bound = calloc((size_t)c->hosts, sizeof *f->bound);
    f->rbuf = malloc(FLEET_RBUF);
    if (!f->hosts || !f->bound || !f->rbuf ||
        sim_cache_init(&f->cache, c->hosts, SERVE_FLEET_LIVE_TREES, c->vms, c->seed) < 0) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    f->tls = c->tls_cert != NULL;
    struct server_config one = *c;
    for (int i = 0; i < c->hosts; i++) {
        f->hosts[i].lfd = -1;
        f->n = i + 1;
        one.port = c->port ? c->port + i : 0;
        if (server_start_host(&f->hosts[i], &one, &f->cache, i, f->rbuf, FLEET_RBUF, &f->out,
                              f->bound[i], sizeof f->bound[i], err) < 0)
            return -1;
    }
    arm_signals(f);
    return 0;
}

int serve_fleet_write_targets(const struct serve_fleet *f, FILE *out)
{
    for (int i = 0; i < f->n; i++)
        if (fprintf(out, "%s://%s\n", f->tls ? "https" : "http", f->bound[i]) < 0)
            return -1;
    return fflush(out) == 0 ? 0 : -1;
}

static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)revents;
    struct serve_fleet *f = w->data;
    for (int i = 0; i < f->n; i++)
        server_unwatch(&f->hosts[i]);
    ev_break(loop, EVBREAK_ALL);
}

void serve_fleet_run(struct serve_fleet *f)
{
    struct ev_loop *loop = EV_DEFAULT;
    for (int i = 0; i < f->n; i++)
        server_watch(&f->hosts[i], loop);
    ev_run(loop, 0);
    ev_signal_stop(loop, &f->sigint_w);
    ev_signal_stop(loop, &f->sigterm_w);
}

int serve_fleet_print_counts(const struct serve_fleet *f, FILE *log, FILE *rows)
{
    uint64_t acc = 0, req = 0, bad = 0;
    if (rows)
        fprintf(rows, "host,url,connections,requests,bad\n");
    for (int i = 0; i < f->n; i++) {
        const struct serve_ctx *x = &f->hosts[i].ctx;
        acc += x->accepted;
        req += x->requests;
        bad += x->bad_requests;
        if (rows)
            fprintf(rows, "%d,%s://%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", i,
                    f->tls ? "https" : "http", f->bound[i], x->accepted, x->requests,
                    x->bad_requests);
    }
    fprintf(log, "serve: %d hosts stopped after %" PRIu64 " connections, %" PRIu64
            " requests, %" PRIu64 " bad; %" PRIu64 " hosts called, VM objects dropped %"
            PRIu64 " times (%d hosts keep them)\n",
            f->n, acc, req, bad, f->cache.made, f->cache.drops, SERVE_FLEET_LIVE_TREES);
    return rows && fflush(rows) != 0 ? -1 : 0;
}

void serve_fleet_free(struct serve_fleet *f)
{
    for (int i = 0; f->hosts && i < f->n; i++)
        server_free(&f->hosts[i]);
    free(f->hosts);
    free(f->bound);
    free(f->rbuf);
    buf_free(&f->out);
    sim_cache_free(&f->cache);
}
