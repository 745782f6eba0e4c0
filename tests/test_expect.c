/* test_expect: --expect's grammar and its checks on a decoded result: a
 * member, an index, the root, len() of an array, a struct and a string,
 * each operator, strings, booleans and null; a node of another type only
 * passes !=; a missing member says so; == is =; bad checks, and checks
 * that could only ever fail ("len(.)=5O", ".===5"), are refused with
 * where they broke. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"
#include "workload/expect.h"

static const char *doc = "{\"status\": {\"code\": 0, \"message\": \"Done\"},"
                         " \"vmList\": [{\"vmId\": \"a\"}, {\"vmId\": \"b\", \"up\": true}],"
                         " \"n\": 2.5, \"none\": null}";

/* 1 when check s holds on doc; got into got. */
static int holds(const char *s, char *got)
{
    struct expect e;
    char err[ERR_LEN];
    assert_int_equal(expect_parse(s, &e, err), 0);
    json_object *v = json_tokener_parse(doc);
    assert_non_null(v);
    int ok = expect_eval(&e, v, got, 96);
    json_object_put(v);
    return ok;
}

static void paths_and_operators(void **state)
{
    (void)state;
    char got[96];
    const char *pass[] = {"status.code=0", "status.code <= 0", "len(vmList)=2",
                          "len(status)>=2", "len(status.message)=4", "vmList[1].vmId=b",
                          "vmList[1].up=true", "status.message=\"Done\"", "n>2", "n<3",
                          "none=null", "vmList[0].vmId exists", "len(.)=4", ".n!=3",
                          "status.message!=7", "status.message>Dona",
                          "status.code==0", "len(vmList)==2", "vmList[0].vmId==\"a\"",
                          ".status.code==0"};
    for (size_t i = 0; i < sizeof pass / sizeof pass[0]; i++)
        if (!holds(pass[i], got))
            fail_msg("%s should hold (got %s)", pass[i], got);
    const char *broke[][2] = {{"len(vmList)=3", "2"},       {"status.code!=0", "0"},
                              {"vmList[2].vmId exists", "no item [2].vmId"},
                              {"missing=1", "no member missing"},
                              {"status.message=1", "\"Done\""}, {"vmList[1].up=false", "true"},
                              {"len(n)=1", "no length (double)"}};
    for (size_t i = 0; i < sizeof broke / sizeof broke[0]; i++) {
        if (holds(broke[i][0], got))
            fail_msg("%s should break", broke[i][0]);
        assert_string_equal(got, broke[i][1]);
    }
}

static void bad_checks_refused(void **state)
{
    (void)state;
    struct expect e;
    char err[ERR_LEN];
    /* each with what the error must name: where it broke */
    const char *bad[][2] = {{"", "no operator"}, {"n", "no operator"},
                            {"=1", "no path"}, {"n=", "no value after '='"},
                            {"len(n) exists", "not exists"}, {"a b=1", "breaks at ' b'"},
                            {"n=two words", "value 'two words'"},
                            {"n=\"unclosed", "value '\"unclosed'"},
                            {"len(.)=5O", "len(...) compares with a number, not '5O'"},
                            {".===5", "value '=5' after '=='"}, {"n=<3", "value '<3'"},
                            {"a..b=1", "breaks at '..b'"}, {"a[x]=1", "breaks at '[x]'"},
                            {"a.=1", "breaks at '.'"}, {"f(a)=1", "breaks at '(a)'"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (expect_parse(bad[i][0], &e, err) == 0)
            fail_msg("'%s' was taken", bad[i][0]);
        if (!strstr(err, bad[i][1]) || !strstr(err, "want PATH OP VALUE") || strchr(err, '\n'))
            fail_msg("'%s': error '%s' does not say '%s'", bad[i][0], err, bad[i][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paths_and_operators),
        cmocka_unit_test(bad_checks_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
