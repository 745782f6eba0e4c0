/* dist_run: one distributed measured run (dist.h): the split config, the
 * live interval merge at rank 0, and the exact merge of the results. */
#ifdef RPCBENCH_MPI
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/figure.h"
#include "client/measured_run.h"
#include "dist/dist_int.h"
#include "dist/dist_pack.h"
#include "model/result_json.h"
#include "model/result_merge.h"

/* TICK: one rank's closed interval (or, last, its drain). */
struct tick_msg {
    int64_t k;
    int32_t last, has_ival;
    int64_t sent, ok, errors, unsent, due;
    double server_pct, client_pct; /* FIG_UNKNOWN: not measured (one binary: NaN as is) */
    double server_rss_kb;
};

/* How long rank 0 waits for a rank's interval before calling it lost. */
static int64_t tick_wait_ns(void)
{
    int64_t w = 2 * dist_g.interval_ns;
    return w > 3 * NS_PER_S ? w : 3 * NS_PER_S;
}

static void tick_send(const struct tick_data *t)
{
    struct tick_msg m = {.k = t->k, .last = t->last, .has_ival = t->ival != NULL,
                         .server_pct = FIG_UNKNOWN, .client_pct = FIG_UNKNOWN,
                         .server_rss_kb = FIG_UNKNOWN};
    if (t->last) {
        m.sent = *t->sent;
        m.ok = *t->ok;
        m.errors = *t->errors;
        m.unsent = t->unsent ? *t->unsent : 0;
        m.due = t->due ? *t->due : 0;
    } else {
        m.sent = t->rec->sent;
        m.ok = t->rec->ok;
        m.errors = t->rec->errors;
        m.unsent = t->rec->unsent;
        m.due = t->rec->due;
        m.server_pct = t->pt->server_pct;
        m.client_pct = t->pt->client_pct;
        m.server_rss_kb = t->pt->server_rss_kb;
    }
    buf_reset(&dist_g.tx);
    if (buf_append(&dist_g.tx, &m, sizeof m) || (t->ival && dist_pack_hist(&dist_g.tx, t->ival)) ||
        dist_pack_hist(&dist_g.tx, t->hook))
        return;
    dist_send(0, DK_TICK, dist_g.tx.data, dist_g.tx.len, dist_g.deadline_ns);
}

/* The larger of two figures; one unknown takes the other (fmax's rule). */
static double larger(double a, double b)
{
    return fmax(a, b);
}

/* Rank 0's bookkeeping of rank r's measured counts and CPU. */
static void account(int r, int64_t k, int last, int64_t sent, int64_t ok, int64_t errors,
                    double cpu)
{
    if (k > 0 || last) {
        dist_g.sent[r] += sent;
        dist_g.ok[r] += ok;
        dist_g.errors[r] += errors;
    }
    if (k > 0 && !last && fig_known(cpu)) {
        dist_g.cpu_sum[r] += cpu;
        dist_g.cpu_n[r]++;
    }
}

/* Adds rank r's message (in dist_g.rx) into rank 0's interval t. */
static void tick_merge(int r, struct tick_data *t)
{
    struct tick_msg m;
    const unsigned char *d = (const unsigned char *)dist_g.rx.data;
    size_t pos = sizeof m;
    if (dist_g.rx.len < sizeof m)
        return;
    memcpy(&m, d, sizeof m);
    struct hist scratch = {0};
    int ok = 1;
    if (m.has_ival) /* a closed interval: into rank 0's, or skipped at its drain */
        ok = t->ival ? !dist_unpack_hist_add(d, dist_g.rx.len, &pos, t->ival)
                     : !hist_init_latency(&scratch) &&
                           !dist_unpack_hist_add(d, dist_g.rx.len, &pos, &scratch);
    hist_close(&scratch);
    if (ok)
        dist_unpack_hist_add(d, dist_g.rx.len, &pos, t->hook);
    if (t->last) {
        *t->sent += m.sent;
        *t->ok += m.ok;
        *t->errors += m.errors;
        if (t->unsent)
            *t->unsent += m.unsent;
        if (t->due)
            *t->due += m.due;
    } else {
        t->rec->sent += m.sent;
        t->rec->ok += m.ok;
        t->rec->errors += m.errors;
        t->rec->unsent += m.unsent;
        t->rec->due += m.due;
        /* One server, seen from its host; the client: the busiest rank. */
        t->pt->server_pct = larger(t->pt->server_pct, m.server_pct);
        t->pt->client_pct = larger(t->pt->client_pct, m.client_pct);
        t->pt->server_rss_kb = larger(t->pt->server_rss_kb, m.server_rss_kb);
    }
    account(r, m.last ? 1 : m.k, m.last, m.sent, m.ok, m.errors, m.client_pct);
    if (m.last)
        dist_g.done[r] = 1;
}

