/* compare_verbs: a mix's figures per verb, side by side (compare_report.h):
 * one row per verb either arm sent, matched by name, from each arm's merged
 * rounds; the same rows in the text, the JSON and the HTML page, and a
 * bucket table per verb in the text. */
#include "report/compare_report.h"

#include <math.h>
#include <string.h>

#include "report/html.h"

/* One verb of the comparison: each arm's result for it (NULL: not sent). */
struct verb_pair {
    const char *name;
    const struct verb_result *v[2];
};

static const struct verb_result *find(const struct run_result *r, const char *name)
{
    for (size_t i = 0; i < r->nverbs; i++)
        if (!strcmp(r->verbs[i].name, name))
            return &r->verbs[i];
    return NULL;
}

/* The verbs of A, then those only B sent, into p (2 * RUN_MAX_VERBS).
 * @return how many; 0 unless an arm sent a mix (one verb each: the
 * summary table is that verb's already). */
static size_t pairs(const struct comparison *c, struct verb_pair *p)
{
    const struct run_result *r[2] = {&c->arm[0].merged, &c->arm[1].merged};
    size_t n = 0;
    if (r[0]->nverbs < 2 && r[1]->nverbs < 2)
        return 0;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < r[a]->nverbs; i++) {
            const char *name = r[a]->verbs[i].name;
            if (a == 1 && find(r[0], name))
                continue;
            p[n].name = name;
            p[n].v[0] = find(r[0], name);
            p[n].v[1] = find(r[1], name);
            n++;
        }
    return n;
}

/* p in ms of v's latencies; NAN when v is absent or has no answer. */
static double pct_ms(const struct verb_result *v, double p)
{
    if (!v || v->latency.total_count == 0)
        return NAN;
    return (double)hist_percentile(&v->latency, p) / 1000;
}

static struct report_unit unit_of(const struct verb_pair *p, size_t n)
{
    double lo = 0, hi = 0;
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 2; a++)
            if (p[i].v[a])
                report_unit_span(&p[i].v[a]->latency, &lo, &hi);
    return report_unit_pick(hi, lo);
}

/* The interval of call p's figure f: its B/A (the geometric mean of the
 * rounds' ratios, as the summary table's), "[lo, hi]" (or "n/a", "n/a (1
 * round)"), and its verdict; "-" for a verb one arm did not send. */
static enum cmp_verdict call_interval(const struct comparison *c, const struct verb_pair *p,
                                      enum metric f, char *ratio, char *iv, size_t len)
{
    struct ci ci;
    double r;
    char text[96];
    snprintf(ratio, len, "-");
    snprintf(iv, len, "-");
    if (!p->v[0] || !p->v[1])
        return CMP_NA;
    enum cmp_verdict v = compare_call_verdict(c, p->name, f, &r, text, sizeof text);
    if (fig_known(r))
        snprintf(ratio, len, "%.3g", r);
    if (compare_call_ci(c, p->name, f, &ci) == 0) {
        char lo[16], hi[16];
        compare_stats_fmt_ratio(ci.low, lo, sizeof lo);
        compare_stats_fmt_ratio(ci.high, hi, sizeof hi);
        snprintf(iv, len, "[%.9s, %.9s]%s", lo, hi, v == CMP_B_LOWER ? " lower"
                 : v == CMP_B_HIGHER ? " higher" : "");
    } else {
        snprintf(iv, len, "%.31s", text);
    }
    return v;
}

/* The cells of one row: verb, A and B requests, then p50 and p99 each as
 * A, B, B/A and its 95 % interval (the summary table's formats and
 * estimator, on the call's own figure of each round), then A and B
 * errors. */
