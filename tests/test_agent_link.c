/* test_agent_link: what the engine's tick takes from the agent's samples
 * (client/agent_link.h) without a network: sample k or unknown (-1, never
 * 0), and the summary's CPU time, source and warning. The link is built by
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
#include "model/result.h"

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

static struct run_result *new_result(void)
{
    struct run_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    return r;
}

static void test_take_known_and_unknown(void **state)
{
    (void)state;
    struct agent_link *l = new_link();
    struct proc_point p = {.client_pct = 12};
    arrive(l, 1, 49.5, 495000000);
    assert_int_equal(agent_link_take(l, 1, &p), 1);
    assert_true(p.server_pct == 49.5);
    assert_int_equal(p.server_rss_kb, 2048);
    assert_true(p.machine_busy_pct == 30);
    assert_true(p.client_pct == 12); /* this host's own, left alone */
    /* sample 2 never came: unknown, never 0 */
    assert_int_equal(agent_link_take(l, 2, &p), 0);
    assert_true(p.server_pct == -1 && p.machine_busy_pct == -1 && p.machine_steal_pct == -1 &&
                p.loadavg1 == -1);
    assert_int_equal(p.server_rss_kb, -1);
    /* a stale sample in the slot (k - RING) is not sample k */
    assert_int_equal(agent_link_take(l, 1 + AGENT_LINK_RING, &p), 0);
    assert_true(p.server_pct == -1);
    agent_link_close(l);
}

static void test_summary_complete(void **state)
{
    (void)state;
    struct agent_link *l = new_link();
    struct run_result *r = new_result();
    struct proc_point p;
    for (int64_t k = 1; k <= 3; k++) {
        arrive(l, k, 50, (uint64_t)k * 500000000);
        agent_link_take(l, k, &p);
    }
    agent_link_summarise(l, r);
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
 * warning, but the window's CPU time is unknown. */
static void test_summary_cut_short(void **state)
{
    (void)state;
    struct agent_link *l = new_link();
    struct run_result *r = new_result();
    struct proc_point p;
    arrive(l, 1, 50, 500000000);
    agent_link_take(l, 1, &p);
    agent_link_take(l, 2, &p);
    agent_link_summarise(l, r);
    assert_true(r->server_cpu_ms == -1);
    assert_int_equal(r->nwarnings, 0);
    free(r);
    agent_link_close(l);
}

/* Dead after sample 1: n/a from then on, and a warning naming when. */
static void test_summary_dead(void **state)
{
    (void)state;
    struct agent_link *l = new_link();
    struct run_result *r = new_result();
    struct proc_point p;
    arrive(l, 1, 50, 500000000);
    agent_link_take(l, 1, &p);
    l->dead = 1;
    snprintf(l->why, sizeof l->why, "the connection closed");
    for (int64_t k = 2; k <= 4; k++)
        assert_int_equal(agent_link_take(l, k, &p), 0);
    agent_link_summarise(l, r);
    assert_true(r->server_cpu_ms == -1);
    assert_int_equal(r->nwarnings, 1);
    assert_non_null(strstr(r->warnings[0], "no sample after t=1.0s (the connection closed)"));
    free(r);
    agent_link_close(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_take_known_and_unknown),
        cmocka_unit_test(test_summary_complete),
        cmocka_unit_test(test_summary_cut_short),
        cmocka_unit_test(test_summary_dead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
