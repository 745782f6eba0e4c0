/* doc_table: a table built once and written by each format's writer, so
 * the text and the page cannot say different things (issue 25). The
 * builder decides what each cell says: figures already rounded, in their
 * unit, marked as lower bounds, "n/a" where unknown. A writer decides only
 * how a format shows it: the text its columns' widths and alignment, the
 * HTML its escaping and layout. */
#ifndef RPCBENCH_DOC_TABLE_H
#define RPCBENCH_DOC_TABLE_H

#include <stdio.h>

/* A run's CSV summary has up to 48 columns (report_csv.c: its counts,
 * each error kind, 16 percentiles, the CPU); a sweep's table 23. */
#define DOC_MAX_COLS 64
#define DOC_CELL_LEN 64

/* What a column's cells hold beside their text: the raw value a writer
 * of figures (CSV) writes, so that it never parses a formatted text. */
enum doc_raw {
    DOC_RAW_NONE,  /* text only: the CSV writes the text */
    DOC_RAW_INT,   /* a count: "%.0f" */
    DOC_RAW_FIXED, /* raw_dec decimals: "%.*f" */
    DOC_RAW_G      /* raw_dec significant digits: "%.*g" */
};

struct doc_table {
    /* a capacity search's names its condition, a sweep's its parameters: long */
    char caption[800];      /* the line above the table, in every format ("" none) */
    char empty[120];        /* said when there is no row ("" nothing) */
    char legend[200];       /* what the figures mean: the text's "(...)" line after
                               the rows, the page's caption where it has none */
    char warning[240];      /* a caveat on the figures (lower bounds): the text's
                               line after the legend, the page's warning box */
    char notes[1600];       /* how the rows were reached (compare's gates: the method,
                               why the rounds stopped): the text's lines after the
                               warning as written, the page's paragraph after the
                               table, a line break between its lines ("" none) */
    int ncols;
    char heads[DOC_MAX_COLS][DOC_CELL_LEN];
    int width[DOC_MAX_COLS]; /* text: the column's least width; negative: left-aligned */
    int gap[DOC_MAX_COLS];   /* text: blanks before the column beyond the one */
    int cell_len;            /* a cell's most bytes with its NUL, for a column of
                                long reasons (0: DOC_CELL_LEN); set before adding */
    /* The page, for a table a script or a test finds by its parts: the
     * table's element id, and each cell's "<cell_ids>-<row id>-<col_id>"
     * where all three are set ("cmp-p50-ci"). */
    char id[24];
    char cell_ids[16];
    char col_id[DOC_MAX_COLS][16];
    enum doc_raw raw_kind[DOC_MAX_COLS]; /* DOC_RAW_NONE unless set */
    int raw_dec[DOC_MAX_COLS];
    double *raw;             /* nrows x ncols raw values (FIG_UNKNOWN: unknown, an
                                empty CSV cell), the table's own */
    char *cells;             /* nrows x ncols cells of cell_len bytes, the table's own */
    struct doc_row *rows;    /* nrows, the table's own */
    int nrows, cap;
};

/* How the text writer lays a table out beyond its widths: settings of
 * the format, not content, so they live outside the document and a
 * builder returns them beside it (struct doc_table_style). Zeroed: the
 * heads laid out as the rows, every character, the builder's widths, a
 * blank line before. */
struct doc_text_style {
    char head[200];          /* the header line, where it is not the heads laid
                                out as the rows are ("" laid out so) */
    int max[DOC_MAX_COLS];   /* at most this many characters of a cell (0: all) */
    int fit;                 /* each column as wide as its widest cell or head
                                (width's sign still says the alignment) */
    int tight;               /* no blank line before the caption */
    int cut;                 /* a cell longer than its max ends in "...", so
                                that a cut name does not pass for whole */
};

/* How the page's writer shows a table. Zeroed: the table's caption,
 * numbers right-aligned, nothing stuck. */
