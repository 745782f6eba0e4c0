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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_writes_raw_values),
        cmocka_unit_test(plain_rows_have_no_raw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
