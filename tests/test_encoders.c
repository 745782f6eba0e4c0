/* Encoder tests: every verb round-trips client -> server -> client in both
 * encodings; faults and VDSM status codes are seen by both the cheap check
 * and the full decode; no prefix of a response passes; large (> 512 KiB)
 * and real (VDSM's own fake) responses work. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/encoder.h"
#include "encoders/xmlconv.h"
#include "encoders/xmlscan.h"

#define VM_UUID "6f2b8a3c-1d4e-4b7a-9c61-2e8f0a5d7b13"

/* Input copied to a buffer of exactly n bytes, so ASan catches over-reads. */
static char *exact(const char *s, size_t n)
{
    char *p = malloc(n ? n : 1);
    assert_non_null(p);
    memcpy(p, s, n);
    return p;
}

static char *read_data(const char *name, size_t *len)
{
    char path[512];
    const char *slash = strrchr(__FILE__, '/');
    int dir = slash ? (int)(slash - __FILE__) : 1;
    snprintf(path, sizeof path, "%.*s/data/%s", dir, slash ? __FILE__ : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static char tmp[1 << 16];
    *len = fread(tmp, 1, sizeof tmp - 1, f);
    fclose(f);
    tmp[*len] = '\0'; /* callers may treat it as a string */
    return exact(tmp, *len + 1);
}

/* {vmId, status, ...}: nfields strings plus a nested disks map. */
static json_object *vm_like(int i, int nfields)
{
    json_object *vm = json_object_new_object(), *disks = json_object_new_object();
    char k[32], v[64];
    snprintf(v, sizeof v, "6f2b8a3c-1d4e-4b7a-9c61-%012d", i);
    json_object_object_add(vm, "vmId", json_object_new_string(v));
    json_object_object_add(vm, "status", json_object_new_string("Up"));
    for (int f = 0; f < nfields; f++) {
        snprintf(k, sizeof k, "field%02d", f);
        snprintf(v, sizeof v, "%d.%02d <&> a value padded to about fifty bytes", i * 7 + f, f);
        json_object_object_add(vm, k, json_object_new_string(v));
    }
    json_object *vda = json_object_new_object();
    json_object_object_add(vda, "readRate", json_object_new_string("40960.0"));
    json_object_object_add(vda, "truesize", json_object_new_string("12884901888"));
    json_object_object_add(disks, "vda", vda);
    json_object_object_add(vm, "disks", disks);
    json_object_object_add(vm, "cpuActual", json_object_new_boolean(1));
    json_object_object_add(vm, "vcpuPeriod", json_object_new_int64(100000));
    return vm;
}

static json_object *vm_list(int n, int nfields)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < n; i++)
        json_object_array_add(a, vm_like(i, nfields));
    return a;
}

static void test_find(void **state)
{
    (void)state;
    assert_ptr_equal(enc_find("xmlrpc"), &enc_xmlrpc);
    assert_ptr_equal(enc_find("jsonrpc"), &enc_jsonrpc);
    assert_null(enc_find("soap"));
    assert_null(enc_find(NULL));
    assert_string_equal(enc_xmlrpc.default_path, "/RPC2");
    assert_string_equal(enc_jsonrpc.content_type, "application/json");
}

static void test_ids(void **state)
{
    (void)state;
    char err[ERR_LEN];
    struct enc_request req = {0};
    uint64_t id;
    assert_int_equal(enc_jsonrpc.render_request("Host.ping", NULL, &req, err), ENC_OK);
    assert_int_equal(req.id_len, ENC_ID_DIGITS);
    const char *slot = req.body.data + req.id_off - (sizeof ENC_ID_PREFIX - 1);
    assert_memory_equal(slot, ENC_ID_PREFIX "000000000000\"}", 38);
    uint64_t ids[] = {0, 1, 0xabc, 0xfedcba987654ULL, 0xffffffffffffULL};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        enc_stamp_id(&req, ids[i]);
        assert_int_equal(enc_parse_id(slot, 36, &id), 0);
        assert_true(id == ids[i]);
    }
    enc_stamp_id(&req, 0xabcULL | (1ULL << 52)); /* beyond 48 bits: masked */
    assert_memory_equal(slot, ENC_ID_PREFIX "000000000abc\"}", 38);
    assert_int_equal(enc_parse_id("00000000-0000-4000-8000-0000000000AB", 36, &id), 0);
    assert_true(id == 0xab);
    assert_int_equal(enc_parse_id("00000000-0000-4000-8000-0000000000a", 35, &id), -1);
    assert_int_equal(enc_parse_id("00000000-0000-4000-8000-0000000000ag", 36, &id), -1);
    assert_int_equal(enc_parse_id("00000000x0000-4000-8000-0000000000ab", 36, &id), -1);
    assert_int_equal(enc_parse_id(NULL, 0, &id), -1);
    enc_request_free(&req);

    /* XML-RPC has no id: stamping changes nothing. */
    assert_int_equal(enc_xmlrpc.render_request("ping", NULL, &req, err), ENC_OK);
    assert_int_equal(req.id_len, 0);
    char *before = exact(req.body.data, req.body.len);
    enc_stamp_id(&req, 0x1234);
    assert_memory_equal(before, req.body.data, req.body.len);
    free(before);
    enc_request_free(&req);
}

