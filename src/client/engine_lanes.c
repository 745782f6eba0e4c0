/* engine_lanes: the run's targets (engine_int.h's lanes_*). Every target
 * is a lane: its own connections, its own schedule at its own rate, its
 * own idle and closed connections, its own rendered requests (their Host
 * line), its own counts. A run with one --url has one lane; --targets (a
 * fleet of hosts) one per host. The engine's loop, pacer, result and
 * timeline stay one; the dispatch, the pacer and the ledger take the lane
 * they work for, and each connection knows its own.
 *
 * Start times are spread as oVirt's engine spreads its hosts' polls: each
 * host's polling job starts when that host's manager comes up and then
 * repeats at its period, so the hosts' polls fall at their own phases
 * within a period, never all at one instant. Here a host's first send is
 * at a phase drawn from --seed and its index, uniform within its first
 * period (spread_ns). A --workload's calls with their own period ("every")
 * run per host too, from that host's start. */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/rng.h"
#include "client/engine_int.h"
#include "client/reqlog.h"
#include "client/targets_file.h"

/* A fleet's connection waits seconds between its host's polls while it
 * keeps a buffer the size of the largest answer (a getAllVmStats of 150
 * VMs: ~0.5 MB, 1,000 hosts: ~0.5 GB). The connection of a host polled
 * at most TRIM_MAX_RATE times a second gives back what grew past
 * TRIM_KEEP once its answer is in: an allocation per large answer, at a
 * few a second. A host polled faster keeps its buffer, so a busy target
 * never pays for it. By the host's schedule, not by its next send: an
 * overloaded server's answers come when the next send is due already. */
#define TRIM_KEEP (64 * 1024)
#define TRIM_MAX_RATE 2.0

/* The uniform phase in [0, 1) of target i's first send. */
static double phase(uint64_t seed, size_t i)
{
    uint64_t s = seed ^ (0x9e3779b97f4a7c15ULL * (i + 1));
    return rng_u01(&s);
}

/* The span a host's first send is spread over: its first period, the
 * mix's (1 / its rate) or, when every call has its own period, the
 * longest of those (an engine polling getAllVmStats every 15 s spreads
 * its hosts over 15 s). */
static int64_t spread_ns(const struct run_config *cfg, double rate)
{
    int all;
    int64_t longest = periodic_longest(cfg, &all);
    if (all || rate <= 0)
        return longest > 0 ? longest : NS_PER_S;
    return (int64_t)(1e9 / rate);
}

/* --requests-log names each row's host: the lanes' URLs, in lane order.
 * @return 0, or -1 with err. */
static int log_targets(struct engine *e, char *err)
{
    if (!e->hooks.reqlog)
        return 0;
    const char **urls = malloc((size_t)e->nlanes * sizeof *urls);
    for (int i = 0; urls && i < e->nlanes; i++)
        urls[i] = e->lanes[i].row->url;
    int rc = urls ? reqlog_targets(e->hooks.reqlog, urls, (size_t)e->nlanes) : -1;
    free(urls);
    if (rc)
        snprintf(err, ERR_LEN, "out of memory");
    return rc;
}

/* Here, not in the dispatch: the lanes ask it of every lane (no call
 * goes back from here to the dispatch). */
int64_t engine_due_peek(const struct engine *e, const struct lane *l)
{
    if (e->rec)
        return replay_sched_peek(&l->replay, NULL);
    int64_t mix = e->mix_off ? SCHED_NEVER : sched_peek(&l->sched);
    int64_t own = periodic_peek(&l->periodic, NULL);
    return own < mix ? own : mix;
}

/* The one lane of a run without --targets: its target, the run's rate. */
static int one_lane(struct engine *e, const struct target *target, char *err)
{
    e->lanes = calloc(1, sizeof *e->lanes);
    if (!e->lanes) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    e->nlanes = 1;
    e->lanes[0].nconns = e->cfg->connections;
    e->lanes[0].rate = e->cfg->rate;
    e->lanes[0].target = target;
    return 0;
}

