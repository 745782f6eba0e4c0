/* test_result_load: saved results come back whole (histograms, counters,
 * timeline), re-bucket from the histogram, merge like one run over the
 * union, and bad files fail cleanly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "stats/buckets.h"
#include "stats/hdrlog.h"
#include "report/report.h"
#include "model/result_json.h"
#include "model/result_merge.h"
#include "model/server_cpu.h"
#include "stats/hist_testing.h"

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static void config(struct run_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->encoding, sizeof c->encoding, "xmlrpc");
    snprintf(c->label, sizeof c->label, "xmlrpc");
    snprintf(c->verbs[0].name, sizeof c->verbs[0].name, "getAllVmStats");
    c->verbs[0].weight = 1;
    c->nverbs = 1;
    c->rate = 20;
    c->duration_ns = 3000000000LL;
    c->interval_ns = 1000000000LL;
    c->timeout_ns = 10000000000LL;
    c->connections = 4;
    snprintf(c->buckets, sizeof c->buckets, "auto");
    c->pcts[0] = 50, c->pcts[1] = 99;
    c->npcts = 2;
    c->cpu_saturation = 95;
}

/* A result with n latencies from seed (us, 500 .. ~20 ms), three intervals
 * and one watched pid. */
static void fill(struct run_result *r, uint64_t seed, int n, pid_t pid)
{
    struct run_config c;
    config(&c);
    assert_int_equal(result_init(r, &c), 0);
    for (int i = 0; i < n; i++) {
        int64_t v = 500 + (int64_t)(lcg(&seed) % 20000);
        hist_record(&r->latency, v);
        hist_record(&r->service, v - 100);
        hist_record(&r->send_lag, 100);
        hist_record(&r->verbs[0].latency, v);
    }
    r->offered = r->sent = r->ok = n;
    r->verbs[0].requests = r->verbs[0].ok = n;
    r->bytes_received = 1000LL * n;
    r->duration_s = 3;
    r->rate_achieved = n / 3.0;
    r->watched_pids[0] = pid;
    r->nwatched = 1;
    r->server_cpu_ms = 30;
    for (int i = 1; i <= 3; i++) {
        struct interval_rec rec = {.t = i, .sent = n / 3, .ok = n / 3, .p50_ms = i,
                                   .p99_ms = 2 * i, .server_cpu_pct = 10 * i,
                                   .client_cpu_pct = 1, .server_rss_kb = 4096};
        struct proc_point p = {.t_ns = i * 1000000000LL, .server_pct = 10 * i,
                               .server_rss_kb = 4096, .client_pct = 1};
        assert_int_equal(result_add_interval(r, &rec), 0);
        assert_int_equal(result_add_sample(r, &p), 0);
    }
}

