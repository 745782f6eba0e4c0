/* compare_docs: the documents of compare's page beyond the tables the
 * text shares (compare_report.h): the header both show, the headline
 * cards, the merged percentiles, the requests and errors by kind, and
 * each arm's per-verb counts. Built here once; doc_kv_text, doc_kv_html,
 * doc_cards_html and doc_table_html write them. Calls none of the
 * writers. */
#include "report/compare_report.h"

#include <string.h>

#include "base/units.h"
#include "report/doc_verdicts.h"

/* "xmlrpc: http://host/RPC2 (xmlrpc)": arm a's name, target and encoding,
 * into out (len bytes, the caller's): the text's line of the arm and the
 * page's card. */
static void compare_arm_text(const struct comparison *c, int a, char *out, size_t len)
{
    const struct run_result *r = &c->arm[a].merged;
    /* a fleet: never its first host (the merged rounds keep no targets' rows) */
    size_t n = c->arm[a].nrounds ? c->arm[a].rounds[0].ntargets : r->ntargets;
    if (r->cfg.targets_file[0] && n)
        snprintf(out, len, "%s: %zu targets from %s (%s)", compare_arm_name(&c->arm[a]), n,
                 r->cfg.targets_file, r->cfg.encoding);
    else if (r->cfg.targets_file[0])
        snprintf(out, len, "%s: the targets of %s (%s)", compare_arm_name(&c->arm[a]),
                 r->cfg.targets_file, r->cfg.encoding);
    else
        snprintf(out, len, "%s: %s (%s)", compare_arm_name(&c->arm[a]), r->target_url,
                 r->cfg.encoding);
}

/* The header's line of the rounds: saved files, or rounds of what length,
 * with the rate and verbs. */
static void header_rounds(struct doc_kv *d, const struct comparison *c)
{
    const struct run_config *cfg = &c->arm[0].merged.cfg;
    char dur[32], warm[32], rate[32];
    units_format_duration(cfg->duration_ns, dur, sizeof dur);
    units_format_duration(cfg->warmup_ns, warm, sizeof warm);
    units_format_rate(cfg->rate, rate, sizeof rate); /* as the user wrote it */
    if (c->saved && c->plan.ninputs == 1)
        doc_kv_add(d, DOC_IN_BOTH, "saved", "%s, %zu rounds per arm; rate %s, verbs ",
                   c->plan.inputs[0], c->pairs, rate);
    else if (c->saved)
        doc_kv_add(d, DOC_IN_BOTH, "saved", "A %s, B %s; rate %s, verbs ", c->plan.inputs[0],
                   c->plan.inputs[1], rate);
    else
        doc_kv_add(d, DOC_IN_BOTH, "rounds", "%zu x (%s measured + %s warmup) per arm, "
                   "in blocks A B, B A; rate %s, verbs ", c->pairs, dur, warm, rate);
    report_verbs_append(d, cfg);
}

/* The header's line of the order the arms ran in, round by round ("AB BA
 * AB"), from the rounds' start times; nothing when none is known (saved
 * files without them). */
static void header_order(struct doc_kv *d, const struct comparison *c)
{
    char text[256] = "";
    size_t n = 0, known = 0;
    for (size_t i = 0; i < c->pairs && n + 4 < sizeof text; i++) {
        char o[4];
        known += compare_order_text(c, i, o, sizeof o);
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", i ? " " : "", o);
    }
    if (n + 4 >= sizeof text)
        snprintf(text + sizeof text - 5, 5, " ...");
    if (known)
        doc_kv_add(d, DOC_IN_BOTH, "order", "%s (round by round, the arms in the order run; "
                   "blocks A B, B A cancel a steady drift)", text);
}

/* The header's line of an arm that stopped answering: which, in which
 * round, why, the verdict it gives, and which rounds the figures are. */
static void header_stop(struct doc_kv *d, const struct comparison *c)
{
    if (c->stop.arm < 0)
        return;
    char text[DOC_KV_VALUE], kept[64];
    compare_stop_text(c, text, sizeof text);
    if (c->pairs == 1)
        snprintf(kept, sizeof kept, "round 1");
    else
        snprintf(kept, sizeof kept, "rounds 1 to %zu", c->pairs);
    doc_kv_add(d, DOC_IN_BOTH, "stopped", "%s", text);
    doc_kv_add(d, DOC_IN_BOTH, "", "the figures are those of %s, complete before it", kept);
}

