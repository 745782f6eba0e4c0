/* stomp: STOMP 1.2 frame parser and renderer (see stomp.h).
 *
 * The parser rescans a partial frame from its start on every call; a frame
 * is small next to the reads that complete it, and the body is only
 * scanned when it has no content-length (then it ends at the first NUL). */
#include "net/stomp.h"

#include <stdio.h>
#include <string.h>

#define MAX_COMMAND 32 /* longer than any STOMP command */

static void set_err(char *err, const char *what)
{
    if (err)
        snprintf(err, ERR_LEN, "%s", what);
}

/* Commands whose headers are never escaped (STOMP 1.2, "Value Encoding"). */
static int raw_headers(const char *cmd, size_t len)
{
    return (len == 7 && !memcmp(cmd, "CONNECT", 7)) || (len == 9 && !memcmp(cmd, "CONNECTED", 9));
}

/* Heart-beat EOLs ("\n" or "\r\n") at buf[0..len): @return how many bytes
 * they take; *partial is set when a lone '\r' ends the buffer. -1 when a
 * '\r' is followed by something else than '\n'. */
static ssize_t skip_eols(const char *buf, size_t len, int *partial)
{
    size_t i = 0;
    *partial = 0;
    while (i < len) {
        if (buf[i] == '\n') {
            i++;
        } else if (buf[i] == '\r') {
            if (i + 1 == len) {
                *partial = 1;
                break;
            }
            if (buf[i + 1] != '\n')
                return -1;
            i += 2;
        } else {
            break;
        }
    }
    return (ssize_t)i;
}

/* Whether s[0..n) holds only the four escapes STOMP 1.2 defines. */
static int escapes_ok(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\')
            continue;
        if (i + 1 == n || !strchr("rnc\\", s[i + 1]) || s[i + 1] == '\0')
            return 0;
        i++;
    }
    return 1;
}

/* One line of p[0..n) ending in '\n': its length without the EOL (a '\r'
 * before the '\n' is dropped) and, in *next, the offset after it.
 * @return 0, or -1 when no '\n' is there yet. */
static int line(const char *p, size_t n, size_t *line_len, size_t *next)
{
    const char *nl = memchr(p, '\n', n);
    if (!nl)
        return -1;
    size_t l = (size_t)(nl - p);
    *next = l + 1;
    if (l > 0 && p[l - 1] == '\r')
        l--;
    *line_len = l;
    return 0;
}

/* The command line: [A-Z]+ then EOL. Checked as bytes arrive, so garbage
 * is refused without waiting for a '\n' that may never come.
 * @return 1 parsed, 0 need more, -1 error. */
static int parse_command(const char *p, size_t n, struct stomp_frame *f, size_t *off, char *err)
{
    size_t i = 0;
    while (i < n && i <= MAX_COMMAND && p[i] >= 'A' && p[i] <= 'Z')
        i++;
    if (i > MAX_COMMAND) {
        set_err(err, "command too long");
        return -1;
    }
    if (i == n || (p[i] == '\r' && i + 1 == n))
        return 0;
    if (i == 0) {
        set_err(err, "no command");
        return -1;
    }
    if (p[i] == '\n' || (p[i] == '\r' && p[i + 1] == '\n')) {
        f->command = p;
        f->command_len = i;
        *off = i + (p[i] == '\r' ? 2 : 1);
        return 1;
    }
    set_err(err, "bad command");
    return -1;
}

/* One header line p[0..l). @return 0, or -1 with err. */
static int add_header(struct stomp_frame *f, const char *p, size_t l, int raw, char *err)
{
    const char *colon = memchr(p, ':', l);
    if (!colon || colon == p) {
        set_err(err, colon ? "empty header name" : "header without colon");
        return -1;
    }
    if (memchr(p, '\0', l)) {
        set_err(err, "NUL in a header");
        return -1;
    }
    if (f->nheaders == STOMP_MAX_HEADERS) {
        set_err(err, "too many headers");
        return -1;
    }
    size_t klen = (size_t)(colon - p);
    if (!raw && (!escapes_ok(p, klen) || !escapes_ok(colon + 1, l - klen - 1))) {
        set_err(err, "undefined escape in a header");
        return -1;
    }
    f->headers[f->nheaders++] = (struct stomp_header){p, klen, colon + 1, l - klen - 1};
    return 0;
}

