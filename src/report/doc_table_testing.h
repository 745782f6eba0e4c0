/* doc_table_testing: the test hooks of doc_table.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_DOC_TABLE_TESTING_H
#define RPCBENCH_DOC_TABLE_TESTING_H

#include "report/doc_table.h"

/* Row r's cell c (r < nrows, c < ncols): the table's own, valid until it
 * is freed or added to. */
const char *doc_table_cell(const struct doc_table *t, int r, int c);

/* Row r's raw value of column c (FIG_UNKNOWN unknown). */
double doc_table_raw(const struct doc_table *t, int r, int c);

#endif
