/* openmetrics: the live figures as Prometheus scrapes them (openmetrics.h). */
#include "report/openmetrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* 1, 2, 5 per decade from 100 us to 60 s: wide enough for a ping on
 * loopback and a 150-VM getAllVmStats on an overloaded host. */
static int log_edges(double *edges_s)
{
    static const double steps[] = {1, 2, 5};
    int n = 0;
    for (double decade = 1e-4; decade < 100; decade *= 10)
        for (int i = 0; i < 3 && decade * steps[i] <= 60.0; i++)
            edges_s[n++] = decade * steps[i];
    edges_s[n++] = 60.0;
    return n;
}

int om_init(struct om_state *s, const char *buckets_spec, char *err)
{
    memset(s, 0, sizeof *s);
    s->server_cpu = s->client_cpu = s->steal = s->server_rss_kb = FIG_UNKNOWN;
    if (!buckets_spec[0] || !strcmp(buckets_spec, "auto")) {
        s->nedges = log_edges(s->edges_s);
        return 0;
    }
    double ms[BUCKETS_MAX];
    int n = buckets_edges(buckets_spec, NULL, 0, ms, err);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++)
        s->edges_s[i] = ms[i] / 1000.0;
    s->nedges = n;
    return 0;
}

void om_begin_run(struct om_state *s, const struct run_config *cfg,
                  const struct om_labels *labels)
{
    s->labels = *labels;
    snprintf(s->run, sizeof s->run, "%s", cfg->label[0] ? cfg->label : cfg->encoding);
    /* fixed for the whole run: a label that changed mid-run would split
     * every series in two */
    snprintf(s->target, sizeof s->target, "%s", cfg->url[0] ? cfg->url : "built-in simulator");
    memset(s->le, 0, sizeof s->le);
    memset(&s->c, 0, sizeof s->c);
    s->count = 0;
    s->sum_s = 0;
    s->have_run = 1;
    s->warmup = 1;
    s->done = 0;
    s->rate_offered = cfg->rate > 0 ? cfg->rate : 0;
    s->rate_achieved = s->pacer_lag_p99_s = 0;
    s->in_flight = 0;
    s->server_cpu = s->client_cpu = s->steal = s->server_rss_kb = FIG_UNKNOWN;
}

static void take_counts(struct om_state *s, const struct run_result *r)
{
    s->c.nverbs = r->nverbs;
    for (size_t i = 0; i < r->nverbs && i < RUN_MAX_VERBS; i++) {
        const struct verb_result *v = &r->verbs[i];
        s->c.requests[i] = v->requests;
        s->c.ok[i] = v->ok;
        s->c.errors[i] = v->errors;
        s->c.unfinished[i] = v->unfinished;
        s->c.unsent[i] = v->unsent;
        snprintf(s->c.verb[i], sizeof s->c.verb[i], "%s", v->name);
    }
    memcpy(s->c.err, r->err, sizeof s->c.err);
    s->c.queued = r->queued;
    s->pacer_lag_p99_s =
        r->pacing_lag.total_count ? (double)hist_percentile(&r->pacing_lag, 99) / 1e6 : 0;
}

/* The ok latencies (us) of a view into the cumulative buckets. */
static void take_latency(struct om_state *s, const struct hist *h)
{
    if (!h || !h->total_count)
        return;
    for (int i = 0; i < s->nedges; i++)
        s->le[i] += hist_count_at_or_below(h, (int64_t)llround(s->edges_s[i] * 1e6));
    s->count += h->total_count;
    s->sum_s += hist_mean(h) * (double)h->total_count / 1e6;
}

void om_take_view(struct om_state *s, const struct live_view *v)
{
    s->warmup = v->warmup;
    s->in_flight = v->in_flight;
    take_counts(s, v->res);
    take_latency(s, v->latency);
    if (v->rec) {
        s->rate_achieved = v->interval_s > 0 ? (double)v->rec->sent / v->interval_s : 0;
        if (v->rec->offered > 0) /* --stages: what the schedule offers now */
            s->rate_offered = v->rec->offered;
        s->server_cpu = v->rec->server_cpu_pct;
        s->client_cpu = v->rec->client_cpu_pct;
        s->server_rss_kb = v->rec->server_rss_kb;
    }
    const struct run_result *r = v->res;
    if (!v->warmup && r->nsamples)
        s->steal = r->samples[r->nsamples - 1].machine_steal_pct;
}

