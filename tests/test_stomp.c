/* test_stomp: the STOMP 1.2 frame parser and renderer.
 *
 * Streams are fed as a client or server would see them: split at every
 * point, byte by byte, several frames per buffer. Each parse call gets a
 * fresh malloc of exactly the bytes pending, so ASan catches any read past
 * the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "net/stomp.h"

#define BIG (1 << 20)
#define SUMMARY 4096

/* One frame as text: "CMD[k=v;k=v]len:body" (NULs in the body as '0'). */
static void summarize(const struct stomp_frame *f, struct buf *out)
{
    buf_append(out, f->command, f->command_len);
    buf_append_str(out, "[");
    for (size_t i = 0; i < f->nheaders; i++) {
        const struct stomp_header *h = &f->headers[i];
        buf_appendf(out, "%s%.*s=%.*s", i ? ";" : "", (int)h->key_len, h->key,
                    (int)h->value_len, h->value);
    }
    buf_appendf(out, "]%zu:", f->body_len);
    for (size_t i = 0; i < f->body_len; i++)
        buf_append(out, f->body[i] ? &f->body[i] : "0", 1);
    buf_append_str(out, "\n");
}

/* Parses what is pending; @return -1 on a parse error, else the bytes
 * consumed in total. Frames are appended to sum, heart-beat-only results
 * counted in *beats. */
static ssize_t drain(const char *pending, size_t n, size_t max, struct buf *sum, int *beats,
                     char *err)
{
    size_t off = 0;
    for (int guard = 0; guard < 10000; guard++) {
        char *exact = malloc(n - off ? n - off : 1);
        assert_non_null(exact);
        memcpy(exact, pending + off, n - off);
        struct stomp_frame f;
        ssize_t r = stomp_parse(exact, n - off, max, &f, err);
        if (r > 0 && f.command_len)
            summarize(&f, sum);
        else if (r > 0)
            (*beats)++;
        free(exact);
        if (r < 0)
            return -1;
        if (r == 0)
            return (ssize_t)off;
        off += (size_t)r;
    }
    fail_msg("parser loops");
    return -1;
}

/* Feeds in[0..n): first `first` bytes, then `step` bytes at a time.
 * @return 0 if all parsed (sum filled), -1 on the first error. */
static int feed(const char *in, size_t n, size_t first, size_t step, size_t max, struct buf *sum,
                char *err)
{
    struct buf pend = {0};
    size_t pos = 0;
    int beats = 0, rc = 0;
    buf_reset(sum);
    while (pos < n) {
        size_t take = pos == 0 && first ? first : step;
        if (take > n - pos)
            take = n - pos;
        buf_append(&pend, in + pos, take);
        pos += take;
        ssize_t used = drain(pend.data, pend.len, max, sum, &beats, err);
        if (used < 0) {
            rc = -1;
            break;
        }
        buf_consume(&pend, (size_t)used);
    }
    if (rc == 0 && pend.len) /* a frame left unfinished */
        rc = -2;
    buf_free(&pend);
    return rc;
}

/* Every split point, then byte by byte: each gives the same frames. */
static void assert_stream(const char *in, size_t n, const char *want)
{
    struct buf sum = {0};
    char err[ERR_LEN] = "";
    for (size_t first = 0; first <= n; first++) {
        assert_int_equal(feed(in, n, first, n, BIG, &sum, err), 0);
        assert_string_equal(sum.data ? sum.data : "", want);
    }
    assert_int_equal(feed(in, n, 0, 1, BIG, &sum, err), 0);
    assert_string_equal(sum.data ? sum.data : "", want);
    buf_free(&sum);
}

/* Whatever the split, the stream is refused with a message containing why. */
static void assert_refused(const char *in, size_t n, size_t max, const char *why)
{
    struct buf sum = {0};
    for (size_t first = 0; first <= n; first++) {
        char err[ERR_LEN] = "";
        assert_int_equal(feed(in, n, first, first ? n : 1, max, &sum, err), -1);
        if (!strstr(err, why))
            fail_msg("split %zu: err '%s', want '%s'", first, err, why);
    }
    buf_free(&sum);
}

#define S(lit) lit, sizeof(lit) - 1