#define VCOLS 13
static void row_cells(const struct comparison *c, const struct verb_pair *p,
                      const struct report_unit *u, char cells[VCOLS][32])
{
    static const double ps[2] = {50, 99};
    static const enum metric fs[2] = {METRIC_P50, METRIC_P99};
    snprintf(cells[0], 32, "%.31s", p->name);
    for (int a = 0; a < 2; a++) {
        snprintf(cells[1 + a], 32, p->v[a] ? "%lld" : "-",
                 p->v[a] ? (long long)p->v[a]->requests : 0LL);
        snprintf(cells[11 + a], 32, p->v[a] ? "%lld" : "-",
                 p->v[a] ? (long long)p->v[a]->errors : 0LL);
    }
    for (int k = 0; k < 2; k++) {
        double va = pct_ms(p->v[0], ps[k]), vb = pct_ms(p->v[1], ps[k]);
        report_fmt_metric(METRIC_P50, va, u, cells[3 + 4 * k], 32);
        report_fmt_metric(METRIC_P50, vb, u, cells[4 + 4 * k], 32);
        call_interval(c, p, fs[k], cells[5 + 4 * k], cells[6 + 4 * k], 32);
    }
}

static const char *const heads[VCOLS] = {"verb", "A requests", "B requests", "A p50", "B p50",
                                          "p50 B/A", "p50 interval", "A p99", "B p99",
                                          "p99 B/A", "p99 interval", "A errors", "B errors"};

/* A table of buckets a verb: a mix of dozens of calls shows those of
 * the busiest only (the per-verb table has them all). */
#define BUCKET_VERBS 8

/* The verbs both arms sent that get a table of buckets, into idx: at most
 * BUCKET_VERBS, those with the most requests (A's and B's) in their
 * order. @return how many; *of: how many both arms sent. */
static size_t bucket_verbs(const struct verb_pair *p, size_t n, size_t *idx, size_t *of)
{
    int64_t req[2 * RUN_MAX_VERBS] = {0}; /* gcc cannot see only [0, m) is read */
    size_t both[2 * RUN_MAX_VERBS], m = 0, pick[2 * RUN_MAX_VERBS];
    for (size_t i = 0; i < n; i++)
        if (p[i].v[0] && p[i].v[1]) {
            req[m] = p[i].v[0]->requests + p[i].v[1]->requests;
            both[m++] = i;
        }
    size_t k = report_busiest(req, m, BUCKET_VERBS, pick);
    for (size_t i = 0; i < k; i++)
        idx[i] = both[pick[i]];
    *of = m;
    return k;
}

/* "(of 40 verbs, the 8 with the most requests ...)": the line under the
 * tables of buckets when some verbs have none; "" when all have one. */
static void bucket_note(size_t k, size_t of, char *out, size_t len)
{
    out[0] = 0;
    if (k < of)
        snprintf(out, len, "tables of buckets for the %u verbs with the most requests of %u; "
                 "the per-verb table has them all", (unsigned)k, (unsigned)of);
}

/* Verb p's table of buckets, A's and B's columns, into t and st (the
 * caller's: doc_table_free t after a 0); note: "" or what the tables
 * leave out, said under the last. @return 0, or -1 with err. */
static int verb_grid(const struct comparison *c, const struct verb_pair *p, const char *note,
                     struct doc_table *t, struct doc_table_style *st, char *err)
{
    static const char *const names[2] = {"A", "B"};
    const struct hist *hs[2] = {&p->v[0]->latency, &p->v[1]->latency};
    char title[48], caption[96];
    snprintf(title, sizeof title, "%.30s %%", p->name);
    snprintf(caption, sizeof caption, "%.40s: cumulative %% of answers under each edge",
             p->name);
    struct report_grid_words w = {title, "response time", caption, note};
    return report_bucket_grid_doc(c->plan.buckets, hs, names, 2, &w, t, st, err);
}

/* A bucket table per verb both arms sent (the busiest), written as text
 * (html 0) or on the page. @return 0, or -1 with err (the page leaves a
 * table it cannot build out, as it always did). */
static int verb_buckets(FILE *out, const struct comparison *c, const struct verb_pair *p,
                        size_t n, int html, char *err)
{
    size_t idx[BUCKET_VERBS], of;
    size_t k = bucket_verbs(p, n, idx, &of);
    char note[160];
    bucket_note(k, of, note, sizeof note);
    for (size_t j = 0; j < k; j++) {
        struct doc_table t;
        struct doc_table_style st;
        if (verb_grid(c, &p[idx[j]], j == k - 1 ? note : "", &t, &st, err)) {
            if (html)
                continue;
            return -1;
        }
        if (html)
            doc_table_html(out, &t, &st.html);
        else
            doc_table_text(out, &t, &st.text);
        doc_table_free(&t);
    }
    return 0;
}

