/* result_merge: one result from several (result_merge.h): the rounds of
 * one compare arm, or the files of clients that ran side by side. */
#include "model/result_merge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_servers(const struct run_result *a, const struct run_result *b)
{
    if (a->nwatched != b->nwatched)
        return 0;
    for (size_t i = 0; i < a->nwatched; i++) {
        size_t j = 0;
        while (j < b->nwatched && b->watched_pids[j] != a->watched_pids[i])
            j++;
        if (j == b->nwatched)
            return 0;
    }
    return 1;
}

/* The idle baseline of one server is the same whoever measured it; of
 * different servers, their backgrounds add up. */
static void merge_idle(struct idle_cpu *dst, const struct idle_cpu *src, int same)
{
    if (src->n <= 0 || (same && dst->n > 0))
        return;
    if (dst->n <= 0) {
        *dst = *src;
        return;
    }
    dst->mean_pct += src->mean_pct;
    dst->quiet_pct = FIG_UNKNOWN; /* the sum of two quietest intervals is no interval's */
    dst->se_pct = sqrt(dst->se_pct * dst->se_pct + src->se_pct * src->se_pct); /* NaN: unknown */
}

/* Runs back to back each with its baseline: the idle CPU they subtract
 * adds up over their windows, so the merged baseline is the mean of
 * theirs weighed by each run's window (T_i): sum I_i T_i / sum T_i, with
 * se sqrt(sum (se_i T_i)^2) / sum T_i. One run without a baseline leaves
 * the merge without one: a net figure for part of a window is none. */
static void merge_idle_sequential(struct run_result *dst, const struct run_result *src)
{
    struct idle_cpu *d = &dst->idle;
    const struct idle_cpu *s = &src->idle;
    double td = dst->duration_s, ts = src->duration_s;
    if (td <= 0) { /* the first run merged */
        *d = *s;
        return;
    }
    if (d->n <= 0 || s->n <= 0 || td + ts <= 0) {
        *d = (struct idle_cpu){.mean_pct = FIG_UNKNOWN, .se_pct = FIG_UNKNOWN,
                               .quiet_pct = FIG_UNKNOWN};
        return;
    }
    d->mean_pct = (d->mean_pct * td + s->mean_pct * ts) / (td + ts);
    /* an unknown se (NaN) on either side leaves the merged one unknown */
    d->se_pct = sqrt(d->se_pct * td * d->se_pct * td + s->se_pct * ts * s->se_pct * ts) /
                (td + ts);
    d->duration_s += s->duration_s;
    d->n += s->n;
    if (!fig_known(d->quiet_pct) || s->quiet_pct < d->quiet_pct) /* NaN: never smaller */
        d->quiet_pct = s->quiet_pct;
}

/* Two readings of one figure taken at the same time: the same server seen
 * by two clients reads the same (take the larger), different servers add
 * up. One unknown takes the other. */
static double combine(double a, double b, int same)
{
    if (!fig_known(a))
        return b;
    if (!fig_known(b))
        return a;
    return same ? (a > b ? a : b) : a + b;
}

static int merge_hists(struct run_result *dst, const struct run_result *src, char *err)
{
    if (hist_merge(&dst->latency, &src->latency) || hist_merge(&dst->service, &src->service) ||
        hist_merge(&dst->send_lag, &src->send_lag) ||
        hist_merge(&dst->pacing_lag, &src->pacing_lag) ||
        hist_merge(&dst->handshake, &src->handshake)) {
        snprintf(err, ERR_LEN, "histograms of different layouts cannot be merged");
        return -1;
    }
    result_censor_merge(&dst->censored, &src->censored);
    for (size_t i = 0; i < src->nverbs; i++) {
        const struct verb_result *s = &src->verbs[i];
        size_t j = 0;
        while (j < dst->nverbs && strcmp(dst->verbs[j].name, s->name))
            j++;
        if (j == dst->nverbs) {
            if (j == RUN_MAX_VERBS || hist_init_latency(&dst->verbs[j].latency)) {
                snprintf(err, ERR_LEN, "too many verbs to merge (at most %d)", RUN_MAX_VERBS);
                return -1;
            }
            snprintf(dst->verbs[j].name, sizeof dst->verbs[j].name, "%s", s->name);
            dst->nverbs++;
        }
        struct verb_result *d = &dst->verbs[j];
        d->requests += s->requests;
        d->ok += s->ok;
        d->errors += s->errors;
        d->unfinished += s->unfinished;
        d->unsent += s->unsent;
        d->unsent_failed += s->unsent_failed;
        result_censor_merge(&d->censored, &s->censored);
        if (hist_merge(&d->latency, &s->latency)) {
            snprintf(err, ERR_LEN, "verb %s: histograms of different layouts", s->name);
            return -1;
        }
    }
    return 0;
}

