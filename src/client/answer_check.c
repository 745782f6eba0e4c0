/* answer_check: --expect, the checks on every answer's decoded result
 * (encoders/expect.h, parsed by the owner into the connections' context),
 * and what the full decode they need costs. */
#include <stdio.h>
#include <time.h>

#include "client/conn.h"

/* This thread's CPU time, ns: what the decode costs the client, whatever
 * else the machine does. */
static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The checks on result (borrowed). @return 1 when one broke. */
static int run_checks(struct conn *c, json_object *result)
{
    const struct conn_ctx *x = c->ctx;
    for (size_t i = 0; i < x->nexpects; i++) {
        char got[96];
        if (expect_eval(&x->expects[i], result, got, sizeof got))
            continue;
        if (conn_error_slot(c, ERR_CHECK))
            conn_note_error(c, ERR_CHECK, "--expect '%s' broke: got %s", x->expects[i].text,
                            got);
        return 1;
    }
    return 0;
}

int answer_decode_full(struct conn *c, const char *body, size_t len, struct enc_result *r,
                       int *broke)
{
    const struct conn_ctx *x = c->ctx;
    *broke = 0;
    if (!x->nexpects)
        return x->enc->decode_response(body, len, r);
    struct answer_checks *k = &x->pool->stats.checks;
    int64_t t0 = cpu_ns();
    json_object *result = NULL;
    int st = x->enc->decode_result(body, len, r, &result);
    if (st == ENC_OK) {
        *broke = run_checks(c, result);
        k->checked++;
        k->failed += *broke;
    }
    json_object_put(result);
    k->ns += cpu_ns() - t0;
    return st;
}
