/* serve_sniff: which wire protocol a new serve connection speaks, from its
 * first bytes (serve_sniff.h). Apart from serve_conn.c, which the wires
 * call, so that no file calls one that calls it back: the owner of a
 * serve_ctx hands it to serve_conn as ctx->sniff. */
#include "server/serve_sniff.h"

#include <string.h>

#include "server/serve_conn_int.h"

#define SNIFF_MAX 16 /* bytes after which an undecided connection is HTTP */

/* Whether p[0..n) names a frame a STOMP client sends. */
static int stomp_command(const char *p, size_t n)
{
    static const char *const cmds[] = {"CONNECT", "STOMP", "SEND", "SUBSCRIBE", "UNSUBSCRIBE",
                                       "ACK", "NACK", "BEGIN", "COMMIT", "ABORT", "DISCONNECT"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strlen(cmds[i]) == n && !memcmp(cmds[i], p, n))
            return 1;
    return 0;
}

enum sniff_kind sniff_kind(const char *p, size_t n)
{
    size_t i = 0, start;
    while (i < n && (p[i] == '\r' || p[i] == '\n'))
        i++;
    start = i;
    while (i < n && p[i] >= 'A' && p[i] <= 'Z')
        i++;
    if (i == n)
        return n < SNIFF_MAX ? SNIFF_MORE : SNIFF_HTTP;
    if ((p[i] == '\n' || p[i] == '\r') && stomp_command(p + start, i - start))
        return SNIFF_STOMP;
    return SNIFF_HTTP;
}

const struct serve_proto *serve_sniff(const char *p, size_t n)
{
    switch (sniff_kind(p, n)) {
    case SNIFF_STOMP: return &serve_stomp;
    case SNIFF_HTTP: return &serve_http;
    default: return NULL;
    }
}
