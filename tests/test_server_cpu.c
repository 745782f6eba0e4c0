/* test_server_cpu: the server CPU figures of a result on synthetic
 * samples: the time-weighted mean and its standard error, a short last
 * interval (SIGINT) weighed by its length, an unmeasured server as n/a
 * (never 0), and CPU per call raw and net of an idle baseline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "judge/comparison.h"
#include "model/server_cpu.h"

static struct run_result res; /* large: off the stack */

static void near(double got, double want, double tol)
{
    if (fabs(got - want) > tol) {
        print_error("got %g, want %g (+/- %g)\n", got, want, tol);
        fail();
    }
}

/* A result watching one pid, with samples at the times t (s) and CPU % p. */
static void fill(const double *t, const double *p, size_t n)
{
    struct run_config cfg = {.interval_ns = 1000000000LL, .rate = 2};
    result_free(&res);
    assert_int_equal(result_init(&res, &cfg), 0);
    res.nwatched = 1;
    res.watched_pids[0] = 42;
    res.server_cpu_ms = 0;
    for (size_t i = 0; i < n; i++) {
        struct proc_point pt;
        proc_point_unknown(&pt, (int64_t)(t[i] * 1e9));
        pt.server_pct = p[i];
        assert_int_equal(result_add_sample(&res, &pt), 0);
        if (fig_known(p[i])) /* an interval that could not read the server adds nothing */
            res.server_cpu_ms += p[i] / 100 * (t[i] - (i ? t[i - 1] : 0)) * 1000;
    }
    res.duration_s = n ? t[n - 1] : 0;
}

static void test_wstats(void **state)
{
    (void)state;
    double x[] = {10, 20, 30}, w[] = {1, 1, 2}, mean, se;
    server_cpu_wstats(x, w, 3, &mean, &se);
    near(mean, 22.5, 1e-9);
    /* sqrt(3/2 * (1*12.5^2 + 1*2.5^2 + 4*7.5^2)) / 4 */
    near(se, sqrt(1.5 * (156.25 + 6.25 + 225)) / 4, 1e-9);
    server_cpu_wstats(x, w, 1, &mean, &se);
    near(mean, 10, 1e-9);
    assert_false(fig_known(se));
    server_cpu_wstats(x, w, 0, &mean, &se);
    assert_false(fig_known(mean) || fig_known(se));
}

/* Two full seconds at 4 %, then 6 ms at 50 % after SIGINT: the plain mean
 * of the three would be 19.3 %; by length it is cpu_ms / duration. */
static void test_short_last_interval(void **state)
{
    (void)state;
    double t[] = {1, 2, 2.006}, p[] = {4, 4, 50}, mean, p50, max;
    fill(t, p, 3);
    result_cpu_summary(&res, &mean, &p50, &max);
    near(mean, res.server_cpu_ms / (res.duration_s * 1000) * 100, 1e-6);
    near(mean, (4.0 * 2 + 50 * 0.006) / 2.006, 1e-6);
    near(p50, 4, 1e-9); /* the 6 ms interval says little of a median or a peak */
    near(max, 4, 1e-9);
    res.cfg.cpu_saturation = 40; /* nor of saturation: 6 ms of one call flat out */
    assert_false(result_limits(&res) & RESULT_SATURATED);
    res.samples[1].server_pct = 45;
    assert_true(result_limits(&res) & RESULT_SATURATED);
}

static void test_unmeasured_is_na(void **state)
{
    (void)state;
    double t[] = {1, 2}, p[] = {FIG_UNKNOWN, FIG_UNKNOWN}, mean, p50, max;
    fill(t, p, 2);
    res.ok = 10;
    result_cpu_summary(&res, &mean, &p50, &max);
    assert_false(fig_known(mean) || fig_known(p50) || fig_known(max));
    assert_false(result_server_measured(&res));
    assert_false(fig_known(result_cpu_ms_per_call(&res))); /* not 0, which `<1` would pass */
    char line[200];
    server_cpu_text(&res, line, sizeof line);
    assert_non_null(strstr(line, "CPU n/a (not measured"));
    res.nwatched = 0;
    server_cpu_text(&res, line, sizeof line);
    assert_non_null(strstr(line, "not sampled"));
}

