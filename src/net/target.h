/* target: where a run sends its requests, parsed from --url. */
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

/* Parses "http://host:port/path" (path defaults to default_path) and
 * resolves host numerically or by name. @return 0, or -1 with err. */
int target_parse(const char *url, const char *default_path, struct target *t, char *err);

/* Starts a non-blocking connect; returns the fd (>= 0) or -1 with err. */
int target_connect_nb(const struct target *t, char *err);

#endif
