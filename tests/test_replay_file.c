/* test_replay_file: a recording read for replay (workload/replay_file.h)
 * and its schedule (client/replay_sched.h): calls grouped by connection
 * and time, distinct calls rendered once and named by their method,
 * translated to the other encoding or refused by name, bad lines refused
 * with their line; the schedule's times from the recorded ones (sped up,
 * looped) and its count of calls in a span. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include "client/replay_sched.h"
#include "workload/replay_file.h"

#define HEAD "{\"rpcbench_recording\": 1, \"started_unix\": 1.0}\n"

/* text into a temporary file: its path in path (the caller unlinks it). */
static void write_tmp(char *path, const char *text)
{
    strcpy(path, "/tmp/test_replay_file.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static int load(struct replay_file *r, const char *text, const char *as, char *err)
{
    char path[64];
    write_tmp(path, text);
    int rc = replay_file_load(r, path, as, err);
    unlink(path);
    return rc;
}

static const char *calls =
    HEAD
    "{\"t\": 0.5, \"conn\": 7, \"encoding\": \"jsonrpc\", \"method\": \"Host.getVMList\", "
    "\"params\": {\"onlyUUID\": false}}\n"
    "not json: skipped\n"
    "{\"t\": 0.1, \"conn\": 3, \"encoding\": \"jsonrpc\", \"method\": \"VM.getStats\", "
    "\"params\": {\"vmID\": \"a\"}}\n"
    "{\"t\": 0.2, \"conn\": 7, \"encoding\": \"jsonrpc\", \"method\": \"Host.getVMList\", "
    "\"params\": {\"onlyUUID\": false}, \"unknown\": 1}\n"
    "{\"t\": 0.3, \"conn\": 3, \"encoding\": \"jsonrpc\", \"method\": \"VM.getStats\", "
    "\"params\": {\"vmID\": \"b\"}}\n"
    "{\"end\": true, \"t\": 1.0}\n";

static void grouped_and_named(void **state)
{
    (void)state;
    struct replay_file r;
    char err[ERR_LEN];
    assert_int_equal(load(&r, calls, NULL, err), 0);
    assert_string_equal(r.encoding, "jsonrpc");
    assert_int_equal(r.ncalls, 4);
    assert_int_equal(r.nconns, 2);
    assert_int_equal(r.wl.ncalls, 3); /* the two getVMList are one call */
    /* conn 3 first (sorted by the recorded number), each by time */
    assert_int_equal(r.calls[0].t_ns, 100000000);
    assert_int_equal(r.calls[1].t_ns, 300000000);
    assert_int_equal(r.calls[2].conn, 1);
    assert_int_equal(r.calls[2].t_ns, 200000000);
    assert_int_equal(r.first[1], 2);
    assert_string_equal(r.wl.call[r.calls[0].verb].name, "VM.getStats");
    assert_string_equal(r.wl.call[r.calls[1].verb].name, "VM.getStats#2");
    assert_int_equal(r.span_ns, 1000000000); /* the trailer's t */
    assert_int_equal(r.period_ns, 1000000000 + 1000000000 / 3);
    replay_file_free(&r);
}

static void translated_or_refused(void **state)
{
    (void)state;
    struct replay_file r;
    char err[ERR_LEN];
    assert_int_equal(load(&r, calls, "xmlrpc", err), 0);
    assert_int_equal(r.translated, 1);
    assert_string_equal(r.wl.call[r.calls[2].verb].method, "list");
    assert_string_equal(r.wl.call[r.calls[2].verb].name, "Host.getVMList");
    assert_string_equal(r.wl.call[r.calls[0].verb].method, "getVmStats");
    replay_file_free(&r);
    const char *other = HEAD "{\"t\": 0, \"conn\": 1, \"encoding\": \"jsonrpc\", "
                             "\"method\": \"Host.setupNetworks\", \"params\": {}}\n";
    assert_int_equal(load(&r, other, "xmlrpc", err), -1);
    assert_non_null(strstr(err, ":2: Host.setupNetworks: no known XML-RPC counterpart"));
    replay_file_free(&r);
}

static void bad_files(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"{\"t\": 0, \"conn\": 1, \"encoding\": \"jsonrpc\", \"method\": \"x\"}\n",
         ":1: not a recording"},
        {HEAD, ":1: no calls"},
        {HEAD "{\"t\": -1, \"conn\": 1, \"encoding\": \"jsonrpc\", \"method\": \"x\"}\n",
         ":2: \"t\""},
        {HEAD "{\"t\": 1, \"conn\": 0, \"encoding\": \"jsonrpc\", \"method\": \"x\"}\n",
         ":2: \"conn\""},
        {HEAD "{\"t\": 1, \"conn\": 1, \"encoding\": \"soap\", \"method\": \"x\"}\n",
         ":2: \"encoding\""},
        {"", ":0: empty"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct replay_file r;
        char err[ERR_LEN];
        if (load(&r, bad[i][0], NULL, err) == 0 || !strstr(err, bad[i][1]) || strchr(err, '\n'))
            fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i][1]);
        replay_file_free(&r);
    }
}

static void schedule_times(void **state)
{
    (void)state;
    const struct rec_call c[3] = {{.t_ns = 0, .verb = 0}, {.t_ns = 100, .verb = 1},
                                  {.t_ns = 400, .verb = 2}};
    struct replay_sched s;
    int verb = -1;
    replay_sched_init(&s, c, 3, 1000, 500, 2.0, 0);
    assert_int_equal(replay_sched_take(&s, &verb), 1000);
    assert_int_equal(replay_sched_take(&s, &verb), 1050);
    assert_int_equal(replay_sched_peek(&s, &verb), 1200);
    assert_int_equal(verb, 2);
    replay_sched_take(&s, &verb);
    assert_int_equal(replay_sched_peek(&s, NULL), INT64_MAX / 4); /* one round */
    replay_sched_init(&s, c, 3, 1000, 500, 1.0, 1);
    for (int i = 0; i < 3; i++)
        replay_sched_take(&s, &verb);
    assert_int_equal(replay_sched_take(&s, &verb), 1500); /* round 2: + the period */
    assert_int_equal(verb, 0);
    /* the count: [0, 100, 400] then [500, 600, 900] ... from 1000 */
    assert_int_equal(replay_sched_count(&s, 1000, 1101), 2);
    assert_int_equal(replay_sched_count(&s, 1100, 1500), 2);
    assert_int_equal(replay_sched_count(&s, 1000, 2000), 6);
    assert_int_equal(replay_sched_count(&s, 0, 1000), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grouped_and_named),
        cmocka_unit_test(translated_or_refused),
        cmocka_unit_test(bad_files),
        cmocka_unit_test(schedule_times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