void om_run_done(struct om_state *s, const struct run_result *res)
{
    take_counts(s, res);
    s->warmup = 0;
    s->done = 1;
    s->in_flight = 0;
    s->steal = res->machine_steal_pct;
}

/* ---- rendering ------------------------------------------------------------ */

/* v as a label value: backslash, quote and line feed escaped, as both
 * formats want; cut to fit. */
static void esc_value(const char *v, char *out, size_t len)
{
    size_t o = 0;
    for (; *v && o + 3 < len; v++) {
        if (*v == '\\' || *v == '"' || *v == '\n') {
            out[o++] = '\\';
            out[o++] = *v == '\n' ? 'n' : *v;
        } else {
            out[o++] = *v;
        }
    }
    out[o] = '\0';
}

/* ",key=\"value\"" appended to out when value is not empty. */
static void add_label(char *out, size_t len, const char *key, const char *value)
{
    char e[1100];
    if (!value[0])
        return;
    esc_value(value, e, sizeof e);
    size_t used = strlen(out);
    snprintf(out + used, len - used, "%s%s=\"%s\"", used ? "," : "", key, e);
}

/* The run's labels, then up to two more (NULL key: none). */
static void label_set(const struct om_state *s, const char *k1, const char *v1, const char *k2,
                      const char *v2, char *out, size_t len)
{
    char n[16];
    out[0] = '\0';
    add_label(out, len, "run", s->run);
    add_label(out, len, "arm", s->labels.arm);
    snprintf(n, sizeof n, "%d", s->labels.round);
    add_label(out, len, "round", s->labels.round > 0 ? n : "");
    snprintf(n, sizeof n, "%d", s->labels.cell);
    add_label(out, len, "cell", s->labels.cell >= 0 ? n : "");
    add_label(out, len, "target", s->target);
    if (k1)
        add_label(out, len, k1, v1);
    if (k2)
        add_label(out, len, k2, v2);
}

struct om_out {
    const struct om_state *s;
    struct buf *b;
    int om; /* OpenMetrics, else 0.0.4 */
    int failed;
};

/* "# TYPE" and "# HELP" of a family. OpenMetrics names a counter's family
 * without its _total; 0.0.4 names the sample. */
static void family(struct om_out *o, const char *name, const char *type, const char *help)
{
    int counter = !strcmp(type, "counter");
    const char *suffix = counter && !o->om ? "_total" : "";
    o->failed |= buf_appendf(o->b, "# TYPE %s%s %s\n# HELP %s%s %s\n", name, suffix, type, name,
                             suffix, help);
}

static void sample(struct om_out *o, const char *name, const char *labels, double v)
{
    if (!fig_known(v))
        return;
    o->failed |= buf_appendf(o->b, "%s{%s} %.17g\n", name, labels, v);
}

static void gauge(struct om_out *o, const char *name, const char *help, double v)
{
    char l[2048];
    if (!fig_known(v))
        return; /* unknown: no sample, rather than a false 0 */
    family(o, name, "gauge", help);
    label_set(o->s, NULL, NULL, NULL, NULL, l, sizeof l);
    sample(o, name, l, v);
}