static void test_unknown_verb(void **state)
{
    (void)state;
    const struct encoder *encs[] = {&enc_xmlrpc, &enc_jsonrpc};
    for (int e = 0; e < 2; e++) {
        char err[ERR_LEN] = "";
        const char *m;
        json_object *p = NULL;
        assert_int_equal(encs[e]->verb_call("reboot", NULL, &m, &p, err), ENC_INVALID);
        assert_non_null(strstr(err, "unknown verb 'reboot'"));
        assert_null(p);
        assert_int_equal(encs[e]->verb_call("getVmStats", NULL, &m, &p, err), ENC_INVALID);
    }
}

struct verb_case {
    const char *verb, *xml_method, *xml_params, *json_method, *json_params;
    const char *xml_key;
    int vms; /* -1: the result is not a list */
};

static const struct verb_case verbs[] = {
    {"ping", "ping", "[]", "Host.ping", "{}", NULL, -1},
    {"list", "list", "[]", "Host.getVMList", "{\"onlyUUID\":false}", "vmList", 3},
    /* vdsClient's list(True, []); the engine's getVMFullList, empty vmList left out */
    {"fullList", "list", "[true,[]]", "Host.getVMFullList", "{}", "vmList", 4},
    {"getAllVmStats", "getAllVmStats", "[]", "Host.getAllVmStats", "{}", "statsList", 5},
    {"getVmStats", "getVmStats", "[\"" VM_UUID "\"]", "VM.getStats", "{\"vmID\":\"" VM_UUID "\"}",
     "statsList", 1},
};

static const char *plain(json_object *v)
{
    return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

static void roundtrip(const struct encoder *enc, const struct verb_case *vc)
{
    char err[ERR_LEN];
    const char *method;
    json_object *params;
    struct enc_request req = {0};
    struct enc_call call;
    struct enc_result r;
    struct buf out = {0};
    int is_xml = enc == &enc_xmlrpc;

    assert_int_equal(enc->verb_call(vc->verb, VM_UUID, &method, &params, err), ENC_OK);
    assert_int_equal(enc->render_request(method, params, &req, err), ENC_OK);
    enc_stamp_id(&req, 0x5eed);
    assert_int_equal(enc->parse_call(req.body.data, req.body.len, &call, err), ENC_OK);
    assert_string_equal(call.method, is_xml ? vc->xml_method : vc->json_method);
    assert_string_equal(plain(call.params), is_xml ? vc->xml_params : vc->json_params);
    assert_int_equal(call.is_notification, 0);

    json_object *value = vc->vms < 0 ? json_object_new_boolean(1) : vm_list(vc->vms, 4);
    struct enc_answer ans = {value, vc->xml_key};
    assert_int_equal(enc->render_result(&call, &ans, &out), ENC_OK);
    char *body = exact(out.data, out.len);
    assert_int_equal(enc->check_response(body, out.len, &r), ENC_OK);
    assert_int_equal(r.has_id, !is_xml);
    if (!is_xml)
        assert_true(r.id == 0x5eed);
    assert_int_equal(enc->decode_response(body, out.len, &r), ENC_OK);
    assert_int_equal(r.items, vc->vms);
    assert_int_equal(r.has_id, !is_xml);
    free(body);
    json_object_put(value);
    json_object_put(params);
    enc_call_clear(&call);
    enc_request_free(&req);
    buf_free(&out);
}

static void test_roundtrip_verbs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        roundtrip(&enc_xmlrpc, &verbs[i]);
        roundtrip(&enc_jsonrpc, &verbs[i]);
    }
}

static void expect_fault(const struct encoder *enc, const char *body, size_t len, int64_t code)
{
    struct enc_result r;
    char *b = exact(body, len);
    assert_int_equal(enc->check_response(b, len, &r), ENC_FAULT);
    assert_int_equal(r.fault_code, code);
    assert_int_equal(enc->decode_response(b, len, &r), ENC_FAULT);
    assert_int_equal(r.fault_code, code);
    free(b);
}

