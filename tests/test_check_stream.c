/* check_stream tests: a response fed in pieces gets the verdict the cheap
 * check gives the whole body, while only the head and the last bytes are
 * kept when the head decides (a real 150-VM answer from the simulator, the
 * VDSM sample, faults, cuts, long trailing blanks, status last, JSON-RPC). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/check_stream.h"
#include "server/vdsm_api.h"
#include "server/vmsim.h"

/* Feeds body in pieces of `piece` bytes; returns the verdict. */
static int feed(struct check_stream *s, struct buf *keep, const struct encoder *enc,
                const char *body, size_t len, size_t piece, size_t head, struct enc_result *r)
{
    check_stream_start(s, enc, keep, head);
    for (size_t off = 0; off < len; off += piece) {
        size_t n = len - off < piece ? len - off : piece;
        assert_int_equal(check_stream_feed(s, body + off, n), 0);
    }
    assert_int_equal(s->total, len);
    return check_stream_finish(s, r);
}

/* Fails the test unless the stream agrees with check_response on the whole
 * body (status and fault code) for several piece and head sizes; then
 * returns whether the head decided, with the default head size and 64 KiB
 * pieces (as reads deliver them). Callers that only want the agreement
 * ignore the return value. */
static int head_decided(const struct encoder *enc, const char *body, size_t len)
{
    static const size_t pieces[] = {1, 7, 300, 4096, 4097, 65536};
    static const size_t heads[] = {1, 64, 300, CHECK_STREAM_HEAD};
    struct enc_result whole, got;
    int want = enc->check_response(body, len, &whole);
    struct check_stream s;
    struct buf keep = {0};
    for (size_t p = 0; p < sizeof pieces / sizeof *pieces; p++) {
        if (pieces[p] == 1 && len > 100000)
            continue; /* a byte at a time through megabytes: slow, adds nothing */
        for (size_t h = 0; h < sizeof heads / sizeof *heads; h++) {
            int st = feed(&s, &keep, enc, body, len, pieces[p], heads[h], &got);
            if (st != want || got.fault_code != whole.fault_code)
                fail_msg("%s piece %zu head %zu: %d/%lld, whole %d/%lld", enc->name, pieces[p],
                         heads[h], st, (long long)got.fault_code, want,
                         (long long)whole.fault_code);
        }
    }
    feed(&s, &keep, enc, body, len, 65536, CHECK_STREAM_HEAD, &got);
    buf_free(&keep);
    return s.decided;
}

/* The simulator's answer to getAllVmStats with nvms VMs. */
static void sim_answer(const struct encoder *enc, int nvms, struct buf *out)
{
    char err[ERR_LEN];
    struct vmsim *sim = vmsim_new(nvms, 1, err);
    assert_non_null(sim);
    struct vdsm_api api = {.sim = sim};
    const char *method;
    json_object *params = NULL;
    struct enc_request req = {0};
    assert_int_equal(enc->verb_call("getAllVmStats", NULL, &method, &params, err), ENC_OK);
    assert_int_equal(enc->render_request(method, params, &req, err), ENC_OK);
    assert_int_equal(vdsm_api_handle(&api, enc, req.body.data, req.body.len, out), VDSM_REPLY);
    json_object_put(params);
    enc_request_free(&req);
    vmsim_free(sim);
}

static void test_real_answer_keeps_little(void **state)
{
    (void)state;
    struct buf body = {0}, keep = {0};
    sim_answer(&enc_xmlrpc, 150, &body);
    assert_true(body.len > 2000000);
    assert_true(head_decided(&enc_xmlrpc, body.data, body.len));
    /* As the client reads it: 256 KiB at a time. What is kept is the first
     * read, not the 2 MB. */
    struct check_stream s;
    struct enc_result r;
    assert_int_equal(feed(&s, &keep, &enc_xmlrpc, body.data, body.len, 256 * 1024,
                          CHECK_STREAM_HEAD, &r), ENC_OK);
    assert_true(s.decided);
    assert_true(keep.len <= 256 * 1024);
    /* Cut anywhere past the head: the tail check catches it. */
    size_t end = body.len;
    while (strchr(" \r\n\t", body.data[end - 1]))
        end--;
    for (size_t cut = 1; cut < 40; cut += 3) {
        assert_int_equal(feed(&s, &keep, &enc_xmlrpc, body.data, end - cut, 65536,
                              CHECK_STREAM_HEAD, &r), ENC_DECODE);
        assert_true(s.decided);
    }
    buf_free(&body);
    buf_free(&keep);
}

