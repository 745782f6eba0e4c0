/* doc_table: one table, every format (doc_table.h). */
#include "report/doc_table.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "report/html.h"

void doc_table_init(struct doc_table *t, int ncols)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols < 1 ? 1 : ncols > DOC_MAX_COLS ? DOC_MAX_COLS : ncols;
}

int doc_table_add(struct doc_table *t, const char *const *cells, char *err)
{
    if (t->nrows == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        void *p = realloc(t->cells, (size_t)cap * (size_t)t->ncols * sizeof *t->cells);
        if (!p) {
            doc_table_free(t);
            snprintf(err, ERR_LEN, "out of memory");
            return -1;
        }
        t->cells = p;
        t->cap = cap;
    }
    for (int c = 0; c < t->ncols; c++)
        snprintf(t->cells[t->nrows * t->ncols + c], DOC_CELL_LEN, "%s", cells[c]);
    t->nrows++;
    return 0;
}

void doc_table_free(struct doc_table *t)
{
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}

/* The bytes of s beyond its characters (UTF-8: a lower-bound mark "\u2265"
 * is 3 bytes, 1 column), which printf's widths would count as columns. */
static int extra_bytes(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) == 0x80; /* a continuation byte */
    return n;
}

/* One text line of ncols cells, padded to the columns' widths in
 * characters. */
static void text_line(FILE *out, const struct doc_table *t, const char (*cells)[DOC_CELL_LEN])
{
    for (int c = 0; c < t->ncols; c++) {
        int w = t->width[c], x = extra_bytes(cells[c]);
        w = w > 0 ? w + x : w < 0 ? w - x : 0; /* w < 0: left-aligned */
        fprintf(out, "%s%*s", c ? " " : "", w, cells[c]);
    }
    fputc('\n', out);
}

void doc_table_text(FILE *out, const struct doc_table *t)
{
    fputc('\n', out);
    if (t->caption[0])
        fprintf(out, "%s\n", t->caption);
    if (t->text_head[0])
        fprintf(out, "%s\n", t->text_head);
    else
        text_line(out, t, (const char (*)[DOC_CELL_LEN])t->heads);
    if (!t->nrows && t->empty[0])
        fprintf(out, "%s\n", t->empty);
    for (int r = 0; r < t->nrows; r++)
        text_line(out, t, (const char (*)[DOC_CELL_LEN])&t->cells[r * t->ncols]);
    if (t->legend[0])
        fprintf(out, "(%s)\n", t->legend);
    if (t->warning[0])
        fprintf(out, "%s\n", t->warning);
}

void doc_table_html(FILE *out, const struct doc_table *t)
{
    const char *heads[DOC_MAX_COLS], *cells[DOC_MAX_COLS];
    for (int c = 0; c < t->ncols; c++)
        heads[c] = t->heads[c];
    const char *cap = t->html_caption[0] ? t->html_caption : t->caption[0] ? t->caption
                                                                             : t->legend;
    html_table(out, cap, heads, t->ncols);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++)
            cells[c] = t->cells[r * t->ncols + c];
        html_row(out, cells, t->ncols);
    }
    html_table_end(out);
    if (!t->nrows && t->empty[0]) {
        fputs("<p>", out);
        html_esc(out, t->empty);
        fputs("</p>\n", out);
    }
    if (t->warning[0]) {
        html_warn_open(out);
        html_warn_item(out, NULL, t->warning);
        html_warn_close(out);
    }
}