static void test_rendered_errors(void **state)
{
    (void)state;
    const struct encoder *encs[] = {&enc_xmlrpc, &enc_jsonrpc};
    struct buf out = {0};
    for (int e = 0; e < 2; e++) {
        buf_reset(&out);
        assert_int_equal(encs[e]->render_error(NULL, ENC_ERROR_PROTOCOL, ENC_ERR_NO_METHOD,
                                               "no such method", &out), ENC_OK);
        expect_fault(encs[e], out.data, out.len, ENC_ERR_NO_METHOD);
        int64_t codes[] = {1, 99, 1100};
        for (int c = 0; c < 3; c++) {
            buf_reset(&out);
            assert_int_equal(encs[e]->render_error(NULL, ENC_ERROR_APP, codes[c], "vdsm says <no>",
                                                   &out), ENC_OK);
            expect_fault(encs[e], out.data, out.len, codes[c]);
        }
    }
    /* XML-RPC app errors are envelopes, not faults, as VDSM sends them. */
    assert_null(strstr(out.data, "<fault>"));
    buf_reset(&out);
    enc_xmlrpc.render_error(NULL, ENC_ERROR_APP, 99, "recovering", &out);
    assert_null(strstr(out.data, "<fault>"));
    assert_non_null(strstr(out.data, "recovering"));
    buf_free(&out);
}

/* check_error on s: ENC_FAULT with code, or ENC_DECODE (code then unread). */
static void expect_error_doc(const struct encoder *enc, const char *s, int want, int64_t code)
{
    struct enc_result r;
    char *b = exact(s, strlen(s));
    assert_int_equal(enc->check_error(b, strlen(s), &r), want);
    assert_int_equal(r.status, want);
    if (want == ENC_FAULT)
        assert_int_equal(r.fault_code, code);
    free(b);
}

/* The body of a non-2xx answer: only the protocol's own error document is
 * a fault (issue 36 §4); other JSON, an envelope, a page are not. */
static void test_error_documents(void **state)
{
    (void)state;
    struct buf out = {0};
    for (int e = 0; e < 2; e++) {
        const struct encoder *enc = e ? &enc_jsonrpc : &enc_xmlrpc;
        buf_reset(&out);
        enc->render_error(NULL, ENC_ERROR_PROTOCOL, ENC_ERR_NO_METHOD, "no such method", &out);
        expect_error_doc(enc, out.data, ENC_FAULT, ENC_ERR_NO_METHOD);
        buf_reset(&out); /* VDSM's status envelope is XML-RPC's answer, not a fault */
        enc->render_error(NULL, ENC_ERROR_APP, 99, "recovering", &out);
        expect_error_doc(enc, out.data, e ? ENC_FAULT : ENC_DECODE, 99);
        expect_error_doc(enc, "", ENC_DECODE, 0);
        expect_error_doc(enc, "<html><body>500 oops</body></html>", ENC_DECODE, 0);
    }
    buf_free(&out);
    const char *aria2 = "{\"id\":\"q\",\"jsonrpc\":\"2.0\",\"error\":{\"code\":1,"
                        "\"message\":\"Unauthorized\"}}";
    expect_error_doc(&enc_jsonrpc, aria2, ENC_FAULT, 1);
    expect_error_doc(&enc_jsonrpc, "{\"error\":\"boom\"}", ENC_DECODE, 0);
    expect_error_doc(&enc_jsonrpc, "{\"error\":{\"message\":\"no code\"}}", ENC_DECODE, 0);
    expect_error_doc(&enc_jsonrpc, "{\"error\":{\"code\":\"1\"}}", ENC_DECODE, 0);
    expect_error_doc(&enc_jsonrpc, "{\"error\":{\"code\":-32000}", ENC_DECODE, 0); /* cut */
    expect_error_doc(&enc_jsonrpc, "[{\"error\":{\"code\":1}}]", ENC_DECODE, 0);
    const char *fault = "<?xml version=\"1.0\"?><methodResponse><fault><value><struct>"
                        "<member><name>faultCode</name><value><int>7</int></value></member>"
                        "<member><name>faultString</name><value><string>x</string></value>"
                        "</member></struct></value></fault></methodResponse>\n";
    expect_error_doc(&enc_xmlrpc, fault, ENC_FAULT, 7);
    expect_error_doc(&enc_xmlrpc, "<methodResponse><fault><value><struct></struct></value>"
                     "</fault></methodResponse>", ENC_DECODE, 0); /* no faultCode */
    expect_error_doc(&enc_xmlrpc, "<methodResponse><fault><value><struct><member><name>"
                     "faultCode</name><value><int>7</int></value></member>", ENC_DECODE, 0);
}

