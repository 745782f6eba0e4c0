/* report_csv: the run's timeline, its summary and its bucket table as CSV,
 * for the spreadsheet workflow (--format csv, csv-summary, csv-buckets);
 * the timeline and the summary are documents (report_timeline_doc,
 * report_summary_doc) that doc_table_csv writes. Each is one
 * rectangular table with a header row, so a spreadsheet or
 * csv.DictReader takes it as is. Figures without data are empty cells. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/figure.h"
#include "stats/buckets.h"
#include "report/report.h"
#include "report/report_csv.h"
#include "model/config_keys.h"
#include "model/metric.h"
#include "model/server_cpu.h"

static int report_timeline_doc(const struct run_result *r, struct doc_table *t, char *err);

static int report_summary_doc(const struct run_result *r, struct doc_table *t, char *err);

/* Writes s as one CSV field: made safe (base/safetext.h: valid UTF-8, a
 * line break or control as "\xHH"), then as is, or quoted (quotes doubled)
 * when it holds a comma or a quote. */
static void report_csv_field(FILE *out, const char *s)
{
    doc_csv_field(out, s);
}

static void num(FILE *out, double v, int have)
{
    if (have)
        fprintf(out, ",%.10g", v);
    else
        fputs(",", out);
}

/* ---- the summary: one document, one row --------------------------------------- */

/* A summary under construction: its columns' heads, kinds and values. */
struct summary {
    struct doc_table *t;
    const char *text[DOC_MAX_COLS]; /* a text column's cell, else NULL */
    double raw[DOC_MAX_COLS];
    char shown[4][160];             /* the CFK_SHOWN fields' cells */
};

/* The next column: named name (printf), holding a count (kind
 * DOC_RAW_INT), a figure (DOC_RAW_G, 10 digits; FIG_UNKNOWN unless have)
 * or a text (DOC_RAW_NONE, text). */
static void column(struct summary *m, enum doc_raw kind, double v, const char *text,
                   const char *name, ...) __attribute__((format(printf, 5, 6)));
static void column(struct summary *m, enum doc_raw kind, double v, const char *text,
                   const char *name, ...)
{
    struct doc_table *t = m->t;
    if (t->ncols == DOC_MAX_COLS) /* a bug: DOC_MAX_COLS holds the most a run has */
        return;
    int c = t->ncols++;
    va_list ap;
    va_start(ap, name);
    vsnprintf(t->heads[c], DOC_CELL_LEN, name, ap);
    va_end(ap);
    t->raw_kind[c] = kind;
    t->raw_dec[c] = 10;
    m->raw[c] = v;
    m->text[c] = text;
}

/* latency_lower_bound: the names of the latency columns that censored
 * values reach (result_lower_bound), space-separated, as JSON's
 * latency_ms.lower_bound lists them; "" when every figure is exact. */
static void lower_bound_cell(const struct run_result *r, char *out, size_t len)
{
    const struct hist *h = &r->latency;
    const struct censor *cs = &r->censored;
    out[0] = 0;
    if (cs->n <= 0 || !h->total_count)
        return;
    int min = result_censored_at(cs, (double)h->min);
    snprintf(out, len, "%slatency_mean_ms latency_max_ms", min ? "latency_min_ms " : "");
    for (size_t i = 0; i < r->cfg.npcts; i++)
        if (result_censored_at(cs, (double)hist_percentile(h, r->cfg.pcts[i])))
            snprintf(out + strlen(out), len - strlen(out), " latency_p%g_ms", r->cfg.pcts[i]);
}

/* The counts: the requests' fate, then each error kind. */
static void count_columns(struct summary *m, const struct run_result *r)
{
    const int64_t n[] = {r->offered, r->sent, r->unsent, r->ok, r->errors, r->unfinished};
    static const char *const names[] = {"offered", "sent", "unsent", "ok", "errors",
                                        "unfinished"};
    for (int i = 0; i < 6; i++)
        column(m, DOC_RAW_INT, (double)n[i], NULL, "%s", names[i]);
    for (int k = 0; k < ERR_KINDS; k++)
        column(m, DOC_RAW_INT, (double)r->err[k], NULL, "errors_%s", err_kind_names[k]);
}