static void test_split_everywhere(void **state)
{
    (void)state;
    static const char in[] = "CONNECT\naccept-version:1.2\nheart-beat:0,1000\n\n\0"
                             "SEND\ndestination:/q\ncontent-length:5\n\nhe\0lo\0"
                             "\n\n"
                             "SUBSCRIBE\nid:1\ndestination:/r\n\n\0";
    assert_stream(S(in), "CONNECT[accept-version=1.2;heart-beat=0,1000]0:\n"
                         "SEND[destination=/q;content-length=5]5:he0lo\n"
                         "SUBSCRIBE[id=1;destination=/r]0:\n");
}

static void test_crlf_and_heartbeats(void **state)
{
    (void)state;
    static const char in[] = "\r\n\n\r\nSEND\r\ndestination:/q\r\n\r\nbody\0\r\n\n"
                             "DISCONNECT\r\nreceipt:77\r\n\r\n\0\n";
    assert_stream(S(in), "SEND[destination=/q]4:body\nDISCONNECT[receipt=77]0:\n");
}

static void test_heartbeat_only(void **state)
{
    (void)state;
    struct stomp_frame f;
    char err[ERR_LEN];
    assert_int_equal(stomp_parse(S("\n\r\n\n"), BIG, &f, err), 4);
    assert_int_equal(f.command_len, 0);
    assert_int_equal(stomp_parse(S("\n\r"), BIG, &f, err), 1); /* the \r waits for its \n */
    assert_int_equal(stomp_parse(S("\r"), BIG, &f, err), 0);
    assert_int_equal(stomp_parse("", 0, BIG, &f, err), 0);
    /* Heart-beats before a partial frame are taken; the frame waits. */
    assert_int_equal(stomp_parse(S("\n\nSEND\n"), BIG, &f, err), 2);
    assert_int_equal(f.command_len, 0);
}

static void test_several_in_one_buffer(void **state)
{
    (void)state;
    static const char in[] = "SEND\ndestination:a\n\nx\0SEND\ndestination:b\n\ny\0SEND\n";
    struct stomp_frame f;
    char err[ERR_LEN], v[16];
    ssize_t r1 = stomp_parse(S(in), BIG, &f, err);
    assert_int_equal(r1, 22);
    assert_int_equal(stomp_header(&f, "destination", v, sizeof v), 1);
    assert_string_equal(v, "a");
    ssize_t r2 = stomp_parse(in + r1, sizeof in - 1 - (size_t)r1, BIG, &f, err);
    assert_int_equal(r2, 22);
    assert_int_equal(stomp_header(&f, "destination", v, sizeof v), 1);
    assert_string_equal(v, "b");
    assert_int_equal(stomp_parse(in + r1 + r2, 5, BIG, &f, err), 0);
}

static void test_escapes(void **state)
{
    (void)state;
    static const char in[] = "MESSAGE\nk\\cey:a\\nb\\rc\\cd\\\\e\nk\\cey:second\n\n\0";
    struct stomp_frame f;
    char err[ERR_LEN], v[64];
    assert_int_equal(stomp_parse(S(in), BIG, &f, err), (ssize_t)sizeof in - 1);
    assert_int_equal(stomp_header(&f, "k\\cey", v, sizeof v), 9);
    assert_string_equal(v, "a\nb\rc:d\\e"); /* the first occurrence wins */
    assert_int_equal(stomp_header(&f, "k\\cey", v, 9), -1); /* too long for out */
    assert_int_equal(stomp_header(&f, "missing", v, sizeof v), -1);
    assert_refused(S("SEND\nk:a\\tb\n\n\0"), BIG, "undefined escape");
    assert_refused(S("SEND\nk:ab\\\n\n\0"), BIG, "undefined escape");
    assert_refused(S("SEND\nk\\x:v\n\n\0"), BIG, "undefined escape");
}

/* CONNECT and CONNECTED keep backslashes as they are (STOMP 1.0 compat). */
static void test_connect_not_unescaped(void **state)
{
    (void)state;
    static const char in[] = "CONNECT\nlogin:a\\tb\\n\nhost:x\\c\n\n\0";
    struct stomp_frame f;
    char err[ERR_LEN], v[64];
    assert_true(stomp_parse(S(in), BIG, &f, err) > 0);
    assert_true(stomp_is(&f, "CONNECT"));
    assert_false(stomp_is(&f, "CONNECTED"));
    assert_int_equal(stomp_header(&f, "login", v, sizeof v), 6);
    assert_string_equal(v, "a\\tb\\n");
    assert_int_equal(stomp_header(&f, "host", v, sizeof v), 3);
    assert_string_equal(v, "x\\c");
}

