/* engine_setup: what a run needs before its first send: the wire
 * (HTTP or STOMP), TLS, enough file descriptors, the request ring, and
 * every verb's request rendered once, and the common start of a distributed
 * run. Called by engine_run only. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "client/engine_int.h"
#include "net/sock.h"
#include "net/tls.h"

_Static_assert(RUN_MAX_EXPECTS == EXPECT_MAX && RUN_EXPECT_LEN == EXPECT_TEXT,
               "run_config's --expect slots are expect.h's");

/* --expect, parsed once for the connections (answer_check.c). @return 0,
 * or -1 with err: they were checked before the run, so a bug. */
static int parse_checks(struct engine *e, char *err)
{
    e->nexpects = e->cfg->nexpects;
    e->cx.expects = e->expects;
    e->cx.nexpects = e->nexpects;
    for (size_t i = 0; i < e->nexpects; i++)
        if (expect_parse(e->cfg->expects[i], &e->expects[i], err))
            return -1;
    return 0;
}

/* A --workload line's own checks, from the file the engine read for the
 * params (engine_workload.c), on top of the run's. */
static void call_checks(struct engine *e)
{
    e->cx.checks = e->nexpects > 0;
    if (!e->wl)
        return;
    e->cx.calls = e->wl->call;
    e->cx.ncalls = e->wl->ncalls;
    for (size_t i = 0; i < e->wl->ncalls; i++)
        e->cx.checks |= e->wl->call[i].nexpects > 0;
}

/* The rendering alone, each verb's body once,
 * prepared for every lane (engine_setup_requests calls it, after the
 * --expect checks). */
static int render_requests(struct engine *e, char *err)
{
    const struct run_config *cfg = e->cfg;
    for (size_t i = 0; i < cfg->nverbs; i++) {
        const char *method = cfg->verbs[i].name;
        json_object *params = NULL;
        struct enc_request body = {0};
        int rc;
        if (cfg->workload[0] || e->rec) {
            if (engine_workload_call(e, i, &method, &params, err))
                return -1;
        } else if (cfg->custom_method) {
            if (cfg->method_params[0]) {
                params = json_tokener_parse(cfg->method_params);
                if (!params) {
                    snprintf(err, ERR_LEN, "--params is not valid JSON: %.180s", cfg->method_params);
                    return -1;
                }
            }
        } else if (e->enc->verb_call(cfg->verbs[i].name, cfg->vm_id, &method, &params, err)) {
            return -1;
        }
        rc = e->enc->render_request(method, params, &body, err);
        json_object_put(params);
        /* The id slot's fixed part becomes this run's random one. */
        if (rc == ENC_OK && body.id_len && body.id_off >= REQID_PREFIX_LEN &&
            !memcmp(body.body.data + body.id_off - REQID_PREFIX_LEN, ENC_ID_PREFIX,
                    REQID_PREFIX_LEN))
            memcpy(body.body.data + body.id_off - REQID_PREFIX_LEN, e->ids.prefix,
                   REQID_PREFIX_LEN);
        if (rc == ENC_OK && e->wl)
            rc = engine_workload_compile(e, i, &body, err);
        for (int k = 0; rc == ENC_OK && k < e->nlanes; k++) /* each host's Host line */
            rc = e->wire->prepare(&e->cx, e->lanes[k].target, &body, &e->lanes[k].prep[i],
                                  err);
        enc_request_free(&body);
        if (rc)
            return -1;
    }
    return 0;
}

int engine_setup_requests(struct engine *e, char *err)
{
    if (parse_checks(e, err) || render_requests(e, err))
        return -1;
    call_checks(e);
    return 0;
}

/* One descriptor per connection: raise the soft limit as far as the hard
 * one allows, or say plainly why --connections cannot be had. */
static int ensure_fds(int connections, char *err)
{
    long want = (long)connections + 64, have = sock_raise_fd_limit(want);
    if (have < 0 || have >= want) /* unknown: let connect() say */
        return 0;
    snprintf(err, ERR_LEN, "%d connections need %ld open files; the limit is %ld (ulimit -n; "
             "raise the hard limit, or give fewer --connections or --targets)",
             connections, want, have);
    return -1;
}

/* What the connections read (struct conn_ctx): the run's configuration
 * values, encoding, wire, TLS, pool and shared buffers; the loop comes
 * with setup_loop. */
