/* recording_doc: `rpcbench report` of a recording (model/recording.h):
 * what was recorded (key-value lines) and a table with a row per method:
 * its calls, rate, period, connections, sizes, latencies and outcomes. */
#ifndef RPCBENCH_RECORDING_DOC_H
#define RPCBENCH_RECORDING_DOC_H

#include "model/recording.h"
#include "report/doc_kv.h"
#include "report/doc_table.h"

/* Builds kv (doc_kv_init'ed here) and t, st (initialised here) from r
 * (its gaps get sorted). The caller frees kv and t.
 * @return 0, or -1 with err (ERR_LEN, caller-owned: out of memory). */
int recording_doc(struct recording *r, const char *path, struct doc_kv *kv, struct doc_table *t,
                  struct doc_table_style *st, char *err);

#endif
