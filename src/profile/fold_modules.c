/* fold_modules: a fold's stacks by module (fold.h's fold_by_module), the
 * view that shows which library a server's CPU goes to when its
 * functions' self time is spread over libc's allocator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/fold_int.h"

#define MODULE_LEN 64

/* The modules whose time is charged to their caller: the C library, the
 * loader, the kernel, and what perf could not place. */
static int charged_to_caller(const char *m)
{
    static const char *const sys[] = {"libc.so", "libpthread.so", "libm.so", "ld-linux",
                                      "kernel", "[vdso]", "[unknown]"};
    for (size_t i = 0; i < sizeof sys / sizeof *sys; i++)
        if (!strncmp(m, sys[i], strlen(sys[i])))
            return 1;
    return 0;
}

/* The module a frame's module column stands for, into out (MODULE_LEN):
 * a JIT's map (perf-PID.map) is "JIT" whatever the process, so that two
 * processes' JIT code is one module in a comparison; a Python file's
 * ":LINE" (pysample.h) is dropped, so that a file is one module. */
static void module_name(const char *m, char *out)
{
    int pid_end = 0;
    if (sscanf(m, "perf-%*[0-9].map%n", &pid_end) == 0 && pid_end && !m[pid_end]) {
        snprintf(out, MODULE_LEN, "JIT");
        return;
    }
    snprintf(out, MODULE_LEN, "%s", m);
    char *colon = strrchr(out, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1))
        *colon = '\0';
}

/* Splits key (modified) into its frames' modules, consecutive repeats
 * made one, into mods (at most FOLD_MAX_DEPTH). @return their count. */
static size_t module_frames(const struct fold *f, char *key, char mods[][MODULE_LEN])
{
    size_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(key, ";", &save); t && n < FOLD_MAX_DEPTH;
         t = strtok_r(NULL, ";", &save)) {
        const struct strmap_entry *e = strmap_find(&f->modules, t);
        module_name(e && e->aux && e->aux[0] ? e->aux : "[unknown]", mods[n]);
        if (n && !strcmp(mods[n - 1], mods[n]))
            continue;
        n++;
    }
    return n;
}

int fold_by_module(const struct fold *f, struct fold *out)
{
    static char mods[FOLD_MAX_DEPTH][MODULE_LEN]; /* large: off the stack */
    const char *frames[FOLD_MAX_DEPTH];
    for (size_t i = 0; i < f->stacks.cap; i++) {
        const struct strmap_entry *s = &f->stacks.slots[i];
        if (!s->key)
            continue;
        char *key = strdup(s->key);
        if (!key)
            return -1;
        size_t n = module_frames(f, key, mods);
        free(key);
        while (n > 1 && charged_to_caller(mods[n - 1]))
            n--;
        for (size_t k = 0; k < n; k++)
            frames[k] = mods[k];
        if (n && fold_add(out, frames, NULL, n, s->count))
            return -1;
    }
    return 0;
}