/* The latency (ms, unknown without an answer), its censoring. */
static void latency_columns(struct summary *m, const struct run_result *r, char *lower,
                            size_t len)
{
    const struct hist *h = &r->latency;
    double no = FIG_UNKNOWN;
    int any = h->total_count > 0;
    column(m, DOC_RAW_G, any ? (double)h->min / 1000 : no, NULL, "latency_min_ms");
    column(m, DOC_RAW_G, any ? hist_mean(h) / 1000 : no, NULL, "latency_mean_ms");
    column(m, DOC_RAW_G, any ? (double)h->max / 1000 : no, NULL, "latency_max_ms");
    for (size_t i = 0; i < r->cfg.npcts; i++)
        column(m, DOC_RAW_G,
               any ? (double)hist_percentile(h, r->cfg.pcts[i]) / 1000 : no, NULL,
               "latency_p%g_ms", r->cfg.pcts[i]);
    column(m, DOC_RAW_INT, (double)r->censored.n, NULL, "censored");
    lower_bound_cell(r, lower, len);
    column(m, DOC_RAW_NONE, 0, lower, "latency_lower_bound");
}

/* The server's CPU and bytes, then the metrics of the sections. */
static void cpu_columns(struct summary *m, const struct run_result *r)
{
    double mean, p50, max;
    result_cpu_summary(r, &mean, &p50, &max);
    struct cpu_per_call c;
    result_cpu_per_call(r, &c);
    column(m, DOC_RAW_G, mean, NULL, "server_cpu_mean_pct");
    const char *per_call = metric_defs[METRIC_CPU_MS].json_key;
    column(m, DOC_RAW_G, metric_defs[METRIC_CPU_MS].value(r), NULL, "%s", per_call);
    column(m, DOC_RAW_INT, (double)r->bytes_received, NULL, "bytes_received");
    /* unknown: no idle baseline */
    column(m, DOC_RAW_G, r->idle.n > 0 ? r->idle.mean_pct : FIG_UNKNOWN, NULL,
           "server_idle_pct");
    column(m, DOC_RAW_G, c.net, NULL, "%s_net", per_call);
    for (int i = 0; i < METRIC_N; i++) { /* a run's own lines (metric_def.run_line) */
        const struct metric_def *d = &metric_defs[i];
        if (d->run_line)
            column(m, DOC_RAW_G, d->value(r), NULL, "%s", d->json_key);
    }
}

/* The configuration fields shown by their row (config_keys.h's
 * CFK_SHOWN), as the report's header shows them: config_KEY. */
static void config_columns(struct summary *m, const struct run_result *r)
{
    size_t n = 0;
    for (size_t i = 0; i < config_keys_n() && n < sizeof m->shown / sizeof m->shown[0]; i++) {
        const struct config_key *k = config_key_i(i);
        if (!(k->flags & CFK_SHOWN))
            continue;
        config_key_text(k, &r->cfg, m->shown[n], sizeof m->shown[n]);
        column(m, DOC_RAW_NONE, 0, m->shown[n++], "config_%s", k->key);
    }
}

/* r's summary as a document of one row, a column per figure, each cell
 * with its raw value (doc_table.h), built from r alone (never from a text
 * section, so its columns are the same whatever the text shows): label,
 * proto, url, duration_s, rate_target, rate_achieved, the counts,
 * errors_<kind> per kind, latency_{min,mean,max}_ms and latency_pP_ms
 * per --percentiles (unknown without an answer), censored,
 * latency_lower_bound, the server's CPU, bytes_received, its idle and net
 * CPU, and the sections' metrics by their JSON keys. Into t (the
 * caller's: doc_table_free it after a 0). @return 0, or -1 with err (no
 * memory; nothing to free). */
static int report_summary_doc(const struct run_result *r, struct doc_table *t, char *err)
{
    struct summary m = {.t = t};
    char lower[400];
    doc_table_init(t, 1);
    t->ncols = 0; /* column() adds them */
    t->cell_len = 1024; /* the target's URL, whole */
    column(&m, DOC_RAW_NONE, 0, r->cfg.label[0] ? r->cfg.label : r->cfg.encoding, "label");
    column(&m, DOC_RAW_NONE, 0, r->cfg.encoding, "proto");
    column(&m, DOC_RAW_NONE, 0, r->target_url, "url");
    column(&m, DOC_RAW_G, r->duration_s, NULL, "duration_s");
    column(&m, DOC_RAW_G, r->cfg.rate, NULL, "rate_target");
    column(&m, DOC_RAW_G, r->rate_achieved, NULL, "rate_achieved");
    count_columns(&m, r);
    latency_columns(&m, r, lower, sizeof lower);
    cpu_columns(&m, r);
    config_columns(&m, r);
    return doc_table_add_raw(t, m.text, m.raw, err); /* a figure's text: its raw value */
}