/* Rank 0: one message from every rank still running (its last drain:
 * until every rank's last), each within the wait, or the rank is lost. */
static void tick_collect(struct tick_data *t)
{
    account(0, t->last ? 1 : t->k, t->last, t->last ? *t->sent : t->rec->sent,
            t->last ? *t->ok : t->rec->ok, t->last ? *t->errors : t->rec->errors,
            t->last ? FIG_UNKNOWN : t->pt->client_pct);
    unsigned char *heard = calloc((size_t)dist_g.size, 1);
    int64_t deadline = clock_now_ns() + tick_wait_ns();
    for (;;) {
        int want = 0;
        for (int r = 1; r < dist_g.size; r++)
            want += !dist_g.lost[r] && !dist_g.done[r] && (t->last || !heard || !heard[r]);
        if (!want)
            break;
        int r = dist_recv(-1, DK_TICK, deadline);
        if (r < 0) { /* the ranks not heard by now are gone */
            for (int q = 1; q < dist_g.size; q++)
                if (!dist_g.done[q] && (t->last || !heard || !heard[q]))
                    dist_g.lost[q] = 1;
            break;
        }
        if (dist_g.lost[r])
            continue;
        if (heard)
            heard[r] = 1;
        tick_merge(r, t);
    }
    free(heard);
}

void dist_tick(void *ctx, struct tick_data *t)
{
    (void)ctx;
    if (dist_g.rank == 0)
        tick_collect(t);
    else
        tick_send(t);
}

/* RESULT and MERGED start with this. */
struct result_head {
    int32_t ok;
    char why[2 * ERR_LEN];
    char host[64];
};

static int pack_with_head(const struct result_head *h, const struct run_result *r)
{
    buf_reset(&dist_g.tx);
    return buf_append(&dist_g.tx, h, sizeof *h) || dist_pack_result(&dist_g.tx, r) ? -1 : 0;
}

/* Rank r's own figures, for the ranks table. */
static void rank_rec_of(struct rank_rec *rr, int r, const char *host, const struct run_result *s)
{
    memset(rr, 0, sizeof *rr);
    rr->rank = r;
    snprintf(rr->host, sizeof rr->host, "%s", host);
    rr->sent = s->sent;
    rr->unsent = s->unsent;
    rr->ok = s->ok;
    rr->errors = s->errors;
    rr->achieved = s->rate_achieved;
    rr->send_lag_p99_ms = (double)hist_percentile(&s->send_lag, 99) / 1000.0;
    rr->client_cpu_pct = dist_g.cpu_n[r] ? dist_g.cpu_sum[r] / dist_g.cpu_n[r] : FIG_UNKNOWN;
    rr->clock_offset_us = (double)dist_g.offset_ns[r] / 1000.0;
}

/* A rank's share as a part of the whole: its warnings name it (its rate
 * is judged against its share), the other ranks' timelines are already
 * in rank 0's (merged live), its rate is not a configured one. */
