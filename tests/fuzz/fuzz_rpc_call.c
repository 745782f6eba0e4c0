/* fuzz_rpc_call: the server side of a call, from request body to response
 * body. Byte 0 picks the encoder (bit 0: XML-RPC or JSON-RPC); the rest is
 * the body. Runs the encoder's parse_call alone, then the whole of
 * vdsm_api_handle (parse, dispatch to a verb of a 4-VM simulator, render
 * the result or the error VDSM would send), whose answer must be a valid
 * response for the same encoder's client-side decoder (a JSON-RPC batch's:
 * an array of two or more valid responses). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/encoder.h"
#include "server/vdsm_api.h"
#include "server/vmsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct vdsm_api api;

static void setup(void)
{
    char err[ERR_LEN];
    api.sim = vmsim_new(4, 1, err);
    if (!api.sim) {
        fprintf(stderr, "vmsim_new: %s\n", err);
        abort();
    }
}

/* What we answer, our own client must be able to read: one response, or
 * (a JSON-RPC batch's answer) an array of two or more, each readable. */
static void check_answer(const struct encoder *enc, const struct buf *out)
{
    struct enc_result r = {0};
    int dst = ENC_DECODE;
    if (enc == &enc_jsonrpc && out->len && out->data[0] == '[') {
        json_object *a = json_tokener_parse(out->data); /* out is NUL-terminated here */
        size_t n = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
        dst = n >= 2 ? ENC_OK : ENC_DECODE;
        for (size_t i = 0; i < n && dst != ENC_DECODE; i++) {
            size_t len;
            const char *s = json_object_to_json_string_length(json_object_array_get_idx(a, i),
                                                              JSON_C_TO_STRING_PLAIN, &len);
            dst = enc->decode_response(s, len, &r);
        }
        json_object_put(a);
    } else {
        dst = enc->decode_response(out->data, out->len, &r);
    }
    if (dst != ENC_OK && dst != ENC_FAULT) {
        fprintf(stderr, "server answer not decodable: %.*s\n", (int)out->len, out->data);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!api.sim)
        setup();
    if (size < 1)
        return 0;
    const struct encoder *enc = (data[0] & 1) ? &enc_jsonrpc : &enc_xmlrpc;
    size_t len = size - 1;
    char *body = malloc(len ? len : 1);
    if (!body)
        return 0;
    memcpy(body, data + 1, len);

    char err[ERR_LEN] = "";
    struct enc_call call = {0};
    int st = enc->parse_call(body, len, &call, err);
    if (st == ENC_OK && memchr(call.method, '\0', sizeof call.method) == NULL)
        abort(); /* method must be a terminated string */
    if (st == ENC_OK && enc == &enc_xmlrpc && memmem(body, len, "<!ENTITY", 8)) {
        fprintf(stderr, "a DTD with entities was accepted (billion laughs)\n");
        abort(); /* refused since xmlscan_unsafe(): keep it so */
    }
    enc_call_clear(&call);

    struct buf out = {0};
    int rc = vdsm_api_handle(&api, enc, body, len, &out);
    if (rc == VDSM_REPLY && buf_append(&out, "", 1) == 0) {
        out.len--;
        check_answer(enc, &out);
    }
    buf_free(&out);
    free(body);
    return 0;
}
