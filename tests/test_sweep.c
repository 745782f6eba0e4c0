/* test_sweep: a sweep's rows (medians, min and max over the repeats), the
 * baseline's 100 %, the cell selector and its errors, and the JSON round
 * trip (cells, repeats grouped, histograms, capacity probes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/sweep.h"
#include "model/result_json.h"
#include "model/sweep_json.h"
#include "report/sweep_out.h"
#include "report/sweep_out_testing.h"
#include "stats/hist_testing.h"

/* A result whose n answers all took ms milliseconds, at achieved rate,
 * with errs errors, server CPU pct (%) and bytes per answer. */
static void make(struct run_result *r, double rate, int n, double ms, int errs, double pct,
                 double bytes)
{
    struct run_config c;
    memset(&c, 0, sizeof c);
    snprintf(c.encoding, sizeof c.encoding, "xmlrpc");
    c.rate = rate;
    c.cpu_saturation = 95;
    c.connections = 1;
    assert_int_equal(result_init(r, &c), 0);
    hist_record_n(&r->latency, (int64_t)(ms * 1000), n);
    hist_record_n(&r->send_lag, 10, n);
    r->offered = r->sent = n + errs;
    r->ok = n;
    r->errors = errs;
    r->duration_s = 1;
    r->rate_achieved = rate;
    r->bytes_received = (int64_t)(bytes * (n + errs));
    r->server_cpu_ms = pct * 10; /* pct % of 1 s */
    struct proc_point p = {.t_ns = 1000000000LL, .server_pct = pct, .client_pct = 1};
    assert_int_equal(result_add_sample(r, &p), 0);
    r->nwatched = 1;
}

static struct sweep_params params(double rate, const char *proto)
{
    struct sweep_params p;
    memset(&p, 0, sizeof p);
    p.rate = rate;
    p.connections = 1;
    p.vms = 20;
    snprintf(p.proto, sizeof p.proto, "%s", proto);
    snprintf(p.verb, sizeof p.verb, "getAllVmStats");
    return p;
}

static void add_rep(struct sweep *s, size_t cell, double ms, int errs, double pct)
{
    static struct run_result r;
    make(&r, s->cells[cell].p.rate, 100, ms, errs, pct, 500);
    assert_int_equal(sweep_add_rep(s, cell, &r), 0);
}

/* 2 protos x rates 2, 4, 8; cell 0 has three repeats. */
static void grid(struct sweep *s)
{
    static const char *const protos[] = {"xmlrpc", "jsonrpc"};
    sweep_init(s);
    s->repeats = 1;
    for (int pr = 0; pr < 2; pr++)
        for (double rate = 2; rate <= 8; rate *= 2) {
            struct sweep_params p = params(rate, protos[pr]);
            long i = sweep_add_cell(s, &p);
            assert_true(i >= 0);
            add_rep(s, (size_t)i, rate * (pr + 1), 0, 10 * rate);
        }
    add_rep(s, 0, 5, 3, 30);
    add_rep(s, 0, 1, 1, 20);
}

