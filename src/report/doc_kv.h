/* doc_kv: a section of key-value lines built once and written by each
 * format's writer, as doc_table is for tables (issue 25): a run's
 * configuration, its requests and lags, its transport, its machine. The
 * builder decides what each line says (figures rounded, in their unit,
 * "n/a" where unknown); the text writer pads the key to the report's
 * 12 columns, the page makes each line a row of a two-column table and
 * escapes it. A line may be a metric's (model/metric.h): then it carries
 * the raw value too (the CSV summary's columns are its own document,
 * report_summary_doc, never read from these lines). */
#ifndef RPCBENCH_DOC_KV_H
#define RPCBENCH_DOC_KV_H

#include <stdio.h>

#define DOC_KV_KEY 32
#define DOC_KV_VALUE 1200 /* a buffer for a value a caller composes (a target URL,
                             512, and its words); the document holds any length */
#define DOC_KV_TEXT_KEY 12 /* the text's key column */

/* Where a line is shown: a page has room for what the text leaves out. */
#define DOC_IN_TEXT 1u
#define DOC_IN_PAGE 2u
#define DOC_IN_BOTH (DOC_IN_TEXT | DOC_IN_PAGE)

struct doc_kv_line {
    char key[DOC_KV_KEY];     /* "" continues the line above */
    char *value;              /* the document's own (malloc'd), never NULL */
    unsigned where;           /* DOC_IN_ bits */
    int metric;               /* an enum metric, or -1 */
    double raw;               /* the metric's value (NAN: unknown) */
};

/* As many lines as the builder adds: the document allocates them. */
struct doc_kv {
    char caption[80]; /* the page's table head ("transport"); the text shows none */
    int blank_before; /* the text: a blank line before the first line */
    struct doc_kv_line *line; /* n lines, the document's own */
    int n, cap;
    int lost;         /* lines (or appends) no memory could hold: the writers
                         say so, never a silent gap */
};

/* Clears d (the caller's) for a section whose page table is headed
 * caption (copied). Allocates nothing; d holds nothing to free before it,
 * so a d already built must be doc_kv_free'd first. */
void doc_kv_init(struct doc_kv *d, const char *caption);
/* Frees d's lines (not d, the caller's); d is then empty, its caption
 * kept, and may be added to again. */
void doc_kv_free(struct doc_kv *d);
/* Adds a line shown where (DOC_IN_ bits): key (copied, cut to
 * DOC_KV_KEY - 1 bytes; "" continues the line above: the text indents it,
 * the page leaves its head empty) and the value as printf's fmt, whole.
 * @return the line (d's own, valid until d is added to or freed), or
 * NULL without memory (then d->lost counts it). */
struct doc_kv_line *doc_kv_add(struct doc_kv *d, unsigned where, const char *key,
                               const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Appends printf's fmt to the last line's value (nothing without one;
 * without memory d->lost counts it). */
void doc_kv_append(struct doc_kv *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The text: a blank line when blank_before, then each DOC_IN_TEXT line as
 * its key padded to DOC_KV_TEXT_KEY columns and its value; a line saying
 * how many were lost, if any. */
void doc_kv_text(FILE *out, const struct doc_kv *d);
/* The page's table (html.h's html_table): heads caption and "", a row per
 * DOC_IN_PAGE line, and one saying how many were lost, if any; nothing
 * when there is none. */
void doc_kv_html(FILE *out, const struct doc_kv *d);

#endif