static void test_jsonrpc_error_ids(void **state)
{
    (void)state;
    char err[ERR_LEN];
    struct enc_call call;
    struct enc_result r;
    struct buf out = {0};
    const char *req = "{\"jsonrpc\":\"2.0\",\"method\":\"Nope\",\"id\":42}";
    assert_int_equal(enc_jsonrpc.parse_call(req, strlen(req), &call, err), ENC_OK);
    assert_int_equal(enc_jsonrpc.render_error(&call, ENC_ERROR_PROTOCOL, -32601, "x", &out), ENC_OK);
    assert_string_equal(out.data, "{\"jsonrpc\":\"2.0\",\"id\":42,\"error\":{\"code\":-32601,\"message\":\"x\"}}");
    assert_int_equal(enc_jsonrpc.check_response(out.data, out.len, &r), ENC_FAULT);
    assert_true(r.has_id && r.id == 42);
    enc_call_clear(&call);
    buf_reset(&out);
    enc_jsonrpc.render_error(NULL, ENC_ERROR_PROTOCOL, ENC_ERR_PARSE, "bad", &out);
    assert_non_null(strstr(out.data, "\"id\":null"));
    assert_int_equal(enc_jsonrpc.check_response(out.data, out.len, &r), ENC_FAULT);
    assert_int_equal(r.has_id, 0);
    assert_int_equal(r.fault_code, ENC_ERR_PARSE);
    buf_free(&out);
}

/* Hand-written documents: spacing as VDSM's Python sends it, status after
 * the list, string statuses to skip, error members in odd order. */
static void test_handwritten(void **state)
{
    (void)state;
    const char *x1 = "<?xml version='1.0'?>\n<methodResponse>\n<params>\n<param>\n<value><struct>\n"
                     "<member>\n<name>vmList</name>\n<value><array><data>\n<value><struct>\n"
                     "<member>\n<name>status</name>\n<value><string>Up</string></value>\n</member>\n"
                     "</struct></value>\n</data></array></value>\n</member>\n<member>\n"
                     "<name>status</name>\n<value> <struct>\n<member>\n<name>message</name>\n"
                     "<value><string>no VM</string></value>\n</member>\n<member>\n<name>code</name>\n"
                     "<value>\n <int>1</int></value>\n</member>\n</struct></value>\n</member>\n"
                     "</struct></value>\n</param>\n</params>\n</methodResponse>\n";
    expect_fault(&enc_xmlrpc, x1, strlen(x1), 1);
    const char *x2 = "<methodResponse><fault><value><struct><member><name>faultString</name>"
                     "<value><string>boom</string></value></member><member><name>faultCode</name>"
                     "<value><int>-7</int></value></member></struct></value></fault></methodResponse>";
    expect_fault(&enc_xmlrpc, x2, strlen(x2), -7);
    const char *j1 = " {\"result\":null, \"error\" : {\"message\":\"q\\\"}\",\"code\":99},"
                     "\"jsonrpc\":\"2.0\",\"id\":\"00000000-0000-4000-8000-00000000000f\"} \n";
    expect_fault(&enc_jsonrpc, j1, strlen(j1), 99);
    struct enc_result r;
    const char *j2 = "{\"jsonrpc\":\"2.0\",\"error\":null,\"result\":{\"a\":[1,{\"b\":\"]\"}]},\"id\":7}";
    assert_int_equal(enc_jsonrpc.check_response(j2, strlen(j2), &r), ENC_OK);
    assert_true(r.has_id && r.id == 7);
    assert_int_equal(enc_jsonrpc.decode_response(j2, strlen(j2), &r), ENC_OK);
    assert_int_equal(r.items, -1);
    assert_true(r.has_id && r.id == 7);
}

static void all_prefixes_fail(const struct encoder *enc, const char *body, size_t len, size_t step)
{
    struct enc_result r;
    size_t full = len;
    while (full > 0 && strchr(" \t\r\n", body[full - 1]))
        full--;
    for (size_t n = 0; n < full; n += (n + 64 < full ? step : 1)) {
        char *b = exact(body, n);
        if (enc->check_response(b, n, &r) != ENC_DECODE)
            fail_msg("%s check passed a %zu/%zu byte prefix", enc->name, n, len);
        if (enc->decode_response(b, n, &r) != ENC_DECODE)
            fail_msg("%s decode passed a %zu/%zu byte prefix", enc->name, n, len);
        free(b);
    }
}

