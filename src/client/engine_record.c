/* engine_record: the verb mix's rotation and, once the run is over, what
 * the connections counted into the result. The requests themselves are
 * counted in one place, the ledger (ledger.c). */
#include <stdio.h>

#include "client/engine_int.h"

/* Smooth weighted round robin (nginx's): a deterministic interleaving that
 * honours the weights over every window, e.g. list:4,getAllVmStats:1 gives
 * L L G L L, like the engine's 3 s ticks did. */
int engine_pick_verb(const struct engine *e, struct lane *l)
{
    const struct run_config *cfg = e->cfg;
    int total = 0, best = 0;
    for (size_t i = 0; i < cfg->nverbs; i++) {
        l->wrr_current[i] += (int)cfg->verbs[i].weight;
        total += (int)cfg->verbs[i].weight;
        if (l->wrr_current[i] > l->wrr_current[best])
            best = (int)i;
    }
    l->wrr_current[best] -= total;
    return best;
}

/* What the connections counted (conn_stats), into the result: once, when
 * the run is over; the result has no other writer. */
void engine_fold_conn_stats(struct engine *e)
{
    const struct conn_stats *s = &e->pool.stats;
    struct run_result *res = e->res;
    res->reconnects += s->reconnects;
    for (int i = 0; i < CONN_CAUSES; i++)
        res->conn_failures[i] += s->failures[i];
    res->handshakes += s->handshakes;
    if (s->handshake.counts)
        hist_merge(&res->handshake, &s->handshake);
    res->tls_failures += s->tls_failures;
    if (s->tls_error[0])
        snprintf(res->tls_error, sizeof res->tls_error, "%s", s->tls_error);
    res->stomp_errors += s->stomp_errors;
    res->stomp_bad_frames += s->stomp_bad_frames;
    if (s->stomp_error[0])
        snprintf(res->stomp_error, sizeof res->stomp_error, "%s", s->stomp_error);
    res->stray_replies += s->stray_replies;
    res->bytes_sent += s->bytes_sent;
    res->bytes_received += s->bytes_received;
    res->checks.checked += s->checks.checked;
    res->checks.failed += s->checks.failed;
    res->checks.ns += s->checks.ns;
}
