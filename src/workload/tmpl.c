/* tmpl: parses the templates of a workload's strings, cuts a rendered call
 * at them, and stamps one request at a time (tmpl.h says what each does). */
#include "workload/tmpl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

void tmpl_head(unsigned k, char head[TMPL_HEAD_LEN + 1])
{
    static const char letters[TMPL_HEADS + 1] =
        "VWXYZABCDEFGHIJKLMNOPQRSTUvwxyzabcdefghijklmnopqrstu";
    snprintf(head, TMPL_HEAD_LEN + 1, "rpcbench%c", letters[k % TMPL_HEADS]);
}

/* ---- the files of ${pick} and ${line} ---- */

static int read_all(const char *path, char **data, size_t *len, char *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, ERR_LEN, "%.100s: %s", path, strerror(errno));
        return -1;
    }
    struct buf b = {0};
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        if (buf_append(&b, chunk, n)) {
            n = 0;
            break;
        }
    int bad = ferror(f) || buf_append(&b, "\n", 1);
    fclose(f);
    if (bad) {
        buf_free(&b);
        snprintf(err, ERR_LEN, "%.100s: cannot read it", path);
        return -1;
    }
    *data = b.data;
    *len = b.len;
    return 0;
}

/* Lines without their \r\n; empty lines are skipped. */
static int split_lines(struct tmpl_file *f, size_t len, char *err)
{
    size_t cap = 0;
    for (size_t i = 0; i < len; i++)
        cap += f->data[i] == '\n';
    f->line = calloc(cap, sizeof *f->line);
    f->len = calloc(cap, sizeof *f->len);
    if (!f->line || !f->len) {
        snprintf(err, ERR_LEN, "out of memory reading %.100s", f->path);
        return -1;
    }
    for (char *p = f->data, *end = f->data + len; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)(nl - p);
        *nl = '\0';
        if (n && p[n - 1] == '\r')
            p[--n] = '\0';
        if (n) {
            f->line[f->n] = p;
            f->len[f->n++] = n;
        }
        p = nl + 1;
    }
    if (f->n)
        return 0;
    snprintf(err, ERR_LEN, "%.100s: no lines to take values from", f->path);
    return -1;
}

/* The index of FILE (relative to dir unless absolute), loaded once. */
static int find_file(const char *name, const char *dir, struct tmpl_file *files, size_t *nfiles,
                     char *err)
{
    char path[512];
    int n = name[0] == '/' || !dir[0] ? snprintf(path, sizeof path, "%s", name)
                                      : snprintf(path, sizeof path, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof path) {
        snprintf(err, ERR_LEN, "%.200s: the path is too long", name);
        return -1;
    }
    for (size_t i = 0; i < *nfiles; i++)
        if (!strcmp(files[i].path, path))
            return (int)i;
    if (*nfiles == TMPL_MAX_FILES) {
        snprintf(err, ERR_LEN, "more than %d files in templates", TMPL_MAX_FILES);
        return -1;
    }
    struct tmpl_file *f = &files[(*nfiles)++];
    size_t len;
    memcpy(f->path, path, sizeof f->path);
    if (read_all(path, &f->data, &len, err) || split_lines(f, len, err))
        return -1;
    return (int)(*nfiles - 1);
}

void tmpl_files_free(struct tmpl_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(files[i].data);
        free(files[i].line);
        free(files[i].len);
        memset(&files[i], 0, sizeof files[i]);
    }
}

/* ---- parsing ---- */

static int parse_i64(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *v = x;
    return 0;
}

/* ${rand:LO:HI}'s bounds, from "LO:HI". */
static int parse_rand(const char *args, struct tmpl_var *v, char *err)
{
    char lo[32], hi[32];
    const char *colon = strchr(args, ':');
    if (colon && (size_t)(colon - args) < sizeof lo && strlen(colon + 1) < sizeof hi) {
        snprintf(lo, sizeof lo, "%.*s", (int)(colon - args), args);
        snprintf(hi, sizeof hi, "%s", colon + 1);
        if (!parse_i64(lo, &v->lo) && !parse_i64(hi, &v->hi) && v->lo <= v->hi)
            return 0;
    }
    snprintf(err, ERR_LEN, "${rand:%.60s}: want ${rand:LO:HI}, integers, LO <= HI", args);
    return -1;
}

/* One template's inside ("seq", "rand:1:9", "pick:ids.txt") into v. */
static int parse_one(const char *in, const char *dir, struct tmpl_var *v, struct tmpl_file *files,
                     size_t *nfiles, char *err)
{
    if (!strcmp(in, "seq") || !strcmp(in, "uuid")) {
        v->kind = in[0] == 's' ? TMPL_SEQ : TMPL_UUID;
        return 0;
    }
    if (!strncmp(in, "rand:", 5)) {
        v->kind = TMPL_RAND;
        return parse_rand(in + 5, v, err);
    }
    if ((!strncmp(in, "pick:", 5) || !strncmp(in, "line:", 5)) && in[5]) {
        v->kind = in[0] == 'p' ? TMPL_PICK : TMPL_LINE;
        v->file = find_file(in + 5, dir, files, nfiles, err);
        return v->file < 0 ? -1 : 0;
    }
    snprintf(err, ERR_LEN, "unknown template ${%.60s} (known: ${seq}, ${uuid}, ${rand:LO:HI}, "
             "${pick:FILE}, ${line:FILE})", in);
    return -1;
}