static void test_prefixes(void **state)
{
    (void)state;
    const struct encoder *encs[] = {&enc_xmlrpc, &enc_jsonrpc};
    struct buf out = {0};
    struct enc_call call = {0};
    call.id = json_object_new_string(ENC_ID_PREFIX "000000000001");
    size_t sample_len;
    char *sample = read_data("vmstats-sample.json", &sample_len);
    json_object *one = json_object_new_array();
    json_object_array_add(one, json_tokener_parse(sample));
    json_object *t = json_object_new_boolean(1), *three = vm_list(3, 3);
    for (int e = 0; e < 2; e++) {
        struct enc_answer answers[] = {{t, NULL}, {three, "vmList"}, {one, "statsList"}};
        for (int a = 0; a < 3; a++) {
            buf_reset(&out);
            assert_int_equal(encs[e]->render_result(&call, &answers[a], &out), ENC_OK);
            all_prefixes_fail(encs[e], out.data, out.len, a == 2 ? 17 : 1);
        }
        buf_reset(&out);
        encs[e]->render_error(&call, ENC_ERROR_APP, 99, "recovering", &out);
        all_prefixes_fail(encs[e], out.data, out.len, 1);
        buf_reset(&out);
        encs[e]->render_error(&call, ENC_ERROR_PROTOCOL, -32601, "no method", &out);
        all_prefixes_fail(encs[e], out.data, out.len, 1);
    }
    all_prefixes_fail(&enc_xmlrpc, "<methodResponse></methodResponse>", 33, 1);
    json_object_put(t);
    json_object_put(three);
    json_object_put(one);
    free(sample);
    enc_call_clear(&call);
    buf_free(&out);
}

static void test_malformed(void **state)
{
    (void)state;
    static const char *const xml[] = {
        "", "x", "<methodResponse>", "</methodResponse>",
        "<methodCall><methodName>x</methodName></methodCall>",
        "<?xml version=\"1.0\"?><methodResponse><nonsense/></methodResponse>",
        "<?xml version=\"1.0\"<methodResponse><params></methodResponse>",
        "<!-- x --><methodResponse><params><param><value><struct><member><name>status</name>"
        "<value><struct><member><name>code</name><value><int>1x</int></value></member></struct>"
        "</value></member></struct></value></param></params></methodResponse>",
    };
    static const char *const json[] = {
        "", "x", "{", "}", "[]", "null", "42", "\"result\"", "{\"result\":1}garbage",
        "{\"jsonrpc\":\"2.0\",\"result\":[1,2}}", "{\"jsonrpc\":\"2.0\",\"result\":[1,2]",
        "{\"jsonrpc\":\"2.0\",\"id\":1}", "{\"result\" 1}", "{\"result\":1,}", "{\"result\":1 \"x\":2}",
        "{\"result\":\"abc}",
    };
    struct enc_result r;
    for (size_t i = 0; i < sizeof xml / sizeof xml[0]; i++) {
        char *b = exact(xml[i], strlen(xml[i]));
        assert_int_equal(enc_xmlrpc.check_response(b, strlen(xml[i]), &r), ENC_DECODE);
        assert_int_equal(enc_xmlrpc.decode_response(b, strlen(xml[i]), &r), ENC_DECODE);
        free(b);
    }
    for (size_t i = 0; i < sizeof json / sizeof json[0]; i++) {
        char *b = exact(json[i], strlen(json[i]));
        if (enc_jsonrpc.check_response(b, strlen(json[i]), &r) != ENC_DECODE)
            fail_msg("check passed %s", json[i]);
        if (enc_jsonrpc.decode_response(b, strlen(json[i]), &r) != ENC_DECODE)
            fail_msg("decode passed %s", json[i]);
        free(b);
    }
    /* Embedded NULs are data errors, not string ends. */
    char nul[] = "{\"result\":1}\0 ";
    assert_int_equal(enc_jsonrpc.decode_response(nul, sizeof nul - 1, &r), ENC_DECODE);
}

struct call_case {
    const char *body;
    int rc;
};

