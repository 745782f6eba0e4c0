/* perf_script: `perf script` read through a pipe and folded (perf.h's
 * perf_fold). Its samples come as a header line "  TID SECONDS.NANOS:"
 * then one tab-indented frame a line, leaf first, "ADDR SYMBOL (DSO)",
 * then a blank line. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/child.h"
#include "profile/perf.h"
#include "profile/perf_testing.h"

struct sample {
    char *names[FOLD_MAX_DEPTH], *mods[FOLD_MAX_DEPTH];
    size_t n;
    int64_t t_ns;
    int open;
};

/* "12034.847546323:" as ns; -1 when it is not a time. */
static int64_t parse_time(const char *s)
{
    char *end;
    long long sec = strtoll(s, &end, 10);
    if (*end != '.' || sec < 0 || sec >= INT64_MAX / 1000000000LL)
        return -1; /* none, or out of range: the sample is skipped */
    const char *f = end + 1;
    int64_t ns = 0;
    int digits = 0;
    for (; *f >= '0' && *f <= '9'; f++, digits++)
        ns = digits < 9 ? ns * 10 + (*f - '0') : ns;
    for (; digits < 9; digits++)
        ns *= 10;
    return (int64_t)sec * 1000000000LL + ns;
}

/* A module's short name: the DSO's file name, "kernel" for the kernel,
 * "JIT" for a JIT's symbol map (/tmp/perf-PID.map: its pid would make
 * the same code two modules between two processes). */
static char *module_of(char *dso)
{
    if (strncmp(dso, "[kernel", 7) == 0)
        return "kernel";
    char *slash = strrchr(dso, '/'), *name = slash ? slash + 1 : dso;
    int end = 0;
    if (sscanf(name, "perf-%*[0-9].map%n", &end) == 0 && end && !name[end])
        return "JIT";
    return name;
}

/* Splits a frame line "\t ADDR SYMBOL (DSO)" in place into its symbol and
 * module. @return 0, or -1 for a line that is no frame. */
static int parse_frame(char *line, char **sym, char **mod)
{
    char *p = line + strspn(line, " \t");
    p += strcspn(p, " ");            /* the address */
    p += strspn(p, " ");
    char *paren = strrchr(p, '(');
    if (!paren || paren == p)
        return -1;
    char *close = strrchr(paren, ')');
    if (close)
        *close = '\0';
    char *e = paren;
    while (e > p && e[-1] == ' ')
        e--;
    *e = '\0';
    char *ver = strchr(p, '@'); /* "pthread_mutex_lock@@GLIBC_2.2.5": the name alone */
    if (ver && ver != p)
        *ver = '\0';
    *sym = *p ? p : "[unknown]";
    *mod = module_of(paren + 1);
    return 0;
}

/* The sampling interrupt's frames (the kernel's timer entry and what it
 * called) are the profiler's, not the server's: the stack starts below
 * the deepest of them. @return the first frame (leaf side) to keep. */
static size_t skip_interrupt(const struct sample *s)
{
    size_t from = 0;
    for (size_t i = 0; i < s->n; i++)
        if (strncmp(s->names[i], "asm_sysvec_", 11) == 0 ||
            strcmp(s->names[i], "asm_common_interrupt") == 0)
            from = i + 1;
    return from < s->n ? from : 0;
}

/* Adds the sample in s (frames leaf first) to f when it lies in the
 * window, and frees its strings. @return 0, or -1 (out of memory). */
static int flush(struct sample *s, int64_t t0, int64_t t1, struct fold *f, int64_t *outside)
{
    int rc = 0;
    if (s->open && s->n) {
        if (s->t_ns < t0 || s->t_ns > t1) {
            (*outside)++;
        } else {
            const char *names[FOLD_MAX_DEPTH], *mods[FOLD_MAX_DEPTH];
            size_t from = skip_interrupt(s), k = 0;
            for (size_t i = s->n; i-- > from;) { /* root first */
                names[k] = s->names[i];
                mods[k++] = s->mods[i];
            }
            rc = fold_add(f, names, mods, k, 1);
        }
    }
    for (size_t i = 0; i < s->n; i++) {
        free(s->names[i]);
        free(s->mods[i]);
    }
    s->n = 0;
    s->open = 0;
    return rc;
}

/* One line of perf script's output into s (and f, at a sample's end). */
static int take_line(char *line, struct sample *s, int64_t t0, int64_t t1, struct fold *f,
                     int64_t *outside)
{
    line[strcspn(line, "\n")] = '\0';
    if (line[0] != '\t') { /* a header (the tid right-aligned), or the blank line */
        if (flush(s, t0, t1, f, outside))
            return -1;
        char *tp = line + strspn(line, " ");
        tp += strcspn(tp, " ");
        s->t_ns = *tp ? parse_time(tp + strspn(tp, " ")) : -1; /* blank: -1 */
        s->open = s->t_ns >= 0;
        return 0;
    }
    char *sym, *mod, named[300];
    if (!s->open || s->n == FOLD_MAX_DEPTH || parse_frame(line, &sym, &mod))
        return 0;
    /* a frame without a symbol is named by its module, as FlameGraph's
     * stackcollapse-perf does: "[libxmlrpc.so.3]", not one "[unknown]"
     * shared by every library */
    if (!strcmp(sym, "[unknown]") && strcmp(mod, "[unknown]")) {
        snprintf(named, sizeof named, "[%.200s]", mod);
        sym = named;
    }
    s->names[s->n] = strdup(sym);
    s->mods[s->n] = strdup(mod);
    if (!s->names[s->n] || !s->mods[s->n])
        return -1;
    s->n++;
    return 0;
}

int perf_fold_stream(FILE *in, int64_t t0_ns, int64_t t1_ns, struct fold *f, int64_t *outside)
{
    static struct sample s; /* large: off the stack; one fold at a time */
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    *outside = 0;
    while (rc == 0 && getline(&line, &cap, in) > 0)
        rc = take_line(line, &s, t0_ns, t1_ns, f, outside);
    if (rc == 0)
        rc = flush(&s, t0_ns, t1_ns, f, outside);
    else
        flush(&s, INT64_MIN, INT64_MIN, f, outside);
    free(line);
    return rc;
}

int perf_fold(const struct perf_rec *p, int64_t t0_ns, int64_t t1_ns, struct fold *f,
              int64_t *outside, char *err)
{
    /* --no-inline: each frame is a real function with its module (an
     * inlined one has none), and no addr2line per address */
    const char *argv[] = {"perf", "script", "--no-inline", "-i", p->data, "--ns", "-F",
                          "tid,time,ip,sym,dso", NULL};
    pid_t pid;
    FILE *in = child_read(argv, p->log, &pid, err);
    if (!in)
        return -1;
    int rc = perf_fold_stream(in, t0_ns, t1_ns, f, outside);
    int code = child_close(in, pid, 120000);
    if (rc) {
        snprintf(err, ERR_LEN, "--profile: out of memory folding perf's samples");
        return -1;
    }
    if (code != 0) {
        perf_message(p, "--profile: perf script failed", err);
        return -1;
    }
    return 0;
}
