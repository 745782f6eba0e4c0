/* hdrlog_sink: --hdr-log and --percentile-dist (hdrlog_sink.h). */
#include "report/hdrlog_sink.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "base/file.h"

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
    h.on_interval = hdrlog_sink_hook;
    h.interval_ctx = s;
    return h;
}

void hdrlog_sink_hook(void *ctx, const struct interval_rec *rec, const struct hist *h,
                   double start_s, double len_s)
{
    (void)rec;
    struct hdrlog_sink *s = ctx;
    if (s->failed || !s->f)
        return;
    if (!s->in_run) {
        /* The start the engine recorded; failing that, as the interval
         * closes, the measured start is now less the interval's end. */
        if (s->res && s->res->start_unix > 0)
            s->run_base = s->res->start_unix;
        else
            s->run_base = epoch_now() - (start_s + len_s);
        s->in_run = 1;
    }
    if (!s->opened) {
        s->log_start = s->run_base + start_s;
        if (hdrlog_writer_open(&s->w, s->f, s->log_start, 1000.0, NULL, s->err)) {
            s->failed = 1;
            return;
        }
        s->opened = 1;
    }
    double at = s->run_base + start_s - s->log_start;
    if (hdrlog_write_interval(&s->w, at > 0 ? at : 0, len_s, h, s->err))
        s->failed = 1;
    s->total += h->total_count;
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
