/* doc_table: a table built once and written by each format's writer, so
 * the text and the page cannot say different things (issue 25). The
 * builder decides what each cell says: figures already rounded, in their
 * unit, marked as lower bounds, "n/a" where unknown. A writer decides only
 * how a format shows it: the text its columns' widths and alignment, the
 * HTML its escaping and layout. */
#ifndef RPCBENCH_DOC_TABLE_H
#define RPCBENCH_DOC_TABLE_H

#include <stdio.h>

#define DOC_MAX_COLS 8
#define DOC_CELL_LEN 64

struct doc_table {
    char caption[200];      /* the line above the table, in every format ("" none) */
    char html_caption[200]; /* the page's, where the text has none ("" the caption) */
    char text_head[200];    /* the text's header line, where it is not the heads
                               laid out as the rows are ("" laid out so) */
    char empty[120];        /* said when there is no row ("" nothing) */
    char legend[200];       /* what the figures mean: the text's "(...)" line after
                               the rows, the page's caption where it has none */
    char warning[240];      /* a caveat on the figures (lower bounds): the text's
                               line after the legend, the page's warning box */
    int ncols;
    char heads[DOC_MAX_COLS][DOC_CELL_LEN];
    int width[DOC_MAX_COLS]; /* text: the column's least width; negative: left-aligned */
    char (*cells)[DOC_CELL_LEN]; /* nrows x ncols, the table's own */
    int nrows, cap;
};

/* Clears t for ncols columns (1..DOC_MAX_COLS); heads, widths and the
 * texts are then the builder's to fill. Allocates nothing. */
void doc_table_init(struct doc_table *t, int ncols);
/* Adds a row of ncols cells (copied; cut at DOC_CELL_LEN - 1 bytes).
 * @return 0, or -1 with err ("out of memory", ERR_LEN bytes) and t's rows
 * freed: a builder then returns -1 at once. */
int doc_table_add(struct doc_table *t, const char *const *cells, char *err);
/* Frees the rows (t may be added to again after doc_table_init). */
void doc_table_free(struct doc_table *t);

/* A format's writer of a table. */
typedef void (*doc_writer)(FILE *out, const struct doc_table *t);

/* The text: a blank line, the caption's line, the header line, the empty
 * note when there is no row, then one line per row: cells joined by one
 * blank, each padded to its column's width in characters (a "\u2265" mark is
 * one column); then the legend in parentheses and the warning, each on
 * its own line. */
void doc_table_text(FILE *out, const struct doc_table *t);
/* The page's table (html.h's html_table): caption (html_caption, else
 * caption, else legend), heads, rows, then the empty note as a paragraph
 * when there is no row, and the warning in a warning box. */
void doc_table_html(FILE *out, const struct doc_table *t);

#endif
