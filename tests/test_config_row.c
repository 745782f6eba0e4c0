/* test_config_row: a configuration field is one row. A row added to the
 * table (model/config_keys_testing.h: after the table's own, as a new
 * row would be) is seen in every output without a line of code elsewhere:
 * the report's text and page (its configuration section), the saved file
 * (written and read back), csv-summary, compare's diff of two runs, and
 * the bytes an MPI rank sends. The row names a field no output shows
 * today (quiet), with a value a run never has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <json-c/json.h>

#include "cli/option_table.h"
#include "dist/dist_pack.h"
#include "model/config_diff.h"
#include "model/config_keys_testing.h"
#include "model/result_json.h"
#include "report/html.h"
#include "report/report.h"
#include "report/report_csv.h"

static struct run_result a, b, back; /* large: off the stack */

static const struct config_key row = {
    "test_field", CFK_INT, .off = offsetof(struct run_config, quiet),
    .size = sizeof(int), .lo = 0, .hi = 1000, .flags = CFK_SHOWN,
};

/* What write(out, r) wrote, malloc'd (the caller frees). */
static char *written(void (*write)(FILE *, const struct run_result *), const struct run_result *r)
{
    static char *buf; /* open_memstream keeps their addresses until fclose */
    static size_t len;
    buf = NULL;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    write(f, r);
    fclose(f);
    return buf;
}

static void text(FILE *f, const struct run_result *r)
{
    char err[ERR_LEN];
    assert_int_equal(report_text(f, r, err), 0);
}

static int setup(void **state)
{
    (void)state;
    struct run_config cfg = {.nverbs = 1, .rate = 10, .connections = 1, .interval_ns = 1000000000,
                             .duration_ns = 1000000000};
    snprintf(cfg.verbs[0].name, sizeof cfg.verbs[0].name, "ping");
    snprintf(cfg.encoding, sizeof cfg.encoding, "xmlrpc");
    cfg.quiet = 417;
    assert_int_equal(result_init(&a, &cfg), 0);
    cfg.quiet = 418;
    assert_int_equal(result_init(&b, &cfg), 0);
    config_keys_test_add(&row);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    config_keys_test_add(NULL);
    result_free(&a);
    result_free(&b);
    return 0;
}

static void test_text_page_csv(void **state)
{
    (void)state;
    char *t = written(text, &a), *h = written(html_run_config, &a);
    char *c = written(report_csv_summary, &a);
    assert_non_null(strstr(t, "test_field"));
    assert_non_null(strstr(t, "417"));
    assert_non_null(strstr(h, "test_field"));
    assert_non_null(strstr(h, "417"));
    assert_non_null(strstr(c, "config_test_field"));
    assert_non_null(strstr(strchr(c, '\n'), ",417"));
    free(t), free(h), free(c);
}

static void test_saved_and_loaded(void **state)
{
    (void)state;
    char err[ERR_LEN];
    json_object *j = result_to_json(&a), *cfg = NULL, *v = NULL;
    assert_true(json_object_object_get_ex(j, "config", &cfg));
    assert_true(json_object_object_get_ex(cfg, "test_field", &v));
    assert_int_equal(json_object_get_int(v), 417);
    assert_int_equal(result_load_json(&back, j, err), 0);
    assert_int_equal(back.cfg.quiet, 417);
    result_free(&back);
    json_object_put(j);
}

static void test_compared(void **state)
{
    (void)state;
    struct config_field f[CONFIG_FIELDS_MAX];
    struct config_diff d[CONFIG_DIFF_MAX];
    char err[ERR_LEN];
    int n = options_diff_fields(f, err);
    assert_true(n > 0);
    size_t nd = config_diff(&a, &b, f, (size_t)n, d);
    int seen = 0;
    for (size_t i = 0; i < nd; i++)
        seen |= !strcmp(d[i].name, "test_field") && !strcmp(d[i].a, "417") &&
                !strcmp(d[i].b, "418");
    assert_true(seen);
}

static void test_sent_to_ranks(void **state)
{
    (void)state;
    struct buf bytes = {0};
    char err[ERR_LEN];
    assert_int_equal(dist_pack_result(&bytes, &b), 0);
    assert_int_equal(dist_unpack_result((unsigned char *)bytes.data, bytes.len, &back, err), 0);
    assert_int_equal(back.cfg.quiet, 418);
    result_free(&back);
    buf_free(&bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_page_csv),
        cmocka_unit_test(test_saved_and_loaded),
        cmocka_unit_test(test_compared),
        cmocka_unit_test(test_sent_to_ranks),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