static void medians_and_spread(void **state)
{
    (void)state;
    struct sweep s;
    grid(&s);
    struct sweep_row row;
    assert_int_equal(sweep_cell_row(&s.cells[0], &row), 0);
    assert_int_equal(row.nreps, 3);
    /* p50 of the repeats 2, 5, 1 ms (histogram-equivalent values) */
    assert_true(row.med[METRIC_P50] > 1.9 && row.med[METRIC_P50] < 2.1);
    assert_true(row.min[METRIC_P50] > 0.9 && row.min[METRIC_P50] < 1.1);
    assert_true(row.max[METRIC_P50] > 4.9 && row.max[METRIC_P50] < 5.1);
    assert_true(row.med[METRIC_ERRORS] == 1 && row.min[METRIC_ERRORS] == 0 && row.max[METRIC_ERRORS] == 3);
    assert_true(row.med[METRIC_CPU_PCT] == 20 && row.min[METRIC_CPU_PCT] == 20 &&
                row.max[METRIC_CPU_PCT] == 30);
    assert_true(row.med[METRIC_RATE] == 2);
    assert_true(row.med[METRIC_BYTES] == 500);
    assert_int_equal(row.flags, 0);
    /* one repeat saturated the server (99 % >= 95 %) and held half its rate */
    static struct run_result r;
    make(&r, 8, 100, 1, 0, 99, 500);
    r.rate_achieved = 4;
    assert_int_equal(sweep_add_rep(&s, 2, &r), 0);
    assert_int_equal(sweep_cell_row(&s.cells[2], &row), 0);
    /* the server's doing: the client (1 % CPU) is never blamed for it */
    assert_int_equal(row.flags, SWEEP_SATURATED);
    char flags[64];
    sweep_flags_text(&row, ",", flags, sizeof flags);
    assert_string_equal(flags, "saturated");
    /* a busy client that could not hold the rate: client-bound */
    make(&r, 8, 100, 1, 0, 10, 500);
    r.rate_achieved = 4;
    r.samples[0].client_pct = 97;
    assert_int_equal(sweep_add_rep(&s, 4, &r), 0);
    assert_int_equal(sweep_cell_row(&s.cells[4], &row), 0);
    assert_int_equal(row.flags, SWEEP_CLIENT_BOUND);
    /* every connection busy, the client idle: server-bound */
    make(&r, 8, 100, 1, 0, 10, 500);
    r.rate_achieved = 4;
    r.queued = 50;
    assert_int_equal(sweep_add_rep(&s, 5, &r), 0);
    assert_int_equal(sweep_cell_row(&s.cells[5], &row), 0);
    sweep_flags_text(&row, ",", flags, sizeof flags);
    assert_string_equal(flags, "server-bound");
    /* the same queue with a busy client: the client's doing (slow to read
     * answers), never the server's too, and one warning says so */
    make(&r, 8, 100, 1, 0, 10, 500);
    r.rate_achieved = 4;
    r.queued = 50;
    r.samples[0].client_pct = 97;
    assert_int_equal(result_limits(&r), RESULT_CLIENT_BOUND | RESULT_RATE_NOT_HELD);
    result_check_warnings(&r);
    int client_bound = 0, queued_line = 0;
    for (size_t w = 0; w < r.nwarnings; w++) {
        client_bound += !strncmp(r.warnings[w], "client-bound", 12);
        queued_line += strstr(r.warnings[w], "waited for a free connection") != NULL;
        assert_null(strstr(r.warnings[w], "the server is slower than the rate"));
    }
    assert_int_equal(client_bound, 1);
    assert_int_equal(queued_line, 1);
    /* a cell with no repeat knows nothing */
    struct sweep_params p = params(16, "xmlrpc");
    long i = sweep_add_cell(&s, &p);
    assert_int_equal(sweep_cell_row(&s.cells[i], &row), 0);
    for (int f = 0; f < METRIC_N; f++)
        assert_false(fig_known(row.med[f]) || fig_known(row.min[f]) || fig_known(row.max[f]));
    sweep_flags_text(&row, ",", flags, sizeof flags);
    assert_string_equal(flags, "not run");
    sweep_free(&s);
}

/* The table's lines as text, into buf. */
static void table(const struct sweep *s, long baseline, char *buf, size_t len)
{
    FILE *f = fmemopen(buf, len, "w");
    char err[ERR_LEN];
    assert_non_null(f);
    assert_int_equal(sweep_table_text(f, s, baseline, err), 0);
    fclose(f);
}

