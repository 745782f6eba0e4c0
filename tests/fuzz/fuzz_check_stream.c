/* fuzz_check_stream: a response fed to check_stream in pieces must get the
 * verdict (status and code) the cheap check gives the whole body; a
 * difference aborts. Byte 0 picks the encoder (bit 0) and the head size
 * (the rest: small heads, so short inputs reach the head-decided path);
 * byte 1 seeds the piece sizes; the rest is the body. The seeds use
 * printable selectors: '0'/'1' (XML/JSON, head 193), 'J'/'K' (head 297). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/check_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const struct encoder *enc = (data[0] & 1) ? &enc_jsonrpc : &enc_xmlrpc;
    size_t head = 1 + (size_t)(data[0] >> 1) * 8;
    uint32_t seed = data[1] | 1u;
    size_t len = size - 2;
    char *body = malloc(len ? len : 1); /* exactly sized: ASan sees over-reads */
    if (!body)
        return 0;
    memcpy(body, data + 2, len);
    struct enc_result whole = {0}, got = {0};
    int want = enc->check_response(body, len, &whole);
    struct buf keep = {0};
    struct check_stream s;
    check_stream_start(&s, enc, &keep, head);
    for (size_t off = 0; off < len;) {
        seed = seed * 1103515245u + 12345u;
        size_t n = 1 + (seed >> 16) % 97;
        if (n > len - off)
            n = len - off;
        char *piece = malloc(n); /* each piece exactly sized too */
        if (!piece)
            abort();
        memcpy(piece, body + off, n);
        if (check_stream_feed(&s, piece, n))
            abort();
        free(piece);
        off += n;
    }
    int st = check_stream_finish(&s, &got);
    if (st != want || got.fault_code != whole.fault_code)
        abort();
    buf_free(&keep);
    free(body);
    return 0;
}