static void tmp_path(char *path, size_t len)
{
    snprintf(path, len, "/tmp/rpcbench-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

static void assert_same_hist(const struct hist *a, const struct hist *b)
{
    assert_int_equal(a->total_count, b->total_count);
    static const double ps[] = {0, 10, 50, 90, 99, 99.9, 100};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        assert_int_equal(hist_percentile(a, ps[i]), hist_percentile(b, ps[i]));
    for (int32_t i = 0; i < a->counts_len; i++)
        assert_int_equal(a->counts[i], b->counts[i]);
}

static void test_round_trip(void **state)
{
    (void)state;
    struct run_result r, back;
    char path[64], err[ERR_LEN] = "";
    fill(&r, 7, 600, 4242);
    r.err[ERR_TIMEOUT] = 3;
    r.errors = 3;
    r.machine_steal_pct = 1.25;
    result_warn(&r, "a warning");
    tmp_path(path, sizeof path);
    assert_int_equal(result_save(&r, path, err), 0);
    assert_int_equal(result_load(&back, path, err), 0);
    unlink(path);
    assert_same_hist(&r.latency, &back.latency);
    assert_same_hist(&r.service, &back.service);
    assert_same_hist(&r.verbs[0].latency, &back.verbs[0].latency);
    assert_int_equal(back.sent, 600);
    assert_int_equal(back.errors, 3);
    assert_int_equal(back.err[ERR_TIMEOUT], 3);
    assert_int_equal(back.bytes_received, 600000);
    assert_string_equal(back.cfg.encoding, "xmlrpc");
    assert_string_equal(back.verbs[0].name, "getAllVmStats");
    assert_int_equal(back.cfg.duration_ns, 3000000000LL);
    assert_int_equal(back.cfg.npcts, 2);
    assert_int_equal(back.nintervals, 3);
    assert_true(back.intervals[2].p99_ms == 6);
    assert_int_equal(back.nsamples, 3);
    assert_int_equal(back.nwatched, 1);
    assert_int_equal(back.watched_pids[0], 4242);
    assert_true(back.machine_steal_pct == 1.25);
    assert_true(result_cpu_ms_per_call(&back) == result_cpu_ms_per_call(&r));
    double m1, p1, x1, m2, p2, x2;
    result_cpu_summary(&r, &m1, &p1, &x1);
    result_cpu_summary(&back, &m2, &p2, &x2);
    assert_true(m1 == m2 && x1 == x2);
    assert_true(result_client_cpu_mean(&back, NULL) == 1);
    assert_int_equal(back.nwarnings, 1);
    result_free(&r);
    result_free(&back);
}

/* Buckets from the loaded histogram equal buckets from the live one, and
 * the text report shows exactly the edges asked for. */
static void test_rebucket(void **state)
{
    (void)state;
    struct run_result r, back;
    char path[64], err[ERR_LEN] = "";
    fill(&r, 11, 400, 1);
    tmp_path(path, sizeof path);
    assert_int_equal(result_save(&r, path, err), 0);
    assert_int_equal(result_load(&back, path, err), 0);
    unlink(path);
    double edges[BUCKETS_MAX], pa[BUCKETS_MAX], pb[BUCKETS_MAX];
    int n = buckets_edges("1,2,5,10,15", NULL, 0, edges, err);
    assert_int_equal(n, 5);
    buckets_fill(&r.latency, edges, n, pa);
    buckets_fill(&back.latency, edges, n, pb);
    for (int i = 0; i < n; i++)
        assert_true(pa[i] == pb[i]);
    assert_true(pb[0] < 5 && pb[4] > 50 && pb[4] < 100); /* values 0.5 .. 20.5 ms */

    snprintf(back.cfg.buckets, sizeof back.cfg.buckets, "1,2,5");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(report_text(f, &back, err), 0);
    fclose(f);
    int rows = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] == '<') {
            static const char *const want[] = {"<1ms: ", "<2ms: ", "<5ms: "};
            assert_true(rows < 3);
            assert_true(!strncmp(line, want[rows], strlen(want[rows])));
            rows++;
        }
    assert_int_equal(rows, 3);
    free(text);
    result_free(&r);
    result_free(&back);
}

/* Two results merged equal one run that recorded both sets of values. */
static void test_merge_union(void **state)
{
    (void)state;
    struct run_result a, b, all;
    char err[ERR_LEN] = "";
    fill(&a, 1, 300, 10);
    fill(&b, 2, 500, 20);
    fill(&all, 1, 300, 10);
    uint64_t seed = 2;
    for (int i = 0; i < 500; i++) {
        int64_t v = 500 + (int64_t)(lcg(&seed) % 20000);
        hist_record(&all.latency, v);
        hist_record(&all.verbs[0].latency, v);
    }
    assert_int_equal(result_merge(&a, &b, RESULT_MERGE_CONCURRENT, err), 0);
    assert_same_hist(&a.latency, &all.latency);
    assert_same_hist(&a.verbs[0].latency, &all.verbs[0].latency);
    assert_int_equal(a.sent, 800);
    assert_int_equal(a.ok, 800);
    assert_int_equal(a.verbs[0].requests, 800);
    assert_true(a.rate_achieved == 300 / 3.0 + 500 / 3.0);
    assert_true(a.cfg.rate == 40);
    assert_true(a.duration_s == 3);
    /* same t: one interval each, counts summed; different servers: CPU adds */
    assert_int_equal(a.nintervals, 3);
    assert_int_equal(a.intervals[0].sent, 100 + 166);
    assert_true(a.intervals[1].server_cpu_pct == 40);
    assert_true(a.server_cpu_ms == 60);
    assert_int_equal(a.nwatched, 2);
    result_free(&a);
    result_free(&b);
    result_free(&all);
}

/* Rounds back to back into a fresh result: durations add, the timeline
 * continues, the rate is the overall one. */
