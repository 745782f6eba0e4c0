/* hlog_merge: interval logs merged by absolute time (hlog_merge.h). */
#include "stats/hlog_merge.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/file.h"
#include "stats/hdrlog.h"
#include "stats/hdrlog_read.h"

/* One input log, read one interval ahead. */
struct head {
    FILE *f;
    struct hdrlog_reader r;
    struct hdrlog_interval iv;
    struct hist h;   /* iv's histogram, while live */
    int live;        /* iv and h hold the next interval */
    long slot;       /* iv's */
};

int hlog_is_log(const char *path)
{
    size_t n = strlen(path);
    if (n >= 5 && !strcmp(path + n - 5, ".hlog"))
        return 1;
    FILE *f = fopen(path, "r");
    char two[2] = "";
    int log = f && fread(two, 1, 2, f) == 2 && two[0] == '#' && two[1] == '[';
    if (f)
        fclose(f);
    return log;
}

static FILE *open_log(const char *path, char *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        snprintf(err, ERR_LEN, "%.200s: cannot read: %s", path, strerror(errno));
    return f;
}

/* The first pass: the earliest interval start and the longest interval,
 * without decoding the histograms. */
static int scan(char *const *paths, int n, struct hlog_merge_info *info, char *err)
{
    double first = INFINITY, longest = 0, header = INFINITY;
    for (int i = 0; i < n; i++) {
        FILE *f = open_log(paths[i], err);
        if (!f)
            return -1;
        struct hdrlog_reader r;
        struct hdrlog_interval iv;
        int rc;
        hdrlog_reader_open(&r, f, paths[i]);
        while ((rc = hdrlog_read_interval(&r, &iv, NULL, err)) == 1) {
            first = fmin(first, iv.start);
            longest = fmax(longest, iv.len);
            info->in++;
        }
        if (r.have_start)
            header = fmin(header, r.start_time);
        info->censored += r.censored;
        hdrlog_reader_close(&r);
        fclose(f);
        if (rc < 0)
            return -1;
    }
    /* with no interval at all, the merged (empty) log keeps a start */
    info->start = info->in ? first : isfinite(header) ? header : clock_realtime_s();
    info->step = longest > 0 ? longest : 1.0; /* zero-length intervals: 1 s slots */
    return 0;
}

/* Reads h's next interval, which may not start in an earlier slot. */
static int advance(struct head *h, const struct hlog_merge_info *info, char *err)
{
    long before = h->live ? h->slot : LONG_MIN;
    int rc = hdrlog_read_interval(&h->r, &h->iv, &h->h, err);
    h->live = rc == 1;
    if (rc <= 0)
        return rc;
    double q = (h->iv.start - info->start) / info->step;
    if (!(q >= 0 && q < 1e9)) { /* a slot index past any real log's length */
        hist_close(&h->h);
        h->live = 0;
        snprintf(err, ERR_LEN, "%.150s:%ld: interval start is %.0f slots from the first",
                 h->r.name, h->iv.line, q);
        return -1;
    }
    h->slot = lround(q);
    if (h->slot < before) {
        hist_close(&h->h);
        h->live = 0;
        snprintf(err, ERR_LEN, "%.150s:%ld: interval starts before the one above it "
                 "(the log is not in time order)", h->r.name, h->iv.line);
        return -1;
    }
    return 0;
}

/* Sums every head's intervals of slot s into *acc (initialised here when
 * have is 0); the longest length and the largest max column come along,
 * with the ratio of that max's histogram value to its column. */
static int take_slot(struct head *hd, int n, long s, struct hist *acc, double *len, double *max,
                     double *ratio, const struct hlog_merge_info *info, char *err)
{
    int have = 0;
    for (int i = 0; i < n; i++) {
        struct head *h = &hd[i];
        while (h->live && h->slot == s) {
            double top = h->h.total_count ? (double)hist_highest_equivalent(&h->h, h->h.max) : 0;
            if (h->iv.max >= *max && h->iv.max > 0 && top > 0) {
                *max = h->iv.max;
                *ratio = top / h->iv.max;
            }
            *len = fmax(*len, h->iv.len);
            if (!have) {
                *acc = h->h; /* the first one becomes the sum */
                memset(&h->h, 0, sizeof h->h);
                have = 1;
            } else if (hist_merge(acc, &h->h)) {
                snprintf(err, ERR_LEN, "%.150s:%ld: histogram layout differs from the other "
                         "logs' (lowest, highest, digits)", h->r.name, h->iv.line);
                return -1;
            }
            hist_close(&h->h);
            if (advance(h, info, err) < 0)
                return -1;
        }
    }
    return 0;
}