/* The row of cell n (1-based) in the table text. */
static const char *row_of(const char *buf, int n, char *line, size_t len)
{
    char want[16];
    snprintf(want, sizeof want, "\n%d", n);
    const char *p = strstr(buf, want);
    assert_non_null(p);
    p++;
    size_t k = strcspn(p, "\n");
    snprintf(line, len, "%.*s", (int)k, p);
    return line;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void baseline_is_100(void **state)
{
    (void)state;
    struct sweep s;
    grid(&s);
    static char buf[16384];
    char line[1024];
    table(&s, 4, buf, sizeof buf); /* rate=4 jsonrpc */
    row_of(buf, 5, line, sizeof line);
    assert_non_null(strstr(line, "5*"));
    assert_int_equal(count(line, "100.0%"), metric_sweep_n()); /* every figure, 0 errors too */
    for (int n = 1; n <= 6; n++) /* no other row is 100% in all, nor 100% of 0 errors */
        if (n != 5)
            assert_true(count(row_of(buf, n, line, sizeof line), "100.0%") < metric_sweep_n() - 1);
    /* rate=8 jsonrpc: twice the baseline's achieved rate and latency */
    assert_non_null(strstr(row_of(buf, 6, line, sizeof line), "200.0%"));
    /* the varying columns only; medians [min-max] with repeats */
    assert_non_null(strstr(buf, "in every cell: connections=1,vms=20,verb=getAllVmStats"));
    assert_non_null(strstr(row_of(buf, 1, line, sizeof line), "[0-3]"));
    char err[ERR_LEN];
    FILE *null = fopen("/dev/null", "w");
    assert_int_equal(sweep_table_text(null, &s, 6, err), -1);
    fclose(null);
    sweep_free(&s);
}

/* s made empty with one xmlrpc cell at 2/s and one repeat a cell.
 * @return the cell's index. */
static size_t one_cell(struct sweep *s)
{
    sweep_init(s);
    s->repeats = 1;
    struct sweep_params p = params(2, "xmlrpc");
    long i = sweep_add_cell(s, &p);
    assert_true(i >= 0);
    return (size_t)i;
}

/* The latency columns share one unit, as the text report's percentile
 * table does: p50 and p90 under 1 ms beside p99 over it are all in ms, not
 * "p50 us" beside "p99 ms". */
static void latency_one_unit(void **state)
{
    (void)state;
    struct sweep s;
    size_t i = one_cell(&s);
    static struct run_result r;
    make(&r, 2, 95, 0.4, 0, 10, 500); /* p50, p90: 0.4 ms */
    hist_record_n(&r.latency, 5000, 5); /* p99: 5 ms */
    r.offered = r.sent = r.ok = 100;
    assert_int_equal(sweep_add_rep(&s, i, &r), 0);
    static char buf[16384];
    table(&s, -1, buf, sizeof buf);
    assert_non_null(strstr(buf, "p50 ms"));
    assert_non_null(strstr(buf, "p90 ms"));
    assert_non_null(strstr(buf, "p99 ms"));
    assert_null(strstr(buf, " us"));
    sweep_free(&s);
}

/* A probe's p99 is ms with three digits, never "1.23e+03". */
static void probe_p99_plain(void **state)
{
    (void)state;
    static const double ms[] = {1234.4, 391.2, 11.94, 1.234, 0.3941};
    static const char *const want[] = {"1234", "391", "11.9", "1.23", "0.394"};
    for (size_t k = 0; k < sizeof ms / sizeof ms[0]; k++) {
        struct sweep s;
        size_t i = one_cell(&s);
        add_rep(&s, i, ms[k], 0, 10);
        struct sweep_probe probe = {.rate = 2, .pass = 1, .cell = i};
        struct sweep_probe_text t;
        sweep_probe_text(&s, &probe, &t);
        assert_string_equal(t.p99, want[k]);
        sweep_free(&s);
    }
}

static void select_cells(void **state)
{
    (void)state;
    struct sweep s;
    grid(&s);
    size_t cell = 99;
    char err[ERR_LEN];
    assert_int_equal(sweep_select(&s, "rate=8,proto=jsonrpc", &cell, err), 0);
    assert_int_equal(cell, 5);
    assert_int_equal(sweep_select(&s, "proto=xmlrpc,rate=2.0", &cell, err), 0);
    assert_int_equal(cell, 0);
    assert_int_equal(sweep_select(&s, "3", &cell, err), 0);
    assert_int_equal(cell, 2);
    assert_int_equal(sweep_select(&s, "rate=7", &cell, err), -1);
    assert_string_equal(err, "no cell has rate=7 (rate: 2, 4, 8)");
    assert_int_equal(sweep_select(&s, "rate=8", &cell, err), -1);
    assert_string_equal(err, "rate=8 matches 2 cells; name more of rate, connections, vms, "
                             "proto, verb");
    assert_int_equal(sweep_select(&s, "speed=8", &cell, err), -1);
    assert_non_null(strstr(err, "unknown key 'speed'"));
    assert_int_equal(sweep_select(&s, "7", &cell, err), -1);
    assert_string_equal(err, "no cell 7: the sweep has 6 cells (1..6)");
    assert_int_equal(sweep_select(&s, "0", &cell, err), -1);
    assert_int_equal(sweep_select(&s, "", &cell, err), -1);
    assert_int_equal(sweep_select(&s, "rate", &cell, err), -1);
    assert_null(strchr(err, '\n'));
    sweep_free(&s);
}

static void json_round_trip(void **state)
{
    (void)state;
    struct sweep s, back;
    grid(&s);
    s.repeats = 3;
    s.interrupted = 1;
    long c = sweep_add_capacity(&s, "jsonrpc", "getAllVmStats", "p99<5ms");
    assert_true(c >= 0);
    struct sweep_probe p1 = {.rate = 4, .pass = 1, .cell = 4};
    struct sweep_probe p2 = {.rate = 8, .pass = 0, .cell = 5};
    snprintf(p2.reason, sizeof p2.reason, "p99 8ms >= 5ms");
    assert_int_equal(sweep_add_probe(&s.caps[c], &p1), 0);
    assert_int_equal(sweep_add_probe(&s.caps[c], &p2), 0);
    s.caps[c].max_good_rate = 4;
    s.caps[c].first_bad_rate = 8;
    s.caps[c].outcome = CAPACITY_FOUND;
    char path[] = "/tmp/test_sweep_XXXXXX", err[ERR_LEN];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(sweep_save(&s, path, err), 0);
    assert_int_equal(sweep_load(&back, path, err), 0);
    assert_int_equal(back.ncells, 6);
    assert_int_equal(back.repeats, 3);
    assert_int_equal(back.interrupted, 1);
    assert_int_equal(back.cells[0].nreps, 3);
    for (size_t i = 0; i < 6; i++) {
        assert_true(back.cells[i].p.rate == s.cells[i].p.rate);
        assert_string_equal(back.cells[i].p.proto, s.cells[i].p.proto);
        for (size_t k = 0; k < s.cells[i].nreps; k++)
            for (double pc = 1; pc < 100; pc += 24.5)
                assert_int_equal(hist_percentile(&back.cells[i].reps[k].latency, pc),
                                 hist_percentile(&s.cells[i].reps[k].latency, pc));
    }
    assert_int_equal(back.ncaps, 1);
    assert_int_equal(back.caps[0].nprobes, 2);
    assert_int_equal(back.caps[0].probes[1].cell, 5);
    assert_int_equal(back.caps[0].probes[1].pass, 0);
    assert_string_equal(back.caps[0].probes[1].reason, "p99 8ms >= 5ms");
    assert_true(back.caps[0].max_good_rate == 4 && back.caps[0].first_bad_rate == 8);
    assert_int_equal(back.caps[0].outcome, CAPACITY_FOUND);
    sweep_free(&back);
    /* a run result is not a sweep: one line, nothing loaded */
    static struct run_result r;
    make(&r, 1, 1, 1, 0, 1, 1);
    assert_int_equal(result_save(&r, path, err), 0);
    result_free(&r);
    assert_int_equal(sweep_load(&back, path, err), -1);
    assert_non_null(strstr(err, "not a saved sweep"));
    assert_int_equal(back.ncells, 0);
    sweep_free(&back);
    unlink(path);
    sweep_free(&s);
}

/* A cell never run keeps its number, and a probe its cell. */
static void unrun_cell_round_trip(void **state)
{
    (void)state;
    struct sweep s, back;
    grid(&s);
    struct sweep_params p = params(16, "xmlrpc");
    long unrun = sweep_add_cell(&s, &p);
    p = params(32, "xmlrpc");
    long last = sweep_add_cell(&s, &p);
    add_rep(&s, (size_t)last, 1, 0, 1);
    long c = sweep_add_capacity(&s, "xmlrpc", "getAllVmStats", "p99<1ms");
    struct sweep_probe pr = {.rate = 16, .pass = 0, .cell = (size_t)unrun};
    assert_int_equal(sweep_add_probe(&s.caps[c], &pr), 0);
    s.caps[c].outcome = CAPACITY_INTERRUPTED;
    char path[] = "/tmp/test_sweep_XXXXXX", err[ERR_LEN];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    json_object *j = sweep_to_json(&s), *cells, *not_run;
    assert_true(json_object_object_get_ex(j, "cells", &cells));
    assert_true(json_object_object_get_ex(j, "not_run", &not_run));
    assert_int_equal(json_object_array_length(cells), 9); /* the runs only */
    assert_int_equal(json_object_array_length(not_run), 1);
    json_object_put(j);
    assert_int_equal(sweep_save(&s, path, err), 0);
    assert_int_equal(sweep_load(&back, path, err), 0);
    unlink(path);
    assert_int_equal(back.ncells, 8);
    assert_int_equal(back.cells[unrun].nreps, 0);
    assert_true(back.cells[unrun].p.rate == 16 && back.cells[last].p.rate == 32);
    assert_int_equal(back.cells[last].nreps, 1);
    assert_int_equal(back.caps[0].probes[0].cell, (size_t)unrun);
    assert_int_equal(back.caps[0].outcome, CAPACITY_INTERRUPTED);
    static char buf[16384];
    char line[1024];
    table(&back, -1, buf, sizeof buf);
    assert_non_null(strstr(row_of(buf, 7, line, sizeof line), "not run"));
    sweep_free(&back);
    sweep_free(&s);
}

/* Bad documents fail with a line naming the field; nothing leaks. */
static void bad_documents(void **state)
{
    (void)state;
    static const char *const docs[] = {
        "{\"kind\":\"sweep\"}",
        "{\"kind\":\"sweep\",\"cells\":[1]}",
        "{\"kind\":\"sweep\",\"cells\":[{\"params\":{\"rate\":-1}}]}",
        "{\"kind\":\"sweep\",\"cells\":[{\"params\":{\"rate\":1,\"connections\":1,\"vms\":0,"
        "\"proto\":\"xmlrpc\",\"verb\":\"ping\"},\"result\":7}]}",
        "{\"kind\":\"sweep\",\"cells\":[],\"capacity\":[{\"proto\":\"x\",\"verb\":\"v\","
        "\"condition\":\"c\",\"probes\":[{\"rate\":1,\"pass\":true,\"cell\":1}]}]}",
    };
    static const char *const want[] = {"cells: want an array", "cells[0].params: want",
                                       "cells[0].params.rate", "cells[0].result",
                                       "capacity[0].probes[0].cell"};
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        json_object *j = json_tokener_parse(docs[i]);
        assert_non_null(j);
        struct sweep s;
        char err[ERR_LEN];
        assert_int_equal(sweep_load_json(&s, j, err), -1);
        assert_non_null(strstr(err, want[i]));
        assert_null(strchr(err, '\n'));
        sweep_free(&s);
        json_object_put(j);
    }
}

