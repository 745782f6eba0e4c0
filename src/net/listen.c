/* listen: a listening socket where the user said (listen.h). */
#include "net/listen.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/err.h"

/* "HOST:PORT" or "[V6]:PORT" into host and port; "PORT" or ":PORT" is
 * loopback's (127.0.0.1): binding further is said, never assumed.
 * @return 0, or -1. */
static int split_address(const char *s, char *host, size_t hlen, char *port, size_t plen)
{
    const char *colon = strrchr(s, ':');
    if (!colon || colon == s) {
        const char *p = colon ? colon + 1 : s;
        snprintf(host, hlen, "127.0.0.1");
        snprintf(port, plen, "%s", p);
        return p[0] && strspn(p, "0123456789") == strlen(p) ? 0 : -1;
    }
    if (!colon[1])
        return -1;
    const char *h = s, *end = colon;
    if (*s == '[') {
        if (colon[-1] != ']')
            return -1;
        h = s + 1;
        end = colon - 1;
    }
    snprintf(host, hlen, "%.*s", (int)(end - h), h);
    snprintf(port, plen, "%s", colon + 1);
    return host[0] ? 0 : -1;
}

int net_listen_at(const char *listen_at, const char *what, int backlog, char *address,
                  size_t alen, char *err)
{
    char host[256], port[32];
    if (split_address(listen_at, host, sizeof host, port, sizeof port)) {
        snprintf(err, ERR_LEN, "%s: '%.100s' is not HOST:PORT", what, listen_at);
        return -1;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV}, *ai;
    int rc = getaddrinfo(host, port, &hints, &ai);
    if (rc) {
        snprintf(err, ERR_LEN, "%s %.100s: %s", what, listen_at, gai_strerror(rc));
        return -1;
    }
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, backlog)) {
        snprintf(err, ERR_LEN, "%s %.100s: %s", what, listen_at, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    struct sockaddr_storage sa;
    socklen_t sl = sizeof sa;
    char ip[INET6_ADDRSTRLEN] = "?";
    getsockname(fd, (struct sockaddr *)&sa, &sl);
    int v6 = sa.ss_family == AF_INET6;
    const void *a = v6 ? (const void *)&((struct sockaddr_in6 *)&sa)->sin6_addr
                       : (const void *)&((struct sockaddr_in *)&sa)->sin_addr;
    int p = ntohs(v6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                     : ((struct sockaddr_in *)&sa)->sin_port);
    inet_ntop(sa.ss_family, a, ip, sizeof ip);
    snprintf(address, alen, v6 ? "[%s]:%d" : "%s:%d", ip, p);
    return fd;
}
