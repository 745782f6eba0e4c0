#include "net/target.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/units.h"

static const struct {
    const char *prefix;
    enum scheme scheme;
} schemes[] = {
    {"http://", SCHEME_HTTP},
    {"https://", SCHEME_HTTPS},
    {"stomp://", SCHEME_STOMP},
    {"stomps://", SCHEME_STOMPS},
};

static const char *split_scheme(const char *url, enum scheme *scheme)
{
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++) {
        size_t n = strlen(schemes[i].prefix);
        if (!strncmp(url, schemes[i].prefix, n)) {
            *scheme = schemes[i].scheme;
            return url + n;
        }
    }
    return NULL;
}

static int resolve(struct target *t, char *err)
{
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
    char port[16];
    snprintf(port, sizeof port, "%d", t->port);
    int rc = getaddrinfo(t->host, port, &hints, &res);
    if (rc) {
        snprintf(err, ERR_LEN, "cannot resolve '%.100s': %s", t->host, gai_strerror(rc));
        return -1;
    }
    memcpy(&t->addr, res->ai_addr, res->ai_addrlen);
    t->addrlen = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

int target_parse(const char *url, const char *default_path, struct target *t, char *err)
{
    memset(t, 0, sizeof *t);
    const char *rest = split_scheme(url, &t->scheme);
    if (!rest) {
        snprintf(err, ERR_LEN, "bad --url '%.100s': expected http://, https://, stomp:// or stomps://",
                 url);
        return -1;
    }
    char hostport[300];
    const char *slash = strchr(rest, '/');
    size_t hp = slash ? (size_t)(slash - rest) : strlen(rest);
    if (hp == 0 || hp >= sizeof hostport) {
        snprintf(err, ERR_LEN, "bad --url '%.100s': no host:port", url);
        return -1;
    }
    memcpy(hostport, rest, hp);
    hostport[hp] = '\0';
    if (units_parse_hostport(hostport, t->host, sizeof t->host, &t->port, err))
        return -1;
    snprintf(t->path, sizeof t->path, "%s", slash && slash[1] ? slash : default_path);
    return resolve(t, err);
}

static int set_nonblock_nodelay(int fd)
{
    int one = 1;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return -1;
    /* Requests are small and latency-bound: never wait for Nagle. */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return 0;
}

int target_connect_nb(const struct target *t, char *err)
{
    int fd = socket(t->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, ERR_LEN, "socket: %s", strerror(errno));
        return -1;
    }
    if (set_nonblock_nodelay(fd) < 0) {
        snprintf(err, ERR_LEN, "fcntl: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (connect(fd, (const struct sockaddr *)&t->addr, t->addrlen) < 0 &&
        errno != EINPROGRESS) {
        snprintf(err, ERR_LEN, "connect %.100s:%d: %s", t->host, t->port, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}
