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

/* The text of the first string after key: JSON '"message": "TEXT"' or
 * XML '<name>faultString</name><value><string>TEXT</string>'. */
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
    errtext_excerpt(p, (size_t)(q - p), 100, out, outlen);
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
