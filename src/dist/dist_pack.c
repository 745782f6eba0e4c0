/* dist_pack: packing results for the ranks (dist_pack.h). */
#include "dist/dist_pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/config_keys.h"

/* What a packed histogram starts with. */
struct hist_head {
    int64_t total_count, min, max;
    double sum, sum_sq;
    int32_t counts_len, nonzero;
};

/* One non-zero bucket. */
struct bucket {
    int32_t index;
    int32_t pad;
    int64_t count;
};

int dist_pack_hist(struct buf *b, const struct hist *h)
{
    struct hist_head hd = {.total_count = h->total_count, .min = h->min, .max = h->max,
                           .sum = h->sum, .sum_sq = h->sum_sq, .counts_len = h->counts_len};
    for (int32_t i = 0; h->counts && i < h->counts_len; i++)
        hd.nonzero += h->counts[i] != 0;
    if (buf_reserve(b, sizeof hd + (size_t)hd.nonzero * sizeof(struct bucket)) ||
        buf_append(b, &hd, sizeof hd))
        return -1;
    for (int32_t i = 0; hd.nonzero && i < h->counts_len; i++) {
        struct bucket bk = {.index = i, .count = h->counts[i]};
        if (bk.count && buf_append(b, &bk, sizeof bk))
            return -1;
    }
    return 0;
}

static int take(const unsigned char *data, size_t len, size_t *pos, void *out, size_t n)
{
    if (len - *pos < n || *pos > len)
        return -1;
    memcpy(out, data + *pos, n);
    *pos += n;
    return 0;
}

int dist_unpack_hist_add(const unsigned char *data, size_t len, size_t *pos, struct hist *dst)
{
    struct hist_head hd;
    if (take(data, len, pos, &hd, sizeof hd) || hd.counts_len != dst->counts_len ||
        hd.nonzero < 0 || hd.nonzero > hd.counts_len || !dst->counts)
        return -1;
    for (int32_t j = 0; j < hd.nonzero; j++) {
        struct bucket bk;
        if (take(data, len, pos, &bk, sizeof bk) || bk.index < 0 || bk.index >= dst->counts_len)
            return -1;
        dst->counts[bk.index] += bk.count;
    }
    dst->total_count += hd.total_count;
    if (hd.min < dst->min)
        dst->min = hd.min;
    if (hd.max > dst->max)
        dst->max = hd.max;
    dst->sum += hd.sum;
    dst->sum_sq += hd.sum_sq;
    return 0;
}

/* The histograms of a result, in packing order: the run's, its verbs'
 * (nverbs) and its stages' (nstages; their counts and CPU come with the
 * struct's bytes). */
#define HISTS_MAX (5 + RUN_MAX_VERBS + RUN_MAX_STAGES)
#define TARGETS_PACK_MAX (1u << 20) /* what a rank's bytes may claim */
static size_t hists_of(struct run_result *r, struct hist **out)
{
    size_t n = 0;
    out[n++] = &r->latency;
    out[n++] = &r->service;
    out[n++] = &r->send_lag;
    out[n++] = &r->pacing_lag;
    out[n++] = &r->handshake;
    for (size_t i = 0; i < r->nverbs && i < RUN_MAX_VERBS; i++)
        out[n++] = &r->verbs[i].latency;
    for (size_t i = 0; i < r->nstages && i < RUN_MAX_STAGES; i++)
        out[n++] = &r->stages[i].latency;
    return n;
}

/* The configuration row by row (model/config_keys.c: every field has
 * one), after the result's other bytes: a field is sent because its row
 * says where it is, as it is saved and loaded. */
static int pack_config(struct buf *b, const struct run_config *c)
{
    for (size_t i = 0; i < config_keys_n(); i++)
        if (buf_append(b, config_key_in(config_key_i(i), c), config_key_i(i)->size))
            return -1;
    return 0;
}

static int unpack_config(const unsigned char *data, size_t len, size_t *pos, struct run_config *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < config_keys_n(); i++)
        if (take(data, len, pos, config_key_at(config_key_i(i), c), config_key_i(i)->size))
            return -1;
    return 0;
}

/* The result's bytes but its configuration's, which goes by its rows. */
#define CFG_AT offsetof(struct run_result, cfg)
#define CFG_END (CFG_AT + sizeof(struct run_config))

int dist_pack_result(struct buf *b, const struct run_result *r)
{
    struct hist *h[HISTS_MAX];
    size_t nh = hists_of((struct run_result *)r, h);
    if (buf_append(b, r, CFG_AT) || buf_append(b, (const char *)r + CFG_END, sizeof *r - CFG_END) ||
        pack_config(b, &r->cfg))
        return -1;
    for (size_t i = 0; i < nh; i++)
        if (dist_pack_hist(b, h[i]))
            return -1;
    if (buf_append(b, r->intervals, r->nintervals * sizeof *r->intervals) ||
        buf_append(b, r->samples, r->nsamples * sizeof *r->samples) ||
        buf_append(b, r->ranks, r->nranks * sizeof *r->ranks))
        return -1;
    for (size_t i = 0; i < r->ntargets; i++) /* a fleet's rows: each with its histogram */
        if (buf_append(b, &r->targets[i], sizeof r->targets[i]) ||
            dist_pack_hist(b, &r->targets[i].latency))
            return -1;
    return 0;
}

