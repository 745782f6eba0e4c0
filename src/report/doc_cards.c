/* doc_cards: a page's headline cards, built once (doc_cards.h). */
#include "report/doc_cards.h"

#include <stdlib.h>
#include <string.h>

#include "report/html.h"

void doc_cards_init(struct doc_cards *d)
{
    memset(d, 0, sizeof *d);
}

void doc_cards_free(struct doc_cards *d)
{
    free(d->card);
    doc_cards_init(d);
}

struct doc_card *doc_cards_add(struct doc_cards *d, const char *id, const char *name,
                               enum doc_status status, const char *value)
{
    if (d->n == d->cap) {
        int cap = d->cap ? 2 * d->cap : 16;
        void *p = realloc(d->card, (size_t)cap * sizeof *d->card);
        if (!p) {
            d->lost++;
            return NULL;
        }
        d->card = p;
        d->cap = cap;
    }
    struct doc_card *c = &d->card[d->n++];
    snprintf(c->id, sizeof c->id, "%s", id);
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->value, sizeof c->value, "%s", value);
    c->status = status;
    return c;
}

struct doc_card *doc_cards_verdict(struct doc_cards *d, const char *id, const char *name,
                                   size_t failed, size_t n)
{
    if (n == 0)
        return NULL;
    char v[64];
    snprintf(v, sizeof v, "%s (%zu of %zu)", failed ? "FAIL" : "pass", failed ? failed : n, n);
    return doc_cards_add(d, id, name, failed ? DOC_STATUS_BAD : DOC_STATUS_GOOD, v);
}

/* The class a status gives the value: the writer's choice of words. */
static const char *status_class(enum doc_status s)
{
    switch (s) {
    case DOC_STATUS_GOOD: return " good";
    case DOC_STATUS_BAD: return " bad";
    case DOC_STATUS_NONE: break;
    }
    return "";
}

void doc_cards_html(FILE *out, const struct doc_cards *d)
{
    fputs("<div class=\"cards\" id=\"headline\">\n", out);
    for (int i = 0; i < d->n; i++) {
        const struct doc_card *c = &d->card[i];
        /* a long value (a URL) takes two columns */
        fprintf(out, "<div class=\"card%s\"><div class=\"k\">",
                strlen(c->value) > 16 ? " wide" : "");
        html_esc(out, c->name);
        fprintf(out, "</div><div class=\"v%s\" id=\"", status_class(c->status));
        html_esc(out, c->id);
        fputs("\">", out);
        html_esc(out, c->value);
        fputs("</div></div>\n", out);
    }
    if (d->lost)
        fprintf(out, "<div class=\"card\"><div class=\"k\">lost</div><div class=\"v bad\">"
                     "%d cards: out of memory</div></div>\n", d->lost);
    fputs("</div>\n", out);
}
