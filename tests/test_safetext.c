/* test_safetext: peer bytes made safe (base/safetext.h), and the excerpts
 * and fault texts built on it (client/errtext.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/safetext.h"
#include "base/safetext_testing.h"
#include "client/errtext.h"

/* safetext of a string literal (which may hold NULs: n given). */
static const char *safe(const char *in, size_t n, size_t room, unsigned flags)
{
    static char out[1024]; /* more than any room below */
    size_t len = safetext(in, n, out, room, flags);
    assert_int_equal(len, strlen(out));
    assert_true(len < room);
    assert_true(safetext_utf8_valid(out, len));
    return out;
}

#define SAFE(lit) safe(lit, sizeof(lit) - 1, 1024, 0)

static void test_invalid_bytes(void **state)
{
    (void)state;
    assert_string_equal(SAFE("a\xff\xfe" "b"), "a\\xff\\xfeb");
    assert_string_equal(SAFE("\x80"), "\\x80");        /* a lone continuation */
    assert_string_equal(SAFE("\xc3"), "\\xc3");        /* a lead at the end */
    assert_string_equal(SAFE("\xe2\x82" "x"), "\\xe2\\x82x"); /* cut short */
    assert_string_equal(SAFE("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");
    assert_string_equal(SAFE("caf\xc3\xa9"), "caf\xc3\xa9"); /* valid stays */
}

static void test_overlong_and_surrogates(void **state)
{
    (void)state;
    assert_string_equal(SAFE("\xc0\xaf"), "\\xc0\\xaf");          /* '/' in 2 bytes */
    assert_string_equal(SAFE("\xc1\xbf"), "\\xc1\\xbf");
    assert_string_equal(SAFE("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");  /* in 3 */
    assert_string_equal(SAFE("\xf0\x80\x80\xaf"), "\\xf0\\x80\\x80\\xaf"); /* in 4 */
    assert_string_equal(SAFE("\xed\xa0\x80"), "\\xed\\xa0\\x80");  /* U+D800 */
    assert_string_equal(SAFE("\xed\xbf\xbf"), "\\xed\\xbf\\xbf");  /* U+DFFF */
    assert_string_equal(SAFE("\xed\x9f\xbf"), "\xed\x9f\xbf");     /* U+D7FF is fine */
    assert_string_equal(SAFE("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); /* > U+10FFFF */
}

static void test_four_byte(void **state)
{
    (void)state;
    const char *emoji = "\xf0\x9f\x98\x80"; /* U+1F600 */
    assert_string_equal(SAFE("\xf0\x9f\x98\x80!"), "\xf0\x9f\x98\x80!");
    assert_string_equal(SAFE("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf"); /* U+10FFFF */
    /* 5 bytes of room: the character (4) fits, with no room for "..." */
    assert_string_equal(safe("\xf0\x9f\x98\x80", 4, 5, 0), emoji);
    /* 4 bytes: it does not; never a part of it */
    assert_string_equal(safe("\xf0\x9f\x98\x80" "ab", 6, 4, 0), "...");
    assert_string_equal(safe("a\xf0\x9f\x98\x80" "b", 6, 7, 0), "a\xf0\x9f\x98\x80" "b");
    assert_string_equal(safe("a\xf0\x9f\x98\x80" "b", 6, 6, 0), "a...");
}

static void test_controls(void **state)
{
    (void)state;
    assert_string_equal(SAFE("boom\n\x1b[2J\x07\r"), "boom\\x0a\\x1b[2J\\x07\\x0d");
    assert_string_equal(SAFE("a\tb\x7f\x0b\x0c"), "a\\x09b\\x7f\\x0b\\x0c");
    assert_string_equal(safe("a\0b", 3, 512, 0), "a\\x00b");
    /* C1 controls (CSI U+009B, NEL U+0085), line separators, bidi overrides,
     * XML's noncharacters: the bytes escaped */
    assert_string_equal(SAFE("\xc2\x9b" "2J"), "\\xc2\\x9b2J");
    assert_string_equal(SAFE("\xc2\x85"), "\\xc2\\x85");
    assert_string_equal(SAFE("\xc2\xa0"), "\xc2\xa0"); /* NBSP is text */
    assert_string_equal(SAFE("\xe2\x80\xa8"), "\\xe2\\x80\\xa8");
    assert_string_equal(SAFE("\xe2\x80\xae"), "\\xe2\\x80\\xae");
    assert_string_equal(SAFE("\xe2\x81\xa6"), "\\xe2\\x81\\xa6");
    assert_string_equal(SAFE("\xef\xbf\xbe\xef\xbf\xbf"), "\\xef\\xbf\\xbe\\xef\\xbf\\xbf");
    assert_string_equal(SAFE("\xef\xbf\xbd"), "\xef\xbf\xbd"); /* U+FFFD is text */
    /* kept lines: \n and \t as they are, the rest still escaped */
    assert_string_equal(safe("a\n\tb\r\x1b", 6, 512, SAFETEXT_KEEP_LINES), "a\n\tb\\x0d\\x1b");
}

static void test_squeeze(void **state)
{
    (void)state;
    const char body[] = "  \r\n <html>\n\t <b>500</b>\v\f</html>  \n";
    assert_string_equal(safe(body, sizeof body - 1, 512, SAFETEXT_SQUEEZE),
                        "<html> <b>500</b> </html>");
    assert_string_equal(safe(" \n ", 3, 512, SAFETEXT_SQUEEZE), "");
    /* a cut never leaves the space before the mark */
    assert_string_equal(safe("abc defg", 8, 8, SAFETEXT_SQUEEZE), "abc...");
}

/* "x" + "é" * 300 cut at every room: valid, never inside a character,
 * "..." when cut, and the longest prefix that leaves room for it. */
static void test_e_acute_every_limit(void **state)
{
    (void)state;
    char in[1 + 2 * 300];
    in[0] = 'x';
    for (int i = 0; i < 300; i++)
        memcpy(in + 1 + 2 * i, "\xc3\xa9", 2);
    for (size_t room = 1; room <= sizeof in + 2; room++) {
        const char *out = safe(in, sizeof in, room, 0);
        size_t n = strlen(out);
        if (room > sizeof in) {
            assert_int_equal(n, sizeof in);
            assert_memory_equal(out, in, n);
            continue;
        }
        if (room < 4) { /* no room for the mark: whole characters only */
            assert_int_equal(n, room - 1 >= 1 ? 1 : 0);
            continue;
        }
        assert_memory_equal(out + n - 3, "...", 3);
        size_t text = n - 3;
        assert_true(text == 0 || text % 2 == 1); /* "x", then whole characters */
        assert_memory_equal(out, in, text);
        assert_true(text + 3 + 1 >= room - 1); /* at most one byte short */
    }
}

static void test_existing_escapes_and_idempotence(void **state)
{
    (void)state;
    /* an escape the input holds is kept whole: never "\x" + "..." */
    assert_string_equal(safe("ab\\xff\\xfe", 10, 9, 0), "ab...");
    assert_string_equal(safe("ab\\xff\\xfe", 10, 10, 0), "ab\\xff...");
    const char raw[] = "fault \xff\xfe \x1b[2J \xc3\xa9 \xed\xa0\x80";
    char once[256], twice[256];
    size_t n = safetext(raw, sizeof raw - 1, once, sizeof once, 0);
    assert_true(safetext_is_safe(once, n, 0));
    assert_false(safetext_is_safe(raw, sizeof raw - 1, 0));
    assert_int_equal(safetext(once, n, twice, sizeof twice, 0), n);
    assert_string_equal(once, twice);
}

static void test_small_rooms(void **state)
{
    (void)state;
    char out[4] = "zzz";
    assert_int_equal(safetext("abc", 3, out, 0, 0), 0);
    assert_string_equal(out, "zzz"); /* nothing written */
    assert_int_equal(safetext("abc", 3, out, 1, 0), 0);
    assert_string_equal(out, "");
    assert_int_equal(safetext(NULL, 0, out, sizeof out, 0), 0);
    assert_string_equal(out, "");
    assert_string_equal(safe("\xff", 1, 4, 0), "..."); /* "\xff" needs 4 + NUL */
    assert_string_equal(safe("\xff", 1, 5, 0), "\\xff");
    assert_string_equal(safe("\xff" "a", 2, 5, 0), "...");
    assert_string_equal(safe("ab", 2, 2, 0), "a"); /* no room for the mark */
}

static void test_printf_and_view(void **state)
{
    (void)state;
    char out[32], tmp[64];
    safetext_printf(out, sizeof out, "HTTP %d %s: %s", 500, "x", "\xff\x1b");
    assert_string_equal(out, "HTTP 500 x: \\xff\\x1b");
    safetext_printf(out, 12, "%s", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
    assert_string_equal(out, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9...");
    char big[SAFETEXT_PRINTF_MAX + 100];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    char all[SAFETEXT_PRINTF_MAX + 200];
    size_t n = safetext_printf(all, sizeof all, "%s", big); /* cut before it came */
    assert_memory_equal(all + n - 3, "...", 3);
    assert_int_equal(safetext_char("\xc3\xa9", 2), 2);
    assert_int_equal(safetext_char("\xf0\x9f\x98\x80", 4), 4);
    assert_int_equal(safetext_char("\xf0\x9f\x98", 3), 0); /* cut short */
    assert_int_equal(safetext_char("\xc2\x85", 2), 0);     /* C1 */
    assert_int_equal(safetext_char("\n", 1), 0);
    assert_int_equal(safetext_char("\xff", 1), 0);
    assert_true(safetext_is_safe("a\nb\tc", 5, SAFETEXT_KEEP_LINES));
    assert_false(safetext_is_safe("a\nb", 3, 0));
    const char *ok = "fine\ttext\n";
    assert_ptr_equal(safetext_view(ok, tmp, sizeof tmp, SAFETEXT_KEEP_LINES), ok);
    assert_string_equal(safetext_view("a\x1b\xff", tmp, sizeof tmp, SAFETEXT_KEEP_LINES),
                        "a\\x1b\\xff");
}

static void test_errtext(void **state)
{
    (void)state;
    char out[160];
    const char fault[] = "<methodResponse><fault><value><struct><member><name>faultString"
                         "</name><value><string>bad \xff\xfe\x1b[2J\n\x07 end</string>";
    errtext_fault(fault, sizeof fault - 1, 7, out, sizeof out);
    assert_string_equal(out, "fault 7: bad \\xff\\xfe\\x1b[2J \\x07 end");
    /* a long multi-byte message: cut at a character, never inside */
    char json[700] = "{\"error\": {\"code\": -32000, \"message\": \"x";
    for (int i = 0; i < 300; i++)
        strcat(json, "\xc3\xa9");
    strcat(json, "\"}}");
    errtext_fault(json, strlen(json), -32000, out, sizeof out);
    assert_true(safetext_utf8_valid(out, strlen(out)));
    assert_memory_equal(out + strlen(out) - 3, "...", 3);
    char ex[32];
    errtext_excerpt("  \xff\xfe  body \x1b", 12, 13, ex, sizeof ex);
    assert_string_equal(ex, "\\xff\\xfe body...");
    const char html[] = "<html>\xe9t\xe9</html>";
    errtext_decode("jsonrpc", html, sizeof html - 1, out, sizeof out);
    assert_string_equal(out, "HTML where JSON-RPC was expected: <html>\\xe9t\\xe9</html>");
}

/* An XML-RPC faultString as Python's xmlrpc.server sends it: references
 * decoded, and what they stand for made safe like any other peer byte. */
static void test_errtext_xml_references(void **state)
{
    (void)state;
    char out[160];
    const char head[] = "<methodResponse><fault><value><struct><member><name>faultString"
                        "</name><value><string>";
    char fault[512];
    snprintf(fault, sizeof fault, "%s%s</string>", head,
             "&lt;class 'Exception'&gt;:method &quot;x&quot; &amp; &apos;y&apos;");
    errtext_fault(fault, strlen(fault), 1, out, sizeof out);
    assert_string_equal(out, "fault 1: <class 'Exception'>:method \"x\" & 'y'");
    /* numeric references: decimal, hex, multi-byte; ESC and a bidi
     * override decoded are escaped; NUL, surrogates, unknown names and
     * unterminated ones stay as written; "&amp;lt;" decodes once */
    snprintf(fault, sizeof fault, "%s%s</string>", head,
             "&#65;&#x42;&#xe9;&#x20AC;&#x1F600; &#27;[2J &#x202E; &#0; &#xD800; &nbsp; "
             "&#65 &amp;lt;");
    errtext_fault(fault, strlen(fault), 2, out, sizeof out);
    assert_string_equal(out, "fault 2: AB\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 "
                             "\\x1b[2J \\xe2\\x80\\xae &#0; &#xD800; &nbsp; &#65 &lt;");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invalid_bytes),
        cmocka_unit_test(test_overlong_and_surrogates),
        cmocka_unit_test(test_four_byte),
        cmocka_unit_test(test_controls),
        cmocka_unit_test(test_squeeze),
        cmocka_unit_test(test_e_acute_every_limit),
        cmocka_unit_test(test_existing_escapes_and_idempotence),
        cmocka_unit_test(test_small_rooms),
        cmocka_unit_test(test_printf_and_view),
        cmocka_unit_test(test_errtext),
        cmocka_unit_test(test_errtext_xml_references),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
