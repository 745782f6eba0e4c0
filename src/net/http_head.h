/* http_head: the head of one HTTP/1 message, a request's or a response's,
 * read from the caller's buffer on top of http-parser, with bounds and no
 * allocation: the request line (method, target, version) or the status,
 * and each header handed to the caller's callback. The program's three
 * head readers use it: the agent's requests (agent/agent_request.c,
 * strict), the live metrics' scrapes (net/metrics_endpoint.c) and the
 * agent's answers to a run (client/agent_link_io.c). Bodies are not its
 * business: http_response.h frames a whole response.
 *
 * Bytes from the network: a head is whole at its blank line, at most max
 * bytes; anything else is refused with a reason, never guessed at. */
#ifndef RPCBENCH_HTTP_HEAD_H
#define RPCBENCH_HTTP_HEAD_H

#include <stddef.h>

#define HTTP_HEAD_STRICT 1 /* lines end in CRLF only (no bare CR or LF, no
                              empty first line), no header folded onto the
                              next line, no NUL, and a request line of
                              exactly METHOD SP TARGET SP HTTP/1.0|1.1 */
#define HTTP_HEAD_RESPONSE 2 /* a response's head (else a request's) */

/* One header, pointing into the buffer parsed (not terminated). @return 0
 * to go on, non-zero to refuse the head (http_head_parse then returns -1
 * with h->refused set and h->why the callback's). */
typedef int (*http_head_field_fn)(void *ctx, const char *name, size_t nlen, const char *value,
                                  size_t vlen);

struct http_head {
    /* set by the caller before http_head_parse */
    http_head_field_fn on_field; /* NULL: headers are only checked */
    void *ctx;                   /* for on_field, the caller's */
    /* filled by http_head_parse */
    char method[16];             /* "GET"; "" for a response */
    const char *target;          /* a request's target, into the buffer */
    size_t target_len;
    unsigned status;             /* a response's status code */
    unsigned short major, minor; /* HTTP/major.minor */
    int refused;                 /* on_field refused it */
    int bad_method;              /* a request whose method http-parser does not
                                    know (refused: the caller may say 405) */
    int too_long;                /* no blank line within max bytes (refused) */
    const char *why;             /* why it was refused (static), NULL if not */
};

/* Parses the head at the start of buf[0..len) (not NUL-terminated; bytes
 * after the head are not looked at) into h, as flags say.
 * @return the head's length (> 0, just past its blank line) when it is
 * whole and valid, 0 when more bytes are needed (no blank line yet and
 * len < max), or -1 when refused: h->why says why (and too_long,
 * bad_method or refused which kind). */
int http_head_parse(const char *buf, size_t len, size_t max, int flags, struct http_head *h);

#endif