/* 10 % loaded over 4 s is 400 CPU-ms; with 8 calls, 50 per call raw (5
 * per % of a core); 6 % idle is 30 ms of it per call, so 20 net. */
static void test_per_call_net(void **state)
{
    (void)state;
    double t[] = {1, 2, 3, 4}, p[] = {9, 11, 9, 11};
    struct cpu_per_call c;
    fill(t, p, 4);
    res.ok = 8;
    result_cpu_per_call(&res, &c);
    near(c.raw, 50, 1e-9);
    assert_true(isnan(c.net) && isnan(c.net_se)); /* no baseline, no net */
    res.idle = (struct idle_cpu){.duration_s = 2, .mean_pct = 6, .se_pct = 0.5, .n = 10};
    result_cpu_per_call(&res, &c);
    near(c.net, 20, 1e-9);
    double se_l = sqrt(4.0 / 3 * 4 * 1.0) / 4; /* each 1 point off 10 */
    near(c.raw_se, se_l * 5, 1e-9);
    near(c.net_se, sqrt(se_l * se_l + 0.25) * 5, 1e-9);
    res.nwarnings = 0;
    result_warn_idle(&res); /* 6 % of 10 %: more than a fifth */
    assert_int_equal(res.nwarnings, 1);
    assert_non_null(strstr(res.warnings[0], "idle CPU"));
    res.nwarnings = 0;
    res.idle.mean_pct = 1; /* a tenth: no warning */
    result_warn_idle(&res);
    assert_int_equal(res.nwarnings, 0);
}

/* One interval per sample (as the engine records them), with ok and
 * errors answered in each. */
static void fill_intervals(const int64_t *ok, const int64_t *errors)
{
    for (size_t i = 0; i < res.nsamples; i++) {
        struct interval_rec rec = {.t = (double)res.samples[i].t_ns / 1e9, .ok = ok[i],
                                   .errors = errors[i]};
        assert_int_equal(result_add_interval(&res, &rec), 0);
        res.ok += ok[i];
        res.errors += errors[i];
    }
}

/* The server burns 20 ms per call at 10 calls/s (20 %) and is killed
 * after 4 s of a 6 s run: the 20 calls after it fail to connect. CPU per
 * call is its CPU over the calls it answered while it lived: 20, not
 * 800 / 60 = 13.3 (every call sent) nor 800 / 40 with the CPU it did not
 * get to spend. */
static void test_per_call_server_killed(void **state)
{
    (void)state;
    double t[] = {1, 2, 3, 4, 5, 6}, p[] = {20, 20, 20, 20, FIG_UNKNOWN, FIG_UNKNOWN};
    int64_t ok[] = {10, 10, 10, 10, 0, 0}, errors[] = {0, 0, 0, 0, 10, 10};
    fill(t, p, 6);
    fill_intervals(ok, errors);
    res.err[ERR_CONNECT] = 20;
    near(result_cpu_ms_per_call(&res), 20, 1e-9);
    res.idle = (struct idle_cpu){.duration_s = 2, .mean_pct = 5, .se_pct = 0.5, .n = 10};
    struct cpu_per_call c;
    result_cpu_per_call(&res, &c);
    near(c.net, 15, 1e-9); /* 5 % over the 4 s it lived, not the 6 s of the run */
}

/* The same by stage (3 s each): the server answered 10 calls a second,
 * and 5 in the 5th second before it was killed, whose CPU was not read.
 * Stage 2's CPU per call is the CPU where it was read (1 s at 20 %) over
 * the calls answered there (15 answered, less the 5 of the unread second):
 * 20, as stage 1's 600 / 30; with none answered it is unknown. */
