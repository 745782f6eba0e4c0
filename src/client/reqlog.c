/* reqlog: the --requests-log ring and its writer thread (see reqlog.h).
 * The loop thread only copies a record into the ring and publishes its
 * head (release); the writer polls every few milliseconds, so that the
 * loop never makes a system call to wake it. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "client/reqlog.h"
#include "client/reqlog_testing.h"
#include "model/result_json.h"

#define REQLOG_RING_DEFAULT 16384 /* ~0.8 MB: over 1 s of rows at 10k/s */
#define REQLOG_POLL_NS 2000000    /* the writer's nap when the ring is empty */

struct reqlog {
    struct reqlog_rec *ring;
    size_t cap;                 /* a power of two */
    _Atomic uint64_t head;      /* records put (the loop's) */
    _Atomic uint64_t tail;      /* records written (the writer's) */
    _Atomic int stop;
    int64_t dropped;            /* the loop's only */
    pthread_t writer;
    gzFile gz;                  /* .gz */
    FILE *f;                    /* otherwise */
    int failed;                 /* a write failed: the rest is not written */
    int head_written;           /* the config line and the column header */
    char verbs[RUN_MAX_VERBS][64];
    size_t nverbs;
    char target[512];           /* CSV-quoted already */
    char *targets;              /* a fleet's hosts, ntargets of TARGET_LEN each,
                                   CSV-quoted (reqlog_targets; NULL none) */
    size_t ntargets;
    unsigned rank;
    int64_t over_us;            /* when the run was over (reqlog_end) */
    int over_known;
};

#define TARGET_LEN 520 /* a 256-byte URL quoted, every byte a quote at worst */

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int out_write(struct reqlog *l, const char *p, size_t n)
{
    if (l->failed)
        return -1;
    int ok = l->gz ? gzwrite(l->gz, p, (unsigned)n) == (int)n : fwrite(p, 1, n, l->f) == n;
    if (!ok)
        l->failed = 1;
    return ok ? 0 : -1;
}

/* s as one CSV field into out (len bytes): quoted when it holds a comma,
 * a quote or a line break. */
static void csv_field(const char *s, char *out, size_t len)
{
    if (!strpbrk(s, ",\"\r\n")) {
        snprintf(out, len, "%s", s);
        return;
    }
    size_t o = 0;
    out[o++] = '"';
    for (; *s && o + 3 < len; s++) {
        if (*s == '"')
            out[o++] = '"';
        out[o++] = *s;
    }
    out[o++] = '"';
    out[o] = '\0';
}

/* Writes what the ring holds, in batches of formatted rows. */
static void drain(struct reqlog *l)
{
    char batch[65536], row[1024];
    size_t used = 0;
    uint64_t tail = atomic_load_explicit(&l->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&l->head, memory_order_acquire);
    for (; tail != head; tail++) {
        size_t n = reqlog_format(l, &l->ring[tail & (l->cap - 1)], row, sizeof row - 1);
        row[n++] = '\n';
        if (used + n > sizeof batch) {
            out_write(l, batch, used);
            used = 0;
        }
        memcpy(batch + used, row, n);
        used += n;
        /* the slot is free again once formatted */
        atomic_store_explicit(&l->tail, tail + 1, memory_order_release);
    }
    if (used)
        out_write(l, batch, used);
}

static void *writer_main(void *arg)
{
    struct reqlog *l = arg;
    /* Below every other thread: on a core it shares with the loop (a
     * client pinned to one CPU) it runs only while the loop sleeps, so it
     * never delays a send. Best effort: without it the ring still holds. */
    struct sched_param idle = {0};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
    const struct timespec nap = {0, REQLOG_POLL_NS};
    while (!atomic_load_explicit(&l->stop, memory_order_acquire)) {
        drain(l);
        nanosleep(&nap, NULL);
    }
    drain(l); /* what was put before the stop */
    return NULL;
}