/* Header lines from p up to the blank line. @return 1 with *off after the
 * blank line, 0 need more, -1 error. */
static int parse_headers(const char *p, size_t n, struct stomp_frame *f, size_t *off, char *err)
{
    int raw = raw_headers(f->command, f->command_len);
    size_t pos = *off;
    for (;;) {
        size_t l, next;
        if (line(p + pos, n - pos, &l, &next) < 0)
            return 0;
        if (l == 0) {
            *off = pos + next;
            return 1;
        }
        if (add_header(f, p + pos, l, raw, err) < 0)
            return -1;
        pos += next;
    }
}

/* The first content-length header: @return 1 found (*cl set), 0 absent,
 * -1 not a decimal number. */
static int content_length(const struct stomp_frame *f, size_t *cl)
{
    for (size_t i = 0; i < f->nheaders; i++) {
        const struct stomp_header *h = &f->headers[i];
        if (h->key_len != 14 || memcmp(h->key, "content-length", 14))
            continue;
        size_t v = 0;
        if (h->value_len == 0 || h->value_len > 18)
            return -1;
        for (size_t k = 0; k < h->value_len; k++) {
            if (h->value[k] < '0' || h->value[k] > '9')
                return -1;
            v = v * 10 + (size_t)(h->value[k] - '0');
        }
        *cl = v;
        return 1;
    }
    return 0;
}

/* The body at p[start..n): @return frame length (through the NUL), 0 need
 * more, -1 error. */
static ssize_t parse_body(const char *p, size_t n, size_t start, size_t max_frame,
                          struct stomp_frame *f, char *err)
{
    size_t cl;
    int has = content_length(f, &cl);
    if (has < 0) {
        set_err(err, "bad content-length");
        return -1;
    }
    if (has) {
        if (cl > max_frame || start + cl + 1 > max_frame) {
            set_err(err, "frame too large");
            return -1;
        }
        if (n < start + cl + 1)
            return 0;
        if (p[start + cl] != '\0') {
            set_err(err, "no NUL after content-length body");
            return -1;
        }
    } else {
        const char *nul = memchr(p + start, '\0', n - start);
        if (!nul && n > max_frame) {
            set_err(err, "frame too large");
            return -1;
        }
        if (!nul)
            return 0;
        cl = (size_t)(nul - (p + start));
        if (start + cl + 1 > max_frame) {
            set_err(err, "frame too large");
            return -1;
        }
    }
    f->body = p + start;
    f->body_len = cl;
    return (ssize_t)(start + cl + 1);
}

/* One frame at p[0..n): @return its length, 0 need more, -1 error. */
static ssize_t parse_frame(const char *p, size_t n, size_t max_frame, struct stomp_frame *f,
                           char *err)
{
    size_t off = 0;
    int r = parse_command(p, n, f, &off, err);
    if (r == 1)
        r = parse_headers(p, n, f, &off, err);
    if (r < 0)
        return -1;
    if (r == 1)
        return parse_body(p, n, off, max_frame, f, err);
    if (n > max_frame) { /* still no end of headers */
        set_err(err, "frame too large");
        return -1;
    }
    return 0;
}

ssize_t stomp_parse(const char *buf, size_t len, size_t max_frame, struct stomp_frame *f,
                    char *err)
{
    int partial;
    f->command = NULL;
    f->command_len = f->nheaders = f->body_len = 0;
    f->body = NULL;
    ssize_t skip = skip_eols(buf, len, &partial);
    if (skip < 0) {
        set_err(err, "CR without LF between frames");
        return -1;
    }
    size_t s = (size_t)skip;
    if (s == len || partial)
        return skip;
    ssize_t r = parse_frame(buf + s, len - s, max_frame, f, err);
    if (r < 0)
        return -1;
    if (r == 0) { /* the heart-beats are taken; the frame waits */
        f->command_len = 0;
        f->nheaders = 0;
        return skip;
    }
    return skip + r;
}

int stomp_is(const struct stomp_frame *f, const char *cmd)
{
    size_t n = strlen(cmd);
    return f->command_len == n && !memcmp(f->command, cmd, n);
}

