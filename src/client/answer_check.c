/* answer_check: --expect, the checks on every answer's decoded result
 * (encoders/expect.h), and what the full decode they need costs. */
#include <stdio.h>
#include <time.h>

#include "client/engine_int.h"

_Static_assert(RUN_MAX_EXPECTS == EXPECT_MAX && RUN_EXPECT_LEN == EXPECT_TEXT,
               "run_config's --expect slots are expect.h's");

int answer_checks_setup(struct engine *e, char *err)
{
    e->nexpects = e->cfg->nexpects;
    for (size_t i = 0; i < e->nexpects; i++)
        if (expect_parse(e->cfg->expects[i], &e->expects[i], err))
            return -1;
    return 0;
}

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
    struct engine *e = c->eng;
    for (size_t i = 0; i < e->nexpects; i++) {
        char got[96];
        if (expect_eval(&e->expects[i], result, got, sizeof got))
            continue;
        if (conn_error_slot(c, ERR_CHECK))
            conn_note_error(c, ERR_CHECK, "--expect '%s' broke: got %s", e->expects[i].text,
                            got);
        return 1;
    }
    return 0;
}

int answer_decode_full(struct conn *c, const char *body, size_t len, struct enc_result *r,
                       int *broke)
{
    struct engine *e = c->eng;
    *broke = 0;
    if (!e->nexpects)
        return e->enc->decode_response(body, len, r);
    struct answer_checks *k = &e->pool.stats.checks;
    int64_t t0 = cpu_ns();
    json_object *result = NULL;
    int st = e->enc->decode_result(body, len, r, &result);
    if (st == ENC_OK) {
        *broke = run_checks(c, result);
        k->checked++;
        k->failed += *broke;
    }
    json_object_put(result);
    k->ns += cpu_ns() - t0;
    return st;
}
