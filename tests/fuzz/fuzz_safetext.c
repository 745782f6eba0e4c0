/* fuzz_safetext: the sanitiser that every byte from a peer goes through
 * before it is stored (base/safetext.h). Byte 0 picks the flags (bit 0
 * squeeze, bit 1 keep lines), byte 1 the output room (0..255 bytes); the
 * rest is the peer's text. Every output must be NUL-terminated within its
 * room, valid UTF-8 (checked here by a decoder of its own, not
 * safetext's), free of control characters (but kept \n \t), the
 * same on a second call, unchanged when sanitised again, and a prefix of
 * the unlimited output (plus "..." when cut). The same text as an XML-RPC
 * faultString, its references decoded, must come out as safe. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/safetext.h"
#include "base/safetext_testing.h"
#include "client/errtext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Independent of safetext.c: decode by the bit patterns, then refuse
 * overlong forms, surrogates, out-of-range values and control characters. */
static void check_safe(const char *s, size_t n, unsigned flags)
{
    int lines = (flags & SAFETEXT_KEEP_LINES) != 0;
    static const unsigned long min[] = {0, 0, 0x80, 0x800, 0x10000};
    const unsigned char *p = (const unsigned char *)s;
    if (strlen(s) != n)
        abort();
    for (size_t i = 0; i < n;) {
        size_t len = p[i] < 0x80 ? 1 : (p[i] & 0xe0) == 0xc0 ? 2 : (p[i] & 0xf0) == 0xe0 ? 3
                                     : (p[i] & 0xf8) == 0xf0 ? 4 : 0;
        if (len == 0 || i + len > n)
            abort();
        unsigned long cp = len == 1 ? p[i] : p[i] & (0x7f >> len);
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                abort();
            cp = cp << 6 | (p[i + k] & 0x3f);
        }
        if (cp < min[len] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
            abort(); /* overlong, surrogate, beyond Unicode */
        int kept = lines && (cp == '\n' || cp == '\t');
        if ((cp < 0x20 && !kept) || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
            (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
            cp == 0xfffe || cp == 0xffff)
            abort(); /* a control the contract escapes */
        i += len;
    }
}

static void check_limited(const char *full, size_t full_n, const char *out, size_t n,
                          size_t room)
{
    if (n >= room && room > 0)
        abort();
    if (n == full_n && !memcmp(out, full, n))
        return; /* it all fit */
    if (room >= 4) {
        if (n < 3 || memcmp(out + n - 3, "...", 3))
            abort(); /* cut without the mark */
        n -= 3;
    }
    if (n > full_n || memcmp(out, full, n))
        abort(); /* not a prefix of the whole text */
}

/* The text as an XML-RPC faultString: its references decoded (errtext),
 * whatever they stand for, the sample is safe (out: room + 1 bytes). */
static void check_fault_string(const char *in, size_t len, char *out, size_t room)
{
    static const char head[] = "<name>faultString</name><value><string>";
    size_t n = sizeof head - 1 + len;
    char *xml = malloc(n);
    if (!xml)
        abort();
    memcpy(xml, head, sizeof head - 1);
    memcpy(xml + sizeof head - 1, in, len);
    if (room > 0) {
        errtext_fault(xml, n, 1, out, room);
        check_safe(out, strlen(out), 0);
    }
    free(xml);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned flags =
        (data[0] & 1 ? SAFETEXT_SQUEEZE : 0) | (data[0] & 2 ? SAFETEXT_KEEP_LINES : 0);
    size_t room = data[1];
    const char *in = (const char *)data + 2;
    size_t len = size - 2;

    size_t big = 4 * len + 1; /* an escape per byte at most */
    char *full = malloc(big), *a = malloc(room + 1), *b = malloc(room + 1);
    if (!full || !a || !b)
        abort();
    size_t full_n = safetext(in, len, full, big, flags);
    check_safe(full, full_n, flags);
    if (safetext_is_safe(full, full_n, flags & SAFETEXT_KEEP_LINES) != 1 ||
        safetext_utf8_valid(full, full_n) != 1)
        abort();

    for (size_t i = 0, l; i < full_n; i += l ? l : 1) /* whole safe characters */
        if ((l = safetext_char(full + i, full_n - i)) == 0 && full[i] != '\n' && full[i] != '\t')
            abort();

    size_t n = safetext(in, len, a, room, flags);
    if (room > 0) {
        check_safe(a, n, flags);
        check_limited(full, full_n, a, n, room);
        if (safetext(in, len, b, room, flags) != n || memcmp(a, b, n + 1))
            abort(); /* not deterministic */
        if (safetext(a, n, b, room, flags) != n || memcmp(a, b, n + 1))
            abort(); /* sanitising again changed it */
        n = safetext_printf(b, room, "%.*s", (int)len, in);
        check_safe(b, n, 0);
    } else if (n != 0) {
        abort();
    }
    if (!(flags & SAFETEXT_SQUEEZE) && safetext_is_safe(in, len, flags) &&
        (safetext(in, len, full, big, flags) != len || memcmp(full, in, len)))
        abort(); /* a safe text is copied unchanged */
    if (len < room && memchr(in, '\0', len) == NULL) {
        memcpy(a, in, len);
        a[len] = '\0';
        const char *v = safetext_view(a, b, room + 1, flags & SAFETEXT_KEEP_LINES);
        check_safe(v, strlen(v), flags & SAFETEXT_KEEP_LINES);
    }
    check_fault_string(in, len, a, room);
    free(full);
    free(a);
    free(b);
    return 0;
}