static void test_parse_call_errors(void **state)
{
    (void)state;
    static const struct call_case cases[] = {
        {"{\"jsonrpc\":\"2.0\",\"method\":", ENC_DECODE},
        {"nonsense", ENC_DECODE},
        {"", ENC_DECODE},
        {"[{\"jsonrpc\":\"2.0\",\"method\":\"Host.ping\",\"id\":1}]", ENC_INVALID},
        {"42", ENC_INVALID},
        {"null", ENC_INVALID},
        {"{\"jsonrpc\":\"2.0\",\"id\":1}", ENC_INVALID},
        {"{\"jsonrpc\":\"2.0\",\"method\":7,\"id\":1}", ENC_INVALID},
        {"{\"jsonrpc\":\"1.0\",\"method\":\"Host.ping\",\"id\":1}", ENC_INVALID},
        {"{\"method\":\"Host.ping\",\"id\":1}", ENC_INVALID},
        {"{\"jsonrpc\":\"2.0\",\"method\":\"Host.ping\",\"params\":\"x\",\"id\":1}", ENC_INVALID},
        {"{\"jsonrpc\":\"2.0\",\"method\":\"Host.ping\",\"params\":[],\"id\":null}", ENC_OK},
    };
    char err[ERR_LEN];
    struct enc_call call;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = 0;
        int rc = enc_jsonrpc.parse_call(cases[i].body, strlen(cases[i].body), &call, err);
        if (rc != cases[i].rc)
            fail_msg("%s: got %d want %d", cases[i].body, rc, cases[i].rc);
        if (rc != ENC_OK)
            assert_true(err[0] != 0);
        enc_call_clear(&call);
    }
    const char *note = "{\"jsonrpc\":\"2.0\",\"method\":\"Host.ping\"}";
    assert_int_equal(enc_jsonrpc.parse_call(note, strlen(note), &call, err), ENC_OK);
    assert_int_equal(call.is_notification, 1);
    assert_null(call.params);
    enc_call_clear(&call);
    static const char *const bad_xml[] = {"", "<methodCall>", "<methodResponse><params/></methodResponse>",
                                          "<methodCall><methodName>a</methodName><params><param><value>"
                                          "<int>x</int></value></param></params></methodCall>"};
    for (size_t i = 0; i < sizeof bad_xml / sizeof bad_xml[0]; i++) {
        assert_int_equal(enc_xmlrpc.parse_call(bad_xml[i], strlen(bad_xml[i]), &call, err), ENC_DECODE);
        enc_call_clear(&call);
    }
}

/* 150 VMs of ~60 fields: well past xmlrpc-c's default 512 KiB limit. */
static void test_large(void **state)
{
    (void)state;
    char err[ERR_LEN];
    struct buf out = {0};
    struct enc_result r;
    struct enc_call call;
    struct enc_request req = {0};
    json_object *vms = vm_list(150, 60);
    struct enc_answer ans = {vms, "statsList"};
    const struct encoder *encs[] = {&enc_xmlrpc, &enc_jsonrpc};
    for (int e = 0; e < 2; e++) {
        buf_reset(&out);
        assert_int_equal(encs[e]->render_result(NULL, &ans, &out), ENC_OK);
        assert_true(out.len > 512 * 1024);
        assert_int_equal(encs[e]->check_response(out.data, out.len, &r), ENC_OK);
        assert_int_equal(encs[e]->decode_response(out.data, out.len, &r), ENC_OK);
        assert_int_equal(r.items, 150);
        /* A large request, too: the server side must take it. */
        assert_int_equal(encs[e]->render_request("bulk", vms, &req, err), ENC_OK);
        assert_int_equal(encs[e]->parse_call(req.body.data, req.body.len, &call, err), ENC_OK);
        json_object *got = call.params; /* an array: positional params in XML-RPC */
        if (!json_object_equal(got, vms))
            fail_msg("%s: %.300s\n%.300s", encs[e]->name, plain(got), plain(vms));
        enc_call_clear(&call);
    }
    /* Status after a 2 MB list: the cheap check must find it by scanning. */
    buf_reset(&out);
    buf_append_str(&out, "<?xml version=\"1.0\"?>\n<methodResponse><params><param><value><struct>"
                         "<member><name>statsList</name><value><array><data>");
    for (int i = 0; i < 7000; i++)
        buf_append_str(&out, "<value><struct><member><name>status</name><value><string>Up</string>"
                             "</value></member><member><name>vmId</name><value><string>6f2b8a3c-"
                             "1d4e-4b7a-9c61-2e8f0a5d7b13</string></value></member><member><name>x"
                             "</name><value><struct><member><name>code</name><value><int>5</int>"
                             "</value></member></struct></value></member></struct></value>\n");
    buf_append_str(&out, "</data></array></value></member><member><name>status</name><value><struct>"
                         "<member><name>code</name><value><i4>99</i4></value></member></struct>"
                         "</value></member></struct></value></param></params></methodResponse>");
    assert_true(out.len > 2000000);
    expect_fault(&enc_xmlrpc, out.data, out.len, 99);
    assert_int_equal(enc_xmlrpc.decode_response(out.data, out.len, &r), ENC_FAULT);
    assert_int_equal(r.items, 7000);
    json_object_put(vms);
    enc_request_free(&req);
    buf_free(&out);
}

