/* proctree_testing: the test hooks of proctree.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_PROCTREE_TESTING_H
#define RPCBENCH_PROCTREE_TESTING_H

#include "proc/proctree.h"

/* @return 1 when a process with this comm and command line (cmdline:
 * argv as NUL-separated strings, len bytes) is called name, else 0. A name
 * holding '/' is compared with argv[0] or the script as written. */
int proctree_cmd_matches(const char *comm, const char *cmdline, size_t len, const char *name);

#endif