/* Unescapes s[0..n) into out; @return the length, or -1 if out is short. */
static ssize_t unescape(const char *s, size_t n, int raw, char *out, size_t outlen)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!raw && ch == '\\' && i + 1 < n) {
            char e = s[++i];
            ch = e == 'r' ? '\r' : e == 'n' ? '\n' : e == 'c' ? ':' : e;
        }
        if (o + 1 >= outlen)
            return -1;
        out[o++] = ch;
    }
    if (outlen == 0)
        return -1;
    out[o] = '\0';
    return (ssize_t)o;
}

ssize_t stomp_header(const struct stomp_frame *f, const char *key, char *out, size_t outlen)
{
    size_t klen = strlen(key);
    for (size_t i = 0; i < f->nheaders; i++) {
        const struct stomp_header *h = &f->headers[i];
        if (h->key_len == klen && !memcmp(h->key, key, klen))
            return unescape(h->value, h->value_len, raw_headers(f->command, f->command_len),
                            out, outlen);
    }
    return -1;
}

static int append_escaped(struct buf *out, const char *s, int raw)
{
    if (raw)
        return buf_append_str(out, s);
    for (const char *p = s; *p; p++) {
        const char *e = *p == '\r' ? "\\r" : *p == '\n' ? "\\n" : *p == ':' ? "\\c"
                        : *p == '\\' ? "\\\\" : NULL;
        if (e ? buf_append(out, e, 2) < 0 : buf_append(out, p, 1) < 0)
            return -1;
    }
    return 0;
}

/* One period: digits only, clamped; the byte after it in *end. */
static int heartbeat_period(const char *s, const char **end, long *ms)
{
    long v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++)
        v = v >= STOMP_HEARTBEAT_MAX_MS ? STOMP_HEARTBEAT_MAX_MS : v * 10 + (*p - '0');
    *ms = v < STOMP_HEARTBEAT_MAX_MS ? v : STOMP_HEARTBEAT_MAX_MS;
    *end = p;
    return p > s ? 0 : -1;
}

int stomp_heartbeat_parse(const char *s, long *cx, long *cy)
{
    const char *end;
    if (heartbeat_period(s, &end, cx) < 0 || *end != ',')
        return -1;
    return heartbeat_period(end + 1, &end, cy) < 0 || *end ? -1 : 0;
}

/* The command line and the headers, escaped as command asks. */
static int render_headers(struct buf *out, const char *command, const char *const *kv)
{
    int raw = raw_headers(command, strlen(command));
    if (buf_append_str(out, command) < 0 || buf_append(out, "\n", 1) < 0)
        return -1;
    for (size_t i = 0; kv && kv[i] && kv[i + 1]; i += 2) {
        if (append_escaped(out, kv[i], raw) < 0 || buf_append(out, ":", 1) < 0 ||
            append_escaped(out, kv[i + 1], raw) < 0 || buf_append(out, "\n", 1) < 0)
            return -1;
    }
    return 0;
}

/* content-length (with a body), the blank line, the body and the NUL. */
static int render_end(struct buf *out, const char *body, size_t body_len)
{
    if (body && buf_appendf(out, "content-length:%zu\n", body_len) < 0)
        return -1;
    if (buf_append(out, "\n", 1) < 0 || (body && buf_append(out, body, body_len) < 0))
        return -1;
    return buf_append(out, "", 1);
}

static int render(struct buf *out, const char *command, const char *const *kv, const char *body,
                  size_t body_len)
{
    return render_headers(out, command, kv) < 0 ? -1 : render_end(out, body, body_len);
}

int stomp_render(struct buf *out, const char *command, const char *const *kv, const char *body,
                 size_t body_len)
{
    size_t before = out->len;
    if (render(out, command, kv, body, body_len) == 0)
        return 0;
    out->len = before; /* no half frame left behind */
    return -1;
}

int stomp_render_headers(struct buf *out, const char *command, const char *const *kv)
{
    size_t before = out->len;
    if (render_headers(out, command, kv) == 0)
        return 0;
    out->len = before;
    return -1;
}

int stomp_render_end(struct buf *out, const char *body, size_t body_len)
{
    size_t before = out->len;
    if (render_end(out, body, body_len) == 0)
        return 0;
    out->len = before;
    return -1;
}
