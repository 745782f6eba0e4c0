/* safetext_testing: test hooks of base/safetext.h, as HdrHistogram_c keeps its own
 * in hdr_tests.h. The library defines them; only tests and fuzz harnesses
 * include this header: nothing in rpcbench calls them. */
#ifndef RPCBENCH_SAFETEXT_TESTING_H
#define RPCBENCH_SAFETEXT_TESTING_H

#include <stddef.h>

/* @return 1 when s[0..len) is well-formed UTF-8 (controls allowed), else 0. */
int safetext_utf8_valid(const char *s, size_t len);

#endif