static long lowest_slot(const struct head *hd, int n)
{
    long s = LONG_MAX;
    for (int i = 0; i < n; i++)
        if (hd[i].live && hd[i].slot < s)
            s = hd[i].slot;
    return s;
}

/* The second pass: slot by slot, in time order. */
static int merge_heads(struct head *hd, int n, struct hdrlog_writer *w,
                       struct hlog_merge_info *info, char *err)
{
    for (int i = 0; i < n; i++)
        if (advance(&hd[i], info, err) < 0)
            return -1;
    for (long s; (s = lowest_slot(hd, n)) != LONG_MAX;) {
        struct hist acc;
        double len = 0, max = 0, ratio = 0;
        memset(&acc, 0, sizeof acc);
        int rc = take_slot(hd, n, s, &acc, &len, &max, &ratio, info, err);
        if (rc == 0 && w) {
            w->max_ratio = ratio > 0 ? ratio : 1000.0;
            rc = hdrlog_write_interval(w, (double)s * info->step, len, &acc, err);
        }
        info->total += acc.total_count;
        info->out++;
        hist_close(&acc);
        if (rc)
            return -1;
    }
    return 0;
}

static int open_heads(struct head *hd, char *const *paths, int n, char *err)
{
    for (int i = 0; i < n; i++) {
        if (!(hd[i].f = open_log(paths[i], err)))
            return -1;
        hdrlog_reader_open(&hd[i].r, hd[i].f, paths[i]);
    }
    return 0;
}

static void close_heads(struct head *hd, int n)
{
    for (int i = 0; i < n; i++) {
        if (hd[i].live)
            hist_close(&hd[i].h);
        hdrlog_reader_close(&hd[i].r);
        if (hd[i].f)
            fclose(hd[i].f);
    }
}

static int write_merged(struct head *hd, int n, const char *out_path, struct hlog_merge_info *info,
                        char *err)
{
    struct hdrlog_writer w;
    FILE *f = file_create(out_path, err);
    if (!f)
        return -1;
    char comment[320], lower[160] = "";
    if (info->censored > 0) /* which slots hold them is lost in the merge: said once */
        snprintf(lower, sizeof lower, "; %lld of its values are lower bounds (censored waits of "
                 "unfinished requests, marked in the inputs)", (long long)info->censored);
    snprintf(comment, sizeof comment, "[rpcbench report: %d interval logs merged by absolute "
             "interval start, in slots of %.3f s%s]", n, info->step, lower);
    int rc = hdrlog_writer_open(&w, f, info->start, 1000.0, comment, err);
    if (rc == 0)
        rc = merge_heads(hd, n, &w, info, err);
    char cerr[ERR_LEN];
    if (hdrlog_close(&w, cerr) && rc == 0) {
        snprintf(err, ERR_LEN, "%s", cerr);
        rc = -1;
    }
    if (file_close_checked(f, out_path, cerr) && rc == 0) {
        snprintf(err, ERR_LEN, "%s", cerr);
        rc = -1;
    }
    if (rc)
        unlink(out_path); /* no half-merged log left behind */
    return rc;
}

int hlog_merge(char *const *paths, int n, const char *out_path, struct hlog_merge_info *info,
               char *err)
{
    memset(info, 0, sizeof *info);
    if (n < 1 || scan(paths, n, info, err))
        return n < 1 ? (snprintf(err, ERR_LEN, "no interval log to merge"), -1) : -1;
    struct head *hd = calloc((size_t)n, sizeof *hd);
    if (!hd) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    int rc = open_heads(hd, paths, n, err);
    if (rc == 0)
        rc = out_path ? write_merged(hd, n, out_path, info, err)
                      : merge_heads(hd, n, NULL, info, err);
    close_heads(hd, n);
    free(hd);
    return rc;
}
