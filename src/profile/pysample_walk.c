/* pysample_walk: one CPython process's threads and their Python stacks,
 * read from its memory (pysample_int.h's py_walk). The target keeps
 * running while it is read: any pointer may be stale and any field
 * garbage, so every length, count and depth is bounded, and a read that
 * fails ends the walk of that thread ("[stack unreadable]"), never
 * more. */
#include <stdio.h>
#include <string.h>

#include "profile/pysample_int.h"

#define UNREADABLE "[stack unreadable]"
#define MAX_FRAME_READ 512      /* bytes of a frame or code object read at once */

/* Reads the target's memory through its reader. @return 0, or -1. */
static int target_read(const struct py_target *t, uint64_t addr, void *buf, size_t len)
{
    return t->read ? t->read(t->read_ctx, addr, buf, len) : py_read(t->pid, addr, buf, len);
}

/* @return the pointer at base + off of buf (len bytes), 0 when out of it. */
static uint64_t ptr_at(const unsigned char *buf, size_t len, size_t off)
{
    uint64_t v = 0;
    if (off + sizeof v <= len)
        memcpy(&v, buf + off, sizeof v);
    return v;
}

/* Characters that would break a folded line (';', space, controls) as '_',
 * anything not ASCII as '?'. */
static char safe_char(uint32_t c)
{
    if (c == ';' || c == ' ' || c == (uint32_t)PY_FILE_MARK[0] || c < 0x20 || c == 0x7f)
        return '_';
    return c < 0x80 ? (char)c : '?';
}

/* The i-th character of a str's data of kind bytes a character (1, 2,
 * 4; little-endian, as CPython stores them on this machine). */
static uint32_t char_at(const unsigned char *data, size_t i, unsigned kind)
{
    uint32_t c = 0;
    for (unsigned b = kind; b-- > 0;)
        c = c << 8 | data[kind * i + b];
    return c;
}

/* The str object at addr into out (len bytes, NUL-ended, at most
 * PY_MAX_NAME characters): compact strings of any kind; others "?".
 * @return 0, or -1 when a read failed. */
static int read_str(const struct py_target *t, uint64_t addr, char *out, size_t len)
{
    const struct py_layout *l = t->l;
    unsigned char head[128], data[PY_MAX_NAME * 4];
    int64_t n;
    uint32_t state;
    if (!addr || l->str_compact_data > sizeof head ||
        target_read(t, addr, head, l->str_compact_data))
        return -1;
    memcpy(&n, head + l->str_length, sizeof n);
    memcpy(&state, head + l->str_state, sizeof state);
    unsigned kind = (state >> l->kind_shift) & l->kind_mask;
    snprintf(out, len, "?");
    if (!(state & l->compact_bit) || (kind != 1 && kind != 2 && kind != 4) || n < 0)
        return 0;
    size_t count = (size_t)n < PY_MAX_NAME ? (size_t)n : PY_MAX_NAME;
    count = count < len - 1 ? count : len - 1;
    uint64_t at = addr + ((state & l->ascii_bit) ? l->str_ascii_data : l->str_compact_data);
    if (target_read(t, at, data, count * kind))
        return -1;
    for (size_t i = 0; i < count; i++)
        out[i] = safe_char(char_at(data, i, kind));
    out[count] = '\0';
    return 0;
}

/* The module of a code object's file: the path after site-packages/,
 * dist-packages/ or lib/python3.N/ with '/' made '.' ("json.encoder",
 * "vdsm.rpc.bridge"), else its base name ("server" of
 * "/srv/app/server.py"); a package's __init__.py outside those roots is
 * named by its directory. ".py" and ".__init__.py" dropped.
 * @return where in path the part under the root starts, NULL when the
 * file is under none. */
static const char *module_of(const char *path, char *out, size_t len)
{
    static const char *const roots[] = {"site-packages/", "dist-packages/", "/lib/python3."};
    const char *p = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (!strcmp(p, "__init__.py") && p > path + 1) {
        const char *q = p - 1;
        while (q > path && q[-1] != '/')
            q--;
        p = q;
    }
    const char *under = NULL;
    for (size_t i = 0; i < sizeof roots / sizeof *roots && !under; i++) {
        const char *r = strstr(path, roots[i]);
        if (!r)
            continue;
        r += strlen(roots[i]);
        if (i == 2) /* past "lib/python3.11/" */
            r = strchr(r, '/') ? strchr(r, '/') + 1 : p;
        p = under = r;
    }
    size_t k = 0;
    for (; *p && k + 1 < len; p++)
        out[k++] = *p == '/' ? '.' : *p;
    out[k] = '\0';
    if (k >= 12 && !strcmp(out + k - 12, ".__init__.py"))
        out[k - 12] = '\0';
    else if (k >= 3 && !strcmp(out + k - 3, ".py"))
        out[k - 3] = '\0';
    return under;
}

/* The report's module column of path: under a library root, the part
 * under it (from: "json/encoder.py", "threading.py"), else the file's
 * last two path components ("app/server.py"): short, and still telling
 * two files of one name apart. */
static const char *short_file(const char *path, const char *from)
{
    if (from)
        return from;
    const char *p = path + strlen(path);
    int slashes = 0;
    while (p > path && slashes < 2)
        if (*--p == '/' && ++slashes == 2)
            p++;
    return p;
}

/* The frame's name "module.qualname@dir/file.py:LINE" into name
 * (PY_NAME_LEN) from its code object (LINE: its def line,
 * co_firstlineno), remembered in w's cache. *skip: the frame has not started
 * running (3.11's incomplete frames, _PyFrame_IsIncomplete).
 * @return 0, or -1. */