static void test_content_length(void **state)
{
    (void)state;
    struct stomp_frame f;
    char err[ERR_LEN];
    /* A body of NULs with content-length; without, the first NUL ends it. */
    static const char with[] = "SEND\ncontent-length:3\n\n\0\0\0\0";
    assert_int_equal(stomp_parse(S(with), BIG, &f, err), (ssize_t)sizeof with - 1);
    assert_int_equal(f.body_len, 3);
    assert_memory_equal(f.body, "\0\0\0", 3);
    static const char without[] = "SEND\n\nab\0cd\0";
    assert_int_equal(stomp_parse(S(without), BIG, &f, err), 9);
    assert_int_equal(f.body_len, 2);
    assert_int_equal(stomp_parse(S("SEND\ncontent-length:0\n\n\0"), BIG, &f, err), 24);
    assert_int_equal(f.body_len, 0);
    assert_refused(S("SEND\ncontent-length:2\n\nabc\0"), BIG, "no NUL after content-length");
    assert_refused(S("SEND\ncontent-length:x\n\nab\0"), BIG, "bad content-length");
    assert_refused(S("SEND\ncontent-length:-1\n\nab\0"), BIG, "bad content-length");
    assert_refused(S("SEND\ncontent-length:\n\nab\0"), BIG, "bad content-length");
    assert_refused(S("SEND\ncontent-length:99999999999999999999999\n\nab\0"), BIG,
                   "bad content-length");
}

static void test_limits(void **state)
{
    (void)state;
    struct stomp_frame f;
    char err[ERR_LEN];
    /* A content-length over the limit is refused before the body comes. */
    assert_int_equal(stomp_parse(S("SEND\ncontent-length:1000\n\n"), 100, &f, err), -1);
    assert_non_null(strstr(err, "too large"));
    /* Without content-length, when the bytes pass the limit with no NUL. */
    char body[300];
    memset(body, 'x', sizeof body);
    memcpy(body, "SEND\n\n", 6);
    assert_int_equal(stomp_parse(body, 100, 200, &f, err), 0);
    assert_int_equal(stomp_parse(body, sizeof body, 200, &f, err), -1);
    assert_non_null(strstr(err, "too large"));
    /* Headers that never end. */
    memcpy(body, "SEND\nk:", 7);
    assert_int_equal(stomp_parse(body, sizeof body, 200, &f, err), -1);
    /* Exactly at the limit is fine: 6 + 3 + NUL = 10 bytes. */
    assert_int_equal(stomp_parse(S("SEND\n\nabc\0"), 10, &f, err), 10);
    assert_int_equal(stomp_parse(S("SEND\n\nabcd\0"), 10, &f, err), -1);
    /* STOMP_MAX_HEADERS headers are fine, one more is not. */
    struct buf b = {0};
    buf_append_str(&b, "SEND\n");
    for (int i = 0; i < STOMP_MAX_HEADERS; i++)
        buf_appendf(&b, "h%d:v\n", i);
    struct buf over = {0};
    buf_append(&over, b.data, b.len);
    buf_append_str(&over, "one:more\n\n");
    buf_append(&over, "\0", 1);
    buf_append_str(&b, "\n");
    buf_append(&b, "\0", 1);
    assert_int_equal(stomp_parse(b.data, b.len, BIG, &f, err), (ssize_t)b.len);
    assert_int_equal(f.nheaders, STOMP_MAX_HEADERS);
    assert_int_equal(stomp_parse(over.data, over.len, BIG, &f, err), -1);
    assert_non_null(strstr(err, "too many headers"));
    buf_free(&b);
    buf_free(&over);
}

static void test_bad_input(void **state)
{
    (void)state;
    assert_refused(S("\0"), BIG, "no command");
    assert_refused(S(":x\n\n\0"), BIG, "no command");
    assert_refused(S("send\n\n\0"), BIG, "no command");
    assert_refused(S("GET / HTTP/1.1\r\n\r\n"), BIG, "bad command");
    assert_refused(S("SEND\nnocolon\n\n\0"), BIG, "header without colon");
    assert_refused(S("SEND\n:v\n\n\0"), BIG, "empty header name");
    assert_refused(S("\rSEND\n\n\0"), BIG, "CR without LF");
    char err[ERR_LEN];
    struct stomp_frame f;
    char cmd[40];
    memset(cmd, 'A', sizeof cmd);
    assert_int_equal(stomp_parse(cmd, sizeof cmd, BIG, &f, err), -1);
    assert_non_null(strstr(err, "command too long"));
}