void report_csv_summary(FILE *out, const struct run_result *r)
{
    struct doc_table t;
    char err[ERR_LEN];
    if (report_summary_doc(r, &t, err)) {
        fprintf(out, "error\n%s\n", err); /* no memory: said, never an empty file */
        return;
    }
    doc_table_csv(out, &t);
    doc_table_free(&t);
}

/* ---- the timeline: a row per interval ------------------------------------------ */

/* r's timeline as a document, a row per interval, each cell with its raw
 * value: t (s, 3 decimals), due, sent, unsent, ok, errors, p50_ms and
 * p99_ms (3; unknown: nothing answered), server_cpu_pct and
 * client_cpu_pct (1; unknown: not measured), server_rss_kb (0), and a
 * staged run's offered rate (3). Into t as report_summary_doc.
 * @return 0, or -1 with err (no memory). */
static int report_timeline_doc(const struct run_result *r, struct doc_table *t, char *err)
{
    /* due and unsent by intended time, sent by the write, ok and errors by
     * the answer's arrival (client/ledger.c); a staged run's offered rate
     * varies: a column of its own */
    static const char *const heads[] = {"t", "due", "sent", "unsent", "ok", "errors",
                                        "p50_ms", "p99_ms", "server_cpu_pct",
                                        "client_cpu_pct", "server_rss_kb", "offered"};
    static const int dec[] = {3, -1, -1, -1, -1, -1, 3, 3, 1, 1, 0, 3}; /* -1: a count */
    int n = r->cfg.nstages > 0 ? 12 : 11;
    doc_table_init(t, n);
    for (int c = 0; c < n; c++) {
        snprintf(t->heads[c], DOC_CELL_LEN, "%s", heads[c]);
        t->raw_kind[c] = dec[c] < 0 ? DOC_RAW_INT : DOC_RAW_FIXED;
        t->raw_dec[c] = dec[c];
    }
    for (size_t i = 0; i < r->nintervals; i++) {
        const struct interval_rec *x = &r->intervals[i];
        /* unknown (empty): nothing answered, not measured */
        const double v[12] = {x->t, (double)x->due, (double)x->sent, (double)x->unsent,
                              (double)x->ok, (double)x->errors, x->p50_ms, x->p99_ms,
                              x->server_cpu_pct, x->client_cpu_pct, x->server_rss_kb,
                              x->offered};
        if (doc_table_add_raw(t, NULL, v, err))
            return -1;
    }
    return 0;
}

void report_csv(FILE *out, const struct run_result *r)
{
    struct doc_table t;
    char err[ERR_LEN];
    if (report_timeline_doc(r, &t, err)) {
        fprintf(out, "error\n%s\n", err); /* no memory: said, never a cut file */
        return;
    }
    doc_table_csv(out, &t);
    doc_table_free(&t);
}

int report_csv_buckets(FILE *out, const struct run_result *r, char *err)
{
    const struct hist *h = &r->latency;
    double edges[BUCKETS_MAX], pct[BUCKETS_MAX];
    int n = buckets_table(r->cfg.buckets, h, edges, pct, err);
    if (n < 0)
        return -1;
    fputs("lt_ms,pct\n", out);
    for (int i = 0; i < n; i++) {
        char e[32];
        buckets_format_ms(edges[i], e, sizeof e);
        if (h->total_count)
            fprintf(out, "%s,%.1f\n", e, pct[i]);
        else
            fprintf(out, "%s,\n", e); /* no answer: no share */
    }
    return 0;
}

void report_csv_targets(FILE *out, const struct run_result *r)
{
    fputs("url,rate,start_s,offered,sent,unsent,ok,errors,unfinished,p50_ms,p99_ms\n", out);
    for (size_t i = 0; i < r->ntargets; i++) {
        const struct target_result *t = &r->targets[i];
        const struct hist *h = &t->latency;
        report_csv_field(out, t->url);
        fprintf(out, ",%.10g,%.10g,%lld,%lld,%lld,%lld,%lld,%lld", t->rate, t->start_s,
                (long long)t->offered, (long long)t->sent, (long long)t->unsent, (long long)t->ok,
                (long long)t->errors, (long long)t->unfinished);
        num(out, (double)hist_percentile(h, 50.0) / 1000, h->total_count > 0);
        num(out, (double)hist_percentile(h, 99.0) / 1000, h->total_count > 0);
        fputc('\n', out);
    }
}
