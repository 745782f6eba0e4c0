/* net/http_response, fed the way a socket may deliver: all at once, one
 * byte at a time (as picohttpparser's tests do), and cut in two at every
 * point. Every cut must give the same outcome, status, body, keep-alive
 * verdict and end of the response in the stream, which is what the
 * client's HTTP transport acts on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "net/http_response.h"

#define BIG 65536

struct got {
    enum http_resp_outcome outcome;
    unsigned status;
    int keep_alive;      /* only meaningful when complete */
    char body[256];
    size_t body_len;
    size_t body_seen;
    size_t end;          /* complete: where the response ended in the stream */
    int refuse_after;    /* the sink fails once it holds this many bytes (0: never) */
};

static int sink(void *ctx, const char *at, size_t len)
{
    struct got *g = ctx;
    if (g->refuse_after && g->body_len + len > (size_t)g->refuse_after)
        return -1;
    assert_true(len > 0);
    assert_true(g->body_len + len <= sizeof g->body);
    memcpy(g->body + g->body_len, at, len);
    g->body_len += len;
    return 0;
}

/* Feeds s in pieces cut at the offsets in cuts[] (ascending, ncuts of
 * them), stopping at the first outcome that is not PARTIAL; then the EOF
 * if eof and still partial. */
static void feed_cut(const char *s, size_t max, int eof, const size_t *cuts, size_t ncuts,
                     int refuse_after, struct got *g)
{
    struct http_response r;
    memset(g, 0, sizeof *g);
    g->refuse_after = refuse_after;
    http_response_start(&r, max, sink, g);
    size_t n = strlen(s), off = 0;
    enum http_resp_outcome o = HTTP_RESP_PARTIAL;
    for (size_t i = 0; i <= ncuts && o == HTTP_RESP_PARTIAL; i++) {
        size_t end = i < ncuts ? cuts[i] : n;
        size_t used = 0;
        if (end > off)
            o = http_response_feed(&r, s + off, end - off, &used);
        if (o == HTTP_RESP_PARTIAL)
            assert_int_equal(used, end - off); /* PARTIAL takes everything */
        g->end = off + used;
        off = end;
    }
    if (o == HTTP_RESP_PARTIAL && eof)
        o = http_response_eof(&r);
    if (o != HTTP_RESP_COMPLETE)
        g->end = 0;
    g->outcome = o;
    g->status = http_response_status(&r);
    g->keep_alive = o == HTTP_RESP_COMPLETE ? http_response_keep_alive(&r) : -1;
    g->body_seen = r.body_seen;
    /* the wire's size: every byte of the response, head included, however cut */
    if (o == HTTP_RESP_COMPLETE)
        assert_int_equal(r.wire_seen, g->end);
    if (o == HTTP_RESP_MALFORMED)
        assert_true(strlen(http_response_error(&r)) > 0);
}

static void assert_same(const struct got *a, const struct got *b)
{
    assert_int_equal(a->outcome, b->outcome);
    assert_int_equal(a->status, b->status);
    assert_int_equal(a->keep_alive, b->keep_alive);
    assert_int_equal(a->end, b->end);
    if (a->outcome == HTTP_RESP_TOO_LARGE || a->outcome == HTTP_RESP_SINK_ERROR ||
        a->outcome == HTTP_RESP_MALFORMED)
        return; /* what the sink got before the refusal depends on the cuts */
    assert_int_equal(a->body_len, b->body_len);
    assert_memory_equal(a->body, b->body, a->body_len);
}

/* The outcome of s in one piece, checked to be the same one byte at a
 * time and cut in two anywhere. */
static struct got frame_ex(const char *s, size_t max, int eof, int refuse_after)
{
    struct got whole, g;
    size_t n = strlen(s), cuts[4096] = {0};
    assert_true(n < sizeof cuts / sizeof *cuts);
    feed_cut(s, max, eof, NULL, 0, refuse_after, &whole);
    for (size_t i = 0; i < n; i++)
        cuts[i] = i + 1;
    feed_cut(s, max, eof, cuts, n, refuse_after, &g);
    assert_same(&whole, &g);
    for (size_t i = 1; i < n; i++) {
        feed_cut(s, max, eof, &i, 1, refuse_after, &g);
        assert_same(&whole, &g);
    }
    return whole;
}

static struct got frame(const char *s, int eof)
{
    return frame_ex(s, BIG, eof, 0);
}

static void assert_body(const struct got *g, const char *want)
{
    assert_int_equal(g->body_len, strlen(want));
    assert_memory_equal(g->body, want, g->body_len);
}