static void test_merge_sequential(void **state)
{
    (void)state;
    struct run_result a, b, m;
    struct run_config c;
    char err[ERR_LEN] = "";
    fill(&a, 1, 300, 10);
    fill(&b, 2, 600, 10);
    a.machine_steal_pct = 1;
    b.machine_steal_pct = 3;
    config(&c);
    assert_int_equal(result_init(&m, &c), 0);
    assert_int_equal(result_merge(&m, &a, RESULT_MERGE_SEQUENTIAL, err), 0);
    assert_int_equal(result_merge(&m, &b, RESULT_MERGE_SEQUENTIAL, err), 0);
    assert_int_equal(m.latency.total_count, 900);
    assert_true(m.duration_s == 6);
    assert_true(m.rate_achieved == 150);
    assert_int_equal(m.nintervals, 6);
    assert_true(m.intervals[5].t == 6);
    assert_true(m.server_cpu_ms == 60);
    assert_true(result_cpu_ms_per_call(&m) == 60.0 / 900);
    assert_true(m.cfg.rate == 20);
    assert_true(m.machine_steal_pct == 2); /* 1 % then 3 %, 3 s each */
    result_free(&a);
    result_free(&b);
    result_free(&m);
}

/* CSV: a header and one row of nine fields per interval. */
static void test_csv_shape(void **state)
{
    (void)state;
    struct run_result r;
    fill(&r, 3, 90, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    report_csv(f, &r);
    fclose(f);
    int lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        int commas = 0;
        for (char *p = line; *p; p++)
            commas += *p == ',';
        assert_int_equal(commas, 10);
        if (lines == 0)
            assert_true(!strncmp(line, "t,due,sent,unsent,ok,", 21));
    }
    assert_int_equal(lines, 1 + 3);
    free(text);
    result_free(&r);
}