static void parse_one(const struct buf *b, struct stomp_frame *f)
{
    char err[ERR_LEN] = "";
    ssize_t r = stomp_parse(b->data, b->len, BIG, f, err);
    if (r != (ssize_t)b->len)
        fail_msg("parse gave %zd of %zu: %s", r, b->len, err);
}

/* Clamped, however many digits; anything but "digits,digits" refused. */
static void test_heartbeat_header(void **state)
{
    (void)state;
    long cx = -1, cy = -1;
    assert_int_equal(stomp_heartbeat_parse("10000,250", &cx, &cy), 0);
    assert_int_equal(cx, 10000);
    assert_int_equal(cy, 250);
    assert_int_equal(stomp_heartbeat_parse("99999999999999,0", &cx, &cy), 0);
    assert_int_equal(cx, STOMP_HEARTBEAT_MAX_MS);
    assert_int_equal(cy, 0);
    assert_int_equal(stomp_heartbeat_parse("0,9300000000000000000000000000000", &cx, &cy), 0);
    assert_int_equal(cy, STOMP_HEARTBEAT_MAX_MS);
    const char *bad[] = {"", ",", "1", "1,", ",1", "-1,5", "5,-1", "x,1", "1,1x", " 1,1",
                         "1, 1", "1,1,1", "+1,1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(stomp_heartbeat_parse(bad[i], &cx, &cy), -1);
}

static void test_render_round_trip(void **state)
{
    (void)state;
    struct buf b = {0};
    static const char body[] = "{\"id\":1}\0tail";
    const char *kv[] = {"destination", "/a:b\\c\nd\re", "subscription", "s-1", NULL};
    assert_int_equal(stomp_render(&b, "MESSAGE", kv, body, sizeof body - 1), 0);
    struct stomp_frame f;
    parse_one(&b, &f);
    assert_true(stomp_is(&f, "MESSAGE"));
    char v[64];
    assert_int_equal(stomp_header(&f, "destination", v, sizeof v), 10);
    assert_string_equal(v, "/a:b\\c\nd\re");
    assert_int_equal(stomp_header(&f, "content-length", v, sizeof v), 2);
    assert_string_equal(v, "13");
    assert_int_equal(f.body_len, sizeof body - 1);
    assert_memory_equal(f.body, body, sizeof body - 1);
    /* No body: no content-length; CONNECTED values go out unescaped. */
    buf_reset(&b);
    const char *ckv[] = {"version", "1.2", "heart-beat", "0,0", NULL};
    assert_int_equal(stomp_render(&b, "CONNECTED", ckv, NULL, 0), 0);
    assert_int_equal(b.len, sizeof "CONNECTED\nversion:1.2\nheart-beat:0,0\n\n");
    assert_memory_equal(b.data, "CONNECTED\nversion:1.2\nheart-beat:0,0\n\n", b.len);
    parse_one(&b, &f);
    assert_int_equal(stomp_header(&f, "content-length", v, sizeof v), -1);
    /* Two frames rendered back to back parse back as two. */
    assert_int_equal(stomp_render(&b, "RECEIPT", (const char *[]){"receipt-id", "9", NULL}, NULL,
                                  0), 0);
    char err[ERR_LEN];
    ssize_t r = stomp_parse(b.data, b.len, BIG, &f, err);
    assert_true(r > 0 && (size_t)r < b.len);
    assert_int_equal(stomp_parse(b.data + r, b.len - (size_t)r, BIG, &f, err), b.len - (size_t)r);
    assert_true(stomp_is(&f, "RECEIPT"));
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_everywhere),
        cmocka_unit_test(test_crlf_and_heartbeats),
        cmocka_unit_test(test_heartbeat_only),
        cmocka_unit_test(test_several_in_one_buffer),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_connect_not_unescaped),
        cmocka_unit_test(test_content_length),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_heartbeat_header),
        cmocka_unit_test(test_render_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
