/* procstat_testing: the test hooks of procstat.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_PROCSTAT_TESTING_H
#define RPCBENCH_PROCSTAT_TESTING_H

#include "proc/procstat.h"

/* Parses the text of /proc/<pid>/stat (comm may hold spaces and ')').
 * @return 0, or -1 when the text is not a stat line. */
int procstat_parse_stat(const char *text, struct proc_stat *out);

#endif
