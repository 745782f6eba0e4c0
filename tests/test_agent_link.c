/* test_agent_link: what the engine's tick takes from the agent's samples
 * (client/agent_link.h) without a network: sample k or unknown
 * (FIG_UNKNOWN, never 0), and the summary's CPU time, source and warning. The link is built by
 * hand as the reader thread would have filled it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/clock.h"
#include "client/agent_link_int.h"
#include "model/run_result.h"

static struct agent_link *new_link(void)
{
    struct agent_link *l = calloc(1, sizeof *l);
    assert_non_null(l);
    l->fd = -1;
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->cv, NULL);
    snprintf(l->url, sizeof l->url, "http://agent:9465");
    l->interval_ns = NS_PER_S;
    l->offset_ns = 1500;
    l->error_ns = 20000;
    l->cores = 8;
    return l;
}

/* What the reader files for sample k. */
static void arrive(struct agent_link *l, int64_t k, double pct, uint64_t total_ns)
{
    struct agent_sample s = {.k = k, .pt = {.server_pct = pct, .server_rss_kb = 2048,
                                            .server_threads = 4, .server_alive = 1,
                                            .machine_busy_pct = 30, .machine_steal_pct = 2,
                                            .loadavg1 = 1.5},
                             .total_server_ns = total_ns, .measured = 1, .source = "schedstat",
                             .pids = {77}, .npids = 1};
    l->ring[k % AGENT_LINK_RING] = s;
}

static void test_take_known_and_unknown(void **state)
{
    (void)state;
    struct agent_link *l = new_link();
    struct proc_point p = {.client_pct = 12};
    arrive(l, 1, 49.5, 495000000);
    assert_int_equal(agent_link_take(l, 1, &p), 1);
    assert_true(p.server_pct == 49.5);
    assert_true(p.server_rss_kb == 2048);
    assert_true(p.machine_busy_pct == 30);
    assert_true(p.client_pct == 12); /* this host's own, left alone */
    /* sample 2 never came: unknown, never 0 */
    assert_int_equal(agent_link_take(l, 2, &p), 0);
    assert_true(!fig_known(p.server_pct) && !fig_known(p.machine_busy_pct) &&
                !fig_known(p.machine_steal_pct) && !fig_known(p.loadavg1));
    assert_false(fig_known(p.server_rss_kb));
    /* a stale sample in the slot (k - RING) is not sample k */
    assert_int_equal(agent_link_take(l, 1 + AGENT_LINK_RING, &p), 0);
    assert_false(fig_known(p.server_pct));
    agent_link_close(l);
}

/* Samples 1..arrived came, and the tick asked for 1..asked; then the
 * summary of a fresh result (the caller's to free). */
static struct run_result *summary(struct agent_link *l, int64_t arrived, int64_t asked,
                                  const char *dead_why)
{
    struct run_result *r = calloc(1, sizeof *r);
    struct proc_point p;
    assert_non_null(r);
    for (int64_t k = 1; k <= arrived; k++)
        arrive(l, k, 50, (uint64_t)k * 500000000);
    if (dead_why) {
        l->dead = 1;
        snprintf(l->why, sizeof l->why, "%s", dead_why);
    }
    for (int64_t k = 1; k <= asked; k++)
        assert_int_equal(agent_link_take(l, k, &p), k <= arrived);
    agent_link_summarise(l, r);
    return r;
}

static void test_summary_complete(void **state)
{
    (void)state;
    struct agent_link *l = new_link();
    struct run_result *r = summary(l, 3, 3, NULL);
    assert_true(r->server_cpu_ms == 1500);
    assert_string_equal(r->server_cpu_source, "agent schedstat");
    assert_string_equal(r->agent.url, "http://agent:9465");
    assert_true(r->agent.clock_offset_us == 1.5 && r->agent.clock_error_us == 20);
    assert_int_equal(r->machine_cores, 8);
    assert_true(r->machine_steal_pct == 2);
    assert_int_equal(r->nwatched, 1);
    assert_int_equal(r->watched_pids[0], 77);
    assert_int_equal(r->nwarnings, 0);
    free(r);
    agent_link_close(l);
}

/* The last, partial interval of a run cut short has no sample yet: no
 * warning, but the window's CPU time is unknown. A silent agent for two
 * intervals or more, or a dead one, is warned about, naming when. */
static void test_summary_short_silent_dead(void **state)
{
    (void)state;
    static const struct {
        int64_t arrived, asked;
        const char *dead, *warning;
    } cases[] = {
        {1, 2, NULL, NULL},
        {1, 3, NULL, "no sample after t=1.0s (it went silent)"},
        {1, 4, "the connection closed", "no sample after t=1.0s (the connection closed)"},
        {2, 3, "the connection closed", "no sample after t=2.0s (the connection closed)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct agent_link *l = new_link();
        struct run_result *r = summary(l, cases[i].arrived, cases[i].asked, cases[i].dead);
        assert_false(fig_known(r->server_cpu_ms));
        assert_int_equal(r->nwarnings, cases[i].warning ? 1 : 0);
        if (cases[i].warning)
            assert_non_null(strstr(r->warnings[0], cases[i].warning));
        free(r);
        agent_link_close(l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_take_known_and_unknown),
        cmocka_unit_test(test_summary_complete),
        cmocka_unit_test(test_summary_short_silent_dead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
