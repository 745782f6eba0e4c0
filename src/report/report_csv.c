/* report_csv: the run's summary and its bucket table as CSV, for the
 * spreadsheet workflow (--format csv-summary, --format csv-buckets); the
 * timeline (--format csv) is report_csv in report.c. Each is one
 * rectangular table with a header row, so a spreadsheet or
 * csv.DictReader takes it as is. Figures without data are empty cells. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/safetext.h"
#include "stats/buckets.h"
#include "report/report.h"
#include "report/report_csv.h"
#include "model/metric.h"
#include "model/server_cpu.h"

void report_csv_field(FILE *out, const char *s)
{
    char tmp[1024];
    s = safetext_view(s, tmp, sizeof tmp, 0); /* defence in depth: one line, valid UTF-8 */
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void num(FILE *out, double v, int have)
{
    if (have)
        fprintf(out, ",%.10g", v);
    else
        fputs(",", out);
}

static void summary_head(FILE *out, const struct run_result *r)
{
    fputs("label,proto,url,duration_s,rate_target,rate_achieved,offered,sent,unsent,ok,errors,"
          "unfinished", out);
    for (int k = 0; k < ERR_KINDS; k++)
        fprintf(out, ",errors_%s", err_kind_names[k]);
    fputs(",latency_min_ms,latency_mean_ms,latency_max_ms", out);
    for (size_t i = 0; i < r->cfg.npcts; i++)
        fprintf(out, ",latency_p%g_ms", r->cfg.pcts[i]);
    fputs(",censored,latency_lower_bound", out);
    fputs(",server_cpu_mean_pct,server_cpu_ms_per_call,bytes_received", out);
    fputs(",server_idle_pct,server_cpu_ms_per_call_net", out);
}

/* The metric lines of the run's sections (report_kv_metric), in their
 * order: a figure the report shows gets its column here without a line of
 * its own. head: their names, else their values. */
static void metric_columns(FILE *out, const struct doc_kv *d, int head)
{
    for (int s = 0; s < REPORT_SECTIONS; s++)
        for (int i = 0; i < d[s].n; i++) {
            const struct doc_kv_line *l = &d[s].line[i];
            if (l->metric < 0)
                continue;
            if (head)
                fprintf(out, ",%s", metric_defs[l->metric].json_key);
            else
                num(out, l->raw, fig_known(l->raw));
        }
}

/* latency_lower_bound: the names of the latency columns that censored
 * values reach (result_lower_bound), space-separated, as JSON's
 * latency_ms.lower_bound lists them; empty when every figure is exact. */
static void lower_bound_cell(FILE *out, const struct run_result *r)
{
    const struct hist *h = &r->latency;
    const struct censor *cs = &r->censored;
    const char *sep = "";
    fputc(',', out);
    if (cs->n <= 0 || !h->total_count)
        return;
    if (result_censored_at(cs, (double)h->min))
        fputs("latency_min_ms", out), sep = " ";
    fprintf(out, "%slatency_mean_ms latency_max_ms", sep);
    for (size_t i = 0; i < r->cfg.npcts; i++)
        if (result_censored_at(cs, (double)hist_percentile(h, r->cfg.pcts[i])))
            fprintf(out, " latency_p%g_ms", r->cfg.pcts[i]);
}

void report_csv_summary(FILE *out, const struct run_result *r)
{
    const struct hist *h = &r->latency;
    int any = h->total_count > 0;
    struct doc_kv d[REPORT_SECTIONS];
    report_sections(r, d);
    summary_head(out, r);
    metric_columns(out, d, 1);
    fputc('\n', out);
    report_csv_field(out, r->cfg.label[0] ? r->cfg.label : r->cfg.encoding);
    fputc(',', out);
    report_csv_field(out, r->cfg.encoding);
    fputc(',', out);
    report_csv_field(out, r->target_url);
    fprintf(out, ",%.10g,%.10g,%.10g,%lld,%lld,%lld,%lld,%lld,%lld", r->duration_s, r->cfg.rate,
            r->rate_achieved, (long long)r->offered, (long long)r->sent, (long long)r->unsent,
            (long long)r->ok, (long long)r->errors, (long long)r->unfinished);
    for (int k = 0; k < ERR_KINDS; k++)
        fprintf(out, ",%lld", (long long)r->err[k]);
    num(out, (double)h->min / 1000, any);
    num(out, hist_mean(h) / 1000, any);
    num(out, (double)h->max / 1000, any);
    for (size_t i = 0; i < r->cfg.npcts; i++)
        num(out, (double)hist_percentile(h, r->cfg.pcts[i]) / 1000, any);
    fprintf(out, ",%lld", (long long)r->censored.n);
    lower_bound_cell(out, r);
    double mean, p50, max;
    result_cpu_summary(r, &mean, &p50, &max);
    double per = result_cpu_ms_per_call(r);
    struct cpu_per_call c;
    result_cpu_per_call(r, &c);
    num(out, mean, fig_known(mean));
    num(out, per, fig_known(per));
    fprintf(out, ",%lld", (long long)r->bytes_received);
    num(out, r->idle.mean_pct, r->idle.n > 0); /* empty: no idle baseline */
    num(out, c.net, fig_known(c.net));
    metric_columns(out, d, 0);
    fputc('\n', out);
    for (int i = 0; i < REPORT_SECTIONS; i++)
        doc_kv_free(&d[i]);
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
