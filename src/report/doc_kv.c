/* doc_kv: one section of key-value lines, every format (doc_kv.h). */
#include "report/doc_kv.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"

void doc_kv_init(struct doc_kv *d, const char *caption)
{
    memset(d, 0, sizeof *d);
    snprintf(d->caption, sizeof d->caption, "%s", caption);
}

void doc_kv_free(struct doc_kv *d)
{
    for (int i = 0; i < d->n; i++)
        free(d->line[i].value);
    free(d->line);
    d->line = NULL;
    d->n = d->cap = d->lost = 0;
}

/* Room for one more line. @return 0, or -1 without memory. */
static int grow(struct doc_kv *d)
{
    if (d->n < d->cap)
        return 0;
    int cap = d->cap ? 2 * d->cap : 8;
    void *p = realloc(d->line, (size_t)cap * sizeof *d->line);
    if (!p)
        return -1;
    d->line = p;
    d->cap = cap;
    return 0;
}

struct doc_kv_line *doc_kv_add(struct doc_kv *d, unsigned where, const char *key,
                               const char *fmt, ...)
{
    char *value = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&value, fmt, ap);
    va_end(ap);
    if (n < 0 || grow(d)) {
        free(n < 0 ? NULL : value);
        d->lost++;
        return NULL;
    }
    struct doc_kv_line *l = &d->line[d->n++];
    snprintf(l->key, sizeof l->key, "%s", key);
    l->value = value;
    l->where = where;
    l->metric = -1;
    l->raw = NAN;
    return l;
}

void doc_kv_append(struct doc_kv *d, const char *fmt, ...)
{
    if (d->n == 0)
        return;
    struct doc_kv_line *l = &d->line[d->n - 1];
    char *more = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&more, fmt, ap);
    va_end(ap);
    size_t used = strlen(l->value);
    char *p = n < 0 ? NULL : realloc(l->value, used + (size_t)n + 1);
    if (!p) {
        d->lost++;
    } else {
        memcpy(p + used, more, (size_t)n + 1);
        l->value = p;
    }
    free(n < 0 ? NULL : more);
}

/* What the writers say of lines no memory held. */
static void lost_text(const struct doc_kv *d, char *out, size_t len)
{
    snprintf(out, len, "%d line%s of this section lost: out of memory", d->lost,
             d->lost == 1 ? "" : "s");
}

void doc_kv_text(FILE *out, const struct doc_kv *d)
{
    if (d->blank_before)
        fputc('\n', out);
    for (int i = 0; i < d->n; i++)
        if (d->line[i].where & DOC_IN_TEXT)
            fprintf(out, "%-*s%s\n", DOC_KV_TEXT_KEY, d->line[i].key, d->line[i].value);
    if (d->lost) {
        char lost[96];
        lost_text(d, lost, sizeof lost);
        fprintf(out, "%-*s%s\n", DOC_KV_TEXT_KEY, "!", lost);
    }
}

void doc_kv_html(FILE *out, const struct doc_kv *d)
{
    const char *heads[2] = {d->caption, ""};
    int opened = 0;
    for (int i = 0; i < d->n; i++) {
        if (!(d->line[i].where & DOC_IN_PAGE))
            continue;
        if (!opened++)
            html_table(out, NULL, heads, 2);
        const char *cells[2] = {d->line[i].key, d->line[i].value};
        html_row(out, cells, 2);
    }
    if (d->lost) {
        char lost[96];
        lost_text(d, lost, sizeof lost);
        const char *cells[2] = {"!", lost};
        if (!opened++)
            html_table(out, NULL, heads, 2);
        html_row(out, cells, 2);
    }
    if (opened)
        html_table_end(out);
}