/* Wakes add up; the windows span both (a side with no wakes has none). */
static void merge_pacer(struct pacer_stats *dst, const struct pacer_stats *src)
{
    if (src->wakes == 0)
        return;
    if (dst->wakes == 0 || src->window_min_ns < dst->window_min_ns)
        dst->window_min_ns = src->window_min_ns;
    if (src->window_max_ns > dst->window_max_ns)
        dst->window_max_ns = src->window_max_ns;
    dst->window_sum_ns += src->window_sum_ns;
    dst->wakes += src->wakes;
}

/* A count that may be unknown (-1, result_count_known): unknown in the
 * sum when unknown in either. */
static void add_count(int64_t *dst, int64_t src)
{
    *dst = result_count_known(*dst) && result_count_known(src) ? *dst + src : -1;
}

static void merge_counts(struct run_result *dst, const struct run_result *src)
{
    dst->offered += src->offered;
    dst->sent += src->sent;
    dst->ok += src->ok;
    dst->errors += src->errors;
    dst->unfinished += src->unfinished;
    dst->unsent += src->unsent;
    if (src->unsent_failed)
        dst->unsent_kind = src->unsent_kind;
    dst->unsent_failed += src->unsent_failed;
    add_count(&dst->queued, src->queued);
    add_count(&dst->warmup.unsent, src->warmup.unsent);
    add_count(&dst->warmup.sent, src->warmup.sent);
    add_count(&dst->warmup.ok, src->warmup.ok);
    add_count(&dst->warmup.errors, src->warmup.errors);
    for (int k = 0; k < ERR_KINDS; k++) {
        dst->err[k] += src->err[k];
        if (!dst->error_samples[k][0])
            memcpy(dst->error_samples[k], src->error_samples[k], sizeof dst->error_samples[k]);
    }
    merge_pacer(&dst->pacer, &src->pacer);
    dst->reconnects += src->reconnects;
    for (int k = 0; k < CONN_CAUSES; k++)
        dst->conn_failures[k] += src->conn_failures[k];
    dst->stomp_bad_frames += src->stomp_bad_frames;
    dst->handshakes += src->handshakes;
    dst->tls_failures += src->tls_failures;
    dst->stomp_errors += src->stomp_errors;
    dst->stray_replies += src->stray_replies;
    dst->bytes_sent += src->bytes_sent;
    dst->bytes_received += src->bytes_received;
    dst->checks.checked += src->checks.checked;
    dst->checks.failed += src->checks.failed;
    dst->checks.ns += src->checks.ns;
    if (!dst->interrupted) /* the first signal seen names the interruption */
        dst->interrupted = src->interrupted;
    dst->closed_loop |= src->closed_loop;
    dst->server_vanished |= src->server_vanished;
    if (src->server_threads > dst->server_threads)
        dst->server_threads = src->server_threads;
    dst->loadavg1 = combine(dst->loadavg1, src->loadavg1, 1); /* the larger known */
    for (size_t i = 0; i < src->nwarnings; i++) {
        size_t j = 0;
        while (j < dst->nwarnings && strcmp(dst->warnings[j], src->warnings[i]))
            j++;
        if (j == dst->nwarnings)
            result_warn(dst, "%s", src->warnings[i]);
    }
}

/* Two machine shares over back-to-back windows of ta and tb seconds:
 * weighted by time; unknown on one side takes the other. */
