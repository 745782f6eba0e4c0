/* doc_cards: a page's headline, the figures a reader sees first, built
 * once by each page's builder (the run's in run_doc.c, compare's in
 * compare_cards.c, the sweep's in sweep_table.c) and written by a writer
 * (issue 25). A card's value is formatted by the builder with the
 * functions the tables use (report_fmt_metric, report_latency_fmt), so a
 * card cannot say another figure than a table; its status (a verdict's
 * colour) is a typed value the builder sets from the verdict itself,
 * never read back from the words. */
#ifndef RPCBENCH_DOC_CARDS_H
#define RPCBENCH_DOC_CARDS_H

#include <stddef.h>
#include <stdio.h>

#define DOC_CARD_ID 32
#define DOC_CARD_NAME 420   /* "capacity <proto> <verb> under '<condition>'" */
#define DOC_CARD_VALUE 700  /* an arm's name, its target URL (512) and encoding */

/* What a card's value says of the outcome, for a writer to show. */
enum doc_status {
    DOC_STATUS_NONE, /* a figure, no verdict */
    DOC_STATUS_GOOD, /* a verdict that passed (the page: class "good") */
    DOC_STATUS_BAD   /* a verdict that failed, or a figure that is a fault
                        (errors, an interrupted sweep; class "bad") */
};

struct doc_card {
    char id[DOC_CARD_ID];    /* the page's element id ("h-p99"): tests and scripts find it */
    char name[DOC_CARD_NAME];
    char value[DOC_CARD_VALUE];
    enum doc_status status;
};

/* As many cards as the builder adds: the document allocates them. */
struct doc_cards {
    struct doc_card *card; /* n, the document's own */
    int n, cap;
    int lost;              /* cards no memory could hold: the writer says so */
};

/* Clears d (the caller's). Allocates nothing; a d already built must be
 * doc_cards_free'd first. */
void doc_cards_init(struct doc_cards *d);
/* Frees d's cards (not d); d is then empty. */
void doc_cards_free(struct doc_cards *d);
/* Adds a card: id, name and value copied (each cut to fit its field).
 * @return the card (d's own, valid until d is added to or freed), or
 * NULL without memory (d->lost counts it). */
struct doc_card *doc_cards_add(struct doc_cards *d, const char *id, const char *name,
                               enum doc_status status, const char *value);
/* The --threshold verdict's card: "FAIL (<failed> of <n>)" and bad when
 * any failed, else "pass (<n> of <n>)" and good; nothing when n is 0.
 * @return the card, or NULL (none, or no memory). */
struct doc_card *doc_cards_verdict(struct doc_cards *d, const char *id, const char *name,
                                   size_t failed, size_t n);

/* The page's headline: a <div class="cards" id="headline"> holding a card
 * per card of d (name, value; escaped), the value's element carrying the
 * card's id and the class of its status ("good", "bad", none); a value
 * over 16 bytes (a URL) takes two columns; a card saying how many were
 * lost, if any. Nothing is omitted when d has no card: the box is then
 * empty. */
void doc_cards_html(FILE *out, const struct doc_cards *d);

#endif