static void test_vdsm_sample(void **state)
{
    (void)state;
    size_t len;
    char *xml = read_data("getAllVmStats-response-sample.xml", &len);
    struct enc_result r;
    assert_int_equal(enc_xmlrpc.check_response(xml, len, &r), ENC_OK);
    assert_int_equal(enc_xmlrpc.decode_response(xml, len, &r), ENC_OK);
    assert_int_equal(r.items, 1);
    all_prefixes_fail(&enc_xmlrpc, xml, len, 23);
    /* The same document with status.code 99 is an error. */
    char *code = strstr(xml, "<int>0</int>");
    assert_non_null(code);
    memcpy(code, "<i4>99</i4>", 11);
    code[11] = ' ';
    assert_int_equal(enc_xmlrpc.check_response(xml, len, &r), ENC_FAULT);
    assert_int_equal(r.fault_code, 99);
    assert_int_equal(enc_xmlrpc.decode_response(xml, len, &r), ENC_FAULT);
    assert_int_equal(r.fault_code, 99);
    free(xml);
}

/* Every json type through XML-RPC text and back; int64 beyond int32 in
 * both encodings; doubles with a tolerance (xmlrpc-c prints them its way). */
static void test_values(void **state)
{
    (void)state;
    const char *src = "{\"s\":\"a<b>&c \\u00e9\",\"i\":-5,\"big\":8589934592,\"neg\":-1099511627776,"
                      "\"max\":9223372036854775807,\"t\":true,\"f\":false,\"n\":null,"
                      "\"a\":[1,[2,[]],{}],\"o\":{\"z\":1,\"a\":2},\"e\":\"\"}";
    json_object *v = json_tokener_parse(src), *p = json_object_new_array();
    json_object_array_add(p, json_object_get(v));
    json_object_array_add(p, json_object_new_double(3.41));
    json_object_array_add(p, json_object_new_double_s(0.1, "0.1"));
    const struct encoder *encs[] = {&enc_xmlrpc, &enc_jsonrpc};
    for (int e = 0; e < 2; e++) {
        char err[ERR_LEN];
        struct enc_request req = {0};
        struct enc_call call;
        assert_int_equal(encs[e]->render_request("m", p, &req, err), ENC_OK);
        assert_int_equal(encs[e]->parse_call(req.body.data, req.body.len, &call, err), ENC_OK);
        assert_int_equal(json_object_array_length(call.params), 3);
        json_object *got = json_object_array_get_idx(call.params, 0), *x;
        assert_string_equal(plain(got), plain(v)); /* member order kept */
        assert_true(json_object_object_get_ex(got, "big", &x));
        assert_true(json_object_get_int64(x) == 8589934592LL);
        assert_true(json_object_object_get_ex(got, "max", &x));
        assert_true(json_object_get_int64(x) == INT64_MAX);
        assert_true(fabs(json_object_get_double(json_object_array_get_idx(call.params, 1)) - 3.41) < 1e-9);
        assert_true(fabs(json_object_get_double(json_object_array_get_idx(call.params, 2)) - 0.1) < 1e-9);
        if (e == 0) {
            assert_non_null(strstr(req.body.data, "<i8>8589934592</i8>"));
            assert_non_null(strstr(req.body.data, "<nil/>"));
        }
        enc_call_clear(&call);
        enc_request_free(&req);
    }
    /* And in a result, through xmlrpc-c's own response parser. */
    struct buf out = {0};
    struct enc_answer ans = {v, "x"};
    assert_int_equal(enc_xmlrpc.render_result(NULL, &ans, &out), ENC_OK);
    xmlrpc_env env;
    xmlrpc_env_init(&env);
    xmlrpc_value *res;
    int fc;
    const char *fs = NULL;
    json_object *back = NULL, *x;
    xmlrpc_parse_response2(&env, out.data, out.len, &res, &fc, &fs);
    assert_false(env.fault_occurred);
    assert_int_equal(xmlconv_to_json(&env, res, &back), 0);
    assert_true(json_object_object_get_ex(back, "x", &x));
    assert_string_equal(plain(x), plain(v));
    assert_true(json_object_object_get_ex(back, "status", &x));
    assert_string_equal(plain(x), "{\"code\":0,\"message\":\"Done\"}");
    xmlrpc_DECREF(res);
    xmlrpc_env_clean(&env);
    json_object_put(back);
    buf_free(&out);
    json_object_put(v);
    json_object_put(p);
}

/* Regression (found by fuzzing): xmlrpc-c 1.33 crashes on an <i8> that
 * holds no integer; the encoder must refuse such documents itself. */
