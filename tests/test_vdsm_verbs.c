/* test_vdsm_verbs: the one table of VDSM's verbs: each encoding's method
 * names, and a call translated both ways with its params (positional in
 * XML-RPC, named in JSON-RPC); a method with no counterpart is refused
 * by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"
#include "encoders/vdsm_verbs.h"

/* method(params as JSON text) translated; the result's method and params
 * as JSON text ("null" for none) into got. */
static void tr(const char *method, const char *params, int to_xml, char *got, size_t len)
{
    json_object *p = params ? json_tokener_parse(params) : NULL, *out = NULL;
    const char *m;
    char err[ERR_LEN];
    assert_int_equal(vdsm_translate(method, p, to_xml, &m, &out, err), 0);
    snprintf(got, len, "%s %s", m, json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN));
    json_object_put(p);
    json_object_put(out);
}

static void names_both_ways(void **state)
{
    (void)state;
    assert_string_equal(vdsm_verb_find("list")->json, "Host.getVMList");
    assert_string_equal(vdsm_verb_by_method("Host.getAllVmStats", 0)->xml, "getAllVmStats");
    assert_null(vdsm_verb_by_method("Host.getAllVmStats", 1));
    assert_null(vdsm_verb_find("nosuch"));
}

static void params_translate(void **state)
{
    (void)state;
    char got[256];
    tr("Host.getVMList", "{\"onlyUUID\":false}", 1, got, sizeof got);
    assert_string_equal(got, "list null");
    tr("list", "[true,[\"a\"]]", 0, got, sizeof got);
    assert_string_equal(got, "Host.getVMList {\"fullStatus\":true,\"vmList\":[\"a\"]}");
    tr("Host.getVMList", "{\"vmList\":[\"a\"]}", 1, got, sizeof got);
    assert_string_equal(got, "list [false,[\"a\"]]");
    tr("VM.getStats", "{\"vmID\":\"v1\"}", 1, got, sizeof got);
    assert_string_equal(got, "getVmStats [\"v1\"]");
    tr("getVmStats", "[\"v1\"]", 0, got, sizeof got);
    assert_string_equal(got, "VM.getStats {\"vmID\":\"v1\"}");
    tr("Host.getVMFullList", NULL, 1, got, sizeof got);
    assert_string_equal(got, "list [true,[]]");
    tr("getAllVmStats", NULL, 0, got, sizeof got);
    assert_string_equal(got, "Host.getAllVmStats null");
    tr("getAllVmStats", NULL, 1, got, sizeof got); /* its own already */
    assert_string_equal(got, "getAllVmStats null");
}

static void unknown_refused(void **state)
{
    (void)state;
    const char *m;
    json_object *out = NULL, *p = json_tokener_parse("[1,2,3]");
    char err[ERR_LEN];
    assert_int_equal(vdsm_translate("aria2.tellStatus", NULL, 1, &m, &out, err), -1);
    assert_non_null(strstr(err, "aria2.tellStatus"));
    assert_int_equal(vdsm_translate("getVmStats", p, 0, &m, &out, err), -1);
    assert_non_null(strstr(err, "getVmStats"));
    json_object_put(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_both_ways),
        cmocka_unit_test(params_translate),
        cmocka_unit_test(unknown_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
