/* test_hlog_merge: interval logs are read as HistogramLogReader places them
 * in absolute time (BaseTime, StartTime, or neither), merged by absolute
 * interval start into slots with the counts summed exactly, and bad logs
 * fail with one line naming the file and line. Logs written by hdrlog's
 * writer into temporary files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "stats/hdrlog.h"
#include "stats/hdrlog_read.h"
#include "stats/hlog_merge.h"
#include "stats/hist_testing.h"

struct tmp {
    char path[64];
};

static void tmp_new(struct tmp *t)
{
    snprintf(t->path, sizeof t->path, "/tmp/rpcbench-hlog-XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    close(fd);
}

/* A log starting at start (epoch s) with n 1 s intervals from offset
 * first; interval k holds count(k) values of 1000 + k us. */
static void write_log(const char *path, double start, double first, int n, int64_t mult)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    struct hdrlog_writer w;
    char err[ERR_LEN];
    struct hist h;
    assert_int_equal(hdrlog_writer_open(&w, f, start, 1000.0, NULL, err), 0);
    assert_int_equal(hist_init_latency(&h), 0);
    for (int k = 0; k < n; k++) {
        hist_reset(&h);
        hist_record_n(&h, 1000 + k, mult * (k + 1));
        assert_int_equal(hdrlog_write_interval(&w, first + k, 1.0, &h, err), 0);
    }
    hist_close(&h);
    assert_int_equal(hdrlog_close(&w, err), 0);
    fclose(f);
}

/* Every interval of path: absolute starts and counts. @return how many. */
static int read_all(const char *path, double *start, int64_t *count, int max)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    struct hdrlog_reader r;
    struct hdrlog_interval iv;
    struct hist h;
    char err[ERR_LEN] = "";
    int n = 0, rc;
    hdrlog_reader_open(&r, f, path);
    while ((rc = hdrlog_read_interval(&r, &iv, &h, err)) == 1) {
        assert_true(n < max);
        start[n] = iv.start;
        count[n++] = h.total_count;
        hist_close(&h);
    }
    if (rc < 0)
        fail_msg("%s", err);
    hdrlog_reader_close(&r);
    fclose(f);
    return n;
}

/* Two logs started 1.3 s apart: b's intervals (starting 1.3, 2.3, 3.3 s
 * after a's start) fall in slots 1, 2, 3; slot 0 is a's alone. */
