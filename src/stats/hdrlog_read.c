/* hdrlog_read: HdrHistogram interval logs, read (hdrlog_read.h). */
#include "stats/hdrlog_read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hdrlog.h"

#define YEAR_S (365 * 24 * 3600.0) /* HistogramLogReader's test for relative stamps */

void hdrlog_reader_open(struct hdrlog_reader *r, FILE *f, const char *name)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->name = name ? name : "interval log";
}

void hdrlog_reader_close(struct hdrlog_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = 0;
}

static int fail(const struct hdrlog_reader *r, char *err, const char *why)
{
    snprintf(err, ERR_LEN, "%.120s:%ld: %.110s", r->name, r->line, why);
    return -1;
}

/* A finite number at *p, which moves past it. */
static int number(const char **p, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(*p, &end);
    if (end == *p || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    *p = end;
    return 0;
}

/* "#[Censored: N ...": rpcbench's mark of N lower bounds in the next
 * interval (report/hdrlog_sink.h). A count that overflows the sum is a
 * damaged file, not a huge number of lower bounds.
 * @return 1 when s is one, 0 when it is not, -1 (err set) when its count
 * is unreadable. */
static int censored_line(struct hdrlog_reader *r, const char *s, char *err)
{
    if (strncmp(s, HDRLOG_CENSORED_MARK, sizeof HDRLOG_CENSORED_MARK - 1))
        return 0;
    errno = 0;
    long long n = strtoll(s + sizeof HDRLOG_CENSORED_MARK - 1, NULL, 10);
    if (errno == ERANGE || n < 0 || n > INT64_MAX - r->censored)
        return fail(r, err, "bad Censored count");
    r->censored += n;
    return 1;
}

/* "#[StartTime: 1234.567 (seconds since epoch), ...]" and BaseTime. */
static int header_line(struct hdrlog_reader *r, const char *s, char *err)
{
    static const char start[] = "#[StartTime: ", base[] = "#[BaseTime: ";
    int censored = censored_line(r, s, err);
    if (censored)
        return censored < 0 ? -1 : 0;
    int is_start = !strncmp(s, start, sizeof start - 1);
    if (!is_start && strncmp(s, base, sizeof base - 1))
        return 0; /* another comment */
    const char *p = s + (is_start ? sizeof start : sizeof base) - 1;
    double v;
    if (number(&p, &v) || v < 0)
        return fail(r, err, is_start ? "bad StartTime" : "bad BaseTime");
    if (is_start) {
        r->start_time = v;
        r->have_start = 1;
    } else {
        r->base_time = v;
        r->have_base = 1;
    }
    return 0;
}

/* The timestamp's base, decided at the first interval as Java does. */
static double base_for(struct hdrlog_reader *r, double stamp)
{
    if (!r->have_start) {
        r->start_time = stamp;
        r->have_start = 1;
    }
    if (!r->have_base) {
        r->base_time = stamp < r->start_time - YEAR_S ? r->start_time : 0.0;
        r->have_base = 1;
    }
    return r->base_time;
}

/* "start,length,max,payload": the three numbers, then where the payload
 * begins in *payload and its length in *plen (trailing blanks cut). */
static int data_line(struct hdrlog_reader *r, const char *s, struct hdrlog_interval *iv,
                     const char **payload, size_t *plen, char *err)
{
    double v[3];
    const char *p = s;
    if (!strncmp(s, "Tag=", 4))
        return fail(r, err, "tagged intervals (Tag=) are not supported");
    for (int i = 0; i < 3; i++) {
        if (number(&p, &v[i]) || *p != ',')
            return fail(r, err, "bad interval line (want start,length,max,histogram)");
        p++;
    }
    if (v[1] < 0 || v[2] < 0)
        return fail(r, err, "negative interval length or max");
    size_t n = strlen(p);
    while (n && (p[n - 1] == '\n' || p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
        n--;
    if (n == 0)
        return fail(r, err, "interval line has no histogram");
    iv->start = v[0] + base_for(r, v[0]);
    iv->len = v[1];
    iv->max = v[2];
    iv->line = r->line;
    *payload = p;
    *plen = n;
    return 0;
}

int hdrlog_read_interval(struct hdrlog_reader *r, struct hdrlog_interval *iv, struct hist *h,
                         char *err)
{
    for (;;) {
        errno = 0;
        ssize_t got = getline(&r->buf, &r->cap, r->f);
        if (got < 0) {
            if (ferror(r->f))
                return fail(r, err, errno ? strerror(errno) : "read error");
            return 0;
        }
        r->line++;
        if ((size_t)got != strlen(r->buf))
            return fail(r, err, "NUL byte in the line (not a text interval log)");
        const char *s = r->buf;
        s += strspn(s, " \t");
        if (*s == '\0' || *s == '\n' || *s == '\r' || *s == '"')
            continue; /* blank, or the legend */
        if (*s == '#') {
            if (header_line(r, s, err))
                return -1;
            continue;
        }
        const char *payload;
        size_t plen;
        if (data_line(r, s, iv, &payload, &plen, err))
            return -1;
        if (h && hdrlog_decode(payload, plen, h, err)) {
            char why[ERR_LEN];
            snprintf(why, sizeof why, "%s", err);
            return fail(r, err, why);
        }
        return 1;
    }
}
