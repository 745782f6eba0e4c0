/* test_compare_stats: the paired t-interval of B/A on hand-computed inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "judge/compare_stats.h"
#include "judge/compare_stats_testing.h"

static void test_t_table(void **state)
{
    (void)state;
    assert_true(fabs(compare_stats_t975(1) - 12.706) < 1e-9);
    assert_true(fabs(compare_stats_t975(2) - 4.303) < 1e-9);
    assert_true(fabs(compare_stats_t975(10) - 2.228) < 1e-9);
    assert_true(fabs(compare_stats_t975(30) - 2.042) < 1e-9);
    assert_true(fabs(compare_stats_t975(31) - 1.96) < 1e-9);
    assert_true(fabs(compare_stats_t975(500) - 1.96) < 1e-9);
    assert_true(compare_stats_t975(0) == 0);
    /* the quantile shrinks as df grows */
    for (int df = 1; df < 31; df++)
        assert_true(compare_stats_t975(df) > compare_stats_t975(df + 1));
}

/* Ratios e^0.1 and e^0.3: log mean 0.2, sample sd sqrt(0.02) = 0.14142,
 * standard error 0.1, t(1) = 12.706: exp(0.2 -+ 1.2706). */
static void test_two_rounds(void **state)
{
    (void)state;
    double a[2] = {1.0, 2.0};
    double b[2] = {exp(0.1), 2.0 * exp(0.3)};
    struct ci ci;
    assert_int_equal(compare_stats_ci(a, b, 2, &ci), 0);
    assert_true(fabs(ci.geo_ratio - exp(0.2)) < 1e-9);
    assert_true(fabs(ci.low - exp(0.2 - 1.2706)) < 1e-9);
    assert_true(fabs(ci.high - exp(0.2 + 1.2706)) < 1e-9);
    assert_false(compare_stats_significant(&ci)); /* 0.343 .. 4.35 spans 1 */
}

/* Logs 0.5, 0.6, 0.7: mean 0.6, sd 0.1, se 0.1/sqrt(3) = 0.057735,
 * t(2) = 4.303: half width 0.248434. */
static void test_three_rounds_significant(void **state)
{
    (void)state;
    double a[3] = {10, 20, 5};
    double b[3] = {10 * exp(0.5), 20 * exp(0.6), 5 * exp(0.7)};
    struct ci ci;
    assert_int_equal(compare_stats_ci(a, b, 3, &ci), 0);
    assert_true(fabs(ci.low - exp(0.6 - 0.248434)) < 1e-5);
    assert_true(fabs(ci.high - exp(0.6 + 0.248434)) < 1e-5);
    assert_true(compare_stats_significant(&ci)); /* 1.42 .. 2.34 */
    assert_true(ci.low > 1.0);
}

static void test_identical_ratios(void **state)
{
    (void)state;
    double a[4] = {1, 2, 3, 4}, b[4] = {0.5, 1, 1.5, 2};
    struct ci ci;
    assert_int_equal(compare_stats_ci(a, b, 4, &ci), 0);
    assert_true(fabs(ci.low - 0.5) < 1e-12 && fabs(ci.high - 0.5) < 1e-12);
    assert_true(compare_stats_significant(&ci));
    assert_true(ci.high < 1.0);
}

/* Beyond df 30 the normal quantile: 40 rounds of logs +-0.1 around 0 give
 * sd 0.1 * sqrt(40/39), se = that / sqrt(40). */
static void test_many_rounds(void **state)
{
    (void)state;
    double a[40], b[40];
    for (int i = 0; i < 40; i++) {
        a[i] = 1;
        b[i] = exp(i % 2 ? 0.1 : -0.1);
    }
    struct ci ci;
    assert_int_equal(compare_stats_ci(a, b, 40, &ci), 0);
    double half = 1.96 * 0.1 * sqrt(40.0 / 39.0) / sqrt(40.0);
    assert_true(fabs(ci.low - exp(-half)) < 1e-9);
    assert_true(fabs(ci.high - exp(half)) < 1e-9);
    assert_false(compare_stats_significant(&ci));
}

/* k rounds of a ratio r whose rounds' ratios spread by a factor spread
 * (logs evenly from -ln(spread)/2 to +ln(spread)/2 around ln r). */
