/* conn_testing: the test hooks of conn.h (as HdrHistogram_c keeps its test-only
 * internals apart): functions only the tests call, never the program. */
#ifndef RPCBENCH_CONN_TESTING_H
#define RPCBENCH_CONN_TESTING_H

#include "client/conn.h"

/* Gives c (conn_init'ed, DOWN) fd, a connected non-blocking stream socket
 * (a test's socketpair end), as if its plain TCP connect had just
 * succeeded: the wire's on_ready follows. c owns fd from here (conn_close
 * closes it). */
void conn_adopt(struct conn *c, int fd);

#endif
