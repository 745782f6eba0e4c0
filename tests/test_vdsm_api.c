/* vdsm_api: JSON-RPC batches answered as VDSM's server does, VDSM's error
 * texts, and the request count that sizes a batch's --delay. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/safetext.h"
#include "base/safetext_testing.h"
#include "base/units.h"
#include "server/vdsm_api.h"

static struct vdsm_api api;

static int setup(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    api = (struct vdsm_api){.sim = vmsim_new(3, 1, err)};
    return api.sim ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    vmsim_free(api.sim);
    return 0;
}

/* Answers body over JSON-RPC into a NUL-terminated string (static). */
static const char *answer(const char *body, int want)
{
    static struct buf out;
    buf_reset(&out);
    assert_int_equal(buf_append_str(&out, "HDR"), 0); /* answers are appended */
    assert_int_equal(vdsm_api_handle(&api, &enc_jsonrpc, body, strlen(body), &out), want);
    assert_int_equal(buf_append(&out, "", 1), 0);
    assert_memory_equal(out.data, "HDR", 3);
    return out.data + 3;
}

#define PING(id) "{\"jsonrpc\":\"2.0\",\"method\":\"Host.ping\",\"params\":{},\"id\":" #id "}"
#define NOTE "{\"jsonrpc\":\"2.0\",\"method\":\"Host.ping\"}"
#define OK(id) "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"result\":true}"

static void test_batch_shapes(void **state)
{
    (void)state;
    assert_string_equal(answer("[" PING(1) "]", VDSM_REPLY), OK(1));
    assert_string_equal(answer(" [ " PING(1) " , " PING(2) " ] ", VDSM_REPLY),
                        "[" OK(1) "," OK(2) "]");
    assert_string_equal(answer("[" NOTE "," PING(3) "," NOTE "]", VDSM_REPLY), OK(3));
    assert_string_equal(answer("[" NOTE "," NOTE "]", VDSM_NO_REPLY), "");
    assert_string_equal(answer(PING(4), VDSM_REPLY), OK(4));
    assert_string_equal(answer("[]", VDSM_REPLY),
                        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":"
                        "\"Invalid request: {'request': [], 'reason': 'request batch is empty'}\"}}");
    assert_string_equal(answer("[1," PING(5) "]", VDSM_REPLY),
                        "[{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":"
                        "\"Invalid request\"}}," OK(5) "]");
    assert_non_null(strstr(answer("[" PING(1), VDSM_REPLY), "-32700"));
}

static void test_batch_cap(void **state)
{
    (void)state;
    struct buf b = {0};
    assert_int_equal(buf_append_str(&b, "["), 0);
    for (int i = 0; i <= VDSM_MAX_BATCH; i++)
        assert_int_equal(buf_appendf(&b, "%s" PING(1), i ? "," : ""), 0);
    assert_int_equal(buf_append(&b, "]", 2), 0);
    uint64_t before = api.batches_refused;
    const char *a = answer(b.data, VDSM_REPLY);
    assert_non_null(strstr(a, "\"id\":null,\"error\":{\"code\":-32600"));
    assert_int_equal(api.batches_refused, before + 1);
    assert_int_equal(vdsm_api_requests_in(&enc_jsonrpc, b.data, b.len - 1), VDSM_MAX_BATCH);
    buf_free(&b);
}

static void test_error_texts(void **state)
{
    (void)state;
    assert_string_equal(
        answer("{\"jsonrpc\":\"2.0\",\"method\":\"Host.nope\",\"id\":1}", VDSM_REPLY),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"The method does "
        "not exist or is not available: {'method': 'Host.nope'}\"}}");
    /* Quoted as Python's repr() quotes a str. */
    assert_string_equal(
        answer("{\"jsonrpc\":\"2.0\",\"method\":\"VM.getStats\",\"params\":{\"vmID\":\"it's\"},"
               "\"id\":2}", VDSM_REPLY),
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":1,\"message\":\"Virtual machine does "
        "not exist: {'vmId': \\\"it's\\\"}\"}}");
    /* The request's bytes are untrusted: invalid UTF-8 and controls are
     * escaped, a long value is cut between two characters. */
    char body[1024] = "{\"jsonrpc\":\"2.0\",\"method\":\"VM.getStats\",\"params\":{\"vmID\":"
                      "\"\xff\xfe\x1b\xc2\x85x";
    for (int i = 0; i < 300; i++)
        strcat(body, "\xc3\xa9");
    strcat(body, "\"},\"id\":3}");
    const char *got = answer(body, VDSM_REPLY);
    assert_true(safetext_utf8_valid(got, strlen(got)));
    assert_non_null(strstr(got, "{'vmId': '\\\\xff\\\\xfe\\\\x1b\\\\xc2\\\\x85x\xc3\xa9"));
    assert_non_null(strstr(got, "\xc3\xa9'}\"}}")); /* the quote right after a whole é */
    struct buf out = {0};
    static const char xml[] = "<?xml version=\"1.0\"?><methodCall><methodName>frob</methodName>"
                              "<params/></methodCall>";
    assert_int_equal(vdsm_api_handle(&api, &enc_xmlrpc, xml, sizeof xml - 1, &out), VDSM_REPLY);
    assert_int_equal(buf_append(&out, "", 1), 0);
    assert_non_null(strstr(out.data, "method \"frob\" is not supported"));
    assert_non_null(strstr(out.data, "faultCode"));
    assert_non_null(strstr(out.data, "<value><i4>1</i4></value>"));
    buf_free(&out);
}

static void test_requests_in(void **state)
{
    (void)state;
    static const struct { const char *body; size_t want; } cases[] = {
        {"{}", 1}, {"[]", 1}, {" [ ] ", 1}, {"[{}]", 1}, {"[{},{}]", 2},
        {"[1,[2,3],\"a,]b\",{\"x\":[4]}]", 4}, {"[1,", 1}, {"", 1}, {"garbage", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(vdsm_api_requests_in(&enc_jsonrpc, cases[i].body, strlen(cases[i].body)),
                         cases[i].want);
    assert_int_equal(vdsm_api_requests_in(&enc_xmlrpc, "[1,2]", 5), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_shapes),
        cmocka_unit_test(test_batch_cap),
        cmocka_unit_test(test_error_texts),
        cmocka_unit_test(test_requests_in),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