static double weigh(double a, double ta, double b, double tb)
{
    if (!fig_known(a) || !fig_known(b))
        return combine(a, b, 1);
    return ta + tb > 0 ? (a * ta + b * tb) / (ta + tb) : a;
}

/* The figures of runs one after the other: durations add, the rate is
 * the overall one, CPU adds up, machine shares are weighted by time. */
static void sequential_figures(struct run_result *dst, const struct run_result *src)
{
    double total = dst->duration_s + src->duration_s;
    dst->machine_busy_pct = weigh(dst->machine_busy_pct, dst->duration_s, src->machine_busy_pct,
                                  src->duration_s);
    if (!dst->machine_cores)
        dst->machine_cores = src->machine_cores;
    dst->machine_steal_pct = weigh(dst->machine_steal_pct, dst->duration_s,
                                   src->machine_steal_pct, src->duration_s);
    dst->duration_s = total;
    dst->rate_achieved = total > 0 ? (double)dst->sent / total : 0;
    dst->server_cpu_ms = combine(dst->server_cpu_ms, src->server_cpu_ms, 0);
    if (fig_known(src->rss_end_kb))
        dst->rss_end_kb = src->rss_end_kb;
}

/* Back to back: the timeline continues where dst's ended. */
static int merge_sequential(struct run_result *dst, const struct run_result *src)
{
    double off = dst->duration_s;
    for (size_t i = 0; i < src->nintervals; i++) {
        struct interval_rec rec = src->intervals[i];
        rec.t += off;
        if (result_add_interval(dst, &rec))
            return -1;
    }
    for (size_t i = 0; i < src->nsamples; i++) {
        struct proc_point p = src->samples[i];
        p.t_ns += (int64_t)(off * 1e9);
        if (result_add_sample(dst, &p))
            return -1;
    }
    merge_idle_sequential(dst, src);
    sequential_figures(dst, src);
    return 0;
}

/* Where two side-by-side timelines meet. With both starts known (aligned),
 * src's times move by off seconds onto dst's and every time snaps to the
 * grid of step seconds (the interval length), so intervals of runs started
 * a little apart share slots; otherwise times stay and match within 1 ms,
 * as for files saved before results were dated. */
struct align {
    int aligned;
    double off;  /* added to src's times */
    double step; /* the slot length, s */
};

static double snap(const struct align *a, double t)
{
    return a->aligned ? (double)llround(t / a->step) * a->step : t;
}

static int same_slot(const struct align *a, double x, double y)
{
    return a->aligned ? llround(x / a->step) == llround(y / a->step) : fabs(x - y) < 1e-3;
}

/* Moves dst's own timeline d seconds later (its start became earlier), by
 * whole slots: its times are on the grid already, and snapping them again
 * after an odd shift would move some a slot and not others. */
static void shift_dst(struct run_result *dst, const struct align *a, double d)
{
    d = snap(a, d);
    for (size_t i = 0; i < dst->nintervals; i++)
        dst->intervals[i].t = snap(a, dst->intervals[i].t + d);
    for (size_t i = 0; i < dst->nsamples; i++)
        dst->samples[i].t_ns = llround(snap(a, (double)dst->samples[i].t_ns / 1e9 + d) * 1e9);
}

/* Decides how src's timeline meets dst's, moving dst's when src started
 * earlier: the merged start is the earliest. */
static struct align align(struct run_result *dst, const struct run_result *src)
{
    struct align a = {0};
    double step = (double)(dst->cfg.interval_ns ? dst->cfg.interval_ns : src->cfg.interval_ns) / 1e9;
    if (!(dst->start_unix > 0 && src->start_unix > 0 && step > 0)) {
        if (!(dst->start_unix > 0) || (src->start_unix > 0 && src->start_unix < dst->start_unix))
            dst->start_unix = src->start_unix;
        return a;
    }
    a.aligned = 1;
    a.step = step;
    a.off = src->start_unix - dst->start_unix;
    if (a.off < 0) {
        shift_dst(dst, &a, -a.off);
        dst->start_unix = src->start_unix;
        a.off = 0;
    }
    return a;
}

/* Side by side: intervals in the same slot merge; counts add, latency
 * figures take the worse (the per-interval histograms are not saved), CPU
 * follows combine(). */