int tmpl_parse_string(const char *s, const char *head, const char *dir,
                      struct tmpl_var *vars, size_t *nvars,
                      struct tmpl_file *files, size_t *nfiles, char *out, size_t outlen,
                      char *err)
{
    struct buf b = {0};
    const char *p = s;
    int rc = 0;
    for (const char *open; rc == 0 && (open = strstr(p, "${")) != NULL;) {
        const char *close = strchr(open, '}');
        char in[600];
        if (!close || (size_t)(close - open - 2) >= sizeof in) {
            snprintf(err, ERR_LEN, "'%.60s': a template not closed by '}'", open);
            rc = -1;
            break;
        }
        if (*nvars == TMPL_MAX_VARS) {
            snprintf(err, ERR_LEN, "more than %d templates", TMPL_MAX_VARS);
            rc = -1;
            break;
        }
        snprintf(in, sizeof in, "%.*s", (int)(close - open - 2), open + 2);
        struct tmpl_var *v = &vars[*nvars];
        memset(v, 0, sizeof *v);
        v->whole = open == s && close[1] == '\0';
        rc = parse_one(in, dir, v, files, nfiles, err);
        if (rc == 0)
            rc = buf_append(&b, p, (size_t)(open - p)) ||
                 buf_appendf(&b, "%.*s%04zuZ", TMPL_HEAD_LEN, head, (*nvars)++);
        p = close + 1;
    }
    if (rc == 0 && (buf_append_str(&b, p) || b.len >= outlen)) {
        snprintf(err, ERR_LEN, "a string with templates longer than %zu bytes", outlen - 1);
        rc = -1;
    }
    if (rc == 0)
        memcpy(out, b.data, b.len + 1);
    buf_free(&b);
    return rc;
}

/* ---- cutting a rendered call ---- */

/* The wrapping a whole value's marker has in each encoding, stripped when
 * compiled: the stamp writes the value's own. */
static const char *const wrap_open[2] = {"\"", "<string>"};
static const char *const wrap_close[2] = {"\"", "</string>"};

static int add_seg(struct tmpl *t, size_t off, size_t len, int var, char *err)
{
    if (t->nseg == TMPL_MAX_SEGS) {
        snprintf(err, ERR_LEN, "more than %d templates in one call", TMPL_MAX_SEGS / 2);
        return -1;
    }
    t->seg[t->nseg++] = (struct tmpl_seg){.off = (uint32_t)off, .len = (uint32_t)len, .var = var};
    return 0;
}

/* Finds the next marker at or after body[from]; *idx its var. @return its
 * offset, or len when there is none. */
static size_t next_marker(const char *head, const char *body, size_t len, size_t from,
                          size_t *idx)
{
    while (from + TMPL_MARKER_LEN <= len) {
        const char *m = memmem(body + from, len - from, head, TMPL_HEAD_LEN);
        if (!m || (size_t)(m - body) + TMPL_MARKER_LEN > len)
            return len;
        size_t at = (size_t)(m - body);
        char digits[5] = {m[9], m[10], m[11], m[12], 0};
        if (m[13] == 'Z' && strspn(digits, "0123456789") == 4) {
            *idx = (size_t)atoi(digits);
            return at;
        }
        from = at + 1;
    }
    return len;
}

int tmpl_compile(struct tmpl *t, const char *head, const char *body, size_t len, size_t id_off,
                 size_t id_len, int xml, const struct tmpl_var *vars, size_t nvars, char *err)
{
    buf_reset(&t->text);
    t->nseg = 0;
    t->nvars = 0;
    t->id_len = id_len;
    size_t pos = 0, idx = 0, skipped = 0, lo = strlen(wrap_open[xml]), lc = strlen(wrap_close[xml]);
    for (size_t at; (at = next_marker(head, body, len, pos, &idx)) < len; pos = at) {
        if (idx >= nvars) {
            snprintf(err, ERR_LEN, "template marker %zu of %zu: a bug", idx, nvars);
            return -1;
        }
        size_t lit_end = at, after = at + TMPL_MARKER_LEN;
        if (vars[idx].whole) {
            if (at < lo || memcmp(body + at - lo, wrap_open[xml], lo) || after + lc > len ||
                memcmp(body + after, wrap_close[xml], lc)) {
                snprintf(err, ERR_LEN, "a template that fills a value must be a whole string "
                         "value (not a struct's key)");
                return -1;
            }
            lit_end -= lo;
            after += lc;
        }
        if (id_len && id_off >= after)
            skipped += after - lit_end;
        if (add_seg(t, t->text.len, lit_end - pos, -1, err) ||
            buf_append(&t->text, body + pos, lit_end - pos) || add_seg(t, 0, 0, (int)idx, err))
            return -1;
        t->nvars++;
        at = after;
    }
    t->id_off = id_off - skipped;
    if (add_seg(t, t->text.len, len - pos, -1, err) || buf_append(&t->text, body + pos, len - pos)) {
        snprintf(err, ERR_LEN, "out of memory compiling the templates");
        return -1;
    }
    return 0;
}