static int open_out(struct reqlog *l, const char *path, char *err)
{
    if (ends_with(path, ".gz"))
        l->gz = gzopen(path, "wb");
    else
        l->f = fopen(path, "w");
    if (!l->gz && !l->f) {
        snprintf(err, ERR_LEN, "--requests-log %s: %s", path, strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

/* The lines before the rows, once: REQLOG_CONFIG_TAG and the run's
 * configuration as one line of JSON when cfg is known (reqlog_begin; the
 * rows cannot say it), then the column header. Only ever before the
 * first reqlog_put, so the writer thread, which writes rows alone, has
 * not touched the file yet. */
static void write_head(struct reqlog *l, const struct run_config *cfg, const char *target)
{
    if (l->head_written)
        return;
    l->head_written = 1;
    if (cfg) {
        json_object *j = result_config_json(cfg, target && target[0] ? target : "simulator");
        const char *text = j ? result_json_line(j) : NULL;
        if (text) {
            out_write(l, REQLOG_CONFIG_TAG " ", strlen(REQLOG_CONFIG_TAG) + 1);
            out_write(l, text, strlen(text));
            out_write(l, "\n", 1);
        }
        json_object_put(j);
    }
    out_write(l, REQLOG_HEADER "\n", strlen(REQLOG_HEADER) + 1);
}

static void free_log(struct reqlog *l)
{
    if (l->gz)
        gzclose(l->gz);
    if (l->f)
        fclose(l->f);
    free(l->ring);
    free(l->targets);
    free(l);
}

struct reqlog *reqlog_open(const char *path, size_t ring_cap, char *err)
{
    size_t cap = 1;
    while (cap < (ring_cap ? ring_cap : REQLOG_RING_DEFAULT))
        cap <<= 1;
    struct reqlog *l = calloc(1, sizeof *l);
    if (l)
        l->ring = calloc(cap, sizeof *l->ring);
    if (!l || !l->ring) {
        free(l);
        snprintf(err, ERR_LEN, "--requests-log: out of memory");
        return NULL;
    }
    l->cap = cap;
    snprintf(l->target, sizeof l->target, "simulator");
    if (open_out(l, path, err)) {
        free_log(l);
        return NULL;
    }
    if (pthread_create(&l->writer, NULL, writer_main, l)) {
        snprintf(err, ERR_LEN, "--requests-log: cannot start its writer thread");
        free_log(l);
        return NULL;
    }
    return l;
}

void reqlog_begin(struct reqlog *l, const struct run_config *cfg, const char *target)
{
    l->nverbs = cfg->nverbs;
    for (size_t i = 0; i < cfg->nverbs && i < RUN_MAX_VERBS; i++)
        csv_field(cfg->verbs[i].name, l->verbs[i], sizeof l->verbs[i]);
    csv_field(target && target[0] ? target : "simulator", l->target, sizeof l->target);
    l->rank = cfg->split_rank;
    write_head(l, cfg, target);
}

int reqlog_targets(struct reqlog *l, const char *const *urls, size_t n)
{
    l->targets = malloc(n * TARGET_LEN);
    if (!l->targets)
        return -1;
    for (size_t i = 0; i < n; i++)
        csv_field(urls[i], l->targets + i * TARGET_LEN, TARGET_LEN);
    l->ntargets = n;
    return 0;
}

int reqlog_put(struct reqlog *l, const struct reqlog_rec *rec)
{
    uint64_t head = atomic_load_explicit(&l->head, memory_order_relaxed);
    if (head - atomic_load_explicit(&l->tail, memory_order_acquire) >= l->cap) {
        l->dropped++;
        return -1;
    }
    l->ring[head & (l->cap - 1)] = *rec;
    atomic_store_explicit(&l->head, head + 1, memory_order_release);
    return 0;
}

void reqlog_put_wait(struct reqlog *l, const struct reqlog_rec *rec)
{
    const struct timespec nap = {0, REQLOG_POLL_NS / 4};
    while (atomic_load_explicit(&l->head, memory_order_relaxed) -
               atomic_load_explicit(&l->tail, memory_order_acquire) >=
           l->cap)
        nanosleep(&nap, NULL);
    reqlog_put(l, rec);
}

/* ns as a whole number of us, or "" when negative (not known). */
static const char *us_or_empty(int64_t ns, char *buf, size_t len)
{
    if (ns < 0)
        return "";
    snprintf(buf, len, "%lld", (long long)(ns / 1000));
    return buf;
}

size_t reqlog_format(const struct reqlog *l, const struct reqlog_rec *r, char *out, size_t len)
{
    char sent[24], lat[24], svc[24];
    int ended = r->end_ns >= 0;
    const char *outcome = r->kind == REQLOG_UNFINISHED ? "unfinished"
                          : r->kind == REQLOG_UNSENT   ? "unsent"
                          : req_ok(r->kind)            ? "ok"
                          : r->kind < ERR_KINDS        ? err_kind_names[r->kind]
                                                       : "?";
    const char *call = r->verb >= 0 && (size_t)r->verb < l->nverbs ? l->verbs[r->verb] : "?";
    const char *target = r->target >= 0 && (size_t)r->target < l->ntargets
                             ? l->targets + (size_t)r->target * TARGET_LEN : l->target;
    int n = snprintf(out, len, "%lld,%s,%s,%s,%s,%s,%s,%lld,%lld,%d,%u",
                     (long long)(r->intended_ns / 1000), us_or_empty(r->sent_ns, sent, sizeof sent),
                     us_or_empty(ended ? r->end_ns - r->intended_ns : -1, lat, sizeof lat),
                     us_or_empty(ended && r->sent_ns >= 0 ? r->end_ns - r->sent_ns : -1, svc,
                                 sizeof svc),
                     call, target, outcome, (long long)r->bytes_sent,
                     (long long)r->bytes_received, (int)r->conn, l->rank);
    return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

void reqlog_end(struct reqlog *l, int64_t over_ns)
{
    l->over_us = over_ns / 1000;
    l->over_known = 1;
}

int reqlog_close(struct reqlog *l, int64_t *dropped, char *err)
{
    write_head(l, NULL, NULL); /* no run began: the header alone, as before */
    atomic_store_explicit(&l->stop, 1, memory_order_release);
    pthread_join(l->writer, NULL);
    if (l->over_known) { /* after the rows: the writer is done */
        char end[64];
        int n = snprintf(end, sizeof end, REQLOG_END_TAG "%lld\n", (long long)l->over_us);
        out_write(l, end, (size_t)n);
    }
    if (dropped)
        *dropped = l->dropped;
    int rc = l->failed ? -1 : 0;
    if (l->gz && gzclose(l->gz) != Z_OK)
        rc = -1;
    if (l->f && fclose(l->f))
        rc = -1;
    l->gz = NULL;
    l->f = NULL;
    if (rc)
        snprintf(err, ERR_LEN, "--requests-log: a write failed (disk full?)");
    free_log(l);
    return rc;
}