static void test_stage_per_call_server_killed(void **state)
{
    (void)state;
    double t[] = {1, 2, 3, 4, 5, 6}, p[] = {20, 20, 20, 20, FIG_UNKNOWN, FIG_UNKNOWN};
    int64_t ok[] = {10, 10, 10, 10, 5, 0}, errors[] = {0, 0, 0, 0, 5, 10};
    fill(t, p, 6);
    res.cfg.stages[0] = res.cfg.stages[1] = (struct run_stage){3000000000LL, 10, 10};
    res.cfg.nstages = 2;
    assert_int_equal(result_stages_init(&res), 0);
    fill_intervals(ok, errors);
    res.err[ERR_CONNECT] = 15;
    res.stages[0].answered = 30;
    res.stages[1].answered = 15;
    result_stages_cpu(&res);
    near(res.stages[0].server_cpu_ms, 600, 1e-6);
    near(res.stages[1].server_cpu_ms, 200, 1e-6); /* where it was read: not 20 % of 3 s */
    near(result_stage_cpu_per_call(&res, 0), 20, 1e-9);
    near(result_stage_cpu_per_call(&res, 1), 20, 1e-9);
    res.stages[1].answered = 5; /* only those of the unread second */
    assert_false(fig_known(result_stage_cpu_per_call(&res, 1)));
    res.stages[0].answered = -1; /* a file saved before answered was counted */
    assert_false(fig_known(result_stage_cpu_per_call(&res, 0)));
}

/* Calls the server never answered (timeouts, resets, refused connects)
 * cost it nothing to count: none answered is n/a, not CPU / sent; its
 * faults are answers. */
static void test_per_call_answered_only(void **state)
{
    (void)state;
    double t[] = {1, 2}, p[] = {10, 10};
    int64_t ok[] = {0, 0}, errors[] = {5, 5};
    fill(t, p, 2);
    fill_intervals(ok, errors);
    res.err[ERR_TIMEOUT] = 6;
    res.err[ERR_CLOSED] = 4;
    assert_true(isnan(result_cpu_ms_per_call(&res)));
    struct cpu_per_call c;
    result_cpu_per_call(&res, &c);
    assert_true(isnan(c.raw) && isnan(c.raw_se) && isnan(c.net));
    res.err[ERR_TIMEOUT] = 0;
    res.err[ERR_FAULT] = 6; /* 6 answered of the 10 */
    near(result_cpu_ms_per_call(&res), 200.0 / 6, 1e-9);
}

/* A ramp from 10/s to 40/s at a constant 2 ms per call: CPU % follows the
 * rate (2 % to 8 %), which is no noise: the per-call figure's standard
 * error stays near 0 (the spread of CPU % over the intervals would make it
 * about 40 % of the mean). */
static void test_per_call_se_on_ramp(void **state)
{
    (void)state;
    double t[] = {1, 2, 3, 4}, p[] = {2, 4.04, 5.94, 8};
    int64_t ok[] = {10, 20, 30, 40}, errors[] = {0, 0, 0, 0};
    fill(t, p, 4);
    fill_intervals(ok, errors);
    struct cpu_per_call c;
    result_cpu_per_call(&res, &c);
    near(c.raw, 2, 0.01);
    assert_true(c.raw_se >= 0 && c.raw_se < 0.01 * c.raw);
}

/* A baseline taken while the server spun (98.8 %, above the 10 % under
 * load) is refused with a warning, and net is n/a, never negative; so is
 * one above its own quiet level (40 % on average, 1 % in its quietest
 * interval); a steady background is kept. */
static void test_idle_refused(void **state)
{
    (void)state;
    double t[] = {1, 2, 3, 4}, p[] = {9, 11, 9, 11};
    struct cpu_per_call c;
    fill(t, p, 4);
    res.ok = 8;
    res.idle = (struct idle_cpu){.duration_s = 3, .mean_pct = 98.8, .se_pct = 0.2,
                                 .quiet_pct = 97, .n = 10};
    result_cpu_per_call(&res, &c);
    assert_true(isnan(c.net)); /* never negative, even before it is refused */
    res.nwarnings = 0;
    assert_int_equal(result_refuse_idle(&res), 1);
    assert_int_equal(res.idle.n, 0);
    assert_int_equal(res.nwarnings, 1);
    assert_non_null(strstr(res.warnings[0], "idle baseline refused"));
    assert_non_null(strstr(res.warnings[0], "above its CPU under load (10.0%)"));
    res.idle = (struct idle_cpu){.duration_s = 3, .mean_pct = 8, .se_pct = 3, .quiet_pct = 1,
                                 .n = 10};
    res.nwarnings = 0;
    assert_int_equal(result_refuse_idle(&res), 1);
    assert_non_null(strstr(res.warnings[0], "above its quiet level"));
    res.idle = (struct idle_cpu){.duration_s = 3, .mean_pct = 6, .se_pct = 0.5, .quiet_pct = 4,
                                 .n = 10};
    assert_int_equal(result_refuse_idle(&res), 0);
    assert_int_equal(res.idle.n, 10);
    result_cpu_per_call(&res, &c);
    near(c.net, 20, 1e-9);
}