static int merge_intervals(struct run_result *dst, const struct run_result *src,
                           const struct align *a, int same)
{
    for (size_t i = 0; i < src->nintervals; i++) {
        struct interval_rec rec = src->intervals[i];
        rec.t = snap(a, rec.t + a->off);
        size_t j = 0;
        while (j < dst->nintervals && !same_slot(a, dst->intervals[j].t, rec.t))
            j++;
        if (j == dst->nintervals) {
            if (result_add_interval(dst, &rec))
                return -1;
            continue;
        }
        const struct interval_rec *s = &rec;
        struct interval_rec *d = &dst->intervals[j];
        d->due += s->due;
        d->sent += s->sent;
        d->unsent += s->unsent;
        d->ok += s->ok;
        d->errors += s->errors;
        d->p50_ms = fmax(d->p50_ms, s->p50_ms);
        d->p99_ms = fmax(d->p99_ms, s->p99_ms);
        d->server_cpu_pct = combine(d->server_cpu_pct, s->server_cpu_pct, same);
        d->client_cpu_pct = combine(d->client_cpu_pct, s->client_cpu_pct, 0);
        d->server_rss_kb = combine(d->server_rss_kb, s->server_rss_kb, same);
    }
    return 0;
}

static int merge_samples(struct run_result *dst, const struct run_result *src,
                         const struct align *a, int same)
{
    for (size_t i = 0; i < src->nsamples; i++) {
        struct proc_point p = src->samples[i];
        double t = snap(a, (double)p.t_ns / 1e9 + a->off);
        p.t_ns = llround(t * 1e9);
        size_t j = 0;
        while (j < dst->nsamples && !same_slot(a, (double)dst->samples[j].t_ns / 1e9, t))
            j++;
        if (j == dst->nsamples) {
            if (result_add_sample(dst, &p))
                return -1;
            continue;
        }
        struct proc_point *d = &dst->samples[j];
        d->server_pct = combine(d->server_pct, p.server_pct, same);
        d->client_pct = combine(d->client_pct, p.client_pct, 0);
        d->server_rss_kb = combine(d->server_rss_kb, p.server_rss_kb, same);
    }
    return 0;
}

static int interval_order(const void *x, const void *y)
{
    double a = ((const struct interval_rec *)x)->t, b = ((const struct interval_rec *)y)->t;
    return (a > b) - (a < b);
}

static int sample_order(const void *x, const void *y)
{
    int64_t a = ((const struct proc_point *)x)->t_ns, b = ((const struct proc_point *)y)->t_ns;
    return (a > b) - (a < b);
}

/* The span of two dated windows, from the earlier start to the later end;
 * the longer window when either start is unknown. */
static double span_of(const struct run_result *a, const struct run_result *b)
{
    if (!(a->start_unix > 0 && b->start_unix > 0))
        return fmax(a->duration_s, b->duration_s);
    return fmax(a->start_unix + a->duration_s, b->start_unix + b->duration_s) -
           fmin(a->start_unix, b->start_unix);
}

/* src's timeline onto dst's by absolute time (align), in time order. */
static int merge_timeline(struct run_result *dst, const struct run_result *src, int same)
{
    struct align a = align(dst, src);
    if (merge_intervals(dst, src, &a, same) || merge_samples(dst, src, &a, same))
        return -1;
    /* a run that started later may have added slots before dst's last */
    if (dst->nintervals > 1) /* qsort wants a non-NULL array even for none */
        qsort(dst->intervals, dst->nintervals, sizeof *dst->intervals, interval_order);
    if (dst->nsamples > 1)
        qsort(dst->samples, dst->nsamples, sizeof *dst->samples, sample_order);
    return 0;
}

/* Runs that never overlapped: each interval at its own time (a gap
 * between them), the figures of runs back to back. */
static int merge_consecutive(struct run_result *dst, const struct run_result *src)
{
    if (merge_timeline(dst, src, same_servers(dst, src)))
        return -1;
    sequential_figures(dst, src);
    return 0;
}

