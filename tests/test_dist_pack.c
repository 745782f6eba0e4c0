/* dist_pack: a result packed for the ranks comes back whole (counters,
 * histograms bucket for bucket, verbs, timeline, ranks), a packed
 * histogram adds into another exactly, and bytes that are cut short or
 * do not fit are refused, never read past. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/clock.h"
#include "dist/dist_pack.h"

static void fill(struct run_result *r)
{
    struct run_config cfg = {.nverbs = 2, .rate = 200, .connections = 4, .nstages = 2,
                             .stages = {{NS_PER_S, 100, 100}, {2 * NS_PER_S, 100, 300}}};
    snprintf(cfg.verbs[0].name, sizeof cfg.verbs[0].name, "ping");
    snprintf(cfg.verbs[1].name, sizeof cfg.verbs[1].name, "list");
    /* fields no file keeps travel too: every field has its config_keys row */
    snprintf(cfg.headers, sizeof cfg.headers, "X-Secret: 1\r\n");
    snprintf(cfg.expects[0], sizeof cfg.expects[0], "result.status=ok");
    cfg.nexpects = 1;
    cfg.split_ranks = 3, cfg.split_rank = 2;
    cfg.tls_insecure = 1;
    assert_int_equal(result_init(r, &cfg), 0);
    for (int64_t v = 1; v < 100000; v = v * 3 + 1) {
        hist_record(&r->latency, v);
        hist_record(&r->verbs[1].latency, v * 2);
        hist_record(&r->send_lag, v / 7);
        hist_record(&r->stages[1].latency, v + 5);
    }
    r->stages[1].sent = 400;
    r->stages[1].server_cpu_ms = 30;
    r->offered = r->sent = 600;
    r->ok = 590;
    r->errors = 10;
    r->err[ERR_TIMEOUT] = 10;
    snprintf(r->error_samples[ERR_TIMEOUT], ERR_SAMPLE_LEN, "no answer within 10s");
    result_warn(r, "a warning");
    struct interval_rec rec = {.t = 1, .sent = 200, .ok = 199, .p50_ms = 1.5};
    assert_int_equal(result_add_interval(r, &rec), 0);
    struct proc_point p = {.t_ns = 1000000000, .server_pct = 12.5, .client_pct = 3};
    assert_int_equal(result_add_sample(r, &p), 0);
    r->ranks = calloc(2, sizeof *r->ranks);
    r->nranks = 2;
    r->ranks[1].rank = 1;
    r->ranks[1].sent = 300;
}

static void same_hist(const struct hist *a, const struct hist *b)
{
    assert_int_equal(a->total_count, b->total_count);
    assert_int_equal(a->min, b->min);
    assert_int_equal(a->max, b->max);
    assert_true(a->sum == b->sum);
    assert_memory_equal(a->counts, b->counts, (size_t)a->counts_len * sizeof *a->counts);
}

static void test_result_round_trip(void **state)
{
    (void)state;
    static struct run_result r, back;
    struct buf b = {0};
    char err[ERR_LEN];
    fill(&r);
    assert_int_equal(dist_pack_result(&b, &r), 0);
    /* sparse: far below the dense counts of one histogram */
    assert_true(b.len < sizeof r + 8 * 1024);
    assert_int_equal(dist_unpack_result((unsigned char *)b.data, b.len, &back, err), 0);
    assert_int_equal(back.sent, 600);
    assert_int_equal(back.err[ERR_TIMEOUT], 10);
    assert_string_equal(back.error_samples[ERR_TIMEOUT], "no answer within 10s");
    assert_string_equal(back.warnings[0], "a warning");
    assert_int_equal(back.nverbs, 2);
    assert_string_equal(back.verbs[1].name, "list");
    same_hist(&back.latency, &r.latency);
    same_hist(&back.send_lag, &r.send_lag);
    same_hist(&back.verbs[1].latency, &r.verbs[1].latency);
    /* a --stages run's stages: counts, CPU and histograms */
    assert_int_equal(back.nstages, 2);
    assert_int_equal(back.stages[1].sent, 400);
    assert_true(back.stages[1].server_cpu_ms == 30 && !fig_known(back.stages[0].server_cpu_ms));
    same_hist(&back.stages[1].latency, &r.stages[1].latency);
    assert_int_equal(back.stages[0].latency.total_count, 0);
    assert_int_equal(back.nintervals, 1);
    assert_int_equal(back.intervals[0].ok, 199);
    assert_int_equal(back.nsamples, 1);
    assert_true(back.samples[0].server_pct == 12.5);
    assert_int_equal(back.nranks, 2);
    assert_int_equal(back.ranks[1].sent, 300);
    /* the configuration is plain data (no hooks): it comes back whole */
    assert_memory_equal(&back.cfg, &r.cfg, sizeof r.cfg);
    assert_string_equal(back.cfg.headers, "X-Secret: 1\r\n");
    assert_true(back.cfg.split_rank == 2 && back.cfg.nexpects == 1 && back.cfg.tls_insecure);
    result_free(&back);
    /* cut short anywhere: refused */
    for (size_t cut = 0; cut < b.len; cut += b.len / 13 + 1) {
        assert_int_equal(dist_unpack_result((unsigned char *)b.data, cut, &back, err), -1);
        result_free(&back);
    }
    buf_free(&b);
    result_free(&r);
}

static void test_hist_adds_exactly(void **state)
{
    (void)state;
    struct hist a, b, sum;
    struct buf buf = {0};
    size_t pos = 0;
    assert_int_equal(hist_init_latency(&a), 0);
    assert_int_equal(hist_init_latency(&b), 0);
    assert_int_equal(hist_init_latency(&sum), 0);
    for (int i = 0; i < 1000; i++) {
        hist_record(&a, 100 + i * 37);
        hist_record(&b, 5000 + i);
    }
    assert_int_equal(hist_merge(&sum, &a), 0);
    assert_int_equal(hist_merge(&sum, &b), 0);
    assert_int_equal(dist_pack_hist(&buf, &b), 0);
    assert_int_equal(dist_unpack_hist_add((unsigned char *)buf.data, buf.len, &pos, &a), 0);
    assert_int_equal(pos, buf.len);
    same_hist(&a, &sum);
    /* a layout that differs is refused */
    struct hist small;
    assert_int_equal(hist_init(&small, 1, 1000, 2), 0);
    pos = 0;
    assert_int_equal(dist_unpack_hist_add((unsigned char *)buf.data, buf.len, &pos, &small), -1);
    hist_close(&small);
    hist_close(&a);
    hist_close(&b);
    hist_close(&sum);
    buf_free(&buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_result_round_trip),
        cmocka_unit_test(test_hist_adds_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
