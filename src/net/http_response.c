/* http_response: one HTTP/1.1 response framed by http-parser (see
 * http_response.h). The cap is checked twice: against Content-Length as
 * soon as the head is parsed, so an announced giant is refused before a
 * byte of it is read, and against the body so far, for chunked answers and
 * bodies that run until the close.
 *
 * http-parser reports every message, a 1xx interim one included, and goes
 * on into the next one in the same buffer. Both are decided here, in the
 * message-complete callback and nowhere else, so the outcome cannot depend
 * on where TCP cut the bytes: a 1xx is forgotten and parsing goes on; the
 * final response pauses the parser on its last byte. */
#include "net/http_response.h"

#include <limits.h>

/* 101 Switching Protocols is not interim: it would be the last HTTP on
 * the connection (and no request of ours asks for it). */
static int interim(unsigned status)
{
    return status >= 100 && status < 200 && status != 101;
}

static int on_headers_complete(http_parser *p)
{
    struct http_response *r = p->data;
    if (interim(p->status_code))
        return 1; /* no body: a 1xx ends at its head whatever it says (RFC 9110 15.2) */
    if (p->content_length != ULLONG_MAX && p->content_length > r->max_body) {
        r->too_large = 1;
        return -1;
    }
    return 0;
}

static int on_body(http_parser *p, const char *at, size_t len)
{
    struct http_response *r = p->data;
    if (len > r->max_body - r->body_seen) {
        r->too_large = 1;
        return -1;
    }
    r->body_seen += len;
    if (r->sink && r->sink(r->ctx, at, len)) {
        r->sink_failed = 1;
        return -1;
    }
    return 0;
}

static int on_message_complete(http_parser *p)
{
    struct http_response *r = p->data;
    if (interim(p->status_code))
        return 0; /* forgotten: the final response follows */
    r->message_done = 1;
    http_parser_pause(p, 1); /* stop on its last byte: what follows is not ours */
    return 0;
}

static const http_parser_settings settings = {
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

void http_response_start(struct http_response *r, size_t max_body, http_body_sink sink,
                         void *ctx)
{
    http_parser_init(&r->parser, HTTP_RESPONSE);
    r->parser.data = r;
    r->max_body = max_body;
    r->body_seen = 0;
    r->wire_seen = 0;
    r->sink = sink;
    r->ctx = ctx;
    r->message_done = 0;
    r->too_large = 0;
    r->sink_failed = 0;
}

enum http_resp_outcome http_response_feed(struct http_response *r, const char *p, size_t n,
                                          size_t *used)
{
    size_t k = http_parser_execute(&r->parser, &settings, p, n);
    r->wire_seen += k;
    if (used)
        *used = k;
    if (r->message_done) /* paused on its last byte (HPE_PAUSED) */
        return HTTP_RESP_COMPLETE;
    if (r->parser.http_errno != HPE_OK || k != n) {
        if (r->too_large)
            return HTTP_RESP_TOO_LARGE;
        /* k != n with no error: http-parser stopped for an upgrade (a 101
         * with Upgrade headers is final, so message_done is set above). */
        return r->sink_failed ? HTTP_RESP_SINK_ERROR : HTTP_RESP_MALFORMED;
    }
    return HTTP_RESP_PARTIAL;
}

enum http_resp_outcome http_response_eof(struct http_response *r)
{
    http_parser_execute(&r->parser, &settings, NULL, 0); /* ends a body that runs to the close */
    return r->message_done ? HTTP_RESP_COMPLETE : HTTP_RESP_TRUNCATED;
}

unsigned http_response_status(const struct http_response *r)
{
    return r->parser.status_code;
}

int http_response_keep_alive(const struct http_response *r)
{
    return r->parser.status_code >= 200 && http_should_keep_alive(&r->parser) != 0;
}

const char *http_response_error(const struct http_response *r)
{
    return http_errno_description(HTTP_PARSER_ERRNO(&r->parser));
}
