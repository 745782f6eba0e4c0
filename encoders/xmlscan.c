#include "encoders/xmlscan.h"

#include <string.h>

#include "encoders/encoder.h"

#define LIT(s) s, sizeof(s) - 1

static int is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && is_ws(*p))
        p++;
    return p;
}

/* Skips whitespace, then matches s; returns the byte after it or NULL. */
static const char *lit(const char *p, const char *end, const char *s, size_t n)
{
    if (!p)
        return NULL;
    p = skip_ws(p, end);
    if ((size_t)(end - p) < n || memcmp(p, s, n) != 0)
        return NULL;
    return p + n;
}

static const char *find(const char *p, const char *end, const char *s, size_t n)
{
    return p && p < end ? memmem(p, (size_t)(end - p), s, n) : NULL;
}

/* XML declaration, processing instructions and comments before the root;
 * bounded so a hostile prolog cannot loop long. */
static const char *prolog(const char *p, const char *end)
{
    if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    for (int i = 0; i < 16 && p; i++) {
        p = skip_ws(p, end);
        if (end - p >= 2 && p[0] == '<' && p[1] == '?')
            p = find(p + 2, end, LIT("?>")) ? find(p + 2, end, LIT("?>")) + 2 : NULL;
        else if (end - p >= 4 && memcmp(p, "<!--", 4) == 0)
            p = find(p + 4, end, LIT("-->")) ? find(p + 4, end, LIT("-->")) + 3 : NULL;
        else
            return p;
    }
    return NULL;
}

/* p just after <value>: <int>N</int>, <i4> or <i8>. 0 or -1. */
static int read_int(const char *p, const char *end, int64_t *v)
{
    const char *q = lit(p, end, LIT("<int>"));
    if (!q)
        q = lit(p, end, LIT("<i4>"));
    if (!q)
        q = lit(p, end, LIT("<i8>"));
    if (!q)
        return -1;
    q = skip_ws(q, end);
    int neg = q < end && *q == '-';
    q += neg || (q < end && *q == '+');
    if (q >= end || *q < '0' || *q > '9')
        return -1;
    uint64_t u = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; q < end && *q >= '0' && *q <= '9'; q++) {
        unsigned d = (unsigned)(*q - '0');
        if (u > (lim - d) / 10)
            return -1;
        u = u * 10 + d;
    }
    if (!lit(q, end, LIT("</")))
        return -1;
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    return 0;
}

/* What status_at found beyond 1/0/-1: a status struct whose </struct> is
 * not in the text (yet: the head of a response that is still arriving). */
#define STATUS_OPEN (-2)

/* p just after <name>status</name>: 1 with *code when the value is a
 * struct holding code, 0 when it is something else (a VM's string status),
 * -1 when malformed, STATUS_OPEN when the struct does not end in the text. */
static int status_at(const char *p, const char *end, int64_t *code)
{
    p = lit(lit(p, end, LIT("<value>")), end, LIT("<struct>"));
    if (!p)
        return 0;
    const char *close = find(p, end, LIT("</struct>"));
    if (!close)
        return STATUS_OPEN;
    const char *c = find(p, close, LIT("<name>code</name>"));
    if (!c)
        return 0;
    p = lit(c + sizeof "<name>code</name>" - 1, close, LIT("<value>"));
    return p && read_int(p, close, code) == 0 ? 1 : -1;
}

static int status_result(int r, int64_t code)
{
    if (r < 0)
        return ENC_DECODE;
    return r > 0 && code != 0 ? ENC_FAULT : ENC_OK;
}

/* p just after <params>. */
static int check_params(const char *p, const char *end, int64_t *code)
{
    static const char name[] = "<name>status</name>";
    p = lit(lit(p, end, LIT("<param>")), end, LIT("<value>"));
    p = lit(p, end, LIT("<struct>"));
    if (!p)
        return ENC_OK; /* not a struct: no envelope */
    const char *m = lit(lit(p, end, LIT("<member>")), end, LIT("<name>status</name>"));
    int r = m ? status_at(m, end, code) : 0;
    if (r != 0)
        return status_result(r, *code);
    for (const char *q = p; (q = find(q, end, name, sizeof name - 1)); q += sizeof name - 1) {
        r = status_at(q + sizeof name - 1, end, code);
        if (r != 0)
            return status_result(r, *code);
    }
    return ENC_OK;
}