static void as_share(struct run_result *s, int r, const char *host)
{
    static const char not_held[] = "rate not held";
    char w[RUN_MAX_WARNINGS][RUN_WARNING_LEN];
    size_t n = s->nwarnings;
    /* a fleet's rank was dealt whole hosts: its share is what they offered */
    double share = s->share_offered > 0 ? s->share_offered : s->cfg.rate / dist_g.size;
    memcpy(w, s->warnings, sizeof w);
    s->nwarnings = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(w[i], not_held, sizeof not_held - 1))
            result_warn(s, "rank %d: %s", r, w[i]);
    if (share > 0 && !s->interrupted && s->rate_achieved < 0.99 * share)
        result_warn(s, "rank %d (%.60s) could not hold its share: %.2f/s of %.2f/s", r, host,
                    s->rate_achieved, share);
    if (r != 0) {
        s->nintervals = 0;
        s->nsamples = 0;
    }
    s->cfg.rate = 0;
    if (!s->nwatched) /* no server process on its host */
        s->server_cpu_ms = FIG_UNKNOWN;
}

/* A rank that stopped answering: what its ticks said it sent counts. */
static void add_lost(struct run_result *res, struct rank_rec *rr, int r)
{
    memset(rr, 0, sizeof *rr);
    rr->rank = r;
    rr->lost = 1;
    snprintf(rr->host, sizeof rr->host, "?");
    rr->sent = dist_g.sent[r];
    rr->ok = dist_g.ok[r];
    rr->errors = dist_g.errors[r];
    rr->client_cpu_pct = FIG_UNKNOWN;
    rr->clock_offset_us = (double)dist_g.offset_ns[r] / 1000.0;
    res->sent += rr->sent;
    res->ok += rr->ok;
    res->errors += rr->errors;
    if (rr->sent > rr->ok + rr->errors)
        res->unfinished += rr->sent - rr->ok - rr->errors;
    result_warn(res, "rank %d was lost mid-run: its %lld requests sent (%lld ok, as last heard) "
                "are counted, their latencies are not", r, (long long)rr->sent, (long long)rr->ok);
}

/* Rank 0: every rank's result into res (rank 0's own, already holding
 * the merged timeline). @return 0, or -1 with the first failure in h. */
static int merge_root(struct run_result *res, struct result_head *h, const struct run_config *cfg)
{
    struct rank_rec *rr = calloc((size_t)dist_g.size, sizeof *rr);
    static struct run_result s;
    double target = res->cfg.rate; /* the whole job's (engine: lanes_target_rate) */
    double fleet = res->share_offered; /* a fleet: what every rank's hosts were offered */
    int lost = 0;
    if (!rr)
        return -1;
    rank_rec_of(&rr[0], 0, dist_g.host, res);
    as_share(res, 0, dist_g.host);
    int64_t deadline = clock_now_ns() + dist_g.timeout_ns + 30 * NS_PER_S;
    for (int r = 1; r < dist_g.size; r++) {
        struct result_head rh;
        char err[ERR_LEN];
        if (dist_g.lost[r] || dist_recv(r, DK_RESULT, deadline) != r ||
            dist_g.rx.len < sizeof rh) {
            dist_g.lost[r] = 1;
            add_lost(res, &rr[r], r);
            lost++;
            continue;
        }
        memcpy(&rh, dist_g.rx.data, sizeof rh);
        if (!rh.ok && h->ok) {
            h->ok = 0;
            snprintf(h->why, sizeof h->why, "rank %d (%.60s): %.180s", r, rh.host, rh.why);
        }
        if (dist_unpack_result((unsigned char *)dist_g.rx.data + sizeof rh,
                               dist_g.rx.len - sizeof rh, &s, err) == 0) {
            rank_rec_of(&rr[r], r, rh.host, &s);
            as_share(&s, r, rh.host);
            /* Every rank started at the common start: its own clock's
             * reading of it would stretch the merged span by the offset. */
            s.start_unix = res->start_unix;
            fleet += s.share_offered;
            if (result_merge(res, &s, RESULT_MERGE_CONCURRENT, err) && h->ok) {
                h->ok = 0;
                snprintf(h->why, sizeof h->why, "rank %d: %.180s", r, err);
            }
        }
        result_free(&s);
    }
    res->ranks = rr;
    res->nranks = (size_t)dist_g.size;
    res->cfg = *cfg;
    /* A lost rank's hosts offered nothing we heard of: the job's own rate
     * (every host's) keeps them in the target, so their missing sends show
     * as a rate not held instead of vanishing from both sides. */
    res->cfg.rate = fleet > 0 && !lost ? fleet : target;
    res->share_offered = 0;
    res->rate_achieved = res->duration_s > 0
                             ? (double)res->sent / res->duration_s : 0;
    for (int r = 1; r < dist_g.size; r++)
        if (dist_g.error_ns[r] / 1000.0 > res->clock_error_us)
            res->clock_error_us = (double)dist_g.error_ns[r] / 1000.0;
    result_check_warnings(res);
    if (res->clock_error_us > 1000)
        result_warn(res, "the ranks' clocks are known to %.1f ms only: their starts and "
                    "intervals may be that far apart", res->clock_error_us / 1000);
    return h->ok ? 0 : -1;
}

