/* test_openmetrics: the live figures as Prometheus reads them. Views
 * (one per interval) add their latencies into cumulative buckets whose
 * +Inf and _count equal the ok answers; a label value with a quote or a
 * line feed is escaped; an unknown gauge gives no sample rather than a
 * false 0; OpenMetrics names a counter's family without _total and ends
 * with # EOF, the 0.0.4 text names the sample and has no EOF; explicit
 * --buckets edges are kept, auto gives a fixed scale. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/openmetrics.h"

static struct run_result res; /* large: off the stack */
static struct om_state om;

static void one_run(struct hist *h)
{
    char err[ERR_LEN];
    struct run_config cfg = {.rate = 100};
    snprintf(cfg.label, sizeof cfg.label, "say \"hi\"\nnow");
    snprintf(cfg.url, sizeof cfg.url, "http://127.0.0.1:1/RPC2");
    assert_int_equal(om_init(&om, "1,10,100", err), 0);
    struct om_labels l = {.arm = "B", .round = 2, .cell = -1};
    om_begin_run(&om, &cfg, &l);
    memset(&res, 0, sizeof res);
    res.nverbs = 1;
    snprintf(res.verbs[0].name, sizeof res.verbs[0].name, "ping");
    res.verbs[0].requests = 5;
    res.verbs[0].ok = 4;
    res.verbs[0].errors = 1;
    res.err[ERR_TIMEOUT] = 1;
    assert_int_equal(hist_init_latency(h), 0);
    hist_record(h, 500);    /* 0.5 ms */
    hist_record(h, 5000);   /* 5 ms */
    struct interval_rec rec = {.sent = 5, .server_cpu_pct = 12.5, .client_cpu_pct = FIG_UNKNOWN,
                               .server_rss_kb = FIG_UNKNOWN};
    struct live_view v = {.res = &res, .rec = &rec, .latency = h, .interval_s = 1};
    om_take_view(&om, &v);
    hist_reset(h);
    hist_record(h, 50000);  /* 50 ms */
    hist_record(h, 500000); /* 500 ms: above every edge */
    v.rec = NULL;           /* the drain */
    om_take_view(&om, &v);
}

static char *rendered(int openmetrics)
{
    struct buf b = {0};
    assert_int_equal(om_render(&om, openmetrics, &b), 0);
    char *s = strndup(b.data, b.len);
    buf_free(&b);
    return s;
}

static void buckets_add_up(void **state)
{
    (void)state;
    struct hist h;
    one_run(&h);
    char *t = rendered(1);
    const char *lab = "run=\"say \\\"hi\\\"\\nnow\",arm=\"B\",round=\"2\","
                      "target=\"http://127.0.0.1:1/RPC2\"";
    char want[512];
    const char *lines[][2] = {{"le=\"0.001\"} ", "1"}, {"le=\"0.01\"} ", "2"},
                              {"le=\"0.1\"} ", "3"},   {"le=\"+Inf\"} ", "4"}};
    for (size_t i = 0; i < 4; i++) {
        snprintf(want, sizeof want, "rpcbench_latency_seconds_bucket{%s,%s%s\n", lab,
                 lines[i][0], lines[i][1]);
        assert_non_null(strstr(t, want));
    }
    snprintf(want, sizeof want, "rpcbench_latency_seconds_count{%s} 4\n", lab);
    assert_non_null(strstr(t, want));
    snprintf(want, sizeof want, "rpcbench_requests_total{%s,call=\"ping\"} 5\n", lab);
    assert_non_null(strstr(t, want));
    snprintf(want, sizeof want, "rpcbench_errors_total{%s,kind=\"timeout\"} 1\n", lab);
    assert_non_null(strstr(t, want));
    assert_non_null(strstr(t, "rpcbench_server_cpu_percent{"));
    assert_null(strstr(t, "rpcbench_client_cpu_percent")); /* unknown: no sample, no family */
    assert_null(strstr(t, "rpcbench_server_rss_bytes"));
    free(t);
    hist_close(&h);
}

static void two_formats(void **state)
{
    (void)state;
    struct hist h;
    one_run(&h);
    char *om_text = rendered(1), *text = rendered(0);
    assert_non_null(strstr(om_text, "# TYPE rpcbench_requests counter\n"));
    assert_int_equal(strcmp(om_text + strlen(om_text) - 6, "# EOF\n"), 0);
    assert_non_null(strstr(text, "# TYPE rpcbench_requests_total counter\n"));
    assert_null(strstr(text, "# EOF"));
    free(om_text);
    free(text);
    hist_close(&h);
}

static void auto_edges_are_fixed(void **state)
{
    (void)state;
    char err[ERR_LEN];
    assert_int_equal(om_init(&om, "auto", err), 0);
    assert_true(om.nedges > 10);
    assert_true(om.edges_s[0] == 1e-4 && om.edges_s[om.nedges - 1] == 60.0);
    for (int i = 1; i < om.nedges; i++)
        assert_true(om.edges_s[i] > om.edges_s[i - 1]);
    assert_int_equal(om_init(&om, "1:x", err), -1);
    /* nothing measured yet: only the EOF */
    char *t = rendered(1);
    assert_string_equal(t, "# EOF\n");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(buckets_add_up),
        cmocka_unit_test(two_formats),
        cmocka_unit_test(auto_edges_are_fixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
