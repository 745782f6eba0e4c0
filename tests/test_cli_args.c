/* test_cli_args: the command-line helpers every subcommand shares
 * (cli/cli_args.h): the bounds they keep, the one-line messages they
 * give, and that a failed parse leaves the destination alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli_args.h"

static void test_parse_int_bounds(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    long long v = 7;
    assert_int_equal(cli_parse_int("--vms", "0", 0, 10, &v, err), 0);
    assert_int_equal(v, 0);
    assert_int_equal(cli_parse_int("--vms", "10", 0, 10, &v, err), 0);
    assert_int_equal(v, 10);
    const char *bad[] = {"11", "-1", "", "1x", "x", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 7;
        assert_int_equal(cli_parse_int("--vms", bad[i], 0, 10, &v, err), -1);
        assert_int_equal(v, 7); /* untouched */
        assert_non_null(strstr(err, "is not an integer in 0..10"));
        assert_int_equal(strncmp(err, "--vms: '", 8), 0);
    }
}

static void test_copy_too_long(void **state)
{
    (void)state;
    char err[ERR_LEN] = "", dst[4] = "ab";
    assert_int_equal(cli_copy(dst, sizeof dst, "--label", "abcd", err), -1);
    assert_string_equal(err, "--label: value too long");
    assert_string_equal(dst, "ab");
    assert_int_equal(cli_copy(dst, sizeof dst, "--label", "abc", err), 0);
    assert_string_equal(dst, "abc");
}

static void test_choice_lists_what_it_takes(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    int f = FORMAT_TEXT; /* --format's row: a choice of out_format_names */
    assert_int_equal(cli_parse_choice("--format", "csv-buckets", out_format_names, OUT_FORMATS,
                                      &f, err), 0);
    assert_int_equal(f, FORMAT_CSV_BUCKETS);
    assert_int_equal(cli_parse_choice("--format", "xml", out_format_names, OUT_FORMATS, &f, err),
                     -1);
    assert_int_equal(f, FORMAT_CSV_BUCKETS);
    assert_string_equal(err, "--format: unknown value 'xml' (text, json, csv, csv-summary, "
                             "csv-buckets, csv-targets)");
}

static void test_percentiles_range_and_order(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    double p[4];
    size_t n = 0;
    assert_int_equal(cli_parse_percentiles("0,50,99.9,100", p, 4, &n, err), 0);
    assert_int_equal(n, 4);
    assert_true(p[2] == 99.9);
    assert_int_equal(cli_parse_percentiles("50,150", p, 4, &n, err), -1);
    assert_string_equal(err, "--percentiles: 150 is not in 0..100 (e.g. 50,90,99,99.9)");
    assert_int_equal(cli_parse_percentiles("99,50", p, 4, &n, err), -1);
    assert_int_equal(strncmp(err, "--percentiles: ", 15), 0);
    assert_non_null(strstr(err, "increasing"));
    assert_int_equal(cli_parse_percentiles("1,2,3,4,5", p, 4, &n, err), -1);
    assert_int_equal(strncmp(err, "--percentiles: ", 15), 0);
}

static void test_buckets_checked_then_copied(void **state)
{
    (void)state;
    char err[ERR_LEN] = "", dst[64] = "auto";
    assert_int_equal(cli_parse_buckets("1,2,5", dst, sizeof dst, err), 0);
    assert_string_equal(dst, "1,2,5");
    assert_int_equal(cli_parse_buckets("5:1:1", dst, sizeof dst, err), -1);
    assert_int_equal(strncmp(err, "--buckets: ", 11), 0);
    assert_int_equal(cli_parse_buckets("1:1000:1", dst, sizeof dst, err), -1); /* > 64 edges */
    assert_int_equal(strncmp(err, "--buckets: ", 11), 0);
}

static void test_name_error_once(void **state)
{
    (void)state;
    char err[ERR_LEN];
    snprintf(err, sizeof err, "duration \"1x\": unknown unit");
    cli_name_error("--duration", err);
    assert_string_equal(err, "--duration: duration \"1x\": unknown unit");
    cli_name_error("--duration", err); /* already named: unchanged */
    assert_string_equal(err, "--duration: duration \"1x\": unknown unit");
}

static void test_files(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    assert_int_equal(cli_check_readable("--cacert", "", err), 0); /* not given */
    assert_int_equal(cli_check_readable("--cacert", "/proc/self/status", err), 0);
    assert_int_equal(cli_check_readable("--cacert", "/nonexistent/x.pem", err), -1);
    assert_string_equal(err, "--cacert: cannot read '/nonexistent/x.pem': No such file or "
                             "directory");
    assert_int_equal(cli_check_readable(NULL, "/nonexistent/a.json", err), -1);
    assert_string_equal(err, "/nonexistent/a.json: cannot read: No such file or directory");
    assert_int_equal(cli_check_out_path("--output", "/", err), -1);
    assert_non_null(strstr(err, "is a directory"));
    assert_int_equal(cli_check_out_path("--output", "/nonexistent/dir/x.json", err), -1);
    assert_int_equal(strncmp(err, "--output: cannot write in '/nonexistent/dir'", 44), 0);
    assert_int_equal(cli_check_plot_keep(1, "", err), -1);
    assert_string_equal(err, "--plot-keep: needs --plot FILE.svg");
    assert_int_equal(cli_check_plot_keep(1, "x.svg", err), 0);
    assert_int_equal(cli_check_plot_keep(0, "", err), 0);
}

static void test_getopt_error(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    char *argv[] = {"run", "--bogus", NULL};
    cli_getopt_error('?', argv, 2, err);
    assert_string_equal(err, "unknown option '--bogus' (see --help)");
    cli_getopt_error(':', argv, 2, err);
    assert_string_equal(err, "missing value for option '--bogus' (see --help)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_int_bounds),
        cmocka_unit_test(test_copy_too_long),
        cmocka_unit_test(test_choice_lists_what_it_takes),
        cmocka_unit_test(test_percentiles_range_and_order),
        cmocka_unit_test(test_buckets_checked_then_copied),
        cmocka_unit_test(test_name_error_once),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_getopt_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