/* end, less the blanks before it. */
static const char *trim_end(const char *p, const char *end)
{
    while (end > p && is_ws(end[-1]))
        end--;
    return end;
}

/* Whether p..end (already trimmed) ends with the closing tag. */
static int ends_closed(const char *p, const char *end)
{
    static const char close[] = "</methodResponse>";
    return (size_t)(end - p) >= sizeof close - 1 &&
           memcmp(end - (sizeof close - 1), close, sizeof close - 1) == 0;
}

int xmlscan_tail_ok(const char *tail, size_t len)
{
    return ends_closed(tail, trim_end(tail, tail + len));
}

/* Just after <methodResponse>, or NULL. */
static const char *response_start(const char *body, const char *end)
{
    return lit(prolog(body, end), end, LIT("<methodResponse>"));
}

/* f just after <fault>: its faultCode's integer into *code. 0 or -1. */
static int fault_code(const char *f, const char *end, int64_t *code)
{
    f = find(f, end, LIT("<name>faultCode</name>"));
    f = f ? lit(f + sizeof "<name>faultCode</name>" - 1, end, LIT("<value>")) : NULL;
    return f ? read_int(f, end, code) : -1;
}

int xmlscan_fault(const char *body, size_t len, int64_t *code)
{
    if (!body)
        body = ""; /* an empty body may come as (NULL, 0) */
    const char *end = trim_end(body, body + len);
    const char *f = lit(response_start(body, end), end, LIT("<fault>"));
    *code = 0;
    if (!f || !ends_closed(body, end) || fault_code(f, end, code) < 0) {
        *code = 0;
        return ENC_DECODE;
    }
    return ENC_FAULT;
}

int xmlscan_check(const char *body, size_t len, int64_t *code)
{
    if (!body)
        body = ""; /* an empty body may come as (NULL, 0) */
    const char *end = trim_end(body, body + len);
    *code = 0;
    if (!ends_closed(body, end))
        return ENC_DECODE;
    const char *p = response_start(body, end);
    if (!p)
        return ENC_DECODE;
    const char *f = lit(p, end, LIT("<fault>"));
    if (f) {
        if (fault_code(f, end, code) < 0)
            *code = 0;
        return ENC_FAULT;
    }
    p = lit(p, end, LIT("<params>"));
    return p ? check_params(p, end, code) : ENC_DECODE;
}

/* Only the status-first envelope is decided here, and only when all of it
 * is in the head: every match below is either the first occurrence in the
 * head (so also in the whole body) or bounded by the status struct's
 * </struct>, so the whole-body check reaches the same verdict. Anything
 * else (a fault, status elsewhere, a cut) is left to the whole body. */
int xmlscan_check_head(const char *head, size_t len, int64_t *code)
{
    const char *end = head + len;
    *code = 0;
    if (!head)
        return XMLSCAN_MORE;
    const char *p = lit(response_start(head, end), end, LIT("<params>"));
    p = lit(lit(lit(p, end, LIT("<param>")), end, LIT("<value>")), end, LIT("<struct>"));
    p = lit(lit(p, end, LIT("<member>")), end, LIT("<name>status</name>"));
    int r = p ? status_at(p, end, code) : 0;
    if (r == 0 || r == STATUS_OPEN) {
        *code = 0;
        return XMLSCAN_MORE;
    }
    return status_result(r, *code);
}

/* Whether p[0..n) is an optional sign and digits that fit an int64, and
 * nothing else: xmlrpc-c crashes on any other <i8> text, blanks included
 * ("<i8>5 </i8>"), and on overflow. */
static int is_integer_text(const char *p, size_t n)
{
    size_t i = 0, digits = 0;
    uint64_t v = 0, max = UINT64_C(9223372036854775807);
    if (i < n && (p[i] == '+' || p[i] == '-'))
        max += p[i++] == '-'; /* INT64_MIN's magnitude is one more */
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++, digits++) {
        if (v > (max - (uint64_t)(p[i] - '0')) / 10)
            return 0;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    return digits > 0 && i == n;
}

