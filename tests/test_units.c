/* test_units: good and bad durations, rates, sizes, lists, addresses. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/units.h"

/* A rejected input must leave a one-line message that quotes it. */
static void assert_error_names(const char *err, const char *input)
{
    assert_non_null(strstr(err, input));
    assert_null(strchr(err, '\n'));
}

static void test_duration_good(void **state)
{
    (void)state;
    static const struct { const char *s; int64_t ns; } ok[] = {
        {"250ms", 250000000}, {"2s", 2000000000}, {"1.5m", 90000000000},
        {"1h", 3600000000000}, {"500us", 500000}, {"3", 3000000000},
        {"0.25", 250000000}, {"0", 0}, {"100ns", 100}, {"2min", 120000000000},
        {".5s", 500000000}, {"1.", 1000000000},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        int64_t ns = -1;
        char err[ERR_LEN] = "";
        assert_int_equal(units_parse_duration(ok[i].s, &ns, err), 0);
        assert_int_equal(ns, ok[i].ns);
    }
}

static void test_duration_bad(void **state)
{
    (void)state;
    static const char *bad[] = {
        "-1s", "2x", "2s junk", "s", "1.5.3s", "nan", "inf", "0x10", " 2s",
        "2 s", "99999999999h", "1e3s", "+2s",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int64_t ns = 12345;
        char err[ERR_LEN] = "";
        assert_int_equal(units_parse_duration(bad[i], &ns, err), -1);
        assert_int_equal(ns, 12345);
        assert_error_names(err, bad[i]);
    }
    char err[ERR_LEN] = "";
    int64_t ns;
    assert_int_equal(units_parse_duration("", &ns, err), -1);
    assert_non_null(strstr(err, "empty"));
    assert_int_equal(units_parse_duration(NULL, &ns, err), -1);
}

static void test_rate_good(void **state)
{
    (void)state;
    static const struct { const char *s; double r; } ok[] = {
        {"50", 50}, {"50/s", 50}, {"4/m", 4.0 / 60}, {"1/15s", 1.0 / 15},
        {"0.5/s", 0.5}, {"2/h", 2.0 / 3600}, {"max", 0}, {"10/100ms", 100},
        {"3/1.5m", 3.0 / 90},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        double r = -1;
        char err[ERR_LEN] = "";
        assert_int_equal(units_parse_rate(ok[i].s, &r, err), 0);
        assert_float_equal(r, ok[i].r, 1e-12);
    }
}

static void test_rate_bad(void **state)
{
    (void)state;
    static const char *bad[] = {
        "0", "0/s", "-5", "-5/s", "50/", "50/x", "50/0s", "50x", "nan", "inf/s",
        "maximum", "5/s/s", "1/-1s",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        double r = 7;
        char err[ERR_LEN] = "";
        assert_int_equal(units_parse_rate(bad[i], &r, err), -1);
        assert_true(r == 7);
        assert_error_names(err, bad[i]);
    }
    char err[ERR_LEN];
    double r;
    assert_int_equal(units_parse_rate("", &r, err), -1);
}

static void test_size(void **state)
{
    (void)state;
    static const struct { const char *s; size_t n; } ok[] = {
        {"64MiB", 64u << 20}, {"16M", 16u << 20}, {"512k", 512u << 10}, {"1024", 1024},
        {"1G", (size_t)1 << 30}, {"2KiB", 2048}, {"3KB", 3072}, {"7b", 7}, {"0.5k", 512},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        size_t n = 0;
        char err[ERR_LEN] = "";
        assert_int_equal(units_parse_size(ok[i].s, &n, err), 0);
        assert_int_equal(n, ok[i].n);
    }
    static const char *bad[] = {"-1k", "12q", "1MiBx", "k", "99999999999999T", "nan"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        size_t n = 3;
        char err[ERR_LEN] = "";
        assert_int_equal(units_parse_size(bad[i], &n, err), -1);
        assert_int_equal(n, 3);
        assert_error_names(err, bad[i]);
    }
}

