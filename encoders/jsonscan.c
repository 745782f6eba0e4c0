#include "encoders/jsonscan.h"

#include <string.h>

enum { C_NONE, C_STR, C_OPEN, C_CLOSE };

/* One table lookup per byte while skipping a container. */
static const unsigned char cls[256] = {
    ['"'] = C_STR, ['{'] = C_OPEN, ['['] = C_OPEN, ['}'] = C_CLOSE, [']'] = C_CLOSE,
};

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

/* p is just past an opening quote; returns just past the closing one.
 * memchr does the scanning; a quote preceded by an odd run of backslashes
 * is escaped. */
static const char *str_end(const char *p, const char *end)
{
    const char *start = p;
    while (p < end) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            return NULL;
        const char *b = q;
        while (b > start && b[-1] == '\\')
            b--;
        if (((q - b) & 1) == 0)
            return q + 1;
        p = q + 1;
    }
    return NULL;
}

/* Bracket matching with a 64-deep bit stack: bit set = '['. */
static int skip_container(struct jsonscan *s)
{
    const char *p = s->p, *end = s->end;
    uint64_t stack = 0;
    int depth = 0;
    while (p < end) {
        unsigned char c = (unsigned char)*p++;
        switch (cls[c]) {
        case C_NONE:
            break;
        case C_STR:
            if (!(p = str_end(p, end)))
                return -1;
            break;
        case C_OPEN:
            if (depth == 64)
                return -1;
            stack = (stack << 1) | (c == '[');
            depth++;
            break;
        default: /* C_CLOSE */
            if (!depth || (stack & 1) != (c == ']'))
                return -1;
            stack >>= 1;
            if (--depth == 0) {
                s->p = p;
                return 0;
            }
        }
    }
    return -1;
}

static int is_scalar_byte(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '+' ||
           c == '.' || (c >= 'A' && c <= 'Z');
}

char jsonscan_peek(struct jsonscan *s)
{
    s->p = skip_ws(s->p, s->end);
    return s->p < s->end ? *s->p : 0;
}

int jsonscan_expect(struct jsonscan *s, char c)
{
    if (jsonscan_peek(s) != c)
        return -1;
    s->p++;
    return 0;
}

int jsonscan_skip(struct jsonscan *s)
{
    char c = jsonscan_peek(s);
    if (c == '{' || c == '[')
        return skip_container(s);
    if (c == '"') {
        s->p = str_end(s->p + 1, s->end);
        return s->p ? 0 : -1;
    }
    const char *p = s->p;
    while (p < s->end && is_scalar_byte(*p))
        p++;
    if (p == s->p)
        return -1;
    s->p = p;
    return 0;
}

int jsonscan_string(struct jsonscan *s, const char **str, size_t *len)
{
    if (jsonscan_expect(s, '"') < 0)
        return -1;
    const char *e = str_end(s->p, s->end);
    if (!e)
        return -1;
    *str = s->p;
    *len = (size_t)(e - 1 - s->p);
    s->p = e;
    return 0;
}

int jsonscan_int(struct jsonscan *s, int64_t *v)
{
    const char *p = skip_ws(s->p, s->end), *end = s->end;
    int neg = p < end && *p == '-';
    p += neg;
    if (p >= end || *p < '0' || *p > '9')
        return -1;
    uint64_t u = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; p < end && *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (u > (lim - d) / 10)
            return -1;
        u = u * 10 + d;
    }
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E'))
        return -1;
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    s->p = p;
    return 0;
}

int jsonscan_member(struct jsonscan *s, int *first, const char **key, size_t *klen)
{
    char c = jsonscan_peek(s);
    if (c == '}') {
        s->p++;
        return 0;
    }
    if (!*first) {
        if (c != ',')
            return -1;
        s->p++;
    }
    *first = 0;
    if (jsonscan_string(s, key, klen) < 0 || jsonscan_expect(s, ':') < 0)
        return -1;
    s->p = skip_ws(s->p, s->end);
    return 1;
}
