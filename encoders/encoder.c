/* encoder: what both encodings share (request ids, errors, cleanup); they
 * call it, and it calls neither (the lookup is registry.c's). */
#include "encoders/encoder.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void enc_stamp_id(struct enc_request *req, uint64_t id)
{
    static const char hex[] = "0123456789abcdef";
    if (req->id_len != ENC_ID_DIGITS || !req->body.data)
        return;
    char *p = req->body.data + req->id_off + ENC_ID_DIGITS;
    for (int i = 0; i < ENC_ID_DIGITS; i++, id >>= 4)
        *--p = hex[id & 0xf];
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Accepts any UUID shape (8-4-4-4-12 hex digits), not just our prefix, so a
 * server that rewrites the high part still gets its replies matched. */
int enc_parse_id(const char *s, size_t len, uint64_t *id)
{
    if (!s || len != sizeof ENC_ID_PREFIX - 1 + ENC_ID_DIGITS)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                return -1;
            continue;
        }
        int d = hexval(s[i]);
        if (d < 0)
            return -1;
        if (i >= len - ENC_ID_DIGITS)
            v = (v << 4) | (uint64_t)d;
    }
    *id = v;
    return 0;
}

void enc_request_free(struct enc_request *req)
{
    buf_free(&req->body);
    req->id_off = req->id_len = 0;
}

void enc_call_clear(struct enc_call *call)
{
    json_object_put(call->params);
    json_object_put(call->id);
    memset(call, 0, sizeof *call);
}

void enc_seterr(char *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_LEN, fmt, ap);
    va_end(ap);
}
