/* http_response: one HTTP/1.1 response framed from the bytes a socket
 * gives, in any cuts, on top of http-parser: the status, the body handed to
 * a sink piece by piece, and an outcome (complete, partial, or what went
 * wrong). It knows nothing of connections, requests or encodings, so the
 * client's HTTP transport (client/conn_http.c), the fuzz target and the
 * unit tests drive the same code.
 *
 * Usage:
 *   struct http_response r;
 *   http_response_start(&r, max_body, sink, ctx);
 *   for each read of n bytes:   o = http_response_feed(&r, p, n, &used);
 *                               stop unless o == HTTP_RESP_PARTIAL
 *   on EOF (still partial):     o = http_response_eof(&r);
 *
 * Interim answers (1xx but 101) are skipped: the response is the final
 * one, whichever way TCP cut the bytes. A response ends exactly at its
 * last byte: what follows it in the same read is not parsed, and `used`
 * says where it starts (the caller decides what it is; the client counts
 * it as an answer nobody asked for).
 *
 * Nothing is allocated here: the struct is the caller's, and so is
 * whatever the sink keeps. Restart it with http_response_start for the
 * next response on the same connection. */
#ifndef RPCBENCH_HTTP_RESPONSE_H
#define RPCBENCH_HTTP_RESPONSE_H

#include <http_parser.h>
#include <stddef.h>

enum http_resp_outcome {
    HTTP_RESP_PARTIAL,    /* no error so far; more bytes are needed */
    HTTP_RESP_COMPLETE,   /* one whole response (see http_response_status) */
    HTTP_RESP_TOO_LARGE,  /* Content-Length or the body so far is over max_body */
    HTTP_RESP_SINK_ERROR, /* the body sink refused a piece (out of memory) */
    HTTP_RESP_MALFORMED,  /* not a valid HTTP response (http_response_error says why) */
    HTTP_RESP_TRUNCATED,  /* EOF before the response ended */
};

/* Receives the body as it comes, decoded from chunked if need be; len > 0.
 * @return 0, or non-zero to stop (the outcome is then HTTP_RESP_SINK_ERROR). */
typedef int (*http_body_sink)(void *ctx, const char *at, size_t len);

struct http_response {
    http_parser parser;
    size_t max_body;
    size_t body_seen;  /* body bytes received, kept by the sink or not */
    size_t wire_seen;  /* every byte framed as this response: status line,
                          headers, any 1xx before it, chunk framing, body */
    http_body_sink sink;
    void *ctx;
    int message_done;  /* the final (non-1xx) response ended */
    int too_large;
    int sink_failed;
};

/* Readies r for a new response. A body (or announced Content-Length)
 * longer than max_body is HTTP_RESP_TOO_LARGE. sink may be NULL (the body
 * is only counted); ctx is passed to it as is and stays the caller's. */
void http_response_start(struct http_response *r, size_t max_body, http_body_sink sink,
                         void *ctx);

/* Frames the next n bytes of the stream (n > 0). @return HTTP_RESP_PARTIAL
 * (all n taken, the response is not over), HTTP_RESP_COMPLETE (it ended in
 * these bytes, after *used of them: p[*used..n) is whatever came next, not
 * looked at), or an error outcome, after which r must be restarted before
 * any other use. *used (may be NULL) is n but for COMPLETE. Calling it
 * again after a non-PARTIAL outcome is undefined. */
enum http_resp_outcome http_response_feed(struct http_response *r, const char *p, size_t n,
                                          size_t *used);

/* The peer closed the stream while the response was partial. @return
 * HTTP_RESP_COMPLETE when the end of the stream ends the body (a response
 * with neither Content-Length nor chunked), else HTTP_RESP_TRUNCATED. */
enum http_resp_outcome http_response_eof(struct http_response *r);

/* The status code of the response being framed (e.g. 200), valid once its
 * head is parsed; 0 before. While a 1xx interim answer is being parsed it
 * is that 1xx; after COMPLETE it is the final status (101, which would
 * switch protocols, is final: no request of ours asks for it). */
unsigned http_response_status(const struct http_response *r);

/* After HTTP_RESP_COMPLETE: 1 when the connection may carry another
 * request (HTTP/1.1 without "Connection: close", or 1.0 with keep-alive;
 * never after a 1xx final status), else 0. */
int http_response_keep_alive(const struct http_response *r);

/* Why the response is HTTP_RESP_MALFORMED, as http-parser words it (a
 * static string, never NULL). */
const char *http_response_error(const struct http_response *r);

#endif
