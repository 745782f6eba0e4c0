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

/* What serve_sniff decides, as a kind, for those who only listen in on a
 * connection (`rpcbench record`) rather than serve it. p[0..n) is only read.
 * @return SNIFF_MORE while undecided, else SNIFF_HTTP or SNIFF_STOMP. */
enum sniff_kind { SNIFF_MORE, SNIFF_HTTP, SNIFF_STOMP };
enum sniff_kind sniff_kind(const char *p, size_t n);

#endif