void compare_header_doc(const struct comparison *c, struct doc_kv *d)
{
    doc_kv_init(d, "comparison");
    for (int a = 0; a < 2; a++) { /* the page's cards say these */
        char key[2] = {c->arm[a].letter, 0}, arm[DOC_CARD_VALUE];
        compare_arm_text(c, a, arm, sizeof arm);
        doc_kv_add(d, DOC_IN_TEXT, key, "%s", arm);
    }
    for (int a = 0; a < 2; a++)
        if (!c->arm[a].merged.cfg.url[0]) { /* make demo's, and any run without --url */
            doc_kv_add(d, DOC_IN_BOTH, "simulator", "%s the built-in simulator, not VDSM: its "
                       "costs are not VDSM's (--url measures a host)", a ||
                       !c->arm[1].merged.cfg.url[0] ? (a ? "B measured" : "A and B measured")
                       : "A measured");
            break;
        }
    struct config_diff diff[CONFIG_DIFF_MAX];
    size_t nd = compare_config_diff(c, diff);
    char text[1024];
    config_diff_text(diff, nd, text, sizeof text);
    if (nd == 0)
        doc_kv_add(d, DOC_IN_BOTH, "A/A", "A and B are the same configuration (A/A): their "
                   "differences are the noise of the setup");
    else
        doc_kv_add(d, DOC_IN_BOTH, "differ", "A and B differ in: %s", text);
    header_rounds(d, c);
    header_order(d, c);
    header_stop(d, c);
}

/* The gates' card (a regression fails, an open gate is not a pass) and
 * the thresholds' (every condition once per arm), from the verdicts'
 * document the text and the JUnit file write too. */
static void verdict_cards(struct doc_cards *d, const struct comparison *c)
{
    struct doc_verdicts v;
    compare_verdicts_doc(&v, c);
    size_t failed, n = doc_verdicts_count(&v, DOC_V_GATE, NULL);
    int reg = 0, inc = 0;
    for (size_t i = 0; i < v.n; i++) {
        reg |= v.v[i].kind == DOC_V_GATE && v.v[i].status == DOC_FAIL;
        inc |= v.v[i].kind == DOC_V_GATE && v.v[i].status == DOC_INCONCLUSIVE;
    }
    if (n)
        doc_cards_add(d, "h-gates", "gates", reg || inc ? DOC_STATUS_BAD : DOC_STATUS_GOOD,
                      reg ? "FAIL (regression)" : inc ? "inconclusive" : "pass");
    n = doc_verdicts_count(&v, DOC_V_THRESHOLD, &failed);
    doc_cards_verdict(d, "h-verdict", "thresholds (both arms)", failed, n);
    doc_verdicts_free(&v);
}

/* An arm that stopped answering, and what it gives: bad either way (the
 * header's line under the cards says why). */
static void stop_card(struct doc_cards *d, const struct comparison *c)
{
    if (c->stop.arm < 0)
        return;
    char when[32] = "before round 1", v[80];
    if (c->stop.round)
        snprintf(when, sizeof when, "in round %zu", c->stop.round);
    snprintf(v, sizeof v, "%c %s: %s", c->arm[c->stop.arm].letter, when,
             compare_arm_failed(c) ? "a failed arm" : "could not run");
    doc_cards_add(d, "h-stopped", "stopped answering", DOC_STATUS_BAD, v);
}

void compare_cards_doc(const struct comparison *c, struct doc_cards *d)
{
    doc_cards_init(d);
    for (int a = 0; a < 2; a++) {
        char name[8], id[8], v[DOC_CARD_VALUE];
        snprintf(name, sizeof name, "%c", c->arm[a].letter);
        snprintf(id, sizeof id, "h-%c", c->arm[a].letter + 'a' - 'A');
        compare_arm_text(c, a, v, sizeof v);
        doc_cards_add(d, id, name, DOC_STATUS_NONE, v);
    }
    char rounds[32];
    snprintf(rounds, sizeof rounds, "%zu%s", c->pairs, c->interrupted ? " (interrupted)"
             : c->stop.arm == 0 ? " (A stopped)" : c->stop.arm == 1 ? " (B stopped)" : "");
    doc_cards_add(d, "h-rounds", c->saved ? "rounds per arm (saved)" : "rounds per arm",
                  DOC_STATUS_NONE, rounds);
    stop_card(d, c);
    verdict_cards(d, c);
}

