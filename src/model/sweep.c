#include "model/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grows *arr (of *cap elements of size sz) to hold one more than n,
 * doubling. @return 0, or -1 with *arr unchanged. */
static int grow(void **arr, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 8;
    void *p = realloc(*arr, ncap * sz);
    if (!p)
        return -1;
    *arr = p;
    *cap = ncap;
    return 0;
}

void sweep_init(struct sweep *s)
{
    memset(s, 0, sizeof *s);
}

void sweep_free(struct sweep *s)
{
    for (size_t i = 0; i < s->ncells; i++) {
        for (size_t k = 0; k < s->cells[i].nreps; k++)
            result_free(&s->cells[i].reps[k]);
        free(s->cells[i].reps);
    }
    free(s->cells);
    for (size_t i = 0; i < s->ncaps; i++)
        free(s->caps[i].probes);
    free(s->caps);
    sweep_init(s);
}

long sweep_add_cell(struct sweep *s, const struct sweep_params *p)
{
    if (grow((void **)&s->cells, &s->cap_cells, s->ncells, sizeof *s->cells) < 0)
        return -1;
    struct sweep_cell *c = &s->cells[s->ncells];
    memset(c, 0, sizeof *c);
    c->p = *p;
    return (long)s->ncells++;
}

int sweep_add_rep(struct sweep *s, size_t i, struct run_result *r)
{
    struct sweep_cell *c = &s->cells[i];
    if (grow((void **)&c->reps, &c->cap_reps, c->nreps, sizeof *c->reps) < 0)
        return -1;
    c->reps[c->nreps++] = *r;
    memset(r, 0, sizeof *r);
    return 0;
}

long sweep_add_capacity(struct sweep *s, const char *proto, const char *verb,
                        const char *condition)
{
    if (grow((void **)&s->caps, &s->cap_caps, s->ncaps, sizeof *s->caps) < 0)
        return -1;
    struct sweep_capacity *c = &s->caps[s->ncaps];
    memset(c, 0, sizeof *c);
    snprintf(c->proto, sizeof c->proto, "%s", proto);
    snprintf(c->verb, sizeof c->verb, "%s", verb);
    snprintf(c->condition, sizeof c->condition, "%s", condition);
    c->max_good_rate = c->first_bad_rate = -1;
    return (long)s->ncaps++;
}

int sweep_add_probe(struct sweep_capacity *c, const struct sweep_probe *p)
{
    if (grow((void **)&c->probes, &c->cap_probes, c->nprobes, sizeof *c->probes) < 0)
        return -1;
    c->probes[c->nprobes++] = *p;
    return 0;
}
