/* compare_warnings: the rounds' warnings, one line per kind
 * (compare_report.h). A compare of 8 runs on a busy machine says "late
 * pacer" and "hypervisor steal" in nearly every run; listed one by one
 * they drown the one warning that matters, so a warning that recurs is
 * said once, with how many runs said it, which, and the worst of them. */
#include "report/compare_report.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One kind of warning: its key, and the worst run that said it. */
struct warn_kind {
    char key[RUN_WARNING_LEN];
    int arm;
    size_t round, w, count;
    double worst;
};

/* @return 1 when s[i] starts a number that stands alone: "13.07ms" and
 * "(10 in all" do, the 99 of "p99" does not. */
static int number_at(const char *s, size_t i)
{
    return isdigit((unsigned char)s[i]) &&
           (i == 0 || (!isalnum((unsigned char)s[i - 1]) && s[i - 1] != '.'));
}

/* The kind of warning text: every number that stands alone made "#",
 * then cut at the first ':' (what follows it names the cause, which may
 * differ from run to run). Into key (RUN_WARNING_LEN). */
static void kind_of(const char *text, char *key)
{
    size_t n = 0;
    for (size_t i = 0; text[i] && text[i] != ':' && n + 1 < RUN_WARNING_LEN;) {
        if (number_at(text, i)) {
            key[n++] = '#';
            while (isdigit((unsigned char)text[i]) || text[i] == '.')
                i++;
        } else {
            key[n++] = text[i++];
        }
    }
    key[n] = 0;
}

/* @return the first number of text that stands alone, the measure of
 * how bad it is ("late pacer: pacer lag p99 13.07ms": 13.07), or 0. */
static double measure(const char *text)
{
    for (size_t i = 0; text[i]; i++)
        if (number_at(text, i))
            return strtod(text + i, NULL);
    return 0;
}

/* Adds run (a, i)'s warning w to kinds (n so far, room for one more).
 * @return the new n. */
static size_t note(struct warn_kind *kinds, size_t n, const struct comparison *c, int a,
                   size_t i, size_t w)
{
    const char *text = c->arm[a].rounds[i].warnings[w];
    static char key[RUN_WARNING_LEN];
    kind_of(text, key);
    size_t k = 0;
    while (k < n && strcmp(kinds[k].key, key))
        k++;
    struct warn_kind *x = &kinds[k];
    if (k == n) { /* a new kind */
        snprintf(x->key, sizeof x->key, "%s", key);
        n++;
    }
    double m = measure(text);
    if (x->count++ == 0 || m > x->worst) {
        x->arm = a;
        x->round = i;
        x->w = w;
        x->worst = m;
    }
    return n;
}

/* @return 1 when run r said a warning of kind key. */
static int said(const struct run_result *r, const char *key)
{
    static char other[RUN_WARNING_LEN];
    for (size_t w = 0; w < r->nwarnings; w++) {
        kind_of(r->warnings[w], other);
        if (!strcmp(other, key))
            return 1;
    }
    return 0;
}

/* "A 1, 2, 4; B 1, 3": the rounds whose runs said kind key, into out
 * (len bytes). @return how many runs. */
static size_t runs_of(const struct comparison *c, const char *key, char *out, size_t len)
{
    size_t n = 0, runs = 0;
    out[0] = 0;
    for (int a = 0; a < 2; a++) {
        int any = 0;
        for (size_t i = 0; i < c->pairs; i++) {
            if (!said(&c->arm[a].rounds[i], key))
                continue;
            runs++;
            if (n < len)
                n += (size_t)snprintf(out + n, len - n, "%s%zu", any ? ", " : n ? "; B " :
                                      a ? "B " : "A ", i + 1);
            any = 1;
        }
    }
    return runs;
}

/* Says kind x: as its run said it, or, said by several runs, with their
 * count, which and the worst ("7 runs (A 1, 2, 3; B 1, 2, 3, 4), the
 * worst B round 2: late pacer: ..."). */
static void say(const struct comparison *c, const struct warn_kind *x, compare_warn_fn fn,
                void *ctx)
{
    char pre[200], runs[120], worst[32];
    compare_warning_prefix(c, x->arm, x->round, worst, sizeof worst);
    size_t n = x->count > 1 ? runs_of(c, x->key, runs, sizeof runs) : 1;
    if (n > 1) {
        worst[strlen(worst) > 2 ? strlen(worst) - 2 : 0] = 0; /* "B round 2" without ": " */
        snprintf(pre, sizeof pre, "%zu runs (%s), the worst %s: ", n, runs, worst);
    } else {
        snprintf(pre, sizeof pre, "%s", worst);
    }
    fn(ctx, pre, c->arm[x->arm].rounds[x->round].warnings[x->w]);
}

void compare_warnings_each(const struct comparison *c, compare_warn_fn fn, void *ctx)
{
    size_t total = 0, n = 0;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < c->pairs; i++)
            total += c->arm[a].rounds[i].nwarnings;
    struct warn_kind *kinds = total ? calloc(total, sizeof *kinds) : NULL;
    for (int a = 0; a < 2; a++) /* out of memory: each said alone */
        for (size_t i = 0; i < c->pairs; i++)
            for (size_t w = 0; w < c->arm[a].rounds[i].nwarnings; w++) {
                if (kinds) {
                    n = note(kinds, n, c, a, i, w);
                    continue;
                }
                struct warn_kind one = {.arm = a, .round = i, .w = w, .count = 1};
                say(c, &one, fn, ctx);
            }
    for (size_t k = 0; k < n; k++)
        say(c, &kinds[k], fn, ctx);
    free(kinds);
}
