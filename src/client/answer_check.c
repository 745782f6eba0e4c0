/* answer_check: --expect, the checks on every answer's decoded result, and
 * a --workload line's "expect", on its own call's (workload/expect.h,
 * parsed by the owner into the connections' context), and what the full
 * decode they need costs. */
#include <stdio.h>
#include <time.h>

#include "client/conn.h"
#include "workload/workload.h"

/* This thread's CPU time, ns: what the decode costs the client, whatever
 * else the machine does. */
static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The checks ex[0..n) on result (borrowed), named as where (the option
 * or the workload line) in the sample. @return 1 when one broke. */
static int run_checks(struct conn *c, const struct expect *ex, size_t n, const char *where,
                      json_object *result)
{
    for (size_t i = 0; i < n; i++) {
        char got[96];
        if (expect_eval(&ex[i], result, got, sizeof got))
            continue;
        if (conn_error_slot(c, ERR_CHECK))
            conn_note_error(c, ERR_CHECK, "%s '%s' broke: got %s", where, ex[i].text, got);
        return 1;
    }
    return 0;
}

/* The run's checks, then the call's own. @return 1 when one broke. */
static int check_answer(struct conn *c, int verb, json_object *result)
{
    const struct conn_ctx *x = c->ctx;
    if (run_checks(c, x->expects, x->nexpects, "--expect", result))
        return 1;
    if (!x->calls || verb < 0 || (size_t)verb >= x->ncalls)
        return 0;
    const struct wl_call *k = &x->calls[verb];
    char where[WL_NAME_LEN + 32];
    snprintf(where, sizeof where, "%.64s's expect", k->name);
    return run_checks(c, k->expects, k->nexpects, where, result);
}

int answer_decode_full(struct conn *c, int verb, const char *body, size_t len,
                       struct enc_result *r, int *broke)
{
    const struct conn_ctx *x = c->ctx;
    *broke = 0;
    if (!x->checks)
        return x->enc->decode_response(body, len, r);
    struct answer_checks *k = &x->pool->stats.checks;
    int64_t t0 = cpu_ns();
    json_object *result = NULL;
    int st = x->enc->decode_result(body, len, r, &result);
    if (st == ENC_OK) {
        *broke = check_answer(c, verb, result);
        k->checked++;
        k->failed += *broke;
    }
    json_object_put(result);
    k->ns += cpu_ns() - t0;
    return st;
}