/* A mix's per-verb table (requests, p50 and p99 of A and B with B/A,
 * errors) into t as compare_summary_doc. @return 0, 1 when neither arm
 * sent a mix (t has no row), or -1 with err (no memory). */
static int compare_verbs_doc(const struct comparison *c, struct doc_table *t,
                      struct doc_table_style *st, char *err)
{
    static const int widths[VCOLS] = {-16, 10, 10, 10, 10, 8, -20, 10, 10, 8, -20, 9, 9};
    struct verb_pair p[2 * RUN_MAX_VERBS];
    size_t n = pairs(c, p);
    doc_table_init(t, VCOLS);
    doc_table_style_init(st);
    if (n == 0)
        return 1;
    for (int k = 0; k < VCOLS; k++) {
        snprintf(t->heads[k], DOC_CELL_LEN, "%s", heads[k]);
        t->width[k] = widths[k];
    }
    snprintf(t->legend, sizeof t->legend,
             "per verb: the merged rounds of each arm; B/A and its 95%% interval from the "
             "rounds' own per-verb figures, as above; -: the arm did not send it");
    snprintf(st->html.caption, sizeof st->html.caption,
             "per verb: the merged rounds of each arm; B/A and its 95%% interval from the "
             "rounds' own per-verb figures (-: the arm did not send it)");
    struct report_unit u = unit_of(p, n);
    for (size_t i = 0; i < n; i++) {
        char v[VCOLS][32];
        const char *cells[VCOLS];
        row_cells(c, &p[i], &u, v);
        for (int k = 0; k < VCOLS; k++)
            cells[k] = v[k];
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

/* Arm a's rows of the per-arm counts: each verb it sent. */
static int count_rows(const struct comparison *c, struct doc_table *t, int a,
                      const struct report_unit *u, char *err)
{
    const struct run_result *r = &c->arm[a].merged;
    for (size_t i = 0; i < r->nverbs; i++) {
        const struct verb_result *v = &r->verbs[i];
        char arm[4], n[3][32], p50[32], p99[32];
        snprintf(arm, sizeof arm, "%c", c->arm[a].letter);
        snprintf(n[0], sizeof n[0], "%lld", (long long)v->requests);
        snprintf(n[1], sizeof n[1], "%lld", (long long)v->ok);
        snprintf(n[2], sizeof n[2], "%lld", (long long)v->errors);
        report_fmt_metric(METRIC_P50, pct_ms(v, 50), u, p50, sizeof p50); /* as row_cells */
        report_fmt_metric(METRIC_P99, pct_ms(v, 99), u, p99, sizeof p99);
        const char *cells[7] = {v->name, arm, n[0], n[1], n[2], p50, p99};
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

int compare_verb_counts_doc(const struct comparison *c, struct doc_table *t,
                            struct doc_table_style *st, char *err)
{
    static const char *const h[7] = {"verb", "arm", "requests", "ok", "errors", "p50", "p99"};
    static const int w[7] = {-16, -3, 10, 10, 9, 10, 10};
    struct verb_pair p[2 * RUN_MAX_VERBS];
    size_t n = pairs(c, p);
    doc_table_init(t, 7);
    doc_table_style_init(st);
    if (n == 0)
        return 1;
    for (int k = 0; k < 7; k++) {
        snprintf(t->heads[k], DOC_CELL_LEN, "%s", h[k]);
        t->width[k] = w[k];
    }
    snprintf(st->html.caption, sizeof st->html.caption, "per verb");
    struct report_unit u = unit_of(p, n); /* the per-verb table's */
    return count_rows(c, t, 0, &u, err) || count_rows(c, t, 1, &u, err) ? -1 : 0;
}

int compare_verbs_text(FILE *out, const struct comparison *c, char *err)
{
    struct doc_table t;
    struct doc_table_style st;
    int rc = compare_verbs_doc(c, &t, &st, err);
    if (rc == 0)
        doc_table_text(out, &t, &st.text);
    doc_table_free(&t);
    if (rc)
        return rc < 0 ? -1 : 0;
    struct verb_pair p[2 * RUN_MAX_VERBS];
    return verb_buckets(out, c, p, pairs(c, p), 0, err);
}

static json_object *arm_verb_json(const struct verb_result *v)
{
    if (!v)
        return NULL;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "requests", json_object_new_int64(v->requests));
    json_object_object_add(o, "ok", json_object_new_int64(v->ok));
    json_object_object_add(o, "errors", json_object_new_int64(v->errors));
    double p50 = pct_ms(v, 50), p99 = pct_ms(v, 99);
    json_object_object_add(o, "p50_ms", !fig_known(p50) ? NULL : json_object_new_double(p50));
    json_object_object_add(o, "p99_ms", !fig_known(p99) ? NULL : json_object_new_double(p99));
    return o;
}

/* Call p's B/A of figure f (the rounds' geometric mean): a number, or
 * with as_ci set its interval {ratio, low, high, confidence, verdict}
 * (low and high null without one); null when undefined. */
static json_object *call_ratio_json(const struct comparison *c, const struct verb_pair *p,
                                    enum metric f, int as_ci)
{
    if (!p->v[0] || !p->v[1])
        return NULL;
    struct ci ci;
    double r;
    char text[96];
    enum cmp_verdict v = compare_call_verdict(c, p->name, f, &r, text, sizeof text);
    int rc = compare_call_ci(c, p->name, f, &ci);
    if (!as_ci)
        return fig_known(r) ? json_object_new_double(r) : NULL;
    static const char *const names[] = {
        [CMP_NA_ONE_ROUND] = "n/a (1 round)", [CMP_NA] = "n/a", [CMP_B_LOWER] = "lower",
        [CMP_B_HIGHER] = "higher", [CMP_TOO_FEW] = "too few rounds",
        [CMP_NO_DIFFERENCE] = "no significant difference"};
    json_object *o = json_object_new_object();
    json_object_object_add(o, "ratio", fig_known(r) ? json_object_new_double(r) : NULL);
    json_object_object_add(o, "low", rc == 0 ? json_object_new_double(ci.low) : NULL);
    json_object_object_add(o, "high", rc == 0 ? json_object_new_double(ci.high) : NULL);
    json_object_object_add(o, "confidence", json_object_new_double(0.95));
    json_object_object_add(o, "verdict", json_object_new_string(names[v]));
    return o;
}

json_object *compare_verbs_json(const struct comparison *c)
{
    struct verb_pair p[2 * RUN_MAX_VERBS];
    size_t n = pairs(c, p);
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < n; i++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "verb", json_object_new_string(p[i].name));
        json_object_object_add(o, "a", arm_verb_json(p[i].v[0]));
        json_object_object_add(o, "b", arm_verb_json(p[i].v[1]));
        json_object_object_add(o, "p50_ratio", call_ratio_json(c, &p[i], METRIC_P50, 0));
        json_object_object_add(o, "p99_ratio", call_ratio_json(c, &p[i], METRIC_P99, 0));
        json_object_object_add(o, "p50_ci", call_ratio_json(c, &p[i], METRIC_P50, 1));
        json_object_object_add(o, "p99_ci", call_ratio_json(c, &p[i], METRIC_P99, 1));
        json_object_array_add(arr, o);
    }
    return arr;
}

void compare_verbs_html(FILE *out, const struct comparison *c)
{
    struct doc_table t;
    struct doc_table_style st;
    char err[ERR_LEN];
    int rc = compare_verbs_doc(c, &t, &st, err);
    if (rc == 0)
        doc_table_html(out, &t, &st.html);
    doc_table_free(&t);
    struct verb_pair p[2 * RUN_MAX_VERBS];
    verb_buckets(out, c, p, rc == 0 ? pairs(c, p) : 0, 1, err);
}
