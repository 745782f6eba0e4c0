/* test_html: the pieces of the --html page that a browser test would only
 * see when they break the page: escaping (a label or URL with markup in it
 * stays text, and "</script>" cannot end the chart's JSON early), gaps in
 * a line (unknown values are not drawn as 0), the chart's JSON (valid with
 * NaN and inf in the data, numbers to the digits asked), and the
 * percentile points (0 up to what the count resolves, increasing). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/run_charts.h"
#include "report/run_charts_testing.h"

/* What f wrote, as a string the caller frees. */
struct mem {
    char *buf;
    size_t len;
    FILE *f;
};

static void mem_open(struct mem *m)
{
    m->buf = NULL;
    m->f = open_memstream(&m->buf, &m->len);
    assert_non_null(m->f);
}

static const char *mem_close(struct mem *m)
{
    fclose(m->f);
    return m->buf;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static void test_escape(void **state)
{
    (void)state;
    struct mem m;
    mem_open(&m);
    html_esc(m.f, "<b>\"a\" & 'b'</b>");
    assert_string_equal(mem_close(&m), "&lt;b&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/b&gt;");
    free(m.buf);
}

/* The page piece of a chart of one series s over the shared x, as a
 * string the caller frees. */
static char *one_chart(const struct doc_series *s, const double *x)
{
    struct doc_chart c = {.id = "c1", .title = "t", .xname = "t", .xunit = "s",
                          .yname = s->unit, .x = x, .ns = 1};
    c.s[0] = *s;
    struct mem m;
    mem_open(&m);
    html_chart(m.f, &c);
    mem_close(&m);
    return m.buf;
}

static void test_chart_gaps_and_names(void **state)
{
    (void)state;
    double x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 2, NAN, 4, FIG_UNKNOWN};
    struct doc_series s = {.name = "a</script><b>", .unit = "ms", .y = y, .n = 5, .dec = 2};
    char *out = one_chart(&s, x);
    /* two runs of points: 1-2, then 4 alone; unknown (NaN) is a gap */
    const char *d = strstr(out, " d=\"");
    assert_non_null(d);
    char path[256];
    snprintf(path, sizeof path, "%.*s", (int)(strchr(d + 4, '"') - d - 4), d + 4);
    assert_int_equal(count(path, "M"), 2);
    assert_int_equal(count(path, "L"), 1);
    assert_non_null(strstr(out, "\"y\":[1.00,2.00,null,4.00,null]"));
    /* the name is escaped in the SVG and cannot close the JSON's script */
    assert_null(strstr(out, "<b>"));
    const char *json = strstr(out, "class=\"chart-data\">");
    assert_non_null(json);
    assert_int_equal(count(json, "</"), count(json, "</script>") + count(json, "</figure>"));
    assert_int_equal(count(json, "</script>"), 1);
    free(out);
}

/* A line lying wholly on a later one is drawn wider beneath it and named
 * in the legend; one only near it, or on the other axis, is not; hue and
 * dash pick the classes. */
static void test_chart_lines_on_lines(void **state)
{
    (void)state;
    double x[3] = {1, 2, 3}, y[3] = {1, 2, 3}, near[3] = {1, 2, 3.0001}, off[3] = {1, 2, 2.5};
    struct doc_chart c = {.id = "c1", .title = "t", .xname = "t", .yname = "ms",
                          .y2name = "MB", .x = x, .ns = 4, .s = {
        {.name = "A p50", .unit = "ms", .y = y, .n = 3, .dec = 1, .hue = 1},
        {.name = "B p50", .unit = "ms", .y = near, .n = 3, .dec = 1, .hue = 2},
        {.name = "B p99", .unit = "ms", .y = off, .n = 3, .dec = 1, .hue = 2, .dash = 1},
        {.name = "A rss", .unit = "MB", .y = y, .n = 3, .dec = 1, .hue = 1, .dash = 2,
         .axis = 1},
    }};
    struct mem m;
    mem_open(&m);
    html_chart(m.f, &c);
    char *out = (char *)mem_close(&m);
    assert_int_equal(count(out, "(under "), 1);
    assert_non_null(strstr(out, "A p50 (under B p50: the same line, drawn wide)"));
    assert_non_null(strstr(out, "<path class=\"s0 d0\" style=\"stroke-width:5.0px\" "
                                "data-series=\"A p50\""));
    assert_non_null(strstr(out, "<path class=\"s1 d0\" style=\"stroke-width:2.0px\" "
                                "data-series=\"B p50\""));
    assert_non_null(strstr(out, "<path class=\"s1 d1\" style=\"stroke-width:2.0px\" "
                                "data-series=\"B p99\""));
    assert_non_null(strstr(out, "<path class=\"s0 d2\" style=\"stroke-width:2.0px\" "
                                "data-series=\"A rss\""));
    free(out);
}

/* The chart's data block: what the page has between its tags, as a new
 * string the caller frees. */
static char *chart_data(const char *page)
{
    const char *open = "class=\"chart-data\">", *p = strstr(page, open);
    assert_non_null(p);
    p += strlen(open);
    const char *e = strstr(p, "</script>");
    assert_non_null(e);
    return strndup(p, (size_t)(e - p));
}

/* NaN and inf are null (JSON has no number for them), numbers keep the
 * digits asked for (0.3, not 0.30000000000000004), and a hostile name
 * neither ends nor hides the script's end tag, yet parses back as given. */
static void test_chart_json(void **state)
{
    (void)state;
    double x[3] = {1, NAN, 3}, y[3] = {INFINITY, 2, 0.1 + 0.2};
    const char *name = "</script><!--<script>&\"\\/";
    struct doc_series s = {.unit = "/s", .y = y, .n = 3, .dec = 1};
    snprintf(s.name, sizeof s.name, "%s", name);
    char *out = one_chart(&s, x);
    char *data = chart_data(out);
    assert_non_null(strstr(data, "\"x\":[1,null,3]"));
    assert_non_null(strstr(data, "\"y\":[null,2.0,0.3]"));
    assert_null(strpbrk(data, "<>&"));
    json_object *d = json_tokener_parse(data);
    assert_non_null(d);
    json_object *s0 = json_object_array_get_idx(json_object_object_get(d, "s"), 0);
    assert_string_equal(json_object_get_string(json_object_object_get(s0, "n")), name);
    assert_string_equal(json_object_get_string(json_object_object_get(s0, "u")), "/s");
    json_object_put(d);
    free(data);
    free(out);
}

static void test_pct_points(void **state)
{
    (void)state;
    struct hist h;
    assert_int_equal(hist_init(&h, 1, 60000000, 3), 0);
    double pct[96], ms[96];
    assert_int_equal(run_chart_pct_points(&h, pct, ms, 96), 0); /* empty: nothing to draw */
    for (int i = 1; i <= 1000; i++)
        hist_record(&h, i * 1000);
    size_t n = run_chart_pct_points(&h, pct, ms, 96);
    assert_true(n >= 30 && n <= 96);
    assert_true(pct[0] == 0);
    assert_true(fabs(pct[n - 1] - 99.9) < 1e-9); /* 1 - 1/count */
    for (size_t i = 1; i < n; i++) {
        assert_true(pct[i] > pct[i - 1]);
        assert_true(ms[i] >= ms[i - 1]);
    }
    assert_true(fabs(ms[n - 1] - 999) < 2);
    hist_close(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_chart_gaps_and_names),
        cmocka_unit_test(test_chart_lines_on_lines),
        cmocka_unit_test(test_chart_json),
        cmocka_unit_test(test_pct_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
