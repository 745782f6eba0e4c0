/* fold: folded stacks and their function table (fold.h). */
#include "profile/fold.h"
#include "profile/fold_testing.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "profile/fold_int.h"

#define FRAME_MAX 255

struct fold *fold_new(void)
{
    struct fold *f = calloc(1, sizeof *f);
    if (f) {
        strmap_init(&f->stacks);
        strmap_init(&f->modules);
        strmap_init(&f->funcs);
    }
    return f;
}

void fold_free(struct fold *f)
{
    if (!f)
        return;
    strmap_free(&f->stacks);
    strmap_free(&f->modules);
    strmap_free(&f->funcs);
    free(f->buf);
    free(f);
}

/* Appends name to f->buf at *len, cut at FRAME_MAX bytes, with ';' and
 * controls made '_' so the frame stays one field of one line. */
static int append_frame(struct fold *f, size_t *len, const char *name)
{
    if (*len + FRAME_MAX + 2 > f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 4096;
        char *b = realloc(f->buf, cap);
        if (!b)
            return -1;
        f->buf = b;
        f->cap = cap;
    }
    if (*len)
        f->buf[(*len)++] = ';';
    size_t k = 0;
    for (; name[k] && k < FRAME_MAX; k++) {
        unsigned char c = (unsigned char)name[k];
        f->buf[(*len)++] = c == ';' || c < 0x20 || c == 0x7f ? '_' : (char)c;
    }
    if (k == 0)
        f->buf[(*len)++] = '?';
    f->buf[*len] = '\0';
    return 0;
}

int fold_add(struct fold *f, const char *const *frames, const char *const *modules, size_t n,
             int64_t count)
{
    size_t len = 0, from = n > FOLD_MAX_DEPTH ? n - FOLD_MAX_DEPTH : 0;
    if (n == 0 || count <= 0)
        return 0;
    for (size_t i = from; i < n; i++) {
        if (append_frame(f, &len, frames[i]))
            return -1;
        if (modules && modules[i] && modules[i][0] && !strmap_find(&f->modules, frames[i]) &&
            !strmap_get(&f->modules, frames[i], modules[i]))
            return -1;
    }
    struct strmap_entry *e = strmap_get(&f->stacks, f->buf, NULL);
    if (!e)
        return -1;
    e->count += count;
    f->samples += count;
    f->indexed = 0; /* the function table is stale: fold_index builds it again */
    return 0;
}

int fold_add_line(struct fold *f, const char *line)
{
    size_t n = strcspn(line, "\r\n");
    const char *sp = memrchr(line, ' ', n);
    if (!sp || sp == line || sp + 1 == line + n)
        return 1;
    char *end;
    errno = 0;
    long long count = strtoll(sp + 1, &end, 10);
    if (errno || end != line + n || count <= 0)
        return 1;
    const char *frames[FOLD_MAX_DEPTH];
    char copy[FOLD_MAX_DEPTH * 64];
    size_t len = (size_t)(sp - line) < sizeof copy - 1 ? (size_t)(sp - line) : sizeof copy - 1;
    memcpy(copy, line, len);
    copy[len] = '\0';
    size_t k = 0;
    for (char *save = NULL, *t = strtok_r(copy, ";", &save); t && k < FOLD_MAX_DEPTH;
         t = strtok_r(NULL, ";", &save))
        frames[k++] = t;
    return k ? fold_add(f, frames, NULL, k, count) : 1;
}

int fold_read(struct fold *f, const char *path, char *err)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, ERR_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    while (rc >= 0 && getline(&line, &cap, in) > 0)
        rc = fold_add_line(f, line);
    free(line);
    fclose(in);
    if (rc < 0)
        snprintf(err, ERR_LEN, "%s: out of memory", path);
    else if (f->samples == 0)
        snprintf(err, ERR_LEN, "%s: no folded stack in it ('frame;frame;... COUNT' lines)", path);
    return rc < 0 || f->samples == 0 ? -1 : 0;
}

int fold_write(const struct fold *f, const char *path, char *err)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        snprintf(err, ERR_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < f->stacks.cap; i++)
        if (f->stacks.slots[i].key)
            fprintf(out, "%s %lld\n", f->stacks.slots[i].key,
                    (long long)f->stacks.slots[i].count);
    if (fclose(out) != 0) {
        snprintf(err, ERR_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int64_t fold_samples(const struct fold *f)
{
    return f->samples;
}

/* The frames a whole stack starts from. */
static int whole_root(const char *s, size_t n)
{
    static const char *const roots[] = {"_start", "main", "__libc_start_main",
        "__libc_start_call_main", "start_thread", "clone", "clone3", "__clone", "__clone3",
        "ret_from_fork", "entry_SYSCALL_64_after_hwframe", "secondary_startup_64"};
    for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
        if (strlen(roots[i]) == n && memcmp(roots[i], s, n) == 0)
            return 1;
    return 0;
}

int64_t fold_truncated(const struct fold *f)
{
    int64_t t = 0;
    for (size_t i = 0; i < f->stacks.cap; i++) {
        const struct strmap_entry *e = &f->stacks.slots[i];
        if (e->key && !whole_root(e->key, strcspn(e->key, ";")))
            t += e->count;
    }
    return t;
}

/* @return 1 when a frame of the stack key has no symbol: "[unknown]", or
 * named by its module alone ("[libfoo.so.1]", perf_script's). */
static int unsymbolised(const char *key)
{
    for (const char *p = key; *p; p += strcspn(p, ";"), p += *p == ';') {
        size_t n = strcspn(p, ";");
        if (n >= 2 && p[0] == '[' && p[n - 1] == ']')
            return 1;
    }
    return 0;
}

int64_t fold_unsymbolised(const struct fold *f)
{
    int64_t t = 0;
    for (size_t i = 0; i < f->stacks.cap; i++) {
        const struct strmap_entry *e = &f->stacks.slots[i];
        if (e->key && unsymbolised(e->key))
            t += e->count;
    }
    return t;
}
