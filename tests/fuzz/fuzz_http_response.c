/* fuzz_http_response: what the load engine does with the bytes a server
 * sends back, from the socket to the error kind.
 *
 * conn_http.c's framing is static and tied to a live connection and the
 * engine's loop, so this target replays it: http-parser in HTTP_RESPONSE
 * mode with the same three callbacks (Content-Length cap in
 * on_headers_complete, a capped body in on_body, kept whole for the full
 * decode and fed to check_stream for the cheap check, message_done in
 * on_message_complete), the same read loop (chunks, the "used != n" rule,
 * EOF fed as a zero-length execute) and the same classify() pipeline into
 * check_stream_finish or the full decode, with the id comparison.
 *
 * Byte 0: bit 0 encoder (XML-RPC/JSON-RPC), bit 1 full decode, bits 2..7
 * the read size (0: everything in one read, else 1..63 bytes per read, as
 * a slow or fragmenting peer delivers). The rest is the byte stream. */
#include <http_parser.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "encoders/check_stream.h"
#include "encoders/encoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RESPONSE 24576 /* below the larger seeds, so the too-large paths are reached */
#define REQ_ID 1          /* the id the "request" carried */

struct resp {
    struct buf body;
    struct check_stream check; /* the cheap check's */
    size_t seen;               /* body bytes, kept or not */
    int full;
    int message_done;
    int too_large;
};

static int on_headers_complete(http_parser *p)
{
    struct resp *r = p->data;
    if (p->content_length != ULLONG_MAX && p->content_length > MAX_RESPONSE) {
        r->too_large = 1;
        return -1;
    }
    return 0;
}

static int on_body(http_parser *p, const char *at, size_t len)
{
    struct resp *r = p->data;
    if (len > MAX_RESPONSE - r->seen) {
        r->too_large = 1;
        return -1;
    }
    r->seen += len;
    if (!r->full)
        return check_stream_feed(&r->check, at, len);
    return buf_append(&r->body, at, len) ? -1 : 0;
}

static int on_message_complete(http_parser *p)
{
    ((struct resp *)p->data)->message_done = 1;
    return 0;
}

static const http_parser_settings settings = {
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

enum outcome { OUT_OK, OUT_HTTP, OUT_FAULT, OUT_DECODE, OUT_CLOSED };

static enum outcome classify(const http_parser *p, struct resp *r, const struct encoder *enc)
{
    if (p->status_code < 200 || p->status_code > 299)
        return OUT_HTTP;
    struct enc_result res = {0};
    /* The full decode gets NULL when no body ever came: every encoder entry
     * point takes an empty body as (NULL, 0). */
    int st = r->full ? enc->decode_response(r->body.data, r->body.len, &res)
                     : check_stream_finish(&r->check, &res);
    if (st == ENC_FAULT)
        return OUT_FAULT;
    if (st != ENC_OK || (res.has_id && res.id != REQ_ID))
        return OUT_DECODE;
    return OUT_OK;
}

/* conn_http.c's on_readable over a stream cut into reads of `chunk` bytes. */
static enum outcome frame(http_parser *p, struct resp *r, const char *s, size_t n, size_t chunk)
{
    size_t off = 0;
    while (off < n) {
        size_t k = n - off < chunk ? n - off : chunk;
        size_t used = http_parser_execute(p, &settings, s + off, k);
        off += k;
        if (p->http_errno != HPE_OK || used != k) {
            if (r->message_done && used == k)
                return OUT_OK;
            return OUT_DECODE;
        }
        if (r->message_done)
            return OUT_OK;
    }
    http_parser_execute(p, &settings, NULL, 0); /* EOF */
    return r->message_done ? OUT_OK : OUT_CLOSED;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const struct encoder *enc = (data[0] & 1) ? &enc_jsonrpc : &enc_xmlrpc;
    int full = (data[0] >> 1) & 1;
    size_t chunk = data[0] >> 2;
    if (chunk == 0)
        chunk = SIZE_MAX;
    struct resp r = {.full = full};
    check_stream_start(&r.check, enc, &r.body, CHECK_STREAM_HEAD);
    http_parser p;
    http_parser_init(&p, HTTP_RESPONSE);
    p.data = &r;
    enum outcome o = frame(&p, &r, (const char *)data + 1, size - 1, chunk);
    if (r.seen > MAX_RESPONSE || r.body.len > r.seen)
        abort(); /* the cap must hold whatever the framing */
    if (o == OUT_OK) {
        o = classify(&p, &r, enc);
        (void)http_should_keep_alive(&p);
    }
    (void)o;
    buf_free(&r.body);
    return 0;
}
