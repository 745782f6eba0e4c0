/* client/reqlog and model/reqlog_read: a row's format (empty fields for
 * what never happened, CSV quoting), a small ring that drops and counts
 * rather than blocks, and a log read back into a result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "client/reqlog.h"
#include "client/reqlog_testing.h"
#include "model/reqlog_read.h"

static void config(struct run_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->verbs[0].name, sizeof cfg->verbs[0].name, "list");
    snprintf(cfg->verbs[1].name, sizeof cfg->verbs[1].name, "odd,\"name\"");
    cfg->nverbs = 2;
}

static struct reqlog *open_tmp(char *path, size_t cap)
{
    char err[ERR_LEN];
    snprintf(path, 64, "/tmp/test_reqlog_%d.csv", (int)getpid());
    struct reqlog *l = reqlog_open(path, cap, err);
    assert_non_null(l);
    struct run_config cfg;
    config(&cfg);
    reqlog_begin(l, &cfg, "http://h:1/RPC2");
    return l;
}

static void test_format(void **state)
{
    (void)state;
    char path[64], row[512], err[ERR_LEN];
    struct reqlog *l = open_tmp(path, 4);
    struct reqlog_rec ok = {1000000, 1000500, 3000000, 200, 900, 0, 2, REQ_OK, -1};
    reqlog_format(l, &ok, row, sizeof row);
    assert_string_equal(row, "1000,1000,2000,1999,list,http://h:1/RPC2,ok,200,900,2,0");
    struct reqlog_rec never = {5000, -1, -1, 0, 0, 1, -1, REQLOG_UNFINISHED, -1};
    reqlog_format(l, &never, row, sizeof row);
    assert_string_equal(row, "5,,,,\"odd,\"\"name\"\"\",http://h:1/RPC2,unfinished,0,0,-1,0");
    struct reqlog_rec failed = {0, -1, 7000, 0, 0, 0, -1, ERR_CONNECT, -1};
    reqlog_format(l, &failed, row, sizeof row);
    assert_string_equal(row, "0,,7,,list,http://h:1/RPC2,connect,0,0,-1,0");
    /* a fleet: each row names its own host; an unknown index the run's */
    const char *hosts[] = {"http://a:1", "http://b,2:3"};
    assert_int_equal(reqlog_targets(l, hosts, 2), 0);
    ok.target = 1;
    reqlog_format(l, &ok, row, sizeof row);
    assert_string_equal(row, "1000,1000,2000,1999,list,\"http://b,2:3\",ok,200,900,2,0");
    ok.target = 2;
    reqlog_format(l, &ok, row, sizeof row);
    assert_string_equal(row, "1000,1000,2000,1999,list,http://h:1/RPC2,ok,200,900,2,0");
    assert_int_equal(reqlog_close(l, NULL, err), 0);
    unlink(path);
}

/* Every record put is written or counted as dropped; put_wait drops none. */
static void test_ring_drops_and_counts(void **state)
{
    (void)state;
    char path[64], err[ERR_LEN];
    struct reqlog *l = open_tmp(path, 4);
    int64_t put = 0, dropped = 0;
    for (int i = 0; i < 2000; i++) {
        struct reqlog_rec r = {i * 1000, i * 1000, i * 1000 + 500, 1, 1, 0, 0, REQ_OK, -1};
        put += reqlog_put(l, &r) == 0;
    }
    for (int i = 0; i < 100; i++) {
        struct reqlog_rec r = {i * 1000, -1, -1, 0, 0, 0, -1, REQLOG_UNFINISHED, -1};
        reqlog_put_wait(l, &r);
    }
    assert_int_equal(reqlog_close(l, &dropped, err), 0);
    assert_int_equal(put + dropped, 2000);
    static struct run_result res;
    assert_int_equal(reqlog_load(path, &res, err), 0);
    /* the 100 never written (no sent_us): unsent */
    assert_int_equal(res.offered, put + 100);
    assert_int_equal(res.sent, put);
    assert_int_equal(res.ok, put);
    assert_int_equal(res.unsent, 100);
    assert_int_equal(res.verbs[0].requests, put + 100);
    assert_int_equal(res.latency.total_count, put);
    result_free(&res);
    unlink(path);
}

static void test_not_a_log(void **state)
{
    (void)state;
    char path[64], err[ERR_LEN] = "";
    snprintf(path, sizeof path, "/tmp/test_reqlog_bad_%d.csv", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("a,b,c\n1,2,3\n", f);
    fclose(f);
    static struct run_result res;
    assert_int_equal(reqlog_load(path, &res, err), -1);
    assert_non_null(strstr(err, "not a --requests-log"));
    result_free(&res);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_ring_drops_and_counts),
        cmocka_unit_test(test_not_a_log),
    };
    return cmocka_run_group_tests_name("reqlog", tests, NULL, NULL);
}
