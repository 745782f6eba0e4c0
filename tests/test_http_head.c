/* test_http_head: net/http_head.c reads a request's or a response's head
 * on http-parser: whole at its blank line, 0 before it, refused past max;
 * strict mode refuses what the agent has always refused (a bare CR or LF,
 * a folded header, a NUL, a request line not of exactly three parts, a
 * version other than HTTP/1.0 or 1.1), and says when the method is one
 * http-parser does not know; every header reaches the callback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "net/http_head.h"

struct got {
    int n;
    char last[64];
};

static int on_field(void *ctx, const char *name, size_t nlen, const char *v, size_t vlen)
{
    struct got *g = ctx;
    g->n++;
    snprintf(g->last, sizeof g->last, "%.*s=%.*s", (int)nlen, name, (int)vlen, v);
    return 0;
}

static int parse(const char *s, int flags, struct http_head *h, struct got *g)
{
    memset(g, 0, sizeof *g);
    *h = (struct http_head){.on_field = on_field, .ctx = g};
    return http_head_parse(s, strlen(s), 256, flags, h);
}

static void test_request(void **state)
{
    (void)state;
    struct http_head h;
    struct got g;
    const char *s = "GET /v1/samples?a=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\nrest";
    assert_int_equal(parse(s, HTTP_HEAD_STRICT, &h, &g), (int)strlen(s) - 4);
    assert_string_equal(h.method, "GET");
    assert_int_equal(h.target_len, strlen("/v1/samples?a=1"));
    assert_memory_equal(h.target, "/v1/samples?a=1", h.target_len);
    assert_int_equal(g.n, 2);
    assert_string_equal(g.last, "Authorization=Bearer t");
    /* not yet whole: 0, however much of it came */
    assert_int_equal(http_head_parse(s, 20, 256, HTTP_HEAD_STRICT, &h), 0);
    /* no blank line within max: refused as too long */
    assert_int_equal(http_head_parse(s, strlen(s), 16, HTTP_HEAD_STRICT, &h), -1);
    assert_true(h.too_long);
}

static void test_strict_refusals(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "GET /x HTTP/1.1\nHost: x\r\n\r\n",         /* a bare LF */
        "GET /x HTTP/1.1\r\nA: b\rc\r\n\r\n",       /* a bare CR */
        "GET /x HTTP/1.1\r\nA: b\r\n c\r\n\r\n",    /* folded */
        "\r\nGET /x HTTP/1.1\r\n\r\n",              /* an empty first line */
        "GET  /x HTTP/1.1\r\n\r\n",                 /* two spaces */
        "GET /x HTTP/1.1 x\r\n\r\n",                /* four parts */
        "GET /x HTTP/2.0\r\n\r\n",                  /* not HTTP/1 */
        "GET /x HTTP/1.1\r\nA b: c\r\n\r\n",        /* a space in a name */
        "GET /x HTTP/1.1\r\n: c\r\n\r\n",           /* no name */
    };
    struct http_head h;
    struct got g;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(parse(bad[i], HTTP_HEAD_STRICT, &h, &g), -1);
        assert_non_null(h.why);
        assert_false(h.bad_method);
    }
    assert_int_equal(parse("FOO /x HTTP/1.1\r\n\r\n", HTTP_HEAD_STRICT, &h, &g), -1);
    assert_true(h.bad_method);
    /* a NUL: strlen would stop at it */
    static const char nul[] = "GET /x HTTP/1.1\r\nA: \0\r\n\r\n";
    h = (struct http_head){0};
    assert_int_equal(http_head_parse(nul, sizeof nul - 1, 256, HTTP_HEAD_STRICT, &h), -1);
}

static void test_lenient_and_response(void **state)
{
    (void)state;
    struct http_head h;
    struct got g;
    const char *s = "GET /metrics HTTP/1.1\nAccept: text/plain\n\n";
    assert_int_equal(parse(s, 0, &h, &g), (int)strlen(s));
    assert_string_equal(g.last, "Accept=text/plain");
    const char *r = "HTTP/1.1 404 Not Found\r\nContent-Length: 20\r\n\r\nno such server";
    assert_int_equal(parse(r, HTTP_HEAD_RESPONSE, &h, &g), (int)(strstr(r, "no such") - r));
    assert_int_equal(h.status, 404);
    assert_int_equal(h.major, 1);
    assert_string_equal(g.last, "Content-Length=20");
    assert_int_equal(parse("HTTP/1.1 abc\r\n\r\n", HTTP_HEAD_RESPONSE, &h, &g), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_request),
        cmocka_unit_test(test_strict_refusals),
        cmocka_unit_test(test_lenient_and_response),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