/* A fleet's rows, after the ranks: raw->ntargets of them. */
static int unpack_targets(const unsigned char *data, size_t len, size_t *pos,
                          struct run_result *r, const struct run_result *raw)
{
    if (!raw->ntargets)
        return 0;
    if (raw->ntargets > TARGETS_PACK_MAX || result_targets_init(r, raw->ntargets))
        return -1;
    for (size_t i = 0; i < raw->ntargets; i++) {
        struct target_result t;
        if (take(data, len, pos, &t, sizeof t))
            return -1;
        t.url[sizeof t.url - 1] = '\0';
        t.latency = r->targets[i].latency; /* the fresh one, filled below */
        r->targets[i] = t;
        if (dist_unpack_hist_add(data, len, pos, &r->targets[i].latency))
            return -1;
    }
    return 0;
}

/* The timeline and ranks after the histograms. */
static int unpack_arrays(const unsigned char *data, size_t len, size_t *pos,
                         struct run_result *r, const struct run_result *raw)
{
    for (size_t i = 0; i < raw->nintervals; i++) {
        struct interval_rec rec;
        if (take(data, len, pos, &rec, sizeof rec) || result_add_interval(r, &rec))
            return -1;
    }
    for (size_t i = 0; i < raw->nsamples; i++) {
        struct proc_point p;
        if (take(data, len, pos, &p, sizeof p) || result_add_sample(r, &p))
            return -1;
    }
    if (raw->nranks) {
        if (raw->nranks > 1u << 20 || !(r->ranks = calloc(raw->nranks, sizeof *r->ranks)))
            return -1;
        r->nranks = raw->nranks;
        if (take(data, len, pos, r->ranks, raw->nranks * sizeof *r->ranks))
            return -1;
    }
    if (unpack_targets(data, len, pos, r, raw))
        return -1;
    return *pos == len ? 0 : -1;
}

int dist_unpack_result(const unsigned char *data, size_t len, struct run_result *r, char *err)
{
    static struct run_result raw; /* large: off the stack; one thread */
    size_t pos = 0;
    memset(r, 0, sizeof *r);
    if (take(data, len, &pos, &raw, CFG_AT) ||
        take(data, len, &pos, (char *)&raw + CFG_END, sizeof raw - CFG_END) ||
        unpack_config(data, len, &pos, &raw.cfg) ||
        raw.nverbs > RUN_MAX_VERBS || raw.cfg.nstages > RUN_MAX_STAGES ||
        raw.cfg.nverbs > RUN_MAX_VERBS || raw.cfg.npcts > RUN_MAX_PCTS) {
        snprintf(err, ERR_LEN, "a rank's result is truncated (%zu bytes)", len);
        return -1;
    }
    if (result_init(r, &raw.cfg)) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    /* Everything but what r owns comes as it was. */
    struct run_result own = *r;
    *r = raw;
    r->latency = own.latency;
    r->service = own.service;
    r->send_lag = own.send_lag;
    r->pacing_lag = own.pacing_lag;
    r->handshake = own.handshake;
    for (size_t i = 0; i < RUN_MAX_VERBS; i++)
        r->verbs[i].latency = own.verbs[i].latency;
    for (size_t i = 0; i < RUN_MAX_STAGES; i++)
        r->stages[i].latency = own.stages[i].latency;
    r->nstages = own.nstages; /* as many as its histograms */
    r->intervals = NULL;
    r->samples = NULL;
    r->ranks = NULL;
    r->targets = NULL; /* the other process's pointer: its rows come after the ranks */
    r->ntargets = 0;
    r->nintervals = r->cap_intervals = r->nsamples = r->cap_samples = r->nranks = 0;
    for (size_t i = 0; i < r->nverbs; i++) /* verbs a merge added past cfg's */
        if (!r->verbs[i].latency.counts && hist_init_latency(&r->verbs[i].latency))
            goto bad;
    struct hist *h[HISTS_MAX];
    size_t nh = hists_of(r, h);
    for (size_t i = 0; i < nh; i++)
        if (!h[i]->counts || dist_unpack_hist_add(data, len, &pos, h[i]))
            goto bad;
    if (unpack_arrays(data, len, &pos, r, &raw) == 0)
        return 0;
bad:
    snprintf(err, ERR_LEN, "a rank's result does not unpack (%zu bytes)", len);
    return -1;
}
