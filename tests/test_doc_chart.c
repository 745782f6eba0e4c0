/* test_doc_chart: a chart is built once and each writer draws the same
 * document: gnuplot's data has a block per drawn line with the values
 * the page's JSON gives, a gap breaks a line in both, an undrawn line is
 * left out of gnuplot's blocks; the panel draws each line from its
 * block, in the page's colour, on its axis; a percentile chart's x is
 * its place on the log axis. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "report/doc_chart.h"
#include "report/html.h"

/* The whole of file path, malloc'd (the caller frees). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 16);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* What doc_chart_gp_data wrote for c, malloc'd (the caller frees). */
static char *gp_data_of(const struct doc_chart *c)
{
    char path[] = "/tmp/test_doc_chart.XXXXXX", err[ERR_LEN];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(doc_chart_gp_data(c, path, err), 0);
    char *dat = slurp(path);
    unlink(path);
    return dat;
}

/* What html_chart writes, malloc'd (the caller frees). */
static char *html_of(const struct doc_chart *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    html_chart(f, c);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* The gnuplot panel of c reading x.dat, malloc'd (the caller frees). */
static char *panel_of(const struct doc_chart *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    doc_chart_gp_panel(f, c, "x.dat");
    assert_int_equal(fclose(f), 0);
    return buf;
}

static const double t[4] = {1, 2, 3, 4};
static const double p50[4] = {0.5, 0.25, NAN, 0.75}, p99[4] = {2, 3, 4, 5};
static const double none[4] = {NAN, NAN, NAN, NAN}, rss[4] = {10, 11, 12, 13};

/* Four lines over a shared t: p50 with a gap, p99, one never measured,
 * RSS on the right-hand axis. */
static void build(struct doc_chart *c)
{
    doc_chart_init(c, "chart-x", "a chart");
    c->xname = "t", c->xunit = "s", c->yname = "ms", c->y2name = "MB", c->x = t;
    struct doc_series s = {.unit = "ms", .y = p50, .n = 4, .dec = 2, .hue = 2};
    assert_non_null(doc_chart_add(c, "p50", &s));
    s.y = p99, s.dash = 1;
    assert_non_null(doc_chart_add(c, "p99", &s));
    s.y = none, s.hue = 3, s.dash = 0;
    assert_non_null(doc_chart_add(c, "server CPU", &s));
    s.y = rss, s.unit = "MB", s.axis = 1, s.hue = 0, s.dec = 0;
    assert_non_null(doc_chart_add(c, "server RSS", &s));
}

static void data_and_json_agree(void **state)
{
    (void)state;
    static struct doc_chart c;
    build(&c);
    char *dat = gp_data_of(&c);
    /* p50 broken at its gap, p99 whole, the unmeasured left out, RSS */
    const char *want = "# p50\n1 0.5\n2 0.25\n\n4 0.75\n\n\n# p99\n1 2\n2 3\n3 4\n4 5\n\n\n"
                       "# server RSS\n1 10\n2 11\n3 12\n4 13\n";
    const char *body = strchr(dat, '\n');
    assert_non_null(body);
    assert_string_equal(body + 1, want);
    /* the page's JSON: the same values, the gap a null */
    char *page = html_of(&c);
    assert_non_null(strstr(page, "\"n\":\"p50\",\"u\":\"ms\",\"d\":2,\"y\":[0.50,0.25,null,0.75]"));
    assert_non_null(strstr(page, "\"n\":\"p99\",\"u\":\"ms\",\"d\":2,\"y\":[2.00,3.00,4.00,5.00]"));
    assert_non_null(strstr(page, "\"y\":[10,11,12,13]"));
    assert_non_null(strstr(page, "\"x\":[1,2,3,4]"));
    free(page);
    free(dat);
    doc_chart_free(&c);
}

static void panel_draws_each_block(void **state)
{
    (void)state;
    static struct doc_chart c;
    build(&c);
    char *gp = panel_of(&c);
    /* hue 2 is the page's second colour (.s1, #d6452a) for p50 and p99,
     * told apart by width and point (no dashtype); RSS on y2 in the
     * colour of its place (4th: #8e44ad) */
    assert_non_null(strstr(gp, "'x.dat' index 0 using 1:2 with linespoints lc rgb '#d6452a' "
                               "lw 2 pt 7"));
    assert_non_null(strstr(gp, "'x.dat' index 1 using 1:2 with linespoints lc rgb '#d6452a' "
                               "lw 1 pt 6"));
    assert_non_null(strstr(gp, "'x.dat' index 2 using 1:2 axes x1y2 with linespoints "
                               "lc rgb '#8e44ad'"));
    assert_null(strstr(gp, "index 3"));
    assert_null(strstr(gp, "server CPU"));
    assert_non_null(strstr(gp, "set y2label 'MB'"));
    assert_null(strstr(gp, "dashtype"));
    free(gp);
    doc_chart_free(&c);
}

static void percentile_x_on_log_axis(void **state)
{
    (void)state;
    static struct doc_chart c;
    static const double pct[3] = {0, 90, 99}, ms[3] = {1, 2, 3};
    doc_chart_init(&c, "p", "pct");
    c.xaxis = DOC_X_PERCENTILE;
    struct doc_series s = {.unit = "ms", .x = pct, .y = ms, .n = 3, .dec = 0};
    doc_chart_add(&c, "latency", &s);
    char *dat = gp_data_of(&c);
    assert_non_null(strstr(dat, "# latency\n0 1 0\n1 2 90\n2 3 99\n"));
    free(dat);
    char lab[32];
    doc_chart_pct_label(3, lab, sizeof lab);
    assert_string_equal(lab, "99.9%");
}

/* Two arms at the same rate: A lies wholly under B, so the script draws
 * it wider and its key says so, as the page does; B is drawn as usual. */
static void hidden_series_still_shows(void **state)
{
    (void)state;
    static struct doc_chart c;
    static const double same[4] = {20, 20, 20, 20};
    doc_chart_init(&c, "chart-rate", "rate");
    c.x = t;
    struct doc_series s = {.unit = "/s", .y = same, .n = 4, .hue = 1};
    assert_non_null(doc_chart_add(&c, "A rate", &s));
    s.hue = 2;
    assert_non_null(doc_chart_add(&c, "B rate", &s));
    char *gp = panel_of(&c);
    assert_non_null(strstr(gp, "index 0 using 1:2 with linespoints lc rgb '#1f6fd1' lw 6 "));
    assert_non_null(strstr(gp, "title 'A rate (under B rate)'"));
    assert_non_null(strstr(gp, "lw 2 pt 7 ps 0.5 pi 1 title 'B rate'"));
    assert_non_null(strstr(gp, "set key below"));
    free(gp);
    doc_chart_free(&c);
}

static void full_chart_takes_no_more(void **state)
{
    (void)state;
    static struct doc_chart c;
    doc_chart_init(&c, "f", "full");
    struct doc_series s = {.n = 0};
    for (int k = 0; k < DOC_CHART_MAX_SERIES; k++)
        assert_non_null(doc_chart_add(&c, "s", &s));
    assert_null(doc_chart_add(&c, "one more", &s));
    assert_int_equal(c.ns, DOC_CHART_MAX_SERIES);
    assert_non_null(doc_chart_alloc(&c, 10));
    assert_null(doc_chart_alloc(&c, 10)); /* one block per chart */
    doc_chart_free(&c);
    assert_null(c.mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_and_json_agree),
        cmocka_unit_test(panel_draws_each_block),
        cmocka_unit_test(percentile_x_on_log_axis),
        cmocka_unit_test(hidden_series_still_shows),
        cmocka_unit_test(full_chart_takes_no_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
