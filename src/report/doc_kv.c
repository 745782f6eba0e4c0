/* doc_kv: one section of key-value lines, every format (doc_kv.h). */
#include "report/doc_kv.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "report/html.h"

void doc_kv_init(struct doc_kv *d, const char *caption)
{
    d->n = 0;
    d->blank_before = 0;
    snprintf(d->caption, sizeof d->caption, "%s", caption);
}

struct doc_kv_line *doc_kv_add(struct doc_kv *d, unsigned where, const char *key,
                               const char *fmt, ...)
{
    if (d->n == DOC_KV_LINES)
        return NULL;
    struct doc_kv_line *l = &d->line[d->n++];
    snprintf(l->key, sizeof l->key, "%s", key);
    l->where = where;
    l->metric = -1;
    l->raw = NAN;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->value, sizeof l->value, fmt, ap);
    va_end(ap);
    return l;
}

void doc_kv_append(struct doc_kv *d, const char *fmt, ...)
{
    if (d->n == 0)
        return;
    struct doc_kv_line *l = &d->line[d->n - 1];
    size_t used = strlen(l->value);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->value + used, sizeof l->value - used, fmt, ap);
    va_end(ap);
}

void doc_kv_text(FILE *out, const struct doc_kv *d)
{
    if (d->blank_before)
        fputc('\n', out);
    for (int i = 0; i < d->n; i++)
        if (d->line[i].where & DOC_IN_TEXT)
            fprintf(out, "%-*s%s\n", DOC_KV_TEXT_KEY, d->line[i].key, d->line[i].value);
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
    if (opened)
        html_table_end(out);
}
