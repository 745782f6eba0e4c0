/* listen: a listening TCP socket on the address a user gave, for the
 * endpoints that run beside the load (--metrics-listen) and for the
 * agent (--listen): they bind only where told. */
#ifndef RPCBENCH_LISTEN_H
#define RPCBENCH_LISTEN_H

#include <stddef.h>

/* Binds and listens (backlog) on listen_at ("HOST:PORT", "[V6]:PORT";
 * "PORT" or ":PORT" binds loopback, 127.0.0.1) and writes the address bound
 * ("127.0.0.1:40123", a port 0 resolved) into address (alen bytes, the
 * caller's). what names the option in errors ("--metrics-listen").
 * @return the blocking, close-on-exec fd (the caller's to close), or -1
 * with err (ERR_LEN, caller-owned: a bad address, the port taken). */
int net_listen_at(const char *listen_at, const char *what, int backlog, char *address,
                  size_t alen, char *err);

#endif