/* --replay: a lane per recorded connection, each with one connection to
 * target, so that a recorded connection's calls go on one connection and
 * wait for none of the others'. The recording is loaded here, once. */
static int replay_lanes(struct engine *e, const struct target *target, int *connections,
                        char *err)
{
    const struct run_config *cfg = e->cfg;
    e->rec = calloc(1, sizeof *e->rec);
    if (!e->rec) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    if (replay_file_load(e->rec, cfg->replay, e->enc->name, err))
        return -1;
    if (e->rec->wl.ncalls != cfg->nverbs) {
        snprintf(err, ERR_LEN, "%.100s: changed since the run began", cfg->replay);
        return -1;
    }
    /* under mpirun the recorded connections are dealt out to the ranks whole */
    unsigned ranks = cfg->split_ranks > 1 ? cfg->split_ranks : 1;
    e->nlanes = (int)(e->rec->nconns / ranks + (cfg->split_rank < e->rec->nconns % ranks));
    e->multi = e->nlanes > 1;
    e->lanes = e->nlanes ? calloc((size_t)e->nlanes, sizeof *e->lanes) : NULL;
    if (!e->lanes) {
        snprintf(err, ERR_LEN, e->nlanes ? "out of memory" : "--replay: %u recorded connections "
                 "for %u ranks: rank %u has none", e->rec->nconns, ranks, cfg->split_rank);
        return -1;
    }
    for (int k = 0; k < e->nlanes; k++) {
        struct lane *l = &e->lanes[k];
        l->rec_conn = (uint32_t)k * ranks + cfg->split_rank;
        size_t n = e->rec->first[l->rec_conn + 1] - e->rec->first[l->rec_conn];
        l->index = k;
        l->first_conn = k;
        l->nconns = 1;
        l->target = target;
        l->rate = (double)n / ((double)e->rec->period_ns / 1e9) * cfg->replay_speed;
    }
    *connections = e->nlanes;
    return 0;
}

int lanes_setup(struct engine *e, const struct target *target, int *connections, char *err)
{
    const struct targets_file *tf = e->hooks.targets;
    const struct run_config *cfg = e->cfg;
    *connections = cfg->connections;
    if (cfg->replay[0])
        return replay_lanes(e, target, connections, err);
    if (!tf)
        return one_lane(e, target, err);
    unsigned ranks = cfg->split_ranks > 1 ? cfg->split_ranks : 1;
    size_t mine = tf->n / ranks + (cfg->split_rank < tf->n % ranks);
    if (mine == 0) {
        snprintf(err, ERR_LEN, "--targets: %zu targets for %u ranks: rank %u has none",
                 tf->n, ranks, cfg->split_rank);
        return -1;
    }
    e->lanes = calloc(mine, sizeof *e->lanes);
    if (!e->lanes || result_targets_init(e->res, mine)) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    e->nlanes = (int)mine;
    e->fleet = e->multi = 1;
    for (size_t k = 0; k < mine; k++) {
        size_t i = k * ranks + cfg->split_rank; /* the targets are dealt out to the ranks */
        struct lane *l = &e->lanes[k];
        l->index = (int)k;
        l->first_conn = (int)k * cfg->connections;
        l->nconns = cfg->connections;
        l->rate = tf->t[i].rate;
        l->offset_ns = (int64_t)(phase(cfg->seed, i) * (double)spread_ns(cfg, l->rate));
        l->target = &tf->t[i].target;
        l->ft = &tf->t[i];
        l->row = &e->res->targets[k];
        snprintf(l->row->url, sizeof l->row->url, "%s", tf->t[i].url);
        l->row->index = i;
        l->row->rate = l->rate;
        l->row->start_s = (double)l->offset_ns / 1e9;
    }
    *connections = cfg->connections * e->nlanes;
    /* What conn_trim frees must go back to the system: glibc otherwise
     * raises its mmap threshold past the first freed answer, and the next
     * ones, taken from the heap, stay in the process when freed. */
    mallopt(M_MMAP_THRESHOLD, TRIM_KEEP);
    return log_targets(e, err);
}