static void load_text(const char *json, int want)
{
    char path[64], err[ERR_LEN] = "";
    tmp_path(path, sizeof path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(json, f);
    fclose(f);
    struct run_result r;
    assert_int_equal(result_load(&r, path, err), want);
    if (want)
        assert_true(err[0] != '\0');
    result_free(&r);
    unlink(path);
}

static void test_bad_files(void **state)
{
    (void)state;
    struct run_result r;
    char err[ERR_LEN] = "";
    assert_int_equal(result_load(&r, "/nonexistent/x.json", err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.json"));
    result_free(&r);
    load_text("", -1);
    load_text("[1,2]", -1);
    load_text("{}", -1);
    load_text("{\"histograms\": {\"latency_us\": 5}}", -1);
    load_text("{\"histograms\": {\"latency_us\": \"HISTFAAAA!!\"}}", -1);
    load_text("{\"histograms\": {\"latency_us\": \"HISTFAAAAA==\"}}", -1);
    /* odd but harmless numbers are clamped, not trusted */
    struct hist h;
    struct buf b = {0};
    assert_int_equal(hist_init_latency(&h), 0);
    hist_record(&h, 1234);
    assert_int_equal(hdrlog_encode(&h, &b), 0);
    char json[4096];
    snprintf(json, sizeof json,
             "{\"config\": {\"duration_s\": 1e300, \"verbs\": [{\"name\": \"x\", "
             "\"weight\": -5}], \"percentiles\": [50, 500]}, \"intervals\": [{\"t\": \"x\"}],"
             " \"requests\": {\"ok\": \"many\"}, \"histograms\": {\"latency_us\": \"%s\"}}",
             b.data);
    load_text(json, 0);
    buf_free(&b);
    hist_close(&h);
}

/* The report's machine line, or "" if there is none. */
static void machine_line(const struct run_result *r, char *line, size_t len)
{
    char *text = NULL, err[ERR_LEN];
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    assert_int_equal(report_text(f, r, err), 0);
    fclose(f);
    const char *m = strstr(text, "\nmachine ");
    line[0] = '\0';
    if (m)
        snprintf(line, len, "%.*s", (int)strcspn(m + 1, "\n"), m + 1);
    free(text);
}

/* Steal is shown and saved when measured; a file saved before steal was
 * measured loads as unknown and its report leaves steal out. */
static void test_steal_saved_and_shown(void **state)
{
    (void)state;
    struct run_result r, back;
    char path[64], err[ERR_LEN] = "", line[256];
    fill(&r, 5, 90, 1);
    r.machine_busy_pct = 39.74;
    r.machine_steal_pct = 1.23;
    r.loadavg1 = 0.83;
    machine_line(&r, line, sizeof line);
    assert_non_null(strstr(line, "busy 39.7% (all cores), steal 1.2%, load 0.83; client CPU"));
    json_object *o = result_to_json(&r), *sys;
    assert_true(json_object_object_get_ex(o, "system", &sys));
    json_object_object_del(sys, "steal_pct");
    tmp_path(path, sizeof path);
    assert_int_equal(json_object_to_file(path, o), 0);
    json_object_put(o);
    assert_int_equal(result_load(&back, path, err), 0);
    unlink(path);
    assert_false(fig_known(back.machine_steal_pct));
    assert_true(back.machine_busy_pct > 39.73 && back.machine_busy_pct < 39.75);
    machine_line(&back, line, sizeof line);
    assert_non_null(strstr(line, "busy 39.7% (all cores), load 0.83; client CPU"));
    assert_null(strstr(line, "steal"));
    result_free(&r);
    result_free(&back);
}

static int has_warning(const struct run_result *r, const char *what)
{
    for (size_t i = 0; i < r->nwarnings; i++)
        if (strstr(r->warnings[i], what))
            return 1;
    return 0;
}

/* From 0.5 % of steal a warning of its own; any steal is named in the
 * client-bound warning about pacer lag. */
static void test_steal_warnings(void **state)
{
    (void)state;
    struct run_result r;
    fill(&r, 6, 90, 1);
    r.machine_steal_pct = 0.4;
    result_check_warnings(&r);
    assert_false(has_warning(&r, "hypervisor steal"));
    result_free(&r);

    fill(&r, 6, 90, 1);
    r.machine_steal_pct = 1.23;
    result_check_warnings(&r);
    assert_true(has_warning(&r, "hypervisor steal 1.2% of CPU time: the VM was paused now and "
                                "then; latencies and send lag include those pauses (rerun, or "
                                "compare rounds)"));
    assert_false(has_warning(&r, "client-bound"));
    result_free(&r);

    fill(&r, 6, 90, 1);
    hist_record(&r.pacing_lag, 5000); /* one late send is an outlier, not a late pacer */
    result_check_warnings(&r);
    assert_false(has_warning(&r, "kept the client from sending on time"));
    result_free(&r);

    fill(&r, 6, 90, 1);
    hist_record_n(&r.pacing_lag, 5000, 3); /* p99 5 ms with the client at 1 % CPU */
    r.loadavg1 = 0.83;
    r.machine_steal_pct = 0.3;
    result_check_warnings(&r);
    assert_true(has_warning(&r, "the machine (load 0.83, hypervisor steal 0.3%) kept the "
                                "client from sending on time; latencies include that delay"));
    assert_false(has_warning(&r, "of CPU time: the VM was paused"));
    result_free(&r);

    fill(&r, 6, 90, 1);
    hist_record_n(&r.pacing_lag, 5000, 3);
    r.loadavg1 = 0.83;
    result_check_warnings(&r); /* no steal: the warning as before */
    assert_true(has_warning(&r, "the machine (load 0.83) kept the client"));
    assert_false(has_warning(&r, "client-bound")); /* the client at 1 % is not the limit */
    result_free(&r);
}

/* Sets key of o to -1 (or, as older versions wrote an RSS, to 0). */
static void mark(json_object *o, const char *key, int v)
{
    json_object_object_add(o, key, json_object_new_int(v));
}

/* A result as a version before unknown was null saved it: every figure it
 * had not measured as -1, each RSS as 0 (tests the loader, not a writer). */
static void write_old_file(const char *path)
{
    struct run_result r;
    fill(&r, 5, 90, 1);
    json_object *o = result_to_json(&r), *cpu, *sys, *a;
    result_free(&r);
    assert_true(json_object_object_get_ex(o, "intervals", &a));
    for (size_t i = 0; i < json_object_array_length(a); i++) {
        json_object *x = json_object_array_get_idx(a, i);
        mark(x, "server_cpu_pct", -1), mark(x, "client_cpu_pct", -1), mark(x, "server_rss_kb", 0);
    }
    assert_true(json_object_object_get_ex(o, "server_cpu", &cpu));
    static const char *const cpu_keys[] = {"mean_pct", "p50_pct", "max_pct", "cpu_ms"};
    for (size_t i = 0; i < 4; i++)
        mark(cpu, cpu_keys[i], -1);
    mark(cpu, "rss_start_kb", 0), mark(cpu, "rss_end_kb", 0);
    assert_true(json_object_object_get_ex(cpu, "samples", &a));
    for (size_t i = 0; i < json_object_array_length(a); i++)
        mark(json_object_array_get_idx(a, i), "pct", -1), mark(json_object_array_get_idx(a, i),
                                                               "rss_kb", 0);
    assert_true(json_object_object_get_ex(o, "system", &sys));
    mark(sys, "busy_pct", -1), mark(sys, "steal_pct", -1), mark(sys, "loadavg", -1);
    assert_int_equal(json_object_to_file(path, o), 0);
    json_object_put(o);
}

/* What the saved -1s became, written again: null in JSON. */
static void assert_nulls(const struct run_result *r)
{
    json_object *o = result_to_json(r), *cpu, *sys, *v, *a;
    assert_true(json_object_object_get_ex(o, "server_cpu", &cpu));
    static const char *const keys[] = {"mean_pct", "p50_pct", "max_pct", "cpu_ms",
                                       "cpu_ms_per_call", "rss_start_kb", "rss_end_kb"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        assert_true(json_object_object_get_ex(cpu, keys[i], &v) && v == NULL);
    assert_true(json_object_object_get_ex(cpu, "samples", &a));
    v = json_object_array_get_idx(a, 0);
    assert_true(json_object_object_get_ex(v, "pct", &v) && v == NULL);
    assert_true(json_object_object_get_ex(o, "system", &sys));
    assert_true(json_object_object_get_ex(sys, "busy_pct", &v) && v == NULL);
    assert_true(json_object_object_get_ex(sys, "loadavg", &v) && v == NULL);
    assert_true(json_object_object_get_ex(o, "intervals", &a));
    v = json_object_array_get_idx(a, 0);
    assert_true(json_object_object_get_ex(v, "server_rss_kb", &v) && v == NULL);
    json_object_put(o);
}

/* A file saved by an older version, -1 (RSS 0) for what it had not
 * measured, loads with those figures unknown: never -1 or 0 in memory, so
 * n/a in the text, empty in the CSV, null in the JSON (issue 36). */
static void test_old_markers_load_as_unknown(void **state)
{
    (void)state;
    struct run_result back;
    char path[64], err[ERR_LEN] = "", line[256];
    tmp_path(path, sizeof path);
    write_old_file(path);
    assert_int_equal(result_load(&back, path, err), 0);
    unlink(path);
    assert_false(fig_known(back.server_cpu_ms) || fig_known(back.rss_start_kb) ||
                 fig_known(back.rss_end_kb) || fig_known(back.machine_busy_pct) ||
                 fig_known(back.machine_steal_pct) || fig_known(back.loadavg1));
    for (size_t i = 0; i < back.nsamples; i++)
        assert_false(fig_known(back.samples[i].server_pct) ||
                     fig_known(back.samples[i].server_rss_kb));
    assert_false(fig_known(back.intervals[0].server_cpu_pct) ||
                 fig_known(back.intervals[0].client_cpu_pct) ||
                 fig_known(back.intervals[0].server_rss_kb));
    assert_false(result_server_measured(&back));
    assert_false(fig_known(result_cpu_ms_per_call(&back)));
    machine_line(&back, line, sizeof line);
    assert_non_null(strstr(line, "busy n/a (all cores), load n/a; client CPU mean n/a"));
    char *csv = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&csv, &n);
    report_csv(f, &back);
    fclose(f);
    assert_non_null(strstr(csv, "\n1.000,0,30,0,30,0,1.000,2.000,,,\n")); /* cpu, cpu, rss */
    free(csv);
    assert_nulls(&back);
    result_free(&back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_rebucket),
        cmocka_unit_test(test_merge_union),
        cmocka_unit_test(test_merge_sequential),
        cmocka_unit_test(test_csv_shape),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_steal_saved_and_shown),
        cmocka_unit_test(test_old_markers_load_as_unknown),
        cmocka_unit_test(test_steal_warnings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
