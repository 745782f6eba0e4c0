/* test_doc_table: a table's cells keep their raw values beside their text,
 * and the CSV writer writes those (never a formatted text parsed back):
 * counts whole, figures to their digits, unknown empty, texts quoted when
 * they hold a comma; the text writer shows the texts the builder gave. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"
#include "base/figure.h"
#include "report/doc_table.h"
#include "report/report.h"
#include "report/doc_table_testing.h"

/* What the CSV (csv 1) or the text writer wrote of t, malloc'd. */
static char *written(const struct doc_table *t, int csv)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (csv)
        doc_table_csv(f, t);
    else
        doc_table_text(f, t, NULL);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* A table of a name, a count, a figure and a fixed-point figure. */
static void build(struct doc_table *t)
{
    static const char *const heads[4] = {"name", "n", "ms", "pct"};
    doc_table_init(t, 4);
    for (int c = 0; c < 4; c++)
        snprintf(t->heads[c], DOC_CELL_LEN, "%s", heads[c]);
    t->raw_kind[1] = DOC_RAW_INT;
    t->raw_kind[2] = DOC_RAW_G, t->raw_dec[2] = 4;
    t->raw_kind[3] = DOC_RAW_FIXED, t->raw_dec[3] = 1;
}

static void csv_writes_raw_values(void **state)
{
    (void)state;
    struct doc_table t;
    char err[ERR_LEN];
    build(&t);
    const char *cells[4] = {"a, b", "12", "1.23 ms", "99.0%"};
    const double raw[4] = {0, 12, 1.234567, 99.04};
    assert_int_equal(doc_table_add_raw(&t, cells, raw, err), 0);
    const char *named[4] = {"\"q\"", NULL, NULL, NULL}; /* the rest: from raw */
    const double unknown[4] = {0, 3, FIG_UNKNOWN, FIG_UNKNOWN};
    assert_int_equal(doc_table_add_raw(&t, named, unknown, err), 0);
    char *csv = written(&t, 1);
    assert_string_equal(csv, "name,n,ms,pct\n\"a, b\",12,1.235,99.0\n\"\"\"q\"\"\",3,,\n");
    free(csv);
    char *text = written(&t, 0);
    assert_non_null(strstr(text, "1.23 ms"));   /* the builder's text */
    assert_non_null(strstr(text, "\"q\" 3\n")); /* from raw; unknown: empty */
    free(text);
    assert_true(fabs(doc_table_raw(&t, 0, 2) - 1.234567) < 1e-12);
    assert_false(fig_known(doc_table_raw(&t, 1, 3)));
    doc_table_free(&t);
}

/* A row added without raw values: unknown in every figure column. */
static void plain_rows_have_no_raw(void **state)
{
    (void)state;
    struct doc_table t;
    char err[ERR_LEN];
    build(&t);
    const char *cells[4] = {"x", "1", "2", "3"};
    assert_int_equal(doc_table_add(&t, cells, err), 0);
    char *csv = written(&t, 1);
    assert_string_equal(csv, "name,n,ms,pct\nx,,,\n");
    free(csv);
    doc_table_free(&t);
}

/* The profile's table: a name longer than its column (a JIT's, with
 * its path) is cut to the column with "...", in the text and on the page,
 * the whole name in the page's title; the columns after it stay put. */
static void profile_names_cut_to_column(void **state)
{
    (void)state;
    static struct run_result r;
    static const char name[] = "JS:*burnTheCpuForTwoMilliseconds /home/dev/project/node_modules/"
                               "some-package/lib/deeply/nested/file.js:123:45";
    struct doc_table t;
    struct doc_table_style st;
    char err[ERR_LEN], *text = NULL, *page = NULL;
    size_t len = 0, plen = 0;
    r.profile.taken = 1;
    r.profile.nrows = r.profile.top = 2;
    snprintf(r.profile.rows[0].func, PROFILE_FUNC_LEN, "%s", name);
    snprintf(r.profile.rows[0].module, PROFILE_MODULE_LEN, "perf-3274.map");
    snprintf(r.profile.rows[1].func, PROFILE_FUNC_LEN, "short");
    r.profile.rows[0].self_ms = r.profile.rows[1].self_ms = 1.5;
    assert_int_equal(report_profile_doc(&r, &t, &st, err), 0);
    FILE *f = open_memstream(&text, &len), *h = open_memstream(&page, &plen);
    doc_table_text(f, &t, &st.text);
    doc_table_html(h, &t, &st.html);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(fclose(h), 0);
    const char *row = strstr(text, "JS:*burn"), *other = strstr(text, "\nshort");
    assert_non_null(row);
    assert_non_null(other);
    /* the module column starts where it does on the short name's row */
    assert_int_equal(strstr(row, "perf-3274.map") - row, strstr(other, "-") - (other + 1));
    assert_non_null(strstr(row, "JS:*burnTheCpuForTwoMilliseconds /hom...")); /* 40 characters */
    assert_null(strstr(text, "file.js"));
    assert_non_null(strstr(page, "title=\"JS:*burnTheCpuForTwoMilliseconds /home/dev/project/"));
    assert_non_null(strstr(page, "file.js:123:45\">JS:*burnTheCpuForTwoMilliseconds /hom...<"));
    free(text);
    free(page);
    doc_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_writes_raw_values),
        cmocka_unit_test(plain_rows_have_no_raw),
        cmocka_unit_test(profile_names_cut_to_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