/* Every parameter varying and a baseline: 23 columns (more than a
 * document once held), one document for the text and the page; the text's
 * lines never end in blanks (the empty flags of a clean cell). */
static void widest_table_one_document(void **state)
{
    (void)state;
    struct sweep s;
    size_t i = one_cell(&s);
    struct sweep_params p = params(4, "jsonrpc");
    p.connections = 2, p.vms = 5;
    snprintf(p.verb, sizeof p.verb, "list");
    long j = sweep_add_cell(&s, &p);
    assert_true(j >= 0);
    add_rep(&s, i, 1, 0, 10);
    add_rep(&s, (size_t)j, 2, 0, 10);
    struct doc_table t;
    struct doc_table_style st;
    char err[ERR_LEN];
    assert_int_equal(sweep_table_doc(&t, &st, &s, 0, err), 0);
    assert_int_equal(t.ncols, 1 + 5 + 2 * metric_sweep_n() + 1);
    assert_string_equal(t.heads[5], "verb");
    assert_string_equal(t.heads[t.ncols - 1], "flags");
    assert_int_equal(t.nrows, 2);
    doc_table_free(&t);
    static char buf[16384];
    table(&s, 0, buf, sizeof buf);
    assert_non_null(strstr(buf, "\n1* "));
    assert_null(strstr(buf, " \n"));
    assert_int_equal(sweep_table_doc(&t, &st, &s, 2, err), -1); /* out of range: nothing to free */
    sweep_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(medians_and_spread), cmocka_unit_test(baseline_is_100),
        cmocka_unit_test(latency_one_unit), cmocka_unit_test(probe_p99_plain),
        cmocka_unit_test(select_cells), cmocka_unit_test(json_round_trip),
        cmocka_unit_test(unrun_cell_round_trip),
        cmocka_unit_test(bad_documents), cmocka_unit_test(widest_table_one_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
