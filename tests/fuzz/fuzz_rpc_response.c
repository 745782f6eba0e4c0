/* fuzz_rpc_response: the client's response checks, on bodies as the
 * network delivers them. Byte 0 picks the encoder (bit 0: XML-RPC or
 * JSON-RPC); the rest is the HTTP body. Both the cheap check (no tree) and
 * the full decode (tree built and walked), the error-status check
 * (check_error), and --expect's checks on the result tree run on it, on an exactly sized
 * copy so ASan sees any read past the end. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/encoder.h"
#include "workload/expect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_result(const struct enc_result *r, int st)
{
    /* Contract: the status returned is the one recorded, and an id is
     * only claimed with a parsed counter. */
    if (r->status != st && r->status != 0)
        abort();
    if (st != ENC_OK && st != ENC_FAULT && st != ENC_DECODE && st != ENC_NOMEM)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const struct encoder *enc = (data[0] & 1) ? &enc_jsonrpc : &enc_xmlrpc;
    size_t len = size - 1;
    char *body = malloc(len ? len : 1);
    if (!body)
        return 0;
    memcpy(body, data + 1, len);
    struct enc_result r = {0};
    check_result(&r, enc->check_response(body, len, &r));
    struct enc_result f = {0};
    check_result(&f, enc->decode_response(body, len, &f));
    struct enc_result h = {0}; /* a non-2xx answer's body: fault or not */
    int hs = enc->check_error(body, len, &h);
    check_result(&h, hs);
    if (hs != ENC_FAULT && hs != ENC_DECODE)
        abort();
    /* --expect's path: the result tree handed back, and checks walking it */
    json_object *result = NULL;
    struct enc_result t = {0};
    int st = enc->decode_result(body, len, &t, &result);
    check_result(&t, st);
    if (st != f.status || (st != ENC_OK && result))
        abort(); /* the same verdict as the plain decode; a tree only with ENC_OK */
    char got[96], err[ERR_LEN];
    static const char *const checks[] = {"len(.)>=0", "status.code=0", "[0].vmId exists",
                                         "result.a[2].b!=\"x\""};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        struct expect e;
        if (expect_parse(checks[i], &e, err))
            abort();
        (void)expect_eval(&e, result, got, sizeof got);
    }
    json_object_put(result);
    uint64_t id;
    (void)enc_parse_id(body, len, &id);
    free(body);
    return 0;
}