static int merge_concurrent(struct run_result *dst, const struct run_result *src)
{
    int same = same_servers(dst, src);
    double span = span_of(dst, src);
    int dated = dst->start_unix > 0 && src->start_unix > 0;
    if (merge_timeline(dst, src, same))
        return -1;
    /* Dated: the rate over the span (windows a little apart do not add
     * rates where they did not overlap); undated, as before: the sum. */
    dst->duration_s = span;
    if (dated)
        dst->rate_achieved = span > 0 ? (double)dst->sent / span : 0;
    else
        dst->rate_achieved += src->rate_achieved;
    dst->cfg.rate += src->cfg.rate;
    dst->server_cpu_ms = combine(dst->server_cpu_ms, src->server_cpu_ms, same);
    merge_idle(&dst->idle, &src->idle, same);
    dst->machine_busy_pct = combine(dst->machine_busy_pct, src->machine_busy_pct, 1);
    if (!dst->machine_cores)
        dst->machine_cores = src->machine_cores;
    dst->machine_steal_pct = combine(dst->machine_steal_pct, src->machine_steal_pct, 1);
    if (!same) {
        dst->rss_start_kb = combine(dst->rss_start_kb, src->rss_start_kb, 0);
        dst->rss_end_kb = combine(dst->rss_end_kb, src->rss_end_kb, 0);
    }
    return 0;
}

static void merge_pids(struct run_result *dst, const struct run_result *src)
{
    for (size_t i = 0; i < src->nwatched && dst->nwatched < RUN_MAX_PIDS; i++) {
        size_t j = 0;
        while (j < dst->nwatched && dst->watched_pids[j] != src->watched_pids[i])
            j++;
        if (j == dst->nwatched)
            dst->watched_pids[dst->nwatched++] = src->watched_pids[i];
    }
}

/* 1 when dst is fresh from result_init: nothing merged into it yet. */
static int fresh(const struct run_result *dst)
{
    return !(dst->sent || dst->nintervals || dst->latency.total_count || dst->duration_s > 0);
}

static int runs_in(const struct run_result *r)
{
    return r->merged.runs > 0 ? r->merged.runs : 1;
}

static unsigned arrivals_in(const struct run_result *r)
{
    return r->merged.arrivals ? r->merged.arrivals : 1u << r->cfg.arrival;
}

/* What the merged report says of itself: how many runs, how merged, which
 * arrival processes (the first run's config alone would name one). */
static void note_merge(struct run_result *dst, const struct run_result *src, int was_fresh,
                       enum result_merge mode)
{
    dst->merged.runs = (was_fresh ? 0 : runs_in(dst)) + runs_in(src);
    dst->merged.arrivals = (was_fresh ? 0 : arrivals_in(dst)) | arrivals_in(src);
    dst->merged.how = (int)mode;
}

static const char *const how_names[] = {
    [RESULT_MERGE_SEQUENTIAL] = "sequential",
    [RESULT_MERGE_CONCURRENT] = "concurrent",
    [RESULT_MERGE_CONSECUTIVE] = "consecutive",
};

const char *result_merge_name(int how)
{
    return how >= 0 && how <= RESULT_MERGE_CONSECUTIVE ? how_names[how] : "?";
}

int result_merge_from_name(const char *name)
{
    for (int i = 0; i <= RESULT_MERGE_CONSECUTIVE; i++)
        if (!strcmp(name, how_names[i]))
            return i;
    return -1;
}

/* A result fresh from result_init takes its starting figures from the
 * first one merged into it. */
static void adopt(struct run_result *dst, const struct run_result *src, enum result_merge mode)
{
    if (!fresh(dst))
        return;
    dst->server_cpu_ms = FIG_UNKNOWN;
    dst->machine_busy_pct = FIG_UNKNOWN;
    dst->machine_steal_pct = FIG_UNKNOWN;
    dst->rss_start_kb = src->rss_start_kb;
    dst->start_unix = src->start_unix;
    snprintf(dst->target_url, sizeof dst->target_url, "%s", src->target_url);
    if (mode == RESULT_MERGE_CONCURRENT)
        dst->cfg.rate = 0;
}

