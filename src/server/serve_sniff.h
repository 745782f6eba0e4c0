/* serve_sniff: the one place that decides, from its first bytes, what a
 * new connection of `rpcbench serve` speaks (as VDSM's protocol detector
 * does on port 54321). */
#ifndef RPCBENCH_SERVE_SNIFF_H
#define RPCBENCH_SERVE_SNIFF_H

#include <stddef.h>

struct serve_proto;

/* A STOMP client command alone on the first line ("CONNECT\n",
 * "STOMP\r\n") is STOMP; anything else (an HTTP method is followed by a
 * space) is HTTP. Leading EOLs are skipped. p[0..n) is only read.
 * @return the wire's table (static), or NULL while the bytes so far could
 * still be either (an undecided connection is HTTP past 16 bytes). */
const struct serve_proto *serve_sniff(const char *p, size_t n);

#endif
