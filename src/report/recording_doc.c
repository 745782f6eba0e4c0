/* recording_doc: a recording's page (see recording_doc.h). A method's
 * rate is its calls over the recording's duration; its period the median
 * interval between two of its calls on one connection, the figure an
 * engine's poller is set by ("every 15s"). */
#include "report/recording_doc.h"

#include <stdio.h>
#include <time.h>

#include "report/report.h"

#define COLS 11

static void heads(struct doc_table *t, struct doc_table_style *st)
{
    static const char *const h[COLS] = {"method", "encoding", "calls", "rate/s", "period",
                                        "conns", "req B", "resp B", "p50", "p99",
                                        "fault/err/none"};
    static const int w[COLS] = {-24, -12, 7, 8, 8, 6, 8, 8, 9, 9, 15};
    for (int c = 0; c < COLS; c++) {
        snprintf(t->heads[c], sizeof t->heads[c], "%s", h[c]);
        t->width[c] = w[c];
    }
    st->text.max[0] = 40;
    st->text.fit = 1;
    snprintf(t->id, sizeof t->id, "recording");
    snprintf(t->legend, sizeof t->legend,
             "period: median interval between two calls of the method on one connection; "
             "req B, resp B: mean bytes on the wire; p50, p99: latency seen by the proxy");
}

static int add_method(struct doc_table *t, struct recording_method *m, double dur, char *err)
{
    char v[COLS][48];
    double period = recording_period(m);
    snprintf(v[1], sizeof v[1], "%s/%s", m->encoding, m->transport);
    snprintf(v[2], sizeof v[2], "%llu", (unsigned long long)m->calls);
    snprintf(v[3], sizeof v[3], dur > 0 ? "%.3f" : "-", (double)m->calls / dur);
    if (period >= 0)
        report_fmt_us(period * 1e6, v[4], sizeof v[4]);
    else
        snprintf(v[4], sizeof v[4], "-");
    snprintf(v[5], sizeof v[5], "%llu", (unsigned long long)m->conns);
    report_fmt_bytes(m->request_bytes / (double)m->calls, v[6], sizeof v[6]);
    report_fmt_bytes(m->response_bytes / (double)m->calls, v[7], sizeof v[7]);
    int have = m->latency_us.total_count > 0;
    report_fmt_us((double)hist_percentile(&m->latency_us, 50.0), v[8], sizeof v[8]);
    report_fmt_us((double)hist_percentile(&m->latency_us, 99.0), v[9], sizeof v[9]);
    if (!have) {
        snprintf(v[8], sizeof v[8], "-");
        snprintf(v[9], sizeof v[9], "-");
    }
    snprintf(v[10], sizeof v[10], "%llu/%llu/%llu", (unsigned long long)m->fault,
             (unsigned long long)m->error, (unsigned long long)m->unanswered);
    const char *cells[COLS] = {m->name, v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
                               v[10]};
    return doc_table_add_row(t, cells, NULL, m->ok < m->calls ? DOC_ROW_MARKED : 0, err);
}

static void kv_lines(struct doc_kv *kv, const struct recording *r, const char *path)
{
    char when[64] = "?";
    time_t s = (time_t)r->started_unix;
    struct tm tm;
    if (gmtime_r(&s, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    doc_kv_add(kv, DOC_IN_BOTH, "recording", "%s (%s, %.1f s%s)", path, when, r->duration_s,
               r->has_trailer ? "" : ", no trailer: cut short");
    doc_kv_add(kv, DOC_IN_BOTH, "proxied", "%s to %s%s", r->listen, r->to,
               r->tls ? " (TLS)" : "");
    doc_kv_add(kv, DOC_IN_BOTH, "calls", "%llu on %lld connections (%.2f/s)",
               (unsigned long long)r->calls, (long long)r->conns,
               r->duration_s > 0 ? (double)r->calls / r->duration_s : 0.0);
    if (r->added_p50 >= 0)
        doc_kv_add(kv, DOC_IN_BOTH, "proxy", "added latency p50 %.1f us, p99 %.1f us, max %.1f us",
                   r->added_p50, r->added_p99, r->added_max);
    if (r->bad_lines)
        doc_kv_add(kv, DOC_IN_BOTH, "skipped", "%llu lines that are no call",
                   (unsigned long long)r->bad_lines);
    /* the trailer's counts, in record's own summary words */
    if (r->malformed || r->streams_lost)
        doc_kv_add(kv, DOC_IN_BOTH, "not recorded", "%llu requests that were no call, %llu "
                   "streams not followed", (unsigned long long)r->malformed,
                   (unsigned long long)r->streams_lost);
    if (r->ids_too_long || r->pending_full || r->idle_timeouts)
        doc_kv_add(kv, DOC_IN_BOTH, "bounded", "%llu id too long (calls unanswered), %llu "
                   "pending table full (oldest calls unanswered), %llu idle timeout "
                   "(connections closed)", (unsigned long long)r->ids_too_long,
                   (unsigned long long)r->pending_full, (unsigned long long)r->idle_timeouts);
}

int recording_doc(struct recording *r, const char *path, struct doc_kv *kv, struct doc_table *t,
                  struct doc_table_style *st, char *err)
{
    doc_kv_init(kv, "recording");
    kv_lines(kv, r, path);
    doc_table_init(t, COLS);
    doc_table_style_init(st);
    heads(t, st);
    snprintf(t->empty, sizeof t->empty, "no call was recorded");
    for (size_t i = 0; i < r->nm; i++)
        if (add_method(t, &r->m[i], r->duration_s, err) < 0)
            return -1;
    return 0;
}