/* Sets t's heads (n of them) and widths from two arrays. */
static void heads(struct doc_table *t, const char *const *h, const int *w, int n)
{
    for (int k = 0; k < n; k++) {
        snprintf(t->heads[k], DOC_CELL_LEN, "%s", h[k]);
        t->width[k] = w[k];
    }
}

int compare_pct_doc(const struct comparison *c, struct doc_table *t,
                    struct doc_table_style *st, char *err)
{
    static const char *const h[5] = {"percentile", "A latency", "B latency", "A service",
                                     "B service"};
    static const int w[5] = {-10, 12, 12, 12, 12};
    const struct run_result *A = &c->arm[0].merged, *B = &c->arm[1].merged;
    const struct hist *hs[4] = {&A->latency, &B->latency, &A->service, &B->service};
    double mn = 0, mx = 0;
    for (int i = 0; i < 4; i++)
        report_unit_span(hs[i], &mn, &mx);
    struct report_unit u = report_unit_pick(mx, mn);
    doc_table_init(t, 5);
    doc_table_style_init(st);
    heads(t, h, w, 5);
    snprintf(st->html.caption, sizeof st->html.caption, "merged rounds; latency from the "
             "intended send time, service from the actual write");
    for (size_t i = 0; i <= A->cfg.npcts; i++) { /* the last row: the mean */
        int mean = i == A->cfg.npcts;
        double p = mean ? 0 : A->cfg.pcts[i];
        char v[5][32] = {"mean"};
        if (!mean)
            snprintf(v[0], sizeof v[0], "p%g", p);
        for (int k = 0; k < 4; k++)
            report_unit_fmt(&u, hs[k]->total_count > 0,
                            mean ? hist_mean(hs[k]) : (double)hist_percentile(hs[k], p), v[k + 1],
                            sizeof v[k + 1]);
        const char *cells[5] = {v[0], v[1], v[2], v[3], v[4]};
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

/* A row of counts: name, A's and B's. @return doc_table_add's. */
static int count_row(struct doc_table *t, const char *name, int64_t a, int64_t b, char *err)
{
    char va[32] = "n/a", vb[32] = "n/a"; /* -1: a count the input did not hold */
    if (result_count_known(a))
        snprintf(va, sizeof va, "%lld", (long long)a);
    if (result_count_known(b))
        snprintf(vb, sizeof vb, "%lld", (long long)b);
    const char *cells[3] = {name, va, vb};
    return doc_table_add(t, cells, err);
}

int compare_counts_doc(const struct comparison *c, struct doc_table *t,
                       struct doc_table_style *st, char *err)
{
    const struct run_result *A = &c->arm[0].merged, *B = &c->arm[1].merged;
    const char *h[3] = {"requests", compare_arm_name(&c->arm[0]), compare_arm_name(&c->arm[1])};
    static const int w[3] = {-20, 10, 10};
    doc_table_init(t, 3);
    doc_table_style_init(st);
    heads(t, h, w, 3);
    snprintf(st->html.caption, sizeof st->html.caption,
             "requests and errors by kind (merged rounds)");
    if (count_row(t, "offered", A->offered, B->offered, err) ||
        count_row(t, "sent", A->sent, B->sent, err) ||
        count_row(t, "unsent", A->unsent, B->unsent, err) || count_row(t, "ok", A->ok, B->ok, err) ||
        count_row(t, "errors", A->errors, B->errors, err) ||
        count_row(t, "unfinished", A->unfinished, B->unfinished, err))
        return -1;
    if ((A->warmup.sent || B->warmup.sent) && /* the server got them: in no figure */
        count_row(t, "warmup sent", A->warmup.sent, B->warmup.sent, err))
        return -1;
    for (int k = 0; k < ERR_KINDS; k++) {
        char name[48];
        snprintf(name, sizeof name, "error: %s", err_kind_names[k]);
        if (count_row(t, name, A->err[k], B->err[k], err))
            return -1;
    }
    return 0;
}