static void test_merge_two(void **state)
{
    (void)state;
    struct tmp a, b, m;
    tmp_new(&a), tmp_new(&b), tmp_new(&m);
    write_log(a.path, 5000.0, 0, 3, 10);  /* 10, 20, 30 */
    write_log(b.path, 5001.3, 0, 3, 1);   /* 1, 2, 3 */
    char *paths[] = {a.path, b.path};
    struct hlog_merge_info info;
    char err[ERR_LEN] = "";
    assert_int_equal(hlog_merge(paths, 2, m.path, &info, err), 0);
    assert_int_equal(info.in, 6);
    assert_int_equal(info.out, 4);
    assert_int_equal(info.total, 66);
    assert_true(info.start == 5000.0 && info.step == 1.0);
    double start[8];
    int64_t count[8];
    assert_int_equal(read_all(m.path, start, count, 8), 4);
    static const int64_t want[] = {10, 20 + 1, 30 + 2, 3};
    for (int i = 0; i < 4; i++) {
        assert_true(start[i] == 5000.0 + i);
        assert_int_equal(count[i], want[i]);
    }
    /* the other way round: the same log */
    char *back[] = {b.path, a.path};
    assert_int_equal(hlog_merge(back, 2, NULL, &info, err), 0);
    assert_int_equal(info.out, 4);
    assert_int_equal(info.total, 66);
    unlink(a.path), unlink(b.path), unlink(m.path);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* One encoded histogram of one value, for hand-written logs. */
static char *one_hist(void)
{
    struct hist h;
    struct buf b = {0};
    assert_int_equal(hist_init_latency(&h), 0);
    hist_record(&h, 1500);
    assert_int_equal(hdrlog_encode(&h, &b), 0);
    hist_close(&h);
    return b.data;
}

/* HistogramLogReader's rules for the timestamps' base. */
static void test_time_bases(void **state)
{
    (void)state;
    struct tmp t;
    tmp_new(&t);
    char *hb = one_hist();
    char text[4096];
    double start[4];
    int64_t count[4];
    /* no BaseTime, small stamps: relative to StartTime */
    snprintf(text, sizeof text, "#[StartTime: 1700000000.500 (seconds since epoch), x]\n"
             "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
             "2.000,1.000,1.5,%s\n", hb);
    put(t.path, text);
    assert_int_equal(read_all(t.path, start, count, 4), 1);
    assert_true(start[0] == 1700000002.5 && count[0] == 1);
    /* no BaseTime, stamps near StartTime: absolute */
    snprintf(text, sizeof text, "#[StartTime: 1700000000.000 (seconds since epoch)]\n"
             "1700000002.000,1.000,1.5,%s\n", hb);
    put(t.path, text);
    assert_int_equal(read_all(t.path, start, count, 4), 1);
    assert_true(start[0] == 1700000002.0);
    /* BaseTime given: stamps relative to it */
    snprintf(text, sizeof text, "#[StartTime: 1700000000.000 (seconds since epoch)]\n"
             "#[BaseTime: 1699999990.000 (seconds since epoch)]\n"
             "12.000,1.000,1.5,%s\r\n", hb);
    put(t.path, text);
    assert_int_equal(read_all(t.path, start, count, 4), 1);
    assert_true(start[0] == 1700000002.0);
    /* no header at all: the first stamp is the start, stamps absolute */
    snprintf(text, sizeof text, "7.000,1.000,1.5,%s\n8.000,1.000,1.5,%s\n", hb, hb);
    put(t.path, text);
    assert_int_equal(read_all(t.path, start, count, 4), 2);
    assert_true(start[0] == 7.0 && start[1] == 8.0);
    free(hb);
    unlink(t.path);
}

/* merge of one bad log: -1, and err is "path:line: why" */
static void bad(const char *path, const char *text, int line, const char *why)
{
    put(path, text);
    char *paths[] = {(char *)path};
    struct hlog_merge_info info;
    char err[ERR_LEN] = "", want[256];
    assert_int_equal(hlog_merge(paths, 1, NULL, &info, err), -1);
    snprintf(want, sizeof want, "%s:%d: ", path, line);
    if (strncmp(err, want, strlen(want)) || !strstr(err, why))
        fail_msg("got \"%s\", want \"%s...%s\"", err, want, why);
    assert_null(strchr(err, '\n'));
}

static void test_bad_logs(void **state)
{
    (void)state;
    struct tmp t;
    tmp_new(&t);
    char *hb = one_hist();
    char text[4096], cut[64];
    snprintf(cut, sizeof cut, "%.20s", hb);
    bad(t.path, "#[StartTime: x]\n", 1, "bad StartTime");
    bad(t.path, "#[Histogram log format version 1.3]\n1.0,1.0\n", 2, "bad interval line");
    bad(t.path, "1.0,abc,1.0,HIST\n", 1, "bad interval line");
    bad(t.path, "1.0,1.0,1.0,\n", 1, "no histogram");
    bad(t.path, "1.0,-1.0,1.0,AAAA\n", 1, "negative");
    bad(t.path, "Tag=a,1.0,1.0,1.0,AAAA\n", 1, "Tag=");
    bad(t.path, "1.0,1.0,1.0,!!!!\n", 1, "bad base64");
    snprintf(text, sizeof text, "0.0,1.0,1.0,%s\n1.0,1.0,1.0,%s\n", hb, cut); /* truncated */
    bad(t.path, text, 2, "hdr histogram");
    snprintf(text, sizeof text, "5.0,1.0,1.0,%s\n2.0,1.0,1.0,%s\n", hb, hb);
    bad(t.path, text, 2, "not in time order");
    snprintf(text, sizeof text, "1e999,1.0,1.0,%s\n", hb);
    bad(t.path, text, 1, "bad interval line"); /* out of range */
    snprintf(text, sizeof text, "#[BaseTime: 0.000 (seconds since epoch)]\n"
             "0.0,1.0,1.0,%s\n1e15,1.0,1.0,%s\n", hb, hb);
    bad(t.path, text, 3, "slots from the first");
    FILE *f = fopen(t.path, "w");
    assert_non_null(f);
    fwrite("1.0,1.0,1.0,AA\0AA\n", 1, 18, f);
    fclose(f);
    char *paths[] = {t.path, "/nonexistent/x.hlog"};
    struct hlog_merge_info info;
    char err[ERR_LEN];
    assert_int_equal(hlog_merge(paths, 1, NULL, &info, err), -1);
    assert_non_null(strstr(err, ":1: NUL byte"));
    assert_int_equal(hlog_merge(paths + 1, 1, NULL, &info, err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.hlog: cannot read"));
    free(hb);
    unlink(t.path);
}

/* Logs of different layouts cannot be summed. */
static void test_layouts_differ(void **state)
{
    (void)state;
    struct tmp a, b;
    tmp_new(&a), tmp_new(&b);
    write_log(a.path, 100.0, 0, 1, 1);
    struct hist h;
    struct buf enc = {0};
    assert_int_equal(hist_init(&h, 1, 1000000, 2), 0);
    hist_record(&h, 5);
    assert_int_equal(hdrlog_encode(&h, &enc), 0);
    hist_close(&h);
    char text[4096];
    snprintf(text, sizeof text, "#[StartTime: 100.000 (seconds since epoch)]\n"
             "#[BaseTime: 100.000 (seconds since epoch)]\n0.0,1.0,0.005,%s\n", enc.data);
    buf_free(&enc);
    put(b.path, text);
    char *paths[] = {a.path, b.path};
    struct hlog_merge_info info;
    char err[ERR_LEN] = "";
    assert_int_equal(hlog_merge(paths, 2, NULL, &info, err), -1);
    assert_non_null(strstr(err, ":3: histogram layout differs"));
    unlink(a.path), unlink(b.path);
}

/* No interval at all: a valid empty log dated by the inputs' StartTime. */
static void test_empty(void **state)
{
    (void)state;
    struct tmp a, m;
    tmp_new(&a), tmp_new(&m);
    put(a.path, "#[Histogram log format version 1.3]\n#[StartTime: 123.000 (seconds since epoch)]\n");
    char *paths[] = {a.path};
    struct hlog_merge_info info;
    char err[ERR_LEN] = "";
    assert_int_equal(hlog_merge(paths, 1, m.path, &info, err), 0);
    assert_int_equal(info.out, 0);
    assert_true(info.start == 123.0);
    double start[1];
    int64_t count[1];
    assert_int_equal(read_all(m.path, start, count, 1), 0);
    unlink(a.path), unlink(m.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_two),
        cmocka_unit_test(test_time_bases),
        cmocka_unit_test(test_bad_logs),
        cmocka_unit_test(test_layouts_differ),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
