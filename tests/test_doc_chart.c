/* test_doc_chart: a chart is built once and each writer draws the same
 * document: the page's JSON gives its values (a gap a null), and --plot's
 * standalone SVG draws each line as the page does (the same path, the
 * same classes), a panel per chart with the chart's id. */
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

/* What doc_chart_svg wrote for the n charts c, malloc'd (the caller frees). */
static char *svg_of(const struct doc_chart *c, int n)
{
    char path[] = "/tmp/test_doc_chart.XXXXXX", err[ERR_LEN];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(doc_chart_svg(path, c, n, "the <title>", err), 0);
    char *svg = slurp(path);
    unlink(path);
    return svg;
}

/* The path of series name in a drawing, from its class to its points,
 * malloc'd (the caller frees). */
static char *path_of(const char *drawing, const char *name)
{
    char key[80];
    snprintf(key, sizeof key, "data-series=\"%s\" d=\"", name);
    const char *at = strstr(drawing, key);
    assert_non_null(at);
    while (at > drawing && strncmp(at, "<path", 5))
        at--;
    const char *end = strchr(at, '>');
    assert_non_null(end);
    return strndup(at, (size_t)(end - at));
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

/* The page's JSON: the values as given, the gap a null. */
static void json_has_the_values(void **state)
{
    (void)state;
    static struct doc_chart c;
    build(&c);
    char *page = html_of(&c);
    assert_non_null(strstr(page, "\"n\":\"p50\",\"u\":\"ms\",\"d\":2,\"y\":[0.50,0.25,null,0.75]"));
    assert_non_null(strstr(page, "\"n\":\"p99\",\"u\":\"ms\",\"d\":2,\"y\":[2.00,3.00,4.00,5.00]"));
    assert_non_null(strstr(page, "\"y\":[10,11,12,13]"));
    assert_non_null(strstr(page, "\"x\":[1,2,3,4]"));
    free(page);
    doc_chart_free(&c);
}

/* --plot's file: XML with the title escaped, a panel per chart, each
 * line drawn as on the page (p50 broken at its gap: two moves). */
static void svg_file_draws_the_page_lines(void **state)
{
    (void)state;
    static struct doc_chart c[2];
    static const double pct[3] = {0, 90, 99}, ms[3] = {1, 2, 3};
    build(&c[0]);
    doc_chart_init(&c[1], "chart-pct", "pct");
    c[1].xaxis = DOC_X_PERCENTILE;
    struct doc_series s = {.unit = "ms", .x = pct, .y = ms, .n = 3, .dec = 0};
    assert_non_null(doc_chart_add(&c[1], "latency", &s));
    char *svg = svg_of(c, 2), *page = html_of(&c[0]);
    static const char head[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=";
    assert_memory_equal(svg, head, sizeof head - 1);
    assert_non_null(strstr(svg, "<title>the &lt;title&gt;</title>"));
    assert_non_null(strstr(svg, "<g id=\"chart-x\""));
    assert_non_null(strstr(svg, "<g id=\"chart-pct\""));
    static const char *const names[] = {"p50", "p99", "server RSS"};
    for (int k = 0; k < 3; k++) {
        char *a = path_of(svg, names[k]), *b = path_of(page, names[k]);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
    char *line = path_of(svg, "p50");
    assert_non_null(strchr(strchr(line, 'M') + 1, 'M')); /* the gap: the pen lifted */
    free(line);
    assert_non_null(strstr(svg, "data-series=\"latency\""));
    assert_non_null(strstr(svg, ">99%</text>")); /* the percentile axis' tick */
    assert_true(strlen(svg) > 10 && !strcmp(svg + strlen(svg) - 7, "</svg>\n"));
    free(svg);
    free(page);
    doc_chart_free(&c[0]);
    doc_chart_free(&c[1]);
    char err[ERR_LEN];
    assert_int_equal(doc_chart_svg("/tmp/test_doc_chart_none.svg", c, 0, "t", err), -1);
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
        cmocka_unit_test(json_has_the_values),
        cmocka_unit_test(svg_file_draws_the_page_lines),
        cmocka_unit_test(full_chart_takes_no_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