static void fill_conn_ctx(struct engine *e)
{
    const struct run_config *cfg = e->cfg;
    struct conn_ctx *x = &e->cx;
    x->wire = e->wire;
    x->enc = e->enc;
    x->tls = e->tls;
    x->pool = &e->pool;
    x->timeout_ns = cfg->timeout_ns;
    x->max_response = cfg->max_response;
    x->validate = cfg->validate;
    x->tls_insecure = cfg->tls_insecure;
    x->have_cert = cfg->cert[0] != '\0';
    x->headers = cfg->headers;
    x->stomp_login = cfg->stomp_login;
    x->stomp_passcode = cfg->stomp_passcode;
    x->stomp_destination = cfg->stomp_destination;
    x->url = e->res->target_url;
    x->name_host = e->fleet;
    x->rbuf = e->rbuf;
    x->rbuf_len = sizeof e->rbuf;
    x->scratch = &e->scratch;
    x->ids = &e->ids;
    x->ring = &e->ring;
}

/* The rate the request ring is sized for: the target's; a replay's may
 * come in bursts above its mean, so there room for a timeout's worth of
 * the recording's calls (up to 64k) at once. */
static double ring_rate(const struct engine *e)
{
    double rate = lanes_target_rate(e);
    if (!e->rec)
        return rate;
    double burst = (double)(e->rec->ncalls < 65536 ? e->rec->ncalls : 65536) /
                   ((double)e->cfg->timeout_ns / 1e9);
    return burst > rate ? burst : rate;
}

/* Picks HTTP or STOMP, plain or TLS, from the target's scheme. */
int engine_setup_transport(struct engine *e, int connections, request_end_fn expire, char *err)
{
    const struct run_config *cfg = e->cfg;
    enum scheme sc = e->lanes[0].target->scheme; /* a fleet's hosts share one scheme */
    if (ensure_fds(connections, err))
        return -1;
    int stomp = sc == SCHEME_STOMP || sc == SCHEME_STOMPS;
    e->wire = stomp ? &wire_stomp : &wire_http;
    if (stomp && strcmp(e->enc->name, "jsonrpc")) {
        snprintf(err, ERR_LEN, "STOMP carries JSON-RPC only: use -p jsonrpc with stomp://");
        return -1;
    }
    if (stomp && cfg->rate <= 0) {
        snprintf(err, ERR_LEN, "--rate max (closed loop) is for HTTP; give STOMP a rate");
        return -1;
    }
    /* The ring holds what can be in flight: every send the run offers, the
     * mix's and the periodic calls', of every target, for a timeout. Sized
     * for the mix alone, a slot reused early ended a live request as a
     * timeout. */
    periodic_longest(cfg, &e->mix_off); /* lanes_target_rate reads it */
    e->mix_off |= e->rec != NULL;
    if (stomp &&
        request_ring_init(&e->ring, ring_rate(e), cfg->timeout_ns, expire, e, err))
        return -1;
    if (sc == SCHEME_HTTPS || sc == SCHEME_STOMPS) {
        struct tls_client_opts o = {
            .cacert = cfg->cacert[0] ? cfg->cacert : NULL,
            .cert = cfg->cert[0] ? cfg->cert : NULL,
            .key = cfg->key[0] ? cfg->key : NULL,
            .insecure = cfg->tls_insecure,
        };
        char terr[ERR_LEN];
        e->tls = tls_client_ctx(&o, terr);
        if (!e->tls) {
            snprintf(err, ERR_LEN, "%s", terr);
            return -1;
        }
    }
    fill_conn_ctx(e);
    return 0;
}

/* A common start (hooks.on_start, a distributed run): waits for the
 * instant given. @return the start, or 0 when the run must not start. */
int64_t engine_agree_start(struct engine *e)
{
    int64_t t0 = 0;
    if (e->hooks.on_start && e->hooks.on_start(e->hooks.dist_ctx, &t0, e->fatal)) {
        e->phase = PHASE_FAILED;
        ev_break(e->loop, EVBREAK_ALL);
        return 0;
    }
    if (t0 > clock_now_ns()) {
        struct timespec ts = {.tv_sec = t0 / NS_PER_S, .tv_nsec = t0 % NS_PER_S};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
            ;
        ev_now_update(e->loop); /* the timers set next count from now */
    }
    int64_t now = clock_now_ns();
    return t0 > now ? t0 : now;
}
