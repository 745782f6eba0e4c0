/* The auto --pacer-window: half the p99 of the recent wakes' lateness,
 * held to 50 us..1 ms, and a burst of late wakes ages out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "client/pacer_window.h"
#include "client/pacer_window_testing.h"

#define US 1000LL

static void wakes(struct pacer_window *w, int n, int64_t late_ns)
{
    for (int i = 0; i < n; i++)
        pacer_window_wake(w, late_ns);
}

static void test_fixed_never_moves(void **state)
{
    (void)state;
    struct pacer_window w;
    pacer_window_init(&w, 0, 5000 * US);
    wakes(&w, 1000, 20 * US);
    assert_int_equal(pacer_window_ns(&w), 5000 * US);
    pacer_window_init(&w, 0, 0);
    wakes(&w, 1000, 900 * US);
    assert_int_equal(pacer_window_ns(&w), 0);
}

static void test_auto_starts_at_its_least(void **state)
{
    (void)state;
    struct pacer_window w;
    pacer_window_init(&w, 1, 0);
    assert_int_equal(pacer_window_ns(&w), PACER_AUTO_MIN_NS);
    assert_int_equal(pacer_window_late_p99(&w), 0);
    wakes(&w, 100, 2000 * US); /* too few wakes to choose from yet */
    assert_int_equal(pacer_window_ns(&w), PACER_AUTO_MIN_NS);
}

static void test_auto_is_half_the_p99(void **state)
{
    (void)state;
    struct pacer_window w;
    pacer_window_init(&w, 1, 0);
    wakes(&w, 1024, 20 * US); /* a precise timer: the least window */
    assert_int_equal(pacer_window_ns(&w), PACER_AUTO_MIN_NS);
    pacer_window_init(&w, 1, 0);
    wakes(&w, 1024, 400 * US); /* 400 us is in the 400-410 us step */
    assert_int_equal(pacer_window_late_p99(&w), 410 * US);
    assert_int_equal(pacer_window_ns(&w), 205 * US);
    pacer_window_init(&w, 1, 0);
    wakes(&w, 1024, 30 * 1000 * US); /* a stalled machine: at most 1 ms */
    assert_int_equal(pacer_window_ns(&w), PACER_AUTO_MAX_NS);
    pacer_window_init(&w, 1, 0);
    wakes(&w, 1024, -5 * US); /* never early, but a clock step counts as on time */
    assert_int_equal(pacer_window_ns(&w), PACER_AUTO_MIN_NS);
}

static void test_auto_takes_the_99th_not_the_worst(void **state)
{
    (void)state;
    struct pacer_window w;
    pacer_window_init(&w, 1, 0);
    for (int i = 0; i < 1024; i++) /* 1 in 128 late: under 1 % */
        pacer_window_wake(&w, i % 128 == 0 ? 900 * US : 20 * US);
    assert_int_equal(pacer_window_ns(&w), PACER_AUTO_MIN_NS);
    pacer_window_init(&w, 1, 0);
    for (int i = 0; i < 1024; i++) /* 1 in 32 late: over 1 % */
        pacer_window_wake(&w, i % 32 == 0 ? 900 * US : 20 * US);
    assert_int_equal(pacer_window_ns(&w), 455 * US);
}

static void test_a_burst_ages_out(void **state)
{
    (void)state;
    struct pacer_window w;
    pacer_window_init(&w, 1, 0);
    wakes(&w, 2000, 800 * US);
    assert_int_equal(pacer_window_ns(&w), 405 * US);
    wakes(&w, 10000, 20 * US); /* two seconds of a quiet timer at 5k wakes/s */
    assert_int_equal(pacer_window_ns(&w), PACER_AUTO_MIN_NS);
    assert_true(w.n < 2048); /* the counts decay: they never grow with the run */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_never_moves),
        cmocka_unit_test(test_auto_starts_at_its_least),
        cmocka_unit_test(test_auto_is_half_the_p99),
        cmocka_unit_test(test_auto_takes_the_99th_not_the_worst),
        cmocka_unit_test(test_a_burst_ages_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