/* @return 1 when one of l's connections got through once, else 0. */
static int lane_was_up(const struct engine *e, const struct lane *l)
{
    for (int k = l->first_conn; k < l->first_conn + l->nconns; k++)
        if (e->pool.conns[k].ever_up)
            return 1;
    return 0;
}

int lanes_unreachable(struct engine *e, struct lane *l)
{
    int down = 0;
    l->unreachable = !lane_was_up(e, l);
    for (int k = 0; k < e->nlanes; k++)
        down += e->lanes[k].unreachable || e->lanes[k].peer.gave_up;
    return down == e->nlanes;
}

int lanes_last_kind(const struct engine *e, const struct lane *l)
{
    const struct conn *last = NULL;
    for (int k = l->first_conn; k < l->first_conn + l->nconns; k++) {
        const struct conn *c = &e->pool.conns[k];
        if (c->state == CONN_BACKOFF && (!last || c->connect_ns > last->connect_ns))
            last = c;
    }
    return last ? last->last_kind : e->pool.last_kind;
}

void lanes_each(struct engine *e, void (*fn)(struct engine *e, struct lane *l))
{
    for (int i = 0; i < e->nlanes; i++)
        fn(e, &e->lanes[i]);
}

void lanes_each_due(struct engine *e, void (*fn)(struct engine *e, struct lane *l))
{
    /* One target: its dispatch asks for the pacer's timer itself, and must
     * run even with nothing due (arm_cb looks for the next lane only in a
     * fleet). */
    if (!e->multi) {
        fn(e, &e->lanes[0]);
        return;
    }
    int64_t now = clock_now_ns();
    for (int i = 0; i < e->nlanes; i++)
        if (engine_due_peek(e, &e->lanes[i]) <= now)
            fn(e, &e->lanes[i]);
}

struct lane *lanes_next(struct engine *e)
{
    int64_t now = clock_now_ns(), best_at = 0;
    struct lane *best = NULL;
    for (int i = 0; i < e->nlanes; i++) {
        int64_t at = engine_due_peek(e, &e->lanes[i]);
        if (at > now && (!best || at < best_at)) {
            best = &e->lanes[i];
            best_at = at;
        }
    }
    return best;
}

void lanes_trim_idle(struct engine *e, struct conn *c)
{
    if (e->fleet && c->lane->trim)
        conn_trim(c, TRIM_KEEP);
}

/* The one lane's schedule: the run's rate (or its stages), this rank's
 * share of it, and its calls with their own period. */
static void begin_one(struct engine *e, struct lane *l, int64_t now)
{
    const struct run_config *cfg = e->cfg;
    if (cfg->nstages) /* the warmup holds the first stage's starting rate */
        sched_init_stages(&l->sched, cfg->arrival, cfg->stages, cfg->nstages, cfg->warmup_ns,
                          now, cfg->seed);
    else
        sched_init(&l->sched, cfg->arrival, cfg->rate > 0 ? cfg->rate : 1, now, cfg->seed);
    sched_split(&l->sched, cfg->split_ranks, cfg->split_rank);
    periodic_init(&l->periodic, cfg, now, 1);
}

/* --replay: each lane's recorded calls from now. */
static void begin_replay(struct engine *e, int64_t now)
{
    const struct replay_file *r = e->rec;
    for (int k = 0; k < e->nlanes; k++) {
        uint32_t c = e->lanes[k].rec_conn;
        replay_sched_init(&e->lanes[k].replay, r->calls + r->first[c], r->first[c + 1] - r->first[c],
                          now, r->period_ns, e->cfg->replay_speed, e->cfg->replay_loop);
    }
}