/* Every element called tag (start tags with blanks or attributes too)
 * must hold integer text and then straight away its end tag: comments,
 * CDATA or character references inside would reach xmlrpc-c as text. */
static int tag_texts_ok(const char *body, size_t len, const char *tag)
{
    size_t tlen = strlen(tag);
    const char *end = body + len;
    for (const char *p = body; (p = memmem(p, (size_t)(end - p), tag, tlen)) != NULL;) {
        p += tlen;
        if (p < end && *p != '>' && *p != '/' && *p != ' ' && *p != '\t' && *p != '\r' &&
            *p != '\n')
            continue; /* a longer name, e.g. <i8x> */
        const char *gt = memchr(p, '>', (size_t)(end - p));
        if (!gt || gt[-1] == '/')
            return 0; /* unterminated, or empty <i8/> */
        const char *text = gt + 1;
        const char *lt = memchr(text, '<', (size_t)(end - text));
        if (!lt || lt + 1 >= end || lt[1] != '/' || !is_integer_text(text, (size_t)(lt - text)))
            return 0;
        p = lt;
    }
    return 1;
}

/* Skips a markup item that is no element (p at its '<'): a comment, CDATA,
 * a processing instruction or a declaration. @return the byte after it, or
 * NULL when it is unterminated. */
static const char *skip_markup(const char *p, const char *end)
{
    if (end - p >= 4 && memcmp(p, "<!--", 4) == 0)
        p = find(p + 4, end, LIT("-->"));
    else if (end - p >= 9 && memcmp(p, "<![CDATA[", 9) == 0)
        p = find(p + 9, end, LIT("]]>"));
    else if (end - p >= 2 && p[1] == '?')
        p = find(p + 2, end, LIT("?>"));
    else
        p = memchr(p, '>', (size_t)(end - p));
    return p ? (const char *)memchr(p, '>', (size_t)(end - p)) + 1 : NULL;
}

/* The end of a start or end tag (p at its '<'), past quoted attribute values,
 * which may hold '>'. @return the byte after its '>', or NULL. */
static const char *tag_end(const char *p, const char *end)
{
    for (char quote = 0; ++p < end;) {
        if (quote)
            quote = *p == quote ? 0 : quote;
        else if (*p == '"' || *p == '\'')
            quote = *p;
        else if (*p == '>')
            return p + 1;
    }
    return NULL;
}

/* Whether no element nests deeper than XMLSCAN_MAX_DEPTH: one pass, no
 * stack, so a hostile depth costs nothing here. An unterminated tag ends
 * the count (the parser refuses the document anyway). */
static int depth_ok(const char *body, size_t len)
{
    const char *end = body + len;
    int depth = 0;
    for (const char *p = body; p && (p = memchr(p, '<', (size_t)(end - p))) != NULL;) {
        if (p + 1 < end && (p[1] == '!' || p[1] == '?')) {
            p = skip_markup(p, end);
            continue;
        }
        const char *gt = tag_end(p, end);
        if (!gt)
            return 1;
        if (p + 1 < end && p[1] == '/')
            depth -= depth > 0;
        else if (gt[-2] != '/' && ++depth > XMLSCAN_MAX_DEPTH)
            return 0;
        p = gt;
    }
    return 1;
}

const char *xmlscan_unsafe(const char *body, size_t len)
{
    if (!body)
        return NULL; /* nothing to parse is nothing unsafe */
    if (memmem(body, len, "<!DOCTYPE", 9) || memmem(body, len, "<!ENTITY", 8))
        return "refused: a DTD";
    if (!tag_texts_ok(body, len, "<i8") || !tag_texts_ok(body, len, "<ex:i8"))
        return "refused: an <i8> that is no int64";
    if (!depth_ok(body, len))
        return "refused: elements nested deeper than " XMLSCAN_MAX_DEPTH_TEXT " levels";
    return NULL;
}