static int frame_name(const struct py_target *t, struct py_scratch *w, uint64_t code,
                      uint64_t prev_instr, int owner, char *name, int *skip)
{
    const struct py_layout *l = t->l;
    unsigned char co[MAX_FRAME_READ];
    char qual[PY_MAX_NAME + 1], file[PY_MAX_NAME + 1], mod[PY_MAX_NAME + 1];
    int32_t first, line;
    if (!code || l->co_size > sizeof co || target_read(t, code, co, l->co_size))
        return -1;
    memcpy(&first, co + l->co_firsttraceable, sizeof first);
    *skip = owner != l->owner_generator && first >= 0 &&
            prev_instr < code + l->co_code + 2 * (uint64_t)first;
    if (*skip)
        return 0;
    uint64_t q = ptr_at(co, sizeof co, l->co_qualname), f = ptr_at(co, sizeof co, l->co_filename);
    struct py_name_slot *slot = &w->cache[(code >> 4) % PY_CACHE_SLOTS];
    if (slot->pid == t->pid && slot->code == code && slot->qual == q && slot->file == f) {
        memcpy(name, slot->name, PY_NAME_LEN);
        return 0;
    }
    if (read_str(t, q, qual, sizeof qual) || read_str(t, f, file, sizeof file))
        return -1;
    const char *from = module_of(file, mod, sizeof mod);
    memcpy(&line, co + l->co_firstlineno, sizeof line);
    snprintf(name, PY_NAME_LEN, "%.90s.%.110s" PY_FILE_MARK "%.40s:%d", mod, qual,
             short_file(file, from), line > 0 ? line : 0);
    *slot = (struct py_name_slot){.pid = t->pid, .code = code, .qual = q, .file = f};
    memcpy(slot->name, name, PY_NAME_LEN);
    return 0;
}

/* names[0..n) (leaf first) joined root first into out (PY_STACK_LEN);
 * too long a stack keeps its leaf side. */
static void join(char (*names)[PY_NAME_LEN], size_t n, char *out)
{
    size_t keep = 0, len = 0;
    while (keep < n && len + strlen(names[keep]) + 1 < PY_STACK_LEN)
        len += strlen(names[keep++]) + 1;
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = keep; i-- > 0;)
        k += (size_t)snprintf(out + k, PY_STACK_LEN - k, "%s%s", names[i], i ? ";" : "");
}

/* The frames from frame (a _PyInterpreterFrame *) up into out->stack.
 * @return 0, or -1 when a read failed (the stack is then UNREADABLE). */
static int walk_frames(const struct py_target *t, struct py_scratch *w, uint64_t frame,
                       struct py_thread *out)
{
    const struct py_layout *l = t->l;
    char(*names)[PY_NAME_LEN] = w->names;
    unsigned char fr[MAX_FRAME_READ];
    size_t n = 0;
    for (int hops = 0; frame && hops < 4 * PY_MAX_DEPTH && n < PY_MAX_DEPTH; hops++) {
        int skip = 0;
        if (l->fr_size > sizeof fr || target_read(t, frame, fr, l->fr_size))
            break;
        int owner = (signed char)fr[l->fr_owner];
        if (owner != l->owner_cstack &&
            frame_name(t, w, ptr_at(fr, sizeof fr, l->fr_code),
                       ptr_at(fr, sizeof fr, l->fr_prev_instr), owner, names[n], &skip))
            break;
        n += owner != l->owner_cstack && !skip;
        frame = ptr_at(fr, sizeof fr, l->fr_previous);
    }
    if (frame && n < PY_MAX_DEPTH) {
        snprintf(out->stack, sizeof out->stack, "%s", UNREADABLE);
        return -1;
    }
    join(names, n, out->stack);
    return 0;
}

/* One thread state at ts into out; *next gets the following one.
 * @return 0, or -1 when the thread state itself could not be read. */
static int walk_thread(const struct py_target *t, struct py_scratch *w, uint64_t ts,
                       struct py_thread *out, uint64_t *next)
{
    const struct py_layout *l = t->l;
    unsigned long tid;
    uint64_t cframe, frame = 0;
    if (target_read(t, ts + l->ts_next, next, sizeof *next) ||
        target_read(t, ts + l->ts_native_tid, &tid, sizeof tid) ||
        target_read(t, ts + l->ts_cframe, &cframe, sizeof cframe))
        return -1;
    out->tid = tid;
    /* A read fails when the thread returned from a frame as it was read
     * (the frame freed): the walk is tried once more from the top. */
    for (int tries = 0; tries < 2; tries++) {
        if (cframe && target_read(t, cframe + l->cf_current_frame, &frame, sizeof frame)) {
            snprintf(out->stack, sizeof out->stack, "%s", UNREADABLE);
            return 0;
        }
        if (walk_frames(t, w, frame, out) == 0)
            break;
    }
    return 0;
}

int py_walk(const struct py_target *t, struct py_scratch *w, struct py_thread *out, size_t max)
{
    const struct py_layout *l = t->l;
    uint64_t interp;
    size_t n = 0;
    if (!l || target_read(t, t->runtime + l->rt_interp_head, &interp, sizeof interp))
        return -1;
    for (int i = 0; interp && i < PY_MAX_INTERPS; i++) {
        uint64_t ts, next;
        if (target_read(t, interp + l->is_threads_head, &ts, sizeof ts))
            return n ? (int)n : -1;
        for (int k = 0; ts && k < PY_MAX_THREADS && n < max; k++, ts = next)
            if (walk_thread(t, w, ts, &out[n], &next) == 0)
                n++;
            else
                break;
        if (target_read(t, interp + l->is_next, &interp, sizeof interp))
            break;
    }
    return (int)n;
}