void lanes_begin(struct engine *e, int64_t now)
{
    const struct run_config *cfg = e->cfg;
    if (e->rec) {
        begin_replay(e, now);
        return;
    }
    if (!e->fleet) {
        begin_one(e, &e->lanes[0], now);
        return;
    }
    for (int i = 0; i < e->nlanes; i++) { /* each its own; the ranks were dealt whole lanes */
        struct lane *l = &e->lanes[i];
        if (l->ft->nstages) /* its ramp from its own start; the warmup holds its first rate */
            sched_init_stages(&l->sched, cfg->arrival, l->ft->stages, l->ft->nstages,
                              cfg->warmup_ns + l->offset_ns, now, cfg->seed + (uint64_t)i);
        else
            sched_init(&l->sched, cfg->arrival, l->rate > 0 ? l->rate : 1, now + l->offset_ns,
                       cfg->seed + (uint64_t)i);
        periodic_init(&l->periodic, cfg, now + l->offset_ns, 0);
        l->trim = (e->mix_off ? 0 : l->rate) + periodic_rate(cfg) <= TRIM_MAX_RATE;
    }
}

double lanes_target_rate(const struct engine *e)
{
    const struct targets_file *tf = e->hooks.targets;
    double own = periodic_rate(e->cfg), sum = 0;
    if (e->rec) /* the recording's mean rate, sped up */
        return (double)e->rec->ncalls / ((double)e->rec->period_ns / 1e9) * e->cfg->replay_speed;
    if (!tf) /* one target: the mix's --rate, unless no call is in it */
        return (e->mix_off ? 0 : e->cfg->rate) + (e->mix_off && own <= 0 ? e->cfg->rate : own);
    for (size_t i = 0; i < tf->n; i++) /* every rank's targets: the job's rate */
        sum += (e->mix_off ? 0 : tf->t[i].rate) + own;
    return sum;
}

/* A fleet's hosts each offer a few sends a window (one every 15 s): their
 * constant schedules are counted in whole sends, as the periodic calls
 * are, or the target would miss the first send of every host. */
static double mix_offered(const struct sched *s, int64_t a_ns, int64_t b_ns)
{
    if (s->arrival != ARRIVAL_CONSTANT || s->stages || b_ns <= a_ns)
        return sched_offered(s, a_ns, b_ns);
    double lo = a_ns > s->t0_ns ? ceil((double)(a_ns - s->t0_ns) * s->rate / 1e9) : 0;
    double hi = b_ns > s->t0_ns ? ceil((double)(b_ns - s->t0_ns) * s->rate / 1e9) : 0;
    return (hi - lo) / ((double)(b_ns - a_ns) / 1e9);
}

double lanes_offered(const struct engine *e, int64_t a_ns, int64_t b_ns)
{
    double sum = 0;
    if (e->rec) { /* the recorded calls intended in [a, b) */
        int64_t n = 0;
        for (int i = 0; i < e->nlanes && b_ns > a_ns; i++)
            n += replay_sched_count(&e->lanes[i].replay, a_ns, b_ns);
        return b_ns > a_ns ? (double)n / ((double)(b_ns - a_ns) / 1e9) : 0;
    }
    if (!e->fleet) { /* one target: its mix (none in closed loop) and its own periods */
        const struct lane *l = &e->lanes[0];
        return (e->cfg->rate > 0 && !e->mix_off ? sched_offered(&l->sched, a_ns, b_ns) : 0) +
               periodic_offered(&l->periodic, a_ns, b_ns);
    }
    for (int i = 0; i < e->nlanes; i++) {
        if (!e->mix_off)
            sum += mix_offered(&e->lanes[i].sched, a_ns, b_ns);
        sum += periodic_offered(&e->lanes[i].periodic, a_ns, b_ns);
    }
    return sum;
}

void lanes_free(struct engine *e)
{
    for (int i = 0; i < e->nlanes; i++)
        for (size_t v = 0; v < RUN_MAX_VERBS; v++)
            enc_request_free(&e->lanes[i].prep[v].req);
    free(e->lanes);
    e->lanes = NULL;
    e->nlanes = 0;
}