static void test_list(void **state)
{
    (void)state;
    double v[4];
    size_t n = 0;
    char err[ERR_LEN] = "";
    assert_int_equal(units_parse_list("1,2,5,10", v, 4, &n, err), 0);
    assert_int_equal(n, 4);
    assert_true(v[0] == 1 && v[1] == 2 && v[2] == 5 && v[3] == 10);
    assert_int_equal(units_parse_list("0.5", v, 4, &n, err), 0);
    assert_int_equal(n, 1);
    assert_true(v[0] == 0.5);
    static const char *bad[] = {"1,2,5,10,20", "1,,2", "1,2,", "2,1", "1,1", "1,-2", "1,x",
                                ",1", "1;2"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        n = 99;
        assert_int_equal(units_parse_list(bad[i], v, 4, &n, err), -1);
        assert_int_equal(n, 99);
        assert_error_names(err, bad[i]);
    }
}

static void test_hostport(void **state)
{
    (void)state;
    char host[64], err[ERR_LEN] = "";
    int port = -1;
    assert_int_equal(units_parse_hostport("127.0.0.1:8080", host, sizeof(host), &port, err), 0);
    assert_string_equal(host, "127.0.0.1");
    assert_int_equal(port, 8080);
    assert_int_equal(units_parse_hostport("[::1]:80", host, sizeof(host), &port, err), 0);
    assert_string_equal(host, "::1");
    assert_int_equal(port, 80);
    assert_int_equal(units_parse_hostport("localhost:0", host, sizeof(host), &port, err), 0);
    assert_string_equal(host, "localhost");
    assert_int_equal(port, 0);
    static const char *bad[] = {"localhost", "::1:80", "[::1]80", "[::1", ":80", "h:", "h:65536",
                                "h:8x", "h:-1", "[]:80", "h:123456"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        port = 5;
        assert_int_equal(units_parse_hostport(bad[i], host, sizeof(host), &port, err), -1);
        assert_int_equal(port, 5);
        assert_error_names(err, bad[i]);
    }
    char tiny[4];
    assert_int_equal(units_parse_hostport("example:1", tiny, sizeof(tiny), &port, err), -1);
    assert_int_equal(units_parse_hostport("", host, sizeof(host), &port, err), -1);
}

static void test_format(void **state)
{
    (void)state;
    static const struct { int64_t ns; const char *s; } cases[] = {
        {250000000, "250ms"}, {2000000000, "2s"}, {90000000000, "1m30s"},
        {3600000000000, "1h"}, {500000, "500us"}, {0, "0s"}, {1500, "1.5us"},
        {1500000000, "1.5s"}, {3723000000000, "1h2m3s"}, {-2000000000, "-2s"},
        {59999600000, "1m"}, {999, "999ns"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char out[32];
        units_format_duration(cases[i].ns, out, sizeof(out));
        assert_string_equal(out, cases[i].s);
    }
    /* A formatted duration parses back to itself. */
    char out[32], err[ERR_LEN];
    int64_t ns;
    units_format_duration(250000000, out, sizeof(out));
    assert_int_equal(units_parse_duration(out, &ns, err), 0);
    assert_int_equal(ns, 250000000);
    char small[3];
    units_format_duration(3723000000000, small, sizeof(small));
    assert_int_equal(strlen(small), 2); /* truncated, still terminated */
}

/* A target rate reads as the user wrote it, and parses back to itself. */
static void test_format_rate(void **state)
{
    (void)state;
    static const struct { const char *in, *out; } cases[] = {
        {"1/15s", "1/15s"}, {"4/m", "1/15s"}, {"1/m", "1/1m"}, {"2/h", "1/30m"},
        {"1/2h", "1/2h"}, {"5", "5.00/s"}, {"0.5/s", "0.50/s"}, {"1/3s", "1/3s"}, {"1/4s", "0.25/s"},
        {"2/3s", "0.666667/s"}, {"12.345", "12.345/s"}, {"max", "max"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char out[32], err[ERR_LEN];
        double r, back;
        assert_int_equal(units_parse_rate(cases[i].in, &r, err), 0);
        units_format_rate(r, out, sizeof out);
        assert_string_equal(out, cases[i].out);
        if (r > 0 && strchr(out, '/') && out[0] == '1' && out[1] == '/') {
            assert_int_equal(units_parse_rate(out, &back, err), 0);
            assert_true(fabs(back - r) < 1e-9 * r);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duration_good),
        cmocka_unit_test(test_duration_bad),
        cmocka_unit_test(test_rate_good),
        cmocka_unit_test(test_rate_bad),
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_hostport),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_format_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