/* compare: arm A's baseline of a server reads 1 %; arm B's of the same
 * server 98.8 %, steady (A's run left it spinning), and B's load 99.5 %:
 * above neither its own quiet interval nor its load, but far above the
 * server's quiet level as A measured it: refused, and the table's CPU per
 * call is raw for both arms. A different server is not compared so. */
static void test_idle_refused_across_arms(void **state)
{
    (void)state;
    static struct comparison c;
    static struct run_result rounds[2];
    struct compare_plan p = {.rounds = 1};
    double t[] = {1, 2}, busy[] = {99.5, 99.5}, quiet[] = {5, 5};
    comparison_init(&c, &p);
    for (int a = 0; a < 2; a++) {
        fill(t, a ? busy : quiet, 2);
        res.cfg.idle_baseline_ns = 3000000000LL;
        res.ok = 10;
        res.idle = (struct idle_cpu){.duration_s = 3, .mean_pct = a ? 98.8 : 1, .se_pct = 0.1,
                                     .quiet_pct = a ? 98 : 0.8, .n = 10};
        rounds[a] = res; /* the result's arrays move to rounds[a] */
        memset(&res, 0, sizeof res);
        c.arm[a].rounds = &rounds[a];
        c.arm[a].nrounds = 1;
    }
    assert_int_equal(result_refuse_idle(&rounds[1]), 0); /* alone, B's looks idle */
    compare_set_cpu_basis(&c, 1);
    assert_int_equal(rounds[0].idle.n, 10);
    assert_int_equal(rounds[1].idle.n, 0);
    assert_non_null(strstr(rounds[1].warnings[rounds[1].nwarnings - 1], "another run's baseline"));
    assert_int_equal(c.cpu_basis, CPU_RAW_REFUSED);
    rounds[1].idle = (struct idle_cpu){.duration_s = 3, .mean_pct = 98.8, .n = 10};
    rounds[1].watched_pids[0] = 7; /* another server */
    compare_set_cpu_basis(&c, 1);
    assert_int_equal(rounds[1].idle.n, 10);
    assert_int_equal(c.cpu_basis, CPU_NET);
    for (int a = 0; a < 2; a++)
        result_free(&rounds[a]);
}

static void test_default_idle_baseline(void **state)
{
    (void)state;
    struct run_config c = {.idle_baseline_ns = -1, .rate = 2};
    assert_true(server_cpu_idle_ns(&c) == 0); /* the built-in simulator: none */
    c.nserver_pids = 1;
    assert_true(server_cpu_idle_ns(&c) == SERVER_CPU_AUTO_IDLE_NS);
    c.rate = 50;
    assert_true(server_cpu_idle_ns(&c) == 0);
    c.rate = 0; /* closed loop */
    assert_true(server_cpu_idle_ns(&c) == 0);
    c.idle_baseline_ns = 2000000000LL;
    assert_true(server_cpu_idle_ns(&c) == 2000000000LL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wstats),
        cmocka_unit_test(test_short_last_interval),
        cmocka_unit_test(test_unmeasured_is_na),
        cmocka_unit_test(test_per_call_net),
        cmocka_unit_test(test_default_idle_baseline),
        cmocka_unit_test(test_per_call_server_killed),
        cmocka_unit_test(test_stage_per_call_server_killed),
        cmocka_unit_test(test_per_call_answered_only),
        cmocka_unit_test(test_per_call_se_on_ramp),
        cmocka_unit_test(test_idle_refused),
        cmocka_unit_test(test_idle_refused_across_arms),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    result_free(&res);
    return rc;
}