/* Stages line up when both runs had the same stages' lengths. */
static int same_plan(const struct run_result *a, const struct run_result *b)
{
    if (a->nstages != b->nstages || a->cfg.nstages != b->cfg.nstages)
        return 0;
    for (size_t i = 0; i < a->nstages; i++)
        if (a->cfg.stages[i].duration_ns != b->cfg.stages[i].duration_ns)
            return 0;
    return 1;
}

/* Stage by stage: counts add and histograms merge. Side by side, the
 * offered rates add (two clients offer twice) and the CPU follows
 * combine(); back to back, a stage lasts as long as both together (so
 * achieved = sent / that time is the mean) and its CPU time adds. Runs of
 * other stages have no stages in common: the merge has none. */
static int merge_stages(struct run_result *dst, const struct run_result *src, int concurrent)
{
    if (!same_plan(dst, src)) {
        dst->nstages = dst->cfg.nstages = 0;
        return 0;
    }
    for (size_t i = 0; i < dst->nstages; i++) {
        struct stage_result *d = &dst->stages[i];
        const struct stage_result *s = &src->stages[i];
        struct run_stage *dc = &dst->cfg.stages[i];
        const struct run_stage *sc = &src->cfg.stages[i];
        if (hist_merge(&d->latency, &s->latency))
            return -1;
        d->offered += s->offered;
        d->sent += s->sent;
        d->unsent += s->unsent;
        d->unsent_failed += s->unsent_failed;
        d->unfinished += s->unfinished;
        d->ok += s->ok;
        d->errors += s->errors;
        add_count(&d->answered, s->answered);
        int same = same_servers(dst, src);
        if (concurrent) {
            dc->from += sc->from;
            dc->to += sc->to;
            d->server_cpu_pct = combine(d->server_cpu_pct, s->server_cpu_pct, same);
            d->server_cpu_ms = combine(d->server_cpu_ms, s->server_cpu_ms, same);
            continue;
        }
        dc->duration_ns += sc->duration_ns;
        d->server_cpu_ms = combine(d->server_cpu_ms, s->server_cpu_ms, 0);
        d->server_cpu_pct = d->server_cpu_ms / ((double)dc->duration_ns / 1e6) * 100; /* NaN stays */
    }
    return 0;
}

enum result_timing result_timing(const double *start, const double *dur, size_t n,
                                 size_t *order, double *common)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = 1; i < n; i++) /* insertion sort: a few files */
        for (size_t j = i; j > 0 && start[order[j]] < start[order[j - 1]]; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    double end = 0, first_end = INFINITY;
    int overlapping = 0, apart = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        if (!(start[i] > 0))
            return RESULT_TIMING_UNKNOWN;
        if (k > 0 && start[i] < end)
            overlapping = 1;
        else if (k > 0)
            apart = 1;
        end = fmax(end, start[i] + dur[i]);
        first_end = fmin(first_end, start[i] + dur[i]);
    }
    *common = n ? fmax(0, first_end - start[order[n - 1]]) : 0;
    return overlapping && apart ? RESULT_TIMING_MIXED
           : apart              ? RESULT_TIMING_APART
                                : RESULT_TIMING_OVERLAP;
}

int result_merge(struct run_result *dst, const struct run_result *src, enum result_merge mode,
                 char *err)
{
    note_merge(dst, src, fresh(dst), mode);
    adopt(dst, src, mode);
    if (merge_hists(dst, src, err))
        return -1;
    merge_counts(dst, src);
    int rc = mode == RESULT_MERGE_SEQUENTIAL    ? merge_sequential(dst, src)
             : mode == RESULT_MERGE_CONSECUTIVE ? merge_consecutive(dst, src)
                                                : merge_concurrent(dst, src);
    if (rc) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    if (merge_stages(dst, src, mode == RESULT_MERGE_CONCURRENT)) {
        snprintf(err, ERR_LEN, "histograms of different layouts cannot be merged");
        return -1;
    }
    if (mode == RESULT_MERGE_CONCURRENT && result_targets_merge(dst, src)) {
        snprintf(err, ERR_LEN, "the targets' rows cannot be merged (memory, or their histograms)");
        return -1;
    }
    merge_pids(dst, src);
    return 0;
}
