/* safetext: bytes from a peer (or from a saved file) made safe to store and
 * print, once, where they enter; every writer (text, JSON, CSV, HTML,
 * JUnit, stderr) can then trust the stored text.
 *
 * The contract of every function here: the output is NUL-terminated, valid
 * UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF), fits in
 * the caller's outlen bytes with its NUL, and holds no control character.
 * What cannot be shown as itself is shown as visible escapes, one "\xHH"
 * (lowercase hex) per byte:
 *  - bytes that are not part of a well-formed UTF-8 sequence ("\xff");
 *  - C0 controls and DEL ("\x1b", "\x00"), C1 controls (U+0080..U+009F,
 *    "\xc2\x85"), the line and paragraph separators U+2028/U+2029, the
 *    bidirectional embeddings, overrides and isolates (U+202A..U+202E,
 *    U+2066..U+2069: they reorder how a line reads) and the noncharacters
 *    U+FFFE/U+FFFF (XML 1.0 cannot carry them).
 * A backslash is kept as it is, so "\xff" may also be the peer's own four
 * characters. An output is never cut inside a character or inside a
 * "\xHH" (the input's own ones included); when the input does not fit,
 * the output ends in "..." (when outlen leaves room for it). Sanitising an
 * output again changes nothing (with the same flags and room).
 *
 * Nothing allocates; inputs are only read. */
#ifndef RPCBENCH_SAFETEXT_H
#define RPCBENCH_SAFETEXT_H

#include <stdarg.h>
#include <stddef.h>

/* Flags of safetext(). SAFETEXT_SQUEEZE: for excerpts of bodies, where
 * line breaks are layout: blanks (space, \t \n \r \v \f) before the first
 * character and after the last are dropped, and each run of them between
 * characters becomes one space. Without it, a space stays a space and the
 * other blanks are escaped like any control ("\x0a"). */
#define SAFETEXT_SQUEEZE 1u
/* SAFETEXT_KEEP_LINES: for the writers of multi-line text (HTML, JUnit,
 * JSON), where \n and \t are legal and meant: both are kept as they are.
 * (SAFETEXT_SQUEEZE, when also given, squeezes them.) */
#define SAFETEXT_KEEP_LINES 2u

/* The longest text safetext_printf formats before making it safe. */
#define SAFETEXT_PRINTF_MAX 1024

/* Makes in[0..len) safe into out (outlen bytes, the caller's): see the
 * contract above. in may be NULL when len is 0. Writes nothing when outlen
 * is 0. @return the length of the text written (without its NUL). */
size_t safetext(const char *in, size_t len, char *out, size_t outlen, unsigned flags);

/* snprintf, then safetext without flags: for a line that quotes text
 * which may come from a peer ("HTTP 500 ...: <excerpt>"). Whatever the
 * arguments hold, out is safe, and cut at a character with "..." when
 * longer than outlen - 1 or SAFETEXT_PRINTF_MAX bytes. @return as safetext. */
size_t safetext_printf(char *out, size_t outlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
size_t safetext_vprintf(char *out, size_t outlen, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* @return the length (1 to 4) of the character at s[0..n), n > 0, when it
 * is well-formed and safe (safetext without flags shows it as itself),
 * else 0: for a writer that walks a text itself (serve's Python-style
 * quoting of request values). */
size_t safetext_char(const char *s, size_t n);

/* @return 1 when s[0..len) is already safe: safetext with flags (0 or
 * SAFETEXT_KEEP_LINES) would copy it unchanged, given room. Else 0. */
int safetext_is_safe(const char *s, size_t len, unsigned flags);

/* For a writer, defence in depth: @return s itself when it is safe
 * (safetext_is_safe with flags), else tmp (tmplen bytes, the caller's,
 * tmplen > 0) holding s made safe, cut to fit. s is NUL-terminated. */
const char *safetext_view(const char *s, char *tmp, size_t tmplen, unsigned flags);

#endif