void tmpl_free(struct tmpl *t)
{
    buf_free(&t->text);
    t->nseg = 0;
}

/* ---- stamping ---- */

void tmpl_state_init(struct tmpl_state *st, uint64_t seed, unsigned ranks, unsigned rank)
{
    memset(st, 0, sizeof *st);
    st->rng = seed ^ 0x7e3a9c15d2b4f681ULL;
    for (unsigned i = 0; i < rank; i++)
        rng_next(&st->rng); /* another stream per rank */
    st->rng ^= rng_next(&st->rng);
    st->step = ranks > 1 ? ranks : 1;
    for (size_t i = 0; i < TMPL_MAX_FILES; i++)
        st->cursor[i] = ranks > 1 ? rank : 0;
}

/* s[0..n) escaped for the encoding, appended. */
static int append_escaped(struct buf *out, const char *s, size_t n, int xml)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        const char *e = NULL;
        if (xml)
            e = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '\r' ? "&#13;" : NULL;
        else if (c == '"' || c == '\\' || c < 0x20) {
            if (c == '"' || c == '\\')
                snprintf(esc, sizeof esc, "\\%c", c);
            else
                snprintf(esc, sizeof esc, "\\u%04x", c);
            e = esc;
        }
        if (!e)
            continue;
        if (buf_append(out, s + run, i - run) || buf_append_str(out, e))
            return -1;
        run = i + 1;
    }
    return buf_append(out, s + run, n - run);
}

static int append_int(struct buf *out, int64_t v, int whole, int xml)
{
    if (!whole || !xml)
        return buf_appendf(out, "%" PRId64, v);
    const char *tag = v >= INT32_MIN && v <= INT32_MAX ? "int" : "i8";
    return buf_appendf(out, "<%s>%" PRId64 "</%s>", tag, v, tag);
}

static int append_text(struct buf *out, const char *s, size_t n, int whole, int xml)
{
    if (whole && buf_append_str(out, wrap_open[xml]))
        return -1;
    if (append_escaped(out, s, n, xml))
        return -1;
    return whole ? buf_append_str(out, wrap_close[xml]) : 0;
}

static int stamp_var(const struct tmpl_var *v, const struct tmpl_file *files,
                     struct tmpl_state *st, int xml, uint64_t seq, struct buf *out)
{
    char u[40];
    switch (v->kind) {
    case TMPL_SEQ:
        return append_int(out, (int64_t)seq, v->whole, xml);
    case TMPL_RAND: {
        uint64_t span = (uint64_t)v->hi - (uint64_t)v->lo + 1, r = rng_next(&st->rng);
        return append_int(out, (int64_t)((uint64_t)v->lo + (span ? r % span : r)), v->whole, xml);
    }
    case TMPL_UUID: {
        uint64_t a = rng_next(&st->rng), b = rng_next(&st->rng);
        snprintf(u, sizeof u, "%08x-%04x-4%03x-%04x-%012" PRIx64, (unsigned)(a >> 32),
                 (unsigned)(a >> 16) & 0xffff, (unsigned)a & 0xfff,
                 (unsigned)(0x8000 | ((b >> 48) & 0x3fff)), (uint64_t)(b & 0xffffffffffffULL));
        return append_text(out, u, 36, v->whole, xml);
    }
    case TMPL_PICK: {
        const struct tmpl_file *f = &files[v->file];
        size_t i = (size_t)(rng_next(&st->rng) % f->n);
        return append_text(out, f->line[i], f->len[i], v->whole, xml);
    }
    case TMPL_LINE: {
        const struct tmpl_file *f = &files[v->file];
        size_t i = st->cursor[v->file] % f->n;
        st->cursor[v->file] = i + st->step;
        return append_text(out, f->line[i], f->len[i], v->whole, xml);
    }
    }
    return -1;
}

int tmpl_stamp(const struct tmpl *t, const struct tmpl_var *vars, const struct tmpl_file *files,
               struct tmpl_state *st, int xml, uint64_t seq, struct buf *out, size_t *id_off)
{
    buf_reset(out);
    size_t shift = 0; /* how much longer out is than the literal text so far */
    for (size_t i = 0; i < t->nseg; i++) {
        const struct tmpl_seg *s = &t->seg[i];
        if (s->var < 0) {
            if (t->id_len && t->id_off >= s->off && t->id_off < s->off + s->len)
                *id_off = t->id_off + shift;
            if (buf_append(out, t->text.data + s->off, s->len))
                return -1;
            continue;
        }
        size_t before = out->len;
        if (stamp_var(&vars[s->var], files, st, xml, seq, out))
            return -1;
        shift += out->len - before;
    }
    return 0;
}