/* The end of a run on every rank: results to rank 0, merged result back.
 * ok, err: this rank's own outcome. */
static int finish_run(const struct run_config *cfg, struct run_result *res, int ok, char *err)
{
    struct result_head h = {.ok = ok};
    snprintf(h.host, sizeof h.host, "%s", dist_g.host);
    if (!ok)
        snprintf(h.why, sizeof h.why, "%s", err);
    int64_t deadline = dist_g.deadline_ns;
    if (dist_g.rank == 0) {
        if (!ok)
            snprintf(h.why, sizeof h.why, "rank 0 (%.60s): %.180s", dist_g.host, err);
        merge_root(res, &h, cfg);
        if (pack_with_head(&h, res) == 0)
            for (int r = 1; r < dist_g.size; r++)
                if (!dist_g.lost[r])
                    dist_send(r, DK_MERGED, dist_g.tx.data, dist_g.tx.len, deadline);
    } else {
        struct result_head mh;
        if (pack_with_head(&h, res) || dist_send(0, DK_RESULT, dist_g.tx.data, dist_g.tx.len,
                                                 deadline) ||
            dist_recv(0, DK_MERGED, deadline) != 0 || dist_g.rx.len < sizeof mh) {
            snprintf(err, ERR_LEN, "rank 0 did not send the merged result");
            return -1;
        }
        memcpy(&h, dist_g.rx.data, sizeof h);
        result_free(res);
        if (dist_unpack_result((unsigned char *)dist_g.rx.data + sizeof h,
                               dist_g.rx.len - sizeof h, res, err))
            return -1;
    }
    if (!h.ok)
        snprintf(err, ERR_LEN, "%.250s", h.why);
    return h.ok ? 0 : -1;
}

/* This rank's hooks: the common start and the live interval merge, the
 * fleet's targets (every rank takes its share of them), and the caller's
 * interval hook (--hdr-log) on rank 0 alone, which writes the job's
 * merged intervals. */
static struct run_hooks hooks_of(const struct run_hooks *caller)
{
    struct run_hooks h = {.on_start = dist_on_start, .on_tick = dist_tick, .dist_ctx = &dist_g};
    if (caller) /* a fleet: every rank drives the targets dealt to it */
        h.targets = caller->targets;
    if (caller && dist_g.rank == 0) {
        h.on_interval = caller->on_interval;
        h.interval_ctx = caller->interval_ctx;
        h.on_snapshot = caller->on_snapshot;
        h.snapshot_ctx = caller->snapshot_ctx;
        h.reqlog = caller->reqlog; /* rank 0's own requests (the others' stay theirs) */
    }
    return h;
}