static void per_call(struct om_out *o)
{
    const struct live_counts *c = &o->s->c;
    char l[2048];
    family(o, "rpcbench_requests", "counter",
           "Requests offered (due) in the measured window, by call.");
    for (size_t i = 0; i < c->nverbs; i++) {
        label_set(o->s, "call", c->verb[i], NULL, NULL, l, sizeof l);
        sample(o, "rpcbench_requests_total", l, (double)c->requests[i]);
    }
    family(o, "rpcbench_sent", "counter", "Measured requests written to the wire, by call.");
    for (size_t i = 0; i < c->nverbs; i++) {
        label_set(o->s, "call", c->verb[i], NULL, NULL, l, sizeof l);
        sample(o, "rpcbench_sent_total", l, (double)(c->requests[i] - c->unsent[i]));
    }
    family(o, "rpcbench_answers", "counter",
           "Measured requests by call and outcome (ok, error, unfinished, unsent).");
    for (size_t i = 0; i < c->nverbs; i++) {
        const char *outcome[4] = {"ok", "error", "unfinished", "unsent"};
        const int64_t n[4] = {c->ok[i], c->errors[i], c->unfinished[i], c->unsent[i]};
        for (int k = 0; k < 4; k++) {
            label_set(o->s, "call", c->verb[i], "outcome", outcome[k], l, sizeof l);
            sample(o, "rpcbench_answers_total", l, (double)n[k]);
        }
    }
    family(o, "rpcbench_errors", "counter", "Measured requests that failed, by kind.");
    for (int k = 0; k < ERR_KINDS; k++) {
        label_set(o->s, "kind", err_kind_names[k], NULL, NULL, l, sizeof l);
        sample(o, "rpcbench_errors_total", l, (double)c->err[k]);
    }
    family(o, "rpcbench_queued", "counter",
           "Measured requests that found every connection busy when due (sent late, or never).");
    label_set(o->s, NULL, NULL, NULL, NULL, l, sizeof l);
    sample(o, "rpcbench_queued_total", l, (double)c->queued);
}

static void latency(struct om_out *o)
{
    const struct om_state *s = o->s;
    char l[2048], le[32];
    family(o, "rpcbench_latency_seconds", "histogram",
           "Latency of the measured ok answers, from the intended send time.");
    for (int i = 0; i < s->nedges; i++) {
        snprintf(le, sizeof le, "%.6g", s->edges_s[i]);
        label_set(s, "le", le, NULL, NULL, l, sizeof l);
        sample(o, "rpcbench_latency_seconds_bucket", l, (double)s->le[i]);
    }
    label_set(s, "le", "+Inf", NULL, NULL, l, sizeof l);
    sample(o, "rpcbench_latency_seconds_bucket", l, (double)s->count);
    label_set(s, NULL, NULL, NULL, NULL, l, sizeof l);
    sample(o, "rpcbench_latency_seconds_count", l, (double)s->count);
    sample(o, "rpcbench_latency_seconds_sum", l, s->sum_s);
}

int om_render(const struct om_state *s, int openmetrics, struct buf *out)
{
    struct om_out o = {.s = s, .b = out, .om = openmetrics};
    buf_reset(out);
    if (s->have_run) {
        per_call(&o);
        latency(&o);
        gauge(&o, "rpcbench_rate_offered", "The target rate, requests/s (0: closed loop).",
              s->rate_offered);
        gauge(&o, "rpcbench_rate_achieved", "Requests sent per second in the last interval.",
              s->rate_achieved);
        gauge(&o, "rpcbench_in_flight", "Requests sent and not yet answered.",
              (double)s->in_flight);
        gauge(&o, "rpcbench_pacer_lag_p99_seconds",
              "p99 of the pacer's lag behind the intended send times.", s->pacer_lag_p99_s);
        gauge(&o, "rpcbench_server_cpu_percent", "The server's CPU in the last interval, "
              "% of one core.", s->server_cpu);
        gauge(&o, "rpcbench_server_rss_bytes", "The server's resident memory.",
              s->server_rss_kb * 1024.0); /* unknown stays so */
        gauge(&o, "rpcbench_client_cpu_percent", "rpcbench's own CPU in the last interval, "
              "% of one core.", s->client_cpu);
        gauge(&o, "rpcbench_machine_steal_percent", "CPU taken by the hypervisor, % of all "
              "cores.", s->steal);
        gauge(&o, "rpcbench_warmup", "1 while the run's warmup goes.", s->warmup);
    }
    if (openmetrics)
        o.failed |= buf_append_str(out, "# EOF\n");
    return o.failed ? -1 : 0;
}
