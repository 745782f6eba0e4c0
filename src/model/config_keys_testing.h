/* config_keys_testing: the test hook of config_keys.h. A test adds one
 * row of its own, walked after the table's by every walker (save, load,
 * compare's diff, the report's header and csv-summary, the MPI pack), to
 * see that a field is one row (test_config_row.c). */
#ifndef RPCBENCH_CONFIG_KEYS_TESTING_H
#define RPCBENCH_CONFIG_KEYS_TESTING_H

#include "model/config_keys.h"

/* Walks row (the caller's, kept until the next call) after the table's
 * rows; NULL: none again. */
void config_keys_test_add(const struct config_key *row);

#endif