static void test_content_length(void **state)
{
    (void)state;
    struct got g = frame("HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 5\r\n"
                         "\r\nhello", 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.status, 200);
    assert_int_equal(g.keep_alive, 1);
    assert_body(&g, "hello");
    g = frame("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_body(&g, "");
}

static void test_partial_and_truncated(void **state)
{
    (void)state;
    const char *s = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello";
    struct got g = frame(s, 0);
    assert_int_equal(g.outcome, HTTP_RESP_PARTIAL);
    assert_body(&g, "hello");
    g = frame(s, 1); /* the peer closed half way */
    assert_int_equal(g.outcome, HTTP_RESP_TRUNCATED);
    g = frame("HTTP/1.1 200 OK\r\nContent-Le", 1);
    assert_int_equal(g.outcome, HTTP_RESP_TRUNCATED);
}

static void test_chunked(void **state)
{
    (void)state;
    struct got g = frame("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                         "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n", 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.keep_alive, 1);
    assert_body(&g, "hello world");
    g = frame("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 0);
    assert_int_equal(g.outcome, HTTP_RESP_MALFORMED);
}

static void test_body_until_close(void **state)
{
    (void)state;
    const char *s = "HTTP/1.0 200 OK\r\nContent-Type: text/xml\r\n\r\n<a/>";
    struct got g = frame(s, 0);
    assert_int_equal(g.outcome, HTTP_RESP_PARTIAL);
    g = frame(s, 1);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.keep_alive, 0);
    assert_body(&g, "<a/>");
    g = frame("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nbye", 1);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_body(&g, "bye");
}

static void test_keep_alive(void **state)
{
    (void)state;
    struct got g = frame("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.keep_alive, 0);
    g = frame("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", 0);
    assert_int_equal(g.keep_alive, 1);
    g = frame("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", 0);
    assert_int_equal(g.keep_alive, 0);
}

/* A status other than 2xx is a response like any other: the client, not
 * the framing, makes it an HTTP error. A 1xx interim answer alone is not a
 * response: the final one is still to come (and never came, at EOF). 101
 * is final. */
static void test_status_codes(void **state)
{
    (void)state;
    struct got g = frame("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops", 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.status, 500);
    assert_body(&g, "oops");
    g = frame("HTTP/1.1 204 No Content\r\n\r\n", 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.status, 204);
    g = frame("HTTP/1.1 100 Continue\r\n\r\n", 0);
    assert_int_equal(g.outcome, HTTP_RESP_PARTIAL);
    g = frame("HTTP/1.1 100 Continue\r\n\r\n", 1);
    assert_int_equal(g.outcome, HTTP_RESP_TRUNCATED);
    g = frame("HTTP/1.1 101 Switching Protocols\r\n\r\n", 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.status, 101);
    assert_int_equal(g.keep_alive, 0);
}

static void test_malformed(void **state)
{
    (void)state;
    const char *bad[] = {
        "HTTP/1.1 2x0 OK\r\n\r\n",
        "HTTP/x.1 200 OK\r\n\r\n",
        "SSH-2.0-OpenSSH_9.2\r\n",
        "<methodResponse/>\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct got g = frame(bad[i], 1);
        assert_int_equal(g.outcome, HTTP_RESP_MALFORMED);
    }
}

/* --max-response: an announced length over the cap is refused with the
 * head, before any body; a chunked body or one running to the close is
 * refused once it passes the cap; exactly the cap is fine. */
static void test_oversize(void **state)
{
    (void)state;
    struct got g = frame_ex("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world", 10, 0, 0);
    assert_int_equal(g.outcome, HTTP_RESP_TOO_LARGE);
    assert_int_equal(g.body_seen, 0);
    g = frame_ex("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhelloworld", 10, 0, 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    g = frame_ex("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n", 10, 0, 0);
    assert_int_equal(g.outcome, HTTP_RESP_TOO_LARGE);
    assert_true(g.body_seen <= 10);
    g = frame_ex("HTTP/1.0 200 OK\r\n\r\nhello world", 10, 1, 0);
    assert_int_equal(g.outcome, HTTP_RESP_TOO_LARGE);
    assert_true(g.body_len <= 10);
}

static void test_sink_refuses(void **state)
{
    (void)state;
    struct got g = frame_ex("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", BIG, 0, 3);
    assert_int_equal(g.outcome, HTTP_RESP_SINK_ERROR);
}

/* Bytes after a complete response (nothing the client asked for): the
 * response ends at its own last byte wherever the cut, and what follows is
 * left to the caller, garbage or a whole second answer alike. */
static void test_bytes_after_the_response(void **state)
{
    (void)state;
    const char *resp = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    const char *after[] = {"XYZ", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nbad",
                           "HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n"};
    for (size_t i = 0; i < sizeof after / sizeof *after; i++) {
        char s[256];
        snprintf(s, sizeof s, "%s%s", resp, after[i]);
        struct got g = frame(s, 1);
        assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
        assert_int_equal(g.status, 200);
        assert_int_equal(g.end, strlen(resp));
        assert_body(&g, "ok");
    }
    /* The same after a chunked body and a body of length 0. */
    const char *ends[] = {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "2\r\nok\r\n0\r\n\r\n",
                          "HTTP/1.1 204 No Content\r\n\r\n"};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        char s[256];
        snprintf(s, sizeof s, "%sHTTP/1.1 200 OK\r\n\r\nrest", ends[i]);
        struct got g = frame(s, 1);
        assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
        assert_int_equal(g.end, strlen(ends[i]));
    }
}

/* Two answers written together: the first is whole on its own, and a
 * framer restarted on what is left gets the second; the bodies are never
 * joined. */
static void test_two_responses(void **state)
{
    (void)state;
    const char *a = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none";
    const char *b = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\n";
    char s[256];
    snprintf(s, sizeof s, "%s%s", a, b);
    struct got g = frame(s, 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.end, strlen(a));
    assert_body(&g, "one");
    g = frame(s + g.end, 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.end, strlen(b));
    assert_body(&g, "two");
}

/* 1xx interim answers (100 Continue, 102 Processing, 103 Early Hints, with
 * headers or not, one or several) are skipped wherever the cut falls: the
 * status, body and end are the final answer's. */
static void test_interim_then_final(void **state)
{
    (void)state;
    const char *interims[] = {
        "HTTP/1.1 100 Continue\r\n\r\n",
        "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n",
        "HTTP/1.1 100 Continue\r\nContent-Length: 2\r\n\r\n", /* a 1xx has no body */
    };
    const char *finals[] = {
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
        "HTTP/1.0 200 OK\r\n\r\nok", /* ended by the close */
    };
    for (size_t i = 0; i < sizeof interims / sizeof *interims; i++)
        for (size_t j = 0; j < sizeof finals / sizeof *finals; j++) {
            char s[512];
            snprintf(s, sizeof s, "%s%s", interims[i], finals[j]);
            struct got g = frame(s, 1);
            assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
            assert_int_equal(g.status, 200);
            assert_int_equal(g.end, strlen(s));
            assert_body(&g, "ok");
        }
    struct got g = frame("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\n"
                         "Content-Length: 4\r\n\r\nnope", 0);
    assert_int_equal(g.outcome, HTTP_RESP_COMPLETE);
    assert_int_equal(g.status, 404);
    assert_body(&g, "nope");
}

/* A bad chunked body is an error wherever the cut: bad hex, data longer
 * than its size (no CRLF where the chunk ends), a size past 64 bits. */
static void test_bad_chunked(void **state)
{
    (void)state;
    const char *bodies[] = {"zz\r\nhello\r\n0\r\n\r\n", "5\r\nhelloXX\r\n0\r\n\r\n",
                            "5\r\nhello0\r\n\r\n", "fffffffffffffffffff\r\nhello\r\n0\r\n\r\n"};
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        char s[256];
        snprintf(s, sizeof s, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%s",
                 bodies[i]);
        struct got g = frame(s, 1);
        assert_int_equal(g.outcome, HTTP_RESP_MALFORMED);
    }
}

/* One struct serves response after response once restarted. */
static void test_restart(void **state)
{
    (void)state;
    struct http_response r;
    struct got g = {0};
    const char *a = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na";
    http_response_start(&r, BIG, sink, &g);
    assert_int_equal(http_response_feed(&r, "garbage", 7, NULL), HTTP_RESP_MALFORMED);
    http_response_start(&r, BIG, NULL, NULL); /* counted only */
    assert_int_equal(http_response_feed(&r, a, strlen(a), NULL), HTTP_RESP_COMPLETE);
    assert_int_equal(r.body_seen, 1);
    assert_int_equal(g.body_len, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_content_length),
        cmocka_unit_test(test_partial_and_truncated),
        cmocka_unit_test(test_chunked),
        cmocka_unit_test(test_body_until_close),
        cmocka_unit_test(test_keep_alive),
        cmocka_unit_test(test_status_codes),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_oversize),
        cmocka_unit_test(test_sink_refuses),
        cmocka_unit_test(test_bytes_after_the_response),
        cmocka_unit_test(test_two_responses),
        cmocka_unit_test(test_interim_then_final),
        cmocka_unit_test(test_bad_chunked),
        cmocka_unit_test(test_restart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
