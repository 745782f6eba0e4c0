#include "client/errtext.h"

#include <stdio.h>
#include <string.h>

#include "base/safetext.h"

void errtext_excerpt(const char *body, size_t len, size_t max, char *out, size_t outlen)
{
    /* max bytes of text, then "..." and the NUL */
    size_t room = outlen > 4 && max < outlen - 4 ? max + 4 : outlen;
    safetext(body, len, out, room, SAFETEXT_SQUEEZE);
}

static const char *find(const char *body, size_t len, const char *needle)
{
    return body && len ? memmem(body, len, needle, strlen(needle)) : NULL;
}

/* The UTF-8 bytes of code point cp into out (4 bytes of room); @return
 * their number, or 0 for a code point XML 1.0 cannot carry (NUL,
 * surrogates, beyond U+10FFFF): such a reference is kept as written. */
static size_t utf8_of(unsigned long cp, char *out)
{
    if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* @return the value of digit ch in base (10 or 16), or -1. */
static int digit_of(char ch, unsigned base)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (base == 16 && ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (base == 16 && ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* The reference at p[0..n) (p at '&'): its text into out (4 bytes of
 * room). @return the bytes it spans (through ';'), with *outn its text's
 * length, or 0 when it is no reference XML defines. */
static size_t xml_ref(const char *p, size_t n, char *out, size_t *outn)
{
    static const struct { const char *name; char c; } named[] = {
        {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        size_t k = strlen(named[i].name);
        if (n >= k && !memcmp(p, named[i].name, k)) {
            out[0] = named[i].c;
            *outn = 1;
            return k;
        }
    }
    if (n < 4 || p[1] != '#')
        return 0;
    unsigned base = p[2] == 'x' ? 16 : 10;
    size_t i = base == 16 ? 3 : 2, digits = 0;
    unsigned long cp = 0;
    int d;
    /* at most 8 digits: a reference is at most 12 bytes long */
    for (; i < n && digits < 8 && (d = digit_of(p[i], base)) >= 0; i++, digits++)
        cp = cp * base + (unsigned long)d;
    if (!digits || i >= n || p[i] != ';')
        return 0;
    *outn = utf8_of(cp, out);
    return *outn ? i + 1 : 0;
}

/* XML text in[0..len) with its entity and character references decoded
 * into out (outlen bytes; never more than len are needed: a reference is
 * longer than the UTF-8 it stands for). What is no reference is copied as
 * it is; the result is raw bytes, for safetext to make safe (a decoded
 * "&#27;" is an ESC like any other). @return the bytes written. */
static size_t xml_unescape(const char *in, size_t len, char *out, size_t outlen)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o < outlen;) {
        char ch[4];
        size_t chn = 0, k = in[i] == '&' ? xml_ref(in + i, len - i, ch, &chn) : 0;
        if (!k || o + chn > outlen) {
            out[o++] = in[i++];
            continue;
        }
        memcpy(out + o, ch, chn);
        o += chn;
        i += k;
    }
    return o;
}

/* The text of the first string after key: JSON '"message": "TEXT"' or
 * XML '<name>faultString</name><value><string>TEXT</string>' (its
 * references decoded: "&lt;class 'Exception'&gt;" reads <class ...>). */
static int message_after(const char *body, size_t len, const char *key, char *out,
                         size_t outlen)
{
    const char *k = find(body, len, key);
    if (!k)
        return 0;
    const char *end = body + len, *p = k + strlen(key);
    int json = key[0] == '"';
    if (json) {
        while (p < end && *p != '"')
            p++;
        p++;
    } else {
        const char *s = find(p, (size_t)(end - p), "<string>");
        const char *v = find(p, (size_t)(end - p), "<value>");
        if (s)
            p = s + 8;
        else if (v)
            p = v + 7; /* a bare <value>TEXT</value> is a string too */
        else
            return 0;
    }
    const char *q = p;
    while (q < end && *q != (json ? '"' : '<'))
        q += json && *q == '\\' && q + 1 < end ? 2 : 1;
    if (p >= end || q > end)
        return 0;
    if (json) {
        errtext_excerpt(p, (size_t)(q - p), 100, out, outlen);
        return 1;
    }
    /* 2 KiB of XML decode to at least 170 bytes (a reference is at most
     * 12 bytes long), more than the excerpt shows: a cut one still ends
     * in "..." */
    char text[2048];
    size_t n = (size_t)(q - p) < sizeof text ? (size_t)(q - p) : sizeof text;
    errtext_excerpt(text, xml_unescape(p, n, text, sizeof text), 100, out, outlen);
    return 1;
}

void errtext_fault(const char *body, size_t len, int64_t code, char *out, size_t outlen)
{
    char msg[128] = "";
    if (!message_after(body, len, "\"message\"", msg, sizeof msg) &&
        !message_after(body, len, "<name>faultString</name>", msg, sizeof msg) &&
        !message_after(body, len, "<name>message</name>", msg, sizeof msg))
        errtext_excerpt(body ? body : "", len, 100, msg, sizeof msg);
    safetext_printf(out, outlen, "fault %lld: %s", (long long)code,
                    msg[0] ? msg : "(no message)");
}

/* What the body looks like: "JSON", "XML", "HTML", "text". */
static const char *looks_like(const char *body, size_t len)
{
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", body[i]))
        i++;
    if (i < len && (body[i] == '{' || body[i] == '['))
        return "JSON";
    if (find(body + i, len - i < 64 ? len - i : 64, "<html") ||
        find(body + i, len - i < 64 ? len - i : 64, "<!DOCTYPE html") ||
        find(body + i, len - i < 64 ? len - i : 64, "<!doctype html"))
        return "HTML";
    if (i < len && body[i] == '<')
        return "XML";
    return "text";
}

void errtext_decode(const char *enc_name, const char *body, size_t len, char *out,
                    size_t outlen)
{
    int xml = !strcmp(enc_name, "xmlrpc");
    const char *want = xml ? "XML-RPC" : "JSON-RPC";
    if (!body || len == 0) {
        safetext_printf(out, outlen, "empty body where %s was expected", want);
        return;
    }
    char ex[96];
    errtext_excerpt(body, len, 60, ex, sizeof ex);
    const char *got = looks_like(body, len);
    if ((xml && strcmp(got, "XML")) || (!xml && strcmp(got, "JSON")))
        safetext_printf(out, outlen, "%s where %s was expected: %s", got, want, ex);
    else
        safetext_printf(out, outlen, "not a valid %s response: %s", want, ex);
}
