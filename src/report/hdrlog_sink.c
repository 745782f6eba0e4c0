/* hdrlog_sink: --hdr-log and --percentile-dist (hdrlog_sink.h). */
#include "report/hdrlog_sink.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "base/file.h"

static void hdrlog_sink_hook(void *ctx, const struct interval_rec *rec, const struct hist *h,
                      double start_s, double len_s);

static double epoch_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int hdrlog_sink_open(struct hdrlog_sink *s, const char *path, char *err)
{
    memset(s, 0, sizeof *s);
    s->f = file_create(path, err);
    return s->f ? 0 : -1;
}

struct run_hooks hdrlog_sink_next_run(struct hdrlog_sink *s, const struct run_result *res)
{
    struct run_hooks h = {0};
    if (!s)
        return h;
    s->in_run = 0;
    s->res = res;
    hist_close(&s->run_sum); /* a run that ended without run_done */
    h.on_interval = hdrlog_sink_hook;
    h.interval_ctx = s;
    return h;
}

/* The run's measured start, once per run: the start the engine recorded,
 * failing that the wall clock less since_start (s the run has lasted). */
static void begin_run(struct hdrlog_sink *s, double since_start)
{
    if (s->in_run)
        return;
    if (s->res && s->res->start_unix > 0)
        s->run_base = s->res->start_unix;
    else
        s->run_base = epoch_now() - since_start;
    s->in_run = 1;
}

/* The header, before the first line of the log, dated at its first
 * interval's start (at, s after the run's start). @return 0, or -1. */
static int open_log(struct hdrlog_sink *s, double at)
{
    if (s->opened)
        return 0;
    s->log_start = s->run_base + at;
    if (hdrlog_writer_open(&s->w, s->f, s->log_start, 1000.0, NULL, s->err))
        return -1;
    s->opened = 1;
    return 0;
}

/* One interval line, start_s after the run's start. @return 0, or -1. */
static int write_one(struct hdrlog_sink *s, double start_s, double len_s, const struct hist *h)
{
    double at = s->run_base + start_s - s->log_start;
    if (at < 0)
        at = 0;
    if (hdrlog_write_interval(&s->w, at, len_s, h, s->err))
        return -1;
    s->total += h->total_count;
    s->last_end = at + len_s;
    return 0;
}

/* Adds h to the run's sum, for hdrlog_sink_run_done. @return 0, or -1. */
static int add_to_run(struct hdrlog_sink *s, const struct hist *h)
{
    if (!s->run_sum.counts && hist_init(&s->run_sum, h->lowest, h->highest, h->sigfigs)) {
        snprintf(s->err, ERR_LEN, "out of memory");
        return -1;
    }
    if (hist_merge(&s->run_sum, h)) {
        snprintf(s->err, ERR_LEN, "an interval's histogram has another layout");
        return -1;
    }
    return 0;
}

/* The engine's interval_hook (result.h); ctx is the sink. Writes h (only
 * read, still the engine's) as one interval. A write error is kept in the
 * sink and reported by hdrlog_sink_close; it never stops the run. */
static void hdrlog_sink_hook(void *ctx, const struct interval_rec *rec, const struct hist *h,
                   double start_s, double len_s)
{
    (void)rec;
    struct hdrlog_sink *s = ctx;
    if (s->failed || !s->f)
        return;
    begin_run(s, start_s + len_s); /* the interval closes now */
    if (open_log(s, start_s) || write_one(s, start_s, len_s, h) || add_to_run(s, h))
        s->failed = 1;
}

/* The comment line that marks the next interval's lower bounds. */
static void censored_comment(struct hdrlog_sink *s, const struct censor *cs, int64_t n)
{
    fprintf(s->f, HDRLOG_CENSORED_MARK "%lld of the %lld values of the next interval are lower "
            "bounds: the waits, until the run's end, of requests not answered by then (the least "
            "%lld us)]\n",
            (long long)cs->n, (long long)n, (long long)cs->min_us);
}

/* res's latencies less the intervals already written: the censored
 * values. @return 0 with *left the caller's to hist_close, or -1. */
static int leftover(struct hdrlog_sink *s, const struct run_result *res, struct hist *left)
{
    const struct hist *all = &res->latency;
    if (hist_init(left, all->lowest, all->highest, all->sigfigs)) {
        snprintf(s->err, ERR_LEN, "out of memory");
        return -1;
    }
    hist_merge(left, all);
    if (s->run_sum.counts && hist_subtract(left, &s->run_sum)) {
        hist_close(left);
        snprintf(s->err, ERR_LEN, "its intervals hold values the run's latencies do not");
        return -1;
    }
    return 0;
}

int hdrlog_sink_run_done(struct hdrlog_sink *s, const struct run_result *res)
{
    if (!s || !s->f || s->failed)
        return s && s->failed ? -1 : 0;
    int rc = 0;
    struct hist left = {0};
    if (res->censored.n > 0) {
        s->res = res;
        begin_run(s, res->duration_s);
        /* The waits were taken when the run was over: the interval runs
         * from the run's last one to now, just after that. */
        double start = s->run_sum.counts ? s->last_end + s->log_start - s->run_base
                                         : res->duration_s;
        double len = epoch_now() - s->run_base - start;
        rc = open_log(s, start) || leftover(s, res, &left) ? -1 : 0;
        if (rc == 0) {
            censored_comment(s, &res->censored, left.total_count);
            rc = write_one(s, start, len > 0 ? len : 0, &left);
            s->censored += res->censored.n;
        }
    }
    hist_close(&left);
    hist_close(&s->run_sum); /* the next run sums its own */
    if (rc)
        s->failed = 1;
    return rc;
}

int hdrlog_sink_close(struct hdrlog_sink *s, char *err)
{
    int rc = s->failed ? -1 : 0;
    if (rc)
        snprintf(err, ERR_LEN, "--hdr-log: %.200s", s->err);
    if (!s->f)
        return rc;
    if (!s->opened && !s->failed &&
        hdrlog_writer_open(&s->w, s->f, epoch_now(), 1000.0, NULL, err) == 0)
        s->opened = 1; /* no interval at all: still a valid, empty log */
    if (s->opened && hdrlog_close(&s->w, err))
        rc = -1;
    if (fclose(s->f) && rc == 0) {
        snprintf(err, ERR_LEN, "--hdr-log: %s", strerror(errno));
        rc = -1;
    }
    s->f = NULL;
    hist_close(&s->run_sum);
    return rc;
}

int hdrlog_percentile_dist(const char *path, const struct hist *h, char *err)
{
    FILE *f = file_create(path, err);
    if (!f)
        return -1;
    if (hdrlog_write_percentiles(f, h, 1000.0, 5)) {
        fclose(f);
        snprintf(err, ERR_LEN, "cannot write %.200s", path);
        return -1;
    }
    return file_close_checked(f, path, err);
}