struct doc_html_style {
    char caption[800];       /* the page's caption, where the text has none
                                ("" the caption, else the legend) */
    char first_head[DOC_CELL_LEN]; /* the first column's head, where the page
                                names it otherwise than the text ("" the head) */
    int left;                /* the columns left-aligned in the text (width < 0)
                                but the first are left-aligned too */
    int stick_last;          /* the last column stays in view (class stick) */
    int max[DOC_MAX_COLS];   /* a longer cell is cut to this many characters,
                                "..." ending it, its whole text on hover (its
                                title); 0: all */
};

/* What a builder returns beside its table: each writer's settings. */
struct doc_table_style {
    struct doc_text_style text;
    struct doc_html_style html;
};

/* What a row says beyond its cells. */
#define DOC_ROW_MARKED 1u /* the page: its last cell stands out (class sig) */
struct doc_row {
    char id[16]; /* the page: its part of the cells' ids ("" none) */
    unsigned flags;
};

/* Clears t for ncols columns (1..DOC_MAX_COLS); heads, widths and the
 * texts are then the builder's to fill. Allocates nothing. */
void doc_table_init(struct doc_table *t, int ncols);
/* Clears st (the caller's) to the writers' defaults. */
void doc_table_style_init(struct doc_table_style *st);
/* Adds a row of ncols cells (copied as safetext makes them: cut at a
 * character, with "...", to fit cell_len, else DOC_CELL_LEN).
 * @return 0, or -1 with err ("out of memory", ERR_LEN bytes) and t's rows
 * freed: a builder then returns -1 at once. */
int doc_table_add(struct doc_table *t, const char *const *cells, char *err);
/* doc_table_add with the row's id (copied; NULL none) and DOC_ROW_ flags.
 * The raw values of its cells are unknown. */
int doc_table_add_row(struct doc_table *t, const char *const *cells, const char *id,
                      unsigned flags, char *err);
/* Adds a row with the raw values raw[0..ncols) (only read; a DOC_RAW_NONE
 * column's is ignored) and the texts cells as doc_table_add; a cell whose
 * text is NULL (or every cell, cells NULL) says its raw value as the CSV
 * writes it ("" where unknown).
 * @return 0, or -1 with err as doc_table_add. */
int doc_table_add_raw(struct doc_table *t, const char *const *cells, const double *raw,
                      char *err);
/* Frees the rows (t may be added to again after doc_table_init). */
void doc_table_free(struct doc_table *t);

/* The text of t laid out as st says (both only read; st NULL: the
 * defaults): a blank line (none with tight), the caption's line, the
 * header line (st's head, else the heads), the empty note when there is
 * no row, then one line per row: cells joined by one blank (and the
 * column's gap), each padded to its column's width (fit: its widest
 * cell's) in characters (a "\u2265" mark is one column), without trailing
 * blanks; then the legend in parentheses, the warning and the notes,
 * each on its own line. */
void doc_table_text(FILE *out, const struct doc_table *t, const struct doc_text_style *st);
/* The page's table as st says (both only read; st NULL: the defaults),
 * in a box that scrolls: its id, caption (st's, else caption, else
 * legend), heads, rows (the first cell heads its row; cell ids and
 * classes as the fields say), then the empty note as a paragraph when
 * there is no row, the warning in a warning box, and the notes as a
 * paragraph, its lines kept. */
void doc_table_html(FILE *out, const struct doc_table *t, const struct doc_html_style *st);
/* The CSV (one rectangular table, for a spreadsheet or csv.DictReader):
 * a header row of the heads, then a row per row: a DOC_RAW_NONE column's
 * text as doc_csv_field writes it, another's raw value as its kind says,
 * empty where unknown. No caption, legend nor notes. */
void doc_table_csv(FILE *out, const struct doc_table *t);
/* Writes s as one CSV field: made safe (base/safetext.h: valid UTF-8, a
 * line break or control as "\xHH"), then as is, or quoted (quotes
 * doubled) when it holds a comma or a quote. */
void doc_csv_field(FILE *out, const char *s);

#endif
