/* fuzz_http_response: what the load engine does with the bytes a server
 * sends back, from the socket to the error kind.
 *
 * The framing is net/http_response, the very module client/conn_http.c
 * drives, fed the stream in reads of a given size and then the EOF; the
 * body goes where conn_http's sink puts it (kept whole for the full decode,
 * fed to check_stream for the cheap check), and a complete answer is
 * classified the same way: status, then check_stream_finish or the full
 * decode, then the id comparison.
 *
 * The same stream is also framed in one read: the framing must not depend
 * on how TCP cut the bytes (complete or not, status, where the response
 * ended, body bytes), or the target aborts.
 *
 * Byte 0: bit 0 encoder (XML-RPC/JSON-RPC), bit 1 full decode, bits 2..7
 * the read size (0: everything in one read, else 1..63 bytes per read, as
 * a slow or fragmenting peer delivers). The rest is the byte stream. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "encoders/check_stream.h"
#include "encoders/encoder.h"
#include "net/http_response.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RESPONSE 24576 /* below the larger seeds, so the too-large paths are reached */
#define REQ_ID 1          /* the id the "request" carried */

struct sink {
    struct buf body;
    struct check_stream check; /* the cheap check's */
    int full;
    const struct http_response *resp;
};

static int failed(const struct http_response *r)
{
    return http_response_status(r) < 200 || http_response_status(r) > 299;
}

static int keep_body(void *ctx, const char *at, size_t len)
{
    struct sink *s = ctx;
    if (!s->full && !failed(s->resp)) /* an error's body is kept whole, as conn_http does */
        return check_stream_feed(&s->check, at, len);
    return buf_append(&s->body, at, len) ? -1 : 0;
}

enum outcome { OUT_OK, OUT_HTTP, OUT_FAULT, OUT_DECODE, OUT_CLOSED };

static enum outcome classify(const struct http_response *r, struct sink *s,
                             const struct encoder *enc)
{
    struct enc_result res = {0};
    if (failed(r)) /* a fault document is a fault whatever the status */
        return s->body.len && enc->check_response(s->body.data, s->body.len, &res) == ENC_FAULT
                   ? OUT_FAULT : OUT_HTTP;
    /* The full decode gets NULL when no body ever came: every encoder entry
     * point takes an empty body as (NULL, 0). */
    int st = s->full ? enc->decode_response(s->body.data, s->body.len, &res)
                     : check_stream_finish(&s->check, &res);
    if (st == ENC_FAULT)
        return OUT_FAULT;
    if (st != ENC_OK || (enc == &enc_jsonrpc && (!res.has_id || res.id != REQ_ID)))
        return OUT_DECODE;
    return OUT_OK;
}

/* conn_http.c's read loop over a stream cut into reads of `chunk` bytes;
 * *end: where a complete response ended in the stream. */
static enum outcome frame(struct http_response *r, const char *p, size_t n, size_t chunk,
                          size_t *end)
{
    size_t off = 0;
    *end = 0;
    while (off < n) {
        size_t k = n - off < chunk ? n - off : chunk, used = 0;
        enum http_resp_outcome o = http_response_feed(r, p + off, k, &used);
        if (used > k)
            abort();
        if (o == HTTP_RESP_COMPLETE) {
            *end = off + used;
            return OUT_OK;
        }
        off += k;
        if (o != HTTP_RESP_PARTIAL)
            return OUT_DECODE;
    }
    *end = n;
    return http_response_eof(r) == HTTP_RESP_COMPLETE ? OUT_OK : OUT_CLOSED;
}

/* The stream in one read must frame as it did in pieces. */
static void same_in_one_read(const char *p, size_t n, enum outcome o, size_t end,
                             const struct http_response *cut)
{
    struct http_response r;
    size_t end1;
    http_response_start(&r, MAX_RESPONSE, NULL, NULL);
    enum outcome o1 = frame(&r, p, n, SIZE_MAX, &end1);
    if (o1 != o)
        abort();
    if (o == OUT_OK && (end1 != end || r.body_seen != cut->body_seen ||
                        http_response_status(&r) != http_response_status(cut)))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const struct encoder *enc = (data[0] & 1) ? &enc_jsonrpc : &enc_xmlrpc;
    size_t chunk = data[0] >> 2;
    if (chunk == 0)
        chunk = SIZE_MAX;
    struct http_response r;
    struct sink s = {.full = (data[0] >> 1) & 1, .resp = &r};
    check_stream_start(&s.check, enc, &s.body, CHECK_STREAM_HEAD);
    http_response_start(&r, MAX_RESPONSE, keep_body, &s);
    size_t end;
    enum outcome o = frame(&r, (const char *)data + 1, size - 1, chunk, &end);
    if (r.body_seen > MAX_RESPONSE || s.body.len > r.body_seen)
        abort(); /* the cap must hold whatever the framing */
    same_in_one_read((const char *)data + 1, size - 1, o, end, &r);
    if (o == OUT_OK) {
        o = classify(&r, &s, enc);
        (void)http_response_keep_alive(&r);
    }
    (void)o;
    buf_free(&s.body);
    return 0;
}
