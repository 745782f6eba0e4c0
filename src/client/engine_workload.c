/* engine_workload: a --workload run's calls (workload/workload.h), loaded
 * again by the engine from the file the options checked (every MPI rank
 * reads it itself: the configuration crosses as bytes, the file does not),
 * and its templated requests stamped per send without a malloc: each goes
 * out of e->stamp_body, which grows to the largest request once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/engine_int.h"

static int load(struct engine *e, char *err)
{
    e->wl = calloc(1, sizeof *e->wl);
    if (!e->wl) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    if (workload_load(e->wl, e->cfg->workload, err))
        return -1;
    if (e->wl->ncalls != e->cfg->nverbs) {
        snprintf(err, ERR_LEN, "%.100s: changed since the run began", e->cfg->workload);
        return -1;
    }
    unsigned ranks = e->cfg->split_ranks > 1 ? e->cfg->split_ranks : 1;
    tmpl_state_init(&e->tstate, e->cfg->seed, ranks, ranks > 1 ? e->cfg->split_rank : 0);
    e->wl_xml = !strcmp(e->enc->name, "xmlrpc");
    return 0;
}

int engine_workload_call(struct engine *e, size_t i, const char **method, json_object **params,
                         char *err)
{
    if (!e->wl && load(e, err))
        return -1;
    const struct wl_call *c = &e->wl->call[i];
    int xml = e->wl_xml;
    if (xml && c->named) {
        snprintf(err, ERR_LEN, "%.100s:%d: XML-RPC takes positional params only: give an array",
                 e->wl->path, c->line);
        return -1;
    }
    *method = c->method;
    *params = workload_params(c, xml);
    return 0;
}

int engine_workload_compile(struct engine *e, size_t i, const struct enc_request *body, char *err)
{
    const struct wl_call *c = &e->wl->call[i];
    if (!c->templated)
        return 0;
    return tmpl_compile(&e->tmpl[i], c->head, body->body.data, body->body.len, body->id_off,
                        body->id_len, e->wl_xml, e->wl->vars, e->wl->nvars,
                        err);
}

int engine_stamp(struct engine *e, const struct request *r)
{
    const struct tmpl *t = &e->tmpl[r->verb];
    if (!e->wl || !t->nvars)
        return 0;
    /* ${seq}: this process's count, interleaved with the other ranks' */
    unsigned ranks = e->cfg->split_ranks > 1 ? e->cfg->split_ranks : 1;
    uint64_t seq = e->seq_next++ * ranks + (ranks > 1 ? e->cfg->split_rank : 0);
    size_t id_off = 0;
    if (tmpl_stamp(t, e->wl->vars, e->wl->files, &e->tstate, e->wl_xml, seq, &e->stamp_body,
                   &id_off))
        return -1;
    struct enc_request slot = {.body = e->stamp_body, .id_off = id_off, .id_len = t->id_len};
    enc_stamp_id(&slot, reqid_wire(&e->ids, r->id));
    return 1;
}

void engine_workload_free(struct engine *e)
{
    for (size_t i = 0; i < RUN_MAX_VERBS; i++)
        tmpl_free(&e->tmpl[i]);
    buf_free(&e->stamp_body);
    e->cx.calls = NULL; /* their checks go with the file */
    e->cx.ncalls = 0;
    if (e->wl)
        workload_free(e->wl);
    free(e->wl);
    e->wl = NULL;
}
