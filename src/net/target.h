/* target: where a run sends its requests, parsed from --url. A struct
 * target holds no resources: copy it, drop it, nothing to free. */
#ifndef RPCBENCH_TARGET_H
#define RPCBENCH_TARGET_H

#include <sys/socket.h>

enum scheme { SCHEME_HTTP, SCHEME_HTTPS, SCHEME_STOMP, SCHEME_STOMPS };

struct target {
    enum scheme scheme;
    char host[256];
    int port;
    char path[256];
    struct sockaddr_storage addr;
    socklen_t addrlen;
};

/* Parses "http://host:port/path" (also https, stomp, stomps; path
 * defaults to default_path) into t (the caller's) and resolves host
 * numerically or by name.
 * @return 0, or -1 with err (ERR_LEN bytes, caller-owned) saying why. */
int target_parse(const char *url, const char *default_path, struct target *t, char *err);

/* Starts a non-blocking connect to t->addr (TCP_NODELAY, close-on-exec);
 * the connection completes or fails later, when the fd turns writable.
 * @return the new fd (>= 0), which the caller owns and closes, or -1 with
 * err (ERR_LEN bytes, caller-owned); nothing is left open then. */
int target_connect_nb(const struct target *t, char *err);

#endif
