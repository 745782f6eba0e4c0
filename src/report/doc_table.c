/* doc_table: one table, every format (doc_table.h). */
#include "report/doc_table.h"
#include "report/doc_table_testing.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/figure.h"
#include "base/safetext.h"
#include "report/html.h"

void doc_table_init(struct doc_table *t, int ncols)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols < 1 ? 1 : ncols > DOC_MAX_COLS ? DOC_MAX_COLS : ncols;
}

void doc_table_style_init(struct doc_table_style *st)
{
    memset(st, 0, sizeof *st);
}

/* The writers' defaults, for a caller that passes no style. */
static const struct doc_text_style text_plain;
static const struct doc_html_style html_plain;

/* A cell's bytes with its NUL. */
static size_t cell_size(const struct doc_table *t)
{
    return t->cell_len > 0 ? (size_t)t->cell_len : DOC_CELL_LEN;
}

const char *doc_table_cell(const struct doc_table *t, int r, int c)
{
    return t->cells + ((size_t)r * (size_t)t->ncols + (size_t)c) * cell_size(t);
}

/* Room for one more row. @return 0, or -1 with err and t's rows freed. */
static int grow(struct doc_table *t, char *err)
{
    if (t->nrows < t->cap)
        return 0;
    int cap = t->cap ? 2 * t->cap : 16;
    size_t cells = (size_t)cap * (size_t)t->ncols;
    void *p = realloc(t->cells, cells * cell_size(t));
    if (p)
        t->cells = p;
    void *v = p ? realloc(t->raw, cells * sizeof *t->raw) : NULL;
    if (v)
        t->raw = v;
    void *q = v ? realloc(t->rows, (size_t)cap * sizeof *t->rows) : NULL;
    if (!q) {
        doc_table_free(t);
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    t->rows = q;
    t->cap = cap;
    return 0;
}

/* v as column c's kind writes it, into out (len bytes); "" unknown. */
static void raw_text(const struct doc_table *t, int c, double v, char *out, size_t len)
{
    out[0] = 0;
    if (!fig_known(v))
        return;
    switch (t->raw_kind[c]) {
    case DOC_RAW_INT: snprintf(out, len, "%.0f", v); break;
    case DOC_RAW_FIXED: snprintf(out, len, "%.*f", t->raw_dec[c], v); break;
    case DOC_RAW_G: snprintf(out, len, "%.*g", t->raw_dec[c], v); break;
    case DOC_RAW_NONE: break;
    }
}

/* Row r's cells: texts (NULL: from raw) and raw values (NULL: unknown). */
static void put_cells(struct doc_table *t, int r, const char *const *cells, const double *raw)
{
    size_t size = cell_size(t);
    for (int c = 0; c < t->ncols; c++) {
        double v = raw && t->raw_kind[c] != DOC_RAW_NONE ? raw[c] : FIG_UNKNOWN;
        char own[64];
        const char *s = cells && cells[c] ? cells[c] : own;
        if (s == own)
            raw_text(t, c, v, own, sizeof own);
        /* a label may be cut: never inside a character */
        safetext(s, strlen(s), (char *)doc_table_cell(t, r, c), size, 0);
        t->raw[(size_t)r * (size_t)t->ncols + (size_t)c] = v;
    }
}

int doc_table_add_row(struct doc_table *t, const char *const *cells, const char *id,
                      unsigned flags, char *err)
{
    if (grow(t, err))
        return -1;
    put_cells(t, t->nrows, cells, NULL);
    snprintf(t->rows[t->nrows].id, sizeof t->rows[t->nrows].id, "%s", id ? id : "");
    t->rows[t->nrows].flags = flags;
    t->nrows++;
    return 0;
}

int doc_table_add_raw(struct doc_table *t, const char *const *cells, const double *raw,
                      char *err)
{
    if (grow(t, err))
        return -1;
    put_cells(t, t->nrows, cells, raw);
    t->rows[t->nrows].id[0] = 0;
    t->rows[t->nrows].flags = 0;
    t->nrows++;
    return 0;
}

double doc_table_raw(const struct doc_table *t, int r, int c)
{
    return t->raw[(size_t)r * (size_t)t->ncols + (size_t)c];
}

int doc_table_add(struct doc_table *t, const char *const *cells, char *err)
{
    return doc_table_add_row(t, cells, NULL, 0, err);
}

void doc_table_free(struct doc_table *t)
{
    free(t->cells);
    free(t->rows);
    free(t->raw);
    t->cells = NULL;
    t->rows = NULL;
    t->raw = NULL;
    t->nrows = t->cap = 0;
}

/* The bytes among s's first n beyond their characters (UTF-8: a
 * lower-bound mark "\u2265" is 3 bytes, 1 column). */
static int extra_bytes_n(const char *s, int n)
{
    int x = 0;
    for (int i = 0; i < n; i++)
        x += ((unsigned char)s[i] & 0xc0) == 0x80; /* a continuation byte */
    return x;
}

/* The bytes of s's first max characters (all of s when max is 0). */
static int text_bytes(const char *s, int max)
{
    int n = 0, chars = 0;
    for (; s[n] && (!max || chars < max || ((unsigned char)s[n] & 0xc0) == 0x80); n++)
        chars += ((unsigned char)s[n] & 0xc0) != 0x80;
    return n;
}

/* The characters of s's first max characters (all of s when max is 0). */
static int text_chars(const char *s, int max)
{
    int n = text_bytes(s, max);
    return n - extra_bytes_n(s, n);
}

/* The text's widths: the builder's, or with text_fit the widest cell's
 * (or head's) in characters, the builder's sign kept. */
static void text_widths(const struct doc_table *t, const struct doc_text_style *st, int *w)
{
    for (int c = 0; c < t->ncols; c++) {
        w[c] = t->width[c];
        if (!st->fit)
            continue;
        int most = st->head[0] ? 0 : text_chars(t->heads[c], st->max[c]);
        for (int r = 0; r < t->nrows; r++) {
            int n = text_chars(doc_table_cell(t, r, c), st->max[c]);
            most = n > most ? n : most;
        }
        w[c] = w[c] < 0 ? -most : most;
    }
}

/* One text line of ncols cells (cell(r, c), r -1 the heads), padded to the
 * widths in characters; blanks are held back until something follows them,
 * so that no line ends in blanks (an empty last note, a short flag). */
static void text_line(FILE *out, const struct doc_table *t, const struct doc_text_style *st,
                      int r, const int *width)
{
    int blanks = 0;
    for (int c = 0; c < t->ncols; c++) {
        const char *s = r < 0 ? t->heads[c] : doc_table_cell(t, r, c);
        int bytes = text_bytes(s, st->max[c]);
        const char *more = st->cut && s[bytes] && st->max[c] > 3 ? "..." : "";
        if (more[0])
            bytes = text_bytes(s, st->max[c] - 3);
        int chars = bytes - extra_bytes_n(s, bytes) + (int)strlen(more);
        int w = width[c] < 0 ? -width[c] : width[c];
        int pad = w > chars ? w - chars : 0;
        blanks += (c ? 1 + t->gap[c] : 0) + (width[c] > 0 ? pad : 0);
        if (bytes) {
            fprintf(out, "%*s%.*s%s", blanks, "", bytes, s, more);
            blanks = 0;
        }
        blanks += width[c] < 0 ? pad : 0;
    }
    fputc('\n', out);
}

void doc_table_text(FILE *out, const struct doc_table *t, const struct doc_text_style *st)
{
    int width[DOC_MAX_COLS];
    if (!st)
        st = &text_plain;
    text_widths(t, st, width);
    if (!st->tight)
        fputc('\n', out);
    if (t->caption[0])
        fprintf(out, "%s\n", t->caption);
    if (st->head[0])
        fprintf(out, "%s\n", st->head);
    else
        text_line(out, t, st, -1, width);
    if (!t->nrows && t->empty[0])
        fprintf(out, "%s\n", t->empty);
    for (int r = 0; r < t->nrows; r++)
        text_line(out, t, st, r, width);
    if (t->legend[0])
        fprintf(out, "(%s)\n", t->legend);
    if (t->warning[0])
        fprintf(out, "%s\n", t->warning);
    if (t->notes[0])
        fprintf(out, "%s\n", t->notes);
}

/* The page aligns column c left, as the text does. */
static int html_left(const struct doc_table *t, const struct doc_html_style *st, int c)
{
    return st->left && c > 0 && t->width[c] < 0;
}

/* The page's head row: the last column sticks when asked. */
static void html_head(FILE *out, const struct doc_table *t, const struct doc_html_style *st)
{
    const char *cap = st->caption[0] ? st->caption : t->caption[0] ? t->caption : t->legend;
    fputs("<div class=\"scroll\"><table", out);
    if (t->id[0])
        fprintf(out, " id=\"%s\"", t->id); /* the builder's own word, never a peer's */
    fputs(">", out);
    if (cap[0]) {
        fputs("<caption>", out);
        html_esc(out, cap);
        fputs("</caption>", out);
    }
    fputs("<thead><tr>", out);
    for (int c = 0; c < t->ncols; c++) {
        fputs(st->stick_last && c == t->ncols - 1 ? "<th class=\"stick\">"
              : html_left(t, st, c) ? "<th style=\"text-align:left\">" : "<th>", out);
        html_esc(out, c == 0 && st->first_head[0] ? st->first_head : t->heads[c]);
        fputs("</th>", out);
    }
    fputs("</tr></thead><tbody>\n", out);
}

/* The rest of a cell's opening tag and its text, cut to max characters
 * (0: all) with "...", the whole in its title. */
static void html_cell(FILE *out, const char *text, int max)
{
    int bytes = text_bytes(text, max);
    if (!max || !text[bytes] || max <= 3) {
        fputs(">", out);
        html_esc(out, text);
        return;
    }
    char shown[DOC_CELL_LEN];
    bytes = text_bytes(text, max - 3);
    snprintf(shown, sizeof shown, "%.*s...", bytes, text);
    fputs(" title=\"", out);
    html_esc(out, text);
    fputs("\">", out);
    html_esc(out, shown);
}

/* One row: its first cell heads it; a cell gets its id and class. */
static void html_body_row(FILE *out, const struct doc_table *t, const struct doc_html_style *st,
                          int r)
{
    const struct doc_row *row = &t->rows[r];
    fputs("<tr>", out);
    for (int c = 0; c < t->ncols; c++) {
        const char *text = doc_table_cell(t, r, c);
        if (c == 0) {
            fputs("<th scope=\"row\"", out);
            html_cell(out, text, st->max[c]);
            fputs("</th>", out);
            continue;
        }
        fputs("<td", out);
        if (t->cell_ids[0] && row->id[0] && t->col_id[c][0])
            fprintf(out, " id=\"%s-%s-%s\"", t->cell_ids, row->id, t->col_id[c]);
        int last = c == t->ncols - 1, sig = last && (row->flags & DOC_ROW_MARKED);
        if (last && (st->stick_last || sig))
            fprintf(out, " class=\"%s%s\"", st->stick_last ? "stick" : "",
                    sig ? (st->stick_last ? " sig" : "sig") : "");
        if (html_left(t, st, c))
            fputs(" style=\"text-align:left\"", out);
        html_cell(out, text, st->max[c]);
        fputs("</td>", out);
    }
    fputs("</tr>\n", out);
}

/* The notes' lines as one paragraph, each line kept (a <br> between). */
static void notes_html(FILE *out, const char *notes)
{
    char line[sizeof ((struct doc_table *)0)->notes];
    fputs("<p class=\"sub\">", out);
    for (const char *p = notes; *p;) {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        if (p != notes)
            fputs("<br>\n", out);
        html_esc(out, line);
        p += n + (p[n] == '\n');
    }
    fputs("</p>\n", out);
}

void doc_table_html(FILE *out, const struct doc_table *t, const struct doc_html_style *st)
{
    if (!st)
        st = &html_plain;
    html_head(out, t, st);
    for (int r = 0; r < t->nrows; r++)
        html_body_row(out, t, st, r);
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
    if (t->notes[0])
        notes_html(out, t->notes);
}

/* ---- CSV ----------------------------------------------------------------------- */

void doc_csv_field(FILE *out, const char *s)
{
    char tmp[1024];
    s = safetext_view(s, tmp, sizeof tmp, 0); /* defence in depth: one line, valid UTF-8 */
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void doc_table_csv(FILE *out, const struct doc_table *t)
{
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', out);
        doc_csv_field(out, t->heads[c]);
    }
    fputc('\n', out);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            char v[64];
            if (c)
                fputc(',', out);
            if (t->raw_kind[c] == DOC_RAW_NONE) {
                doc_csv_field(out, doc_table_cell(t, r, c));
                continue;
            }
            raw_text(t, c, doc_table_raw(t, r, c), v, sizeof v);
            fputs(v, out);
        }
        fputc('\n', out);
    }
}
