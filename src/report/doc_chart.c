#include "report/doc_chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/figure.h"

void doc_chart_init(struct doc_chart *c, const char *id, const char *title)
{
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id);
    c->title = title;
}

struct doc_series *doc_chart_add(struct doc_chart *c, const char *name,
                                 const struct doc_series *s)
{
    if (c->ns >= DOC_CHART_MAX_SERIES)
        return NULL;
    struct doc_series *d = &c->s[c->ns++];
    *d = *s;
    snprintf(d->name, sizeof d->name, "%s", name);
    return d;
}

double *doc_chart_alloc(struct doc_chart *c, size_t n)
{
    if (c->mem)
        return NULL;
    c->mem = calloc(n ? n : 1, sizeof *c->mem);
    return c->mem;
}

void doc_chart_free(struct doc_chart *c)
{
    free(c->mem);
    c->mem = NULL;
    c->ns = 0;
}

int doc_chart_gap(double y)
{
    return !fig_known(y);
}

int doc_series_drawn(const struct doc_series *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (!doc_chart_gap(s->y[i]))
            return 1;
    return 0;
}

double doc_chart_xpos(enum doc_xaxis a, double x)
{
    if (a != DOC_X_PERCENTILE)
        return x;
    double q = 100 - x;
    return log10(100 / (q > 1e-9 ? q : 1e-9));
}

void doc_chart_pct_label(int k, char *out, size_t len)
{
    if (k == 0) {
        snprintf(out, len, "0%%");
        return;
    }
    snprintf(out, len, "%.*f%%", k > 2 ? k - 2 : 0, 100 - 100 / pow(10, k));
}