static void test_xmlrpc_unsafe_documents(void **state)
{
    (void)state;
    static const char resp[] = "<?xml version=\"1.0\"?><methodResponse><params><param>"
                               "<value><i8>1x</i8></value></param></params></methodResponse>";
    static const char call[] = "<?xml version=\"1.0\"?><methodCall><methodName>ping"
                               "</methodName><params><param><value><i8>5 </i8></value>"
                               "</param></params></methodCall>";
    static const char good[] = "<?xml version=\"1.0\"?><methodResponse><params><param>"
                               "<value><i8>-42</i8></value></param></params></methodResponse>";
    static const char big[] = "<?xml version=\"1.0\"?><methodResponse><params><param>"
                              "<value><i8>99999999999999999999999</i8></value></param></params>"
                              "</methodResponse>";
    struct enc_result r;
    struct enc_call c;
    char err[ERR_LEN];
    assert_int_equal(enc_xmlrpc.decode_response(resp, sizeof resp - 1, &r), ENC_DECODE);
    assert_int_equal(enc_xmlrpc.parse_call(call, sizeof call - 1, &c, err), ENC_DECODE);
    enc_call_clear(&c);
    assert_int_equal(enc_xmlrpc.decode_response(good, sizeof good - 1, &r), ENC_OK);
    assert_int_equal(enc_xmlrpc.decode_response(big, sizeof big - 1, &r), ENC_DECODE);
    /* A DTD is refused before expat could expand its entities. */
    static const char dtd[] = "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY a \"aa\">]>"
                              "<methodCall><methodName>&a;</methodName></methodCall>";
    assert_int_equal(enc_xmlrpc.parse_call(dtd, sizeof dtd - 1, &c, err), ENC_DECODE);
    enc_call_clear(&c);
}

/* A document `levels` arrays deep around <int>1</int>, as a call; caller frees. */
static char *deep_call(int levels, size_t *len)
{
    static const char open[] = "<value><array><data>", close[] = "</data></array></value>";
    static const char head[] = "<?xml version=\"1.0\"?><methodCall><methodName>ping</methodName>"
                               "<params><param>";
    static const char tail[] = "</param></params></methodCall>";
    char *d = malloc(sizeof head + sizeof tail + 64 + (size_t)levels * (sizeof open + sizeof close));
    assert_non_null(d);
    size_t n = 0;
    n += (size_t)sprintf(d + n, "%s", head);
    for (int i = 0; i < levels; i++)
        n += (size_t)sprintf(d + n, "%s", open);
    n += (size_t)sprintf(d + n, "<value><!-- <a> --><int>1</int></value>");
    for (int i = 0; i < levels; i++)
        n += (size_t)sprintf(d + n, "%s", close);
    n += (size_t)sprintf(d + n, "%s", tail);
    *len = n;
    return d;
}

/* 100,000 levels overflowed xmlrpc-c's recursive tree free (SIGSEGV in the
 * client under --validate full, and in serve); depth is refused before
 * parsing, with the reason for the fault. 3 elements a level: 80 levels are
 * 244 deep (passed on; xmlrpc-c then applies its own limit of 64 values,
 * after building the tree), 90 are 274 (refused before). */
static void test_xmlrpc_depth_bound(void **state)
{
    (void)state;
    struct enc_call c;
    char err[ERR_LEN];
    size_t len;
    char *ok = deep_call(80, &len);
    assert_null(xmlscan_unsafe(ok, len));
    free(ok);
    ok = deep_call(20, &len);
    assert_int_equal(enc_xmlrpc.parse_call(ok, len, &c, err), ENC_OK);
    enc_call_clear(&c);
    free(ok);
    int levels[] = {90, 100000};
    for (size_t i = 0; i < 2; i++) {
        char *deep = deep_call(levels[i], &len);
        assert_non_null(strstr(xmlscan_unsafe(deep, len), "nested deeper"));
        assert_int_equal(enc_xmlrpc.parse_call(deep, len, &c, err), ENC_DECODE);
        assert_non_null(strstr(err, "nested deeper than 256"));
        enc_call_clear(&c);
        free(deep);
    }
    /* Self-closing tags, comments, CDATA and quoted '>' do not nest. */
    static const char flat[] = "<a x='>'><b/><!-- <c><c> --><![CDATA[<d><d>]]><?p <e> ?></a>";
    assert_null(xmlscan_unsafe(flat, sizeof flat - 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_unknown_verb),
        cmocka_unit_test(test_roundtrip_verbs),
        cmocka_unit_test(test_rendered_errors),
        cmocka_unit_test(test_error_documents),
        cmocka_unit_test(test_jsonrpc_error_ids),
        cmocka_unit_test(test_handwritten),
        cmocka_unit_test(test_prefixes),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_parse_call_errors),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_vdsm_sample),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_xmlrpc_unsafe_documents),
        cmocka_unit_test(test_xmlrpc_depth_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