static char *sample(size_t *len)
{
    char path[512];
    const char *slash = strrchr(__FILE__, '/');
    snprintf(path, sizeof path, "%.*s/data/getAllVmStats-response-sample.xml",
             slash ? (int)(slash - __FILE__) : 1, slash ? __FILE__ : ".");
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static char tmp[1 << 16];
    *len = fread(tmp, 1, sizeof tmp, f);
    fclose(f);
    char *p = malloc(*len + 300);
    assert_non_null(p);
    memcpy(p, tmp, *len);
    return p;
}

static void test_vdsm_sample_and_fault(void **state)
{
    (void)state;
    size_t len;
    char *xml = sample(&len);
    assert_true(head_decided(&enc_xmlrpc, xml, len));
    char *code = strstr(xml, "<int>0</int>");
    assert_non_null(code);
    memcpy(code, "<i4>99</i4>", 11);
    code[11] = ' ';
    (void)head_decided(&enc_xmlrpc, xml, len); /* agreement only */
    struct check_stream s;
    struct buf keep = {0};
    struct enc_result r;
    assert_int_equal(feed(&s, &keep, &enc_xmlrpc, xml, len, 100, 300, &r), ENC_FAULT);
    assert_int_equal(r.fault_code, 99);
    /* Every prefix fails, however it is cut into pieces. */
    for (size_t n = 0; n + 1 < len; n += 37)
        assert_int_equal(feed(&s, &keep, &enc_xmlrpc, xml, n, 50, 300, &r), ENC_DECODE);
    buf_free(&keep);
    free(xml);
}

/* Blanks after the closing tag, more than the tail window holds, in
 * pieces that split them: still the closing tag is found. */
static void test_long_trailing_blanks(void **state)
{
    (void)state;
    size_t len;
    char *xml = sample(&len);
    for (size_t i = 0; i < 290; i++)
        xml[len + i] = " \r\n\t"[i % 4];
    assert_true(head_decided(&enc_xmlrpc, xml, len + 290));
    /* Blanks inside the closing tag are not blanks to strip. */
    char *tag = strstr(xml, "</methodResponse>");
    assert_non_null(tag);
    tag[5] = ' ';
    (void)head_decided(&enc_xmlrpc, xml, len + 290); /* agreement only */
    free(xml);
}

/* Status after the list (as a Python 2 dict may order it): the head
 * cannot decide, the whole body is kept and checked. */
static void test_status_last(void **state)
{
    (void)state;
    struct buf b = {0};
    buf_append_str(&b, "<?xml version=\"1.0\"?>\n<methodResponse><params><param><value><struct>"
                       "<member><name>statsList</name><value><array><data>");
    for (int i = 0; i < 300; i++)
        buf_append_str(&b, "<value><struct><member><name>status</name><value><string>Up"
                           "</string></value></member></struct></value>\n");
    buf_append_str(&b, "</data></array></value></member><member><name>status</name><value>"
                       "<struct><member><name>code</name><value><i4>99</i4></value></member>"
                       "</struct></value></member></struct></value></param></params>"
                       "</methodResponse>\n");
    assert_false(head_decided(&enc_xmlrpc, b.data, b.len));
    buf_free(&b);
}

static void test_jsonrpc_keeps_whole(void **state)
{
    (void)state;
    struct buf body = {0};
    sim_answer(&enc_jsonrpc, 20, &body);
    assert_false(head_decided(&enc_jsonrpc, body.data, body.len));
    static const char err[] = "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32601,\"message\":\"x\"},"
                              "\"id\":\"00000000-0000-4000-8000-000000000007\"}";
    assert_false(head_decided(&enc_jsonrpc, err, sizeof err - 1));
    buf_free(&body);
}

static void test_empty_and_tiny(void **state)
{
    (void)state;
    /* Only the agreement is checked: whether a head this short decides
     * does not matter. */
    (void)head_decided(&enc_xmlrpc, "", 0);
    (void)head_decided(&enc_xmlrpc, " ", 1);
    (void)head_decided(&enc_xmlrpc, "</methodResponse>", 17);
    (void)head_decided(&enc_jsonrpc, "{}", 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_answer_keeps_little),
        cmocka_unit_test(test_vdsm_sample_and_fault),
        cmocka_unit_test(test_long_trailing_blanks),
        cmocka_unit_test(test_status_last),
        cmocka_unit_test(test_jsonrpc_keeps_whole),
        cmocka_unit_test(test_empty_and_tiny),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
