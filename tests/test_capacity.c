/* test_capacity: the --find-max search against servers simulated by a
 * capacity figure: it starts at --rate-min, doubles, stops at --rate-max,
 * bisects down to the resolution, and says which bound ended it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "judge/capacity.h"

#define MAXP 64

/* Runs a whole search against a server that holds every rate <= cap;
 * the probes land in rates[0..*n). */
static void search(const struct capacity_bounds *b, double cap, double *rates, size_t *n,
                   struct capacity_state *st)
{
    int pass[MAXP];
    *n = 0;
    for (;;) {
        capacity_step(b, rates, pass, *n, st);
        if (st->done)
            return;
        assert_true(*n < MAXP);
        assert_true(st->next >= b->rate_min && st->next <= b->rate_max);
        rates[*n] = st->next;
        pass[*n] = st->next <= cap;
        (*n)++;
    }
}

static void doubles_then_bisects(void **state)
{
    (void)state;
    struct capacity_bounds b = {10, 100000, 0.05};
    double r[MAXP];
    size_t n;
    struct capacity_state st;
    search(&b, 93, r, &n, &st);
    assert_int_equal(st.outcome, CAPACITY_FOUND);
    assert_true(r[0] == 10 && r[1] == 20 && r[2] == 40 && r[3] == 80 && r[4] == 160);
    assert_true(r[5] == 120); /* halfway between 80 and 160 */
    assert_true(st.good <= 93 && st.bad > 93);
    assert_true((st.bad - st.good) / st.good <= 0.05);
    assert_true(st.good >= 93 / 1.05);
    assert_true(n < 16);
}

static void min_breaks(void **state)
{
    (void)state;
    struct capacity_bounds b = {50, 1000, 0.05};
    double r[MAXP];
    size_t n;
    struct capacity_state st;
    search(&b, 20, r, &n, &st);
    assert_int_equal(st.outcome, CAPACITY_MIN_BREAKS);
    assert_int_equal(n, 1);
    assert_true(r[0] == 50 && st.good < 0 && st.bad == 50);
}

static void max_holds(void **state)
{
    (void)state;
    struct capacity_bounds b = {1, 100, 0.05};
    double r[MAXP];
    size_t n;
    struct capacity_state st;
    search(&b, 1e9, r, &n, &st);
    assert_int_equal(st.outcome, CAPACITY_MAX_HOLDS);
    assert_true(r[n - 1] == 100); /* 64 doubled is capped at the max, not 128 */
    assert_true(r[n - 2] == 64);
    assert_true(st.good == 100 && st.bad < 0);
}

/* The knee between the last doubling below max and max itself. */
static void knee_near_max(void **state)
{
    (void)state;
    struct capacity_bounds b = {1, 100, 0.05};
    double r[MAXP];
    size_t n;
    struct capacity_state st;
    search(&b, 90, r, &n, &st);
    assert_int_equal(st.outcome, CAPACITY_FOUND);
    assert_true(st.bad <= 100 && st.good <= 90 && st.good >= 90 / 1.05);
}

/* A pass above a failure (noise) does not raise the capacity. */
static void noisy_history(void **state)
{
    (void)state;
    struct capacity_bounds b = {10, 1000, 0.05};
    double rates[] = {10, 20, 40, 80, 60, 70};
    int pass[] = {1, 1, 1, 0, 0, 1};
    struct capacity_state st;
    capacity_step(&b, rates, pass, 6, &st);
    assert_true(st.bad == 60 && st.good == 40);
    assert_false(st.done);
    assert_true(st.next == 50);
}

static void resolution_met_at_once(void **state)
{
    (void)state;
    struct capacity_bounds b = {10, 1000, 1.0}; /* 100%: one doubling decides */
    double rates[] = {10, 20};
    int pass[] = {1, 0};
    struct capacity_state st;
    capacity_step(&b, rates, pass, 2, &st);
    assert_true(st.done && st.outcome == CAPACITY_FOUND && st.good == 10 && st.bad == 20);
    capacity_step(&b, NULL, NULL, 0, &st);
    assert_true(!st.done && st.next == 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(doubles_then_bisects), cmocka_unit_test(min_breaks),
        cmocka_unit_test(max_holds),            cmocka_unit_test(knee_near_max),
        cmocka_unit_test(noisy_history),        cmocka_unit_test(resolution_met_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