/* This rank's share of cfg. */
static void share_of(const struct run_config *cfg, struct run_config *mine)
{
    int n = dist_g.size, r = dist_g.rank;
    *mine = *cfg;
    mine->split_ranks = (unsigned)n;
    mine->split_rank = (unsigned)r;
    mine->connections = cfg->connections / n + (r < cfg->connections % n);
    if (mine->connections < 1)
        mine->connections = 1;
    if (r != 0)
        mine->quiet = 1;
    /* The server's CPU: where its process is, or on --server-host; with
     * --server-agent rank 0 alone asks the agent (the pids are its host's) */
    char host[128] = "";
    gethostname(host, sizeof host - 1);
    if (cfg->agent_url[0] && r == 0)
        return;
    if (cfg->agent_url[0] || (dist_g.server_host[0] && strcmp(dist_g.server_host, host))) {
        mine->agent_url[0] = '\0';
        mine->nserver_pids = 0;
        mine->server_name[0] = '\0';
    }
    size_t k = 0;
    for (size_t i = 0; i < mine->nserver_pids; i++)
        if (kill(mine->server_pids[i], 0) == 0 || errno == EPERM)
            mine->server_pids[k++] = mine->server_pids[i];
    mine->nserver_pids = k;
}

/* The margin of a run's deadline past its own length: clock sync, the
 * start exchange, and rank 0's waits for silent ranks and their results. */
#define RUN_MARGIN_NS (90 * NS_PER_S)

static void reset_run_state(const struct run_config *cfg)
{
    size_t n = (size_t)dist_g.size;
    /* Connecting, the drain and rank 0's wait for results each take up to
     * the timeout. */
    dist_g.deadline_ns = clock_now_ns() + cfg->warmup_ns + cfg->duration_ns +
                         3 * cfg->timeout_ns + RUN_MARGIN_NS;
    dist_g.seq++;
    dist_g.started = 0;
    dist_g.start_failed = 0;
    dist_g.interval_ns = cfg->interval_ns;
    dist_g.timeout_ns = cfg->timeout_ns;
    memset(dist_g.done, 0, n);
    memset(dist_g.sent, 0, n * sizeof *dist_g.sent);
    memset(dist_g.ok, 0, n * sizeof *dist_g.ok);
    memset(dist_g.errors, 0, n * sizeof *dist_g.errors);
    memset(dist_g.cpu_sum, 0, n * sizeof *dist_g.cpu_sum);
    memset(dist_g.cpu_n, 0, n * sizeof *dist_g.cpu_n);
}

static void save_own(const struct run_result *res)
{
    char path[300], err[ERR_LEN];
    if (!dist_g.rank_output[0])
        return;
    snprintf(path, sizeof path, "%.280s.%d.json", dist_g.rank_output, dist_g.rank);
    if (result_save(res, path, err))
        fprintf(stderr, "rpcbench: rank %d: %s\n", dist_g.rank, err);
}

int dist_measured_run(const struct run_config *cfg, const struct run_hooks *hooks,
                      const struct child_server *cs, struct run_result *res, char *err)
{
    static struct run_config mine;
    if (dist_size() == 1)
        return measured_run(cfg, hooks, cs, res, err);
    if (dist_g.rank != 0 && dist_g.lost[0]) { /* an earlier run lost it */
        snprintf(err, ERR_LEN, "rank 0 was lost");
        return -1;
    }
    reset_run_state(cfg);
    share_of(cfg, &mine);
    struct run_hooks my_hooks = hooks_of(hooks);
    dist_sync_clocks();
    int rc = measured_run(&mine, &my_hooks, cs, res, err);
    if (rc && !dist_g.started) { /* it never reached the start: tell the others */
        int64_t t0;
        char why[2 * ERR_LEN];
        snprintf(why, sizeof why, "%s", err);
        dist_start_exchange(0, why, &t0, err);
        return -1;
    }
    if (dist_g.start_failed) /* every rank has the failing rank's reason */
        return -1;
    if (!dist_g.started) {
        snprintf(err, ERR_LEN, "the run did not start");
        return -1;
    }
    if (rc == 0)
        save_own(res);
    return finish_run(cfg, res, rc == 0, err);
}
#else
typedef int dist_run_unused;
#endif
