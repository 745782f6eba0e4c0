/* safetext: untrusted bytes made into safe, valid UTF-8 (see safetext.h).
 *
 * The input is read as units: a well-formed character, an escape the
 * input already holds ("\xHH", kept whole), a blank, or one byte that has
 * to be shown escaped. Units are copied whole or not at all, which is how
 * an output is never cut inside a character or an escape. */
#include "base/safetext.h"
#include "base/safetext_testing.h"

#include <stdio.h>
#include <string.h>

#define MARK "..."
#define MARK_LEN 3

struct unit {
    size_t in_len; /* input bytes it takes */
    size_t len;    /* output bytes, in text */
    char text[12]; /* at most three escaped bytes */
    int blank;     /* a blank to squeeze */
};

/* The length of the well-formed UTF-8 sequence at p[0..n) (Unicode, table
 * 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned char c = p[0], lo = 0x80, hi = 0xbf;
    size_t len;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        lo = c == 0xe0 ? 0xa0 : lo; /* overlong below U+0800 */
        hi = c == 0xed ? 0x9f : hi; /* surrogates U+D800..U+DFFF */
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        lo = c == 0xf0 ? 0x90 : lo; /* overlong below U+10000 */
        hi = c == 0xf4 ? 0x8f : hi; /* above U+10FFFF */
    } else {
        return 0; /* a continuation byte, C0, C1 or F5..FF */
    }
    if (n < len || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

static unsigned long codepoint(const unsigned char *p, size_t len)
{
    static const unsigned char lead_bits[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    unsigned long cp = p[0] & lead_bits[len];
    for (size_t i = 1; i < len; i++)
        cp = cp << 6 | (p[i] & 0x3f);
    return cp;
}

/* Characters that would change what a line looks like, or that XML 1.0
 * cannot hold: shown as the escapes of their bytes. */
static int unsafe(unsigned long cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x2028 && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfffe || cp == 0xffff;
}

static int blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static void escape(struct unit *u, const unsigned char *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        char *t = u->text + 4 * i;
        t[0] = '\\', t[1] = 'x', t[2] = digits[p[i] >> 4], t[3] = digits[p[i] & 15];
    }
    u->in_len = n;
    u->len = 4 * n;
}

/* A character that flags let through as it is, control or not. */
static int kept(unsigned char c, unsigned flags)
{
    return (flags & SAFETEXT_KEEP_LINES) && (c == '\n' || c == '\t');
}

/* The unit at p[0..n), n > 0. */
static void next_unit(const unsigned char *p, size_t n, unsigned flags, struct unit *u)
{
    u->blank = (flags & SAFETEXT_SQUEEZE) && blank(p[0]);
    if (u->blank || kept(p[0], flags)) {
        u->text[0] = (char)p[0];
        u->in_len = 1;
        u->len = !u->blank;
        return;
    }
    int esc = p[0] == '\\' && n >= 4 && p[1] == 'x' && hex(p[2]) && hex(p[3]);
    size_t l = esc ? 4 : utf8_len(p, n);
    if (l == 0) {
        escape(u, p, 1); /* resynchronise on the next byte */
        return;
    }
    if (!esc && unsafe(codepoint(p, l))) {
        escape(u, p, l);
        return;
    }
    memcpy(u->text, p, l);
    u->in_len = u->len = l;
}

/* safetext(); more says the input goes on past len (cut before it came
 * here), so the output must end in the mark. */
static size_t safe_copy(const char *in, size_t len, int more, char *out, size_t outlen,
                        unsigned flags)
{
    if (outlen == 0)
        return 0;
    const unsigned char *p = (const unsigned char *)in;
    size_t cap = outlen - 1, o = 0, mark = 0, i = 0;
    int pending = 0, cut = more;
    while (i < len) {
        struct unit u;
        next_unit(p + i, len - i, flags, &u);
        i += u.in_len;
        if (u.blank) {
            pending = o > 0;
            continue;
        }
        if (o + pending + u.len > cap) {
            cut = 1;
            break;
        }
        if (pending)
            out[o++] = ' ';
        pending = 0;
        memcpy(out + o, u.text, u.len);
        o += u.len;
        if (o + MARK_LEN <= cap)
            mark = o; /* the mark could follow here */
    }
    if (cut && cap >= MARK_LEN) {
        memcpy(out + mark, MARK, MARK_LEN);
        o = mark + MARK_LEN;
    }
    out[o] = '\0';
    return o;
}

size_t safetext(const char *in, size_t len, char *out, size_t outlen, unsigned flags)
{
    return safe_copy(in, len, 0, out, outlen, flags);
}

size_t safetext_vprintf(char *out, size_t outlen, const char *fmt, va_list ap)
{
    char tmp[SAFETEXT_PRINTF_MAX + 1];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n;
    int more = len > SAFETEXT_PRINTF_MAX;
    return safe_copy(tmp, more ? SAFETEXT_PRINTF_MAX : len, more, out, outlen, 0);
}

size_t safetext_printf(char *out, size_t outlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = safetext_vprintf(out, outlen, fmt, ap);
    va_end(ap);
    return n;
}

size_t safetext_char(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t l = utf8_len(p, n);
    return l && !unsafe(codepoint(p, l)) ? l : 0;
}

int safetext_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0, l; i < len; i += l)
        if ((l = utf8_len(p + i, len - i)) == 0)
            return 0;
    return 1;
}

int safetext_is_safe(const char *s, size_t len, unsigned flags)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0, l; i < len; i += l ? l : 1) /* a kept \n or \t: one byte */
        if ((l = safetext_char(s + i, len - i)) == 0 && !kept(p[i], flags))
            return 0;
    return 1;
}

const char *safetext_view(const char *s, char *tmp, size_t tmplen, unsigned flags)
{
    size_t len = strlen(s);
    if (safetext_is_safe(s, len, flags))
        return s;
    safetext(s, len, tmp, tmplen, flags);
    return tmp;
}