static int shows(double r, double spread, int k)
{
    double a[8], b[8];
    for (int i = 0; i < k; i++) {
        a[i] = 1;
        b[i] = r * exp(log(spread) * ((double)i / (k - 1) - 0.5));
    }
    struct ci ci;
    assert_int_equal(compare_stats_ci(a, b, (size_t)k, &ci), 0);
    return compare_stats_significant(&ci);
}

/* Issue 13's case: B 6x faster, rounds a third apart. Two rounds (t with 1
 * df, 12.7) cannot show it, so compare says "too few rounds"; the default
 * (`compare --help`: 3) can, with the spreads the README states. */
static void test_default_rounds_show_the_issue_effect(void **state)
{
    (void)state;
    assert_false(shows(1 / 6.0, 1.34, 2));
    assert_true(shows(1 / 6.0, 1.34, 3));
    assert_true(shows(1 / 6.0, 4.0, 3));  /* README: 6x even when the rounds spread 4x */
    assert_true(shows(2.0, 1.7, 3));      /* README: 2x when they spread less than 1.7x */
    assert_false(shows(2.0, 1.1, 2) && shows(2.0, 1.7, 2)); /* 2 rounds need close agreement */
}

static void test_no_interval(void **state)
{
    (void)state;
    double a[1] = {2}, b[1] = {3};
    struct ci ci;
    assert_int_equal(compare_stats_ci(a, b, 1, &ci), 1);
    assert_true(fabs(ci.geo_ratio - 1.5) < 1e-12);
    assert_int_equal(compare_stats_ci(a, b, 0, &ci), -1);
}

static void test_undefined(void **state)
{
    (void)state;
    struct ci ci;
    double a[2] = {1, 0}, b[2] = {1, 1};
    assert_int_equal(compare_stats_ci(a, b, 2, &ci), -1); /* division by zero */
    double c[2] = {1, 1}, d[2] = {1, -1};
    assert_int_equal(compare_stats_ci(c, d, 2, &ci), -1);
    double e[2] = {1, NAN};
    assert_int_equal(compare_stats_ci(c, e, 2, &ci), -1);
    assert_true(ci.low == 0 && ci.high == 0);
}

/* One way to write a ratio: fixed notation, never an exponent. */
static void test_fmt_ratio(void **state)
{
    (void)state;
    static const struct { double x; const char *want; } cases[] = {
        {1.0744, "1.074"}, {0.8991, "0.899"}, {2.01e-06, "0.000"}, {3080.4, "3080"},
        {14.83, "14.8"}, {148.2, "148"}, {9.9996, "10.0"}, {NAN, "n/a"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[16];
        compare_stats_fmt_ratio(cases[i].x, out, sizeof out);
        assert_string_equal(out, cases[i].want);
    }
}

/* Significance as the tables show the interval: rounds alike to within a
 * tick print "[1.000, 1.000]", which is no difference in the text, so the
 * JSON's "significant" must not say otherwise. */
static void test_significant_as_shown(void **state)
{
    (void)state;
    struct ci tick = {.low = 0.99990, .high = 0.99996};
    assert_true(compare_stats_significant(&tick)); /* the raw ends exclude 1 */
    assert_false(compare_stats_significant_shown(&tick)); /* "[1.000, 1.000]" */
    struct ci lower = {.low = 0.9980, .high = 0.9994}; /* "[0.998, 0.999]" */
    assert_true(compare_stats_significant_shown(&lower));
    struct ci higher = {.low = 1.0006, .high = 1.2}; /* "[1.001, 1.200]" */
    assert_true(compare_stats_significant_shown(&higher));
    struct ci spans = {.low = 0.9, .high = 1.1};
    assert_false(compare_stats_significant_shown(&spans));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_table),
        cmocka_unit_test(test_two_rounds),
        cmocka_unit_test(test_three_rounds_significant),
        cmocka_unit_test(test_identical_ratios),
        cmocka_unit_test(test_many_rounds),
        cmocka_unit_test(test_default_rounds_show_the_issue_effect),
        cmocka_unit_test(test_no_interval),
        cmocka_unit_test(test_undefined),
        cmocka_unit_test(test_fmt_ratio),
        cmocka_unit_test(test_significant_as_shown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
