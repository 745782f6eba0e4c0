/* doc_kv: a section of key-value lines built once and written by each
 * format's writer, as doc_table is for tables (issue 25): a run's
 * configuration, its requests and lags, its transport, its machine. The
 * builder decides what each line says (figures rounded, in their unit,
 * "n/a" where unknown); the text writer pads the key to the report's
 * 12 columns, the page makes each line a row of a two-column table and
 * escapes it. A line may be a metric's (model/metric.h): then it carries
 * the raw value too, and the run's CSV summary gets a column of it. */
#ifndef RPCBENCH_DOC_KV_H
#define RPCBENCH_DOC_KV_H

#include <stdio.h>

#define DOC_KV_LINES 24
#define DOC_KV_KEY 32
#define DOC_KV_VALUE 1200 /* a target URL (512) and its words */
#define DOC_KV_TEXT_KEY 12 /* the text's key column */

/* Where a line is shown: a page has room for what the text leaves out. */
#define DOC_IN_TEXT 1u
#define DOC_IN_PAGE 2u
#define DOC_IN_BOTH (DOC_IN_TEXT | DOC_IN_PAGE)

struct doc_kv_line {
    char key[DOC_KV_KEY];     /* "" continues the line above */
    char value[DOC_KV_VALUE];
    unsigned where;           /* DOC_IN_ bits */
    int metric;               /* an enum metric, or -1 */
    double raw;               /* the metric's value (NAN: unknown) */
};

struct doc_kv {
    char caption[80]; /* the page's table head ("transport"); the text shows none */
    int blank_before; /* the text: a blank line before the first line */
    struct doc_kv_line line[DOC_KV_LINES];
    int n;
};

/* Clears d (the caller's; nothing allocated) for a section whose page
 * table is headed caption (copied). */
void doc_kv_init(struct doc_kv *d, const char *caption);
/* Adds a line shown where (DOC_IN_ bits): key (copied; "" continues the
 * line above: the text indents it, the page leaves its head empty) and
 * the value as printf's fmt, cut at DOC_KV_VALUE - 1 bytes. A line past
 * DOC_KV_LINES is dropped (a builder's bug: test_doc_kv holds the largest
 * section under it). @return the line, or NULL when dropped. */
struct doc_kv_line *doc_kv_add(struct doc_kv *d, unsigned where, const char *key,
                               const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Appends printf's fmt to the last line's value (nothing without one). */
void doc_kv_append(struct doc_kv *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The text: a blank line when blank_before, then each DOC_IN_TEXT line as
 * its key padded to DOC_KV_TEXT_KEY columns and its value. */
void doc_kv_text(FILE *out, const struct doc_kv *d);
/* The page's table (html.h's html_table): heads caption and "", a row per
 * DOC_IN_PAGE line; nothing when there is none. */
void doc_kv_html(FILE *out, const struct doc_kv *d);

#endif
