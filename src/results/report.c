#include "results/report.h"
#include "results/result_ranks.h"

#include <math.h>
#include <string.h>

#include "stats/buckets.h"
#include "base/version.h"

void report_fmt_us(double us, char *out, size_t len)
{
    if (us < 1000)
        snprintf(out, len, "%.0fus", us);
    else if (us < 1e6)
        snprintf(out, len, "%.*fms", us < 1e4 ? 2 : 1, us / 1000);
    else
        snprintf(out, len, "%.2fs", us / 1e6);
}

/* ---- units: one per table, chosen from the figures it shows ------------- */

struct report_unit report_unit_pick(double max_us, double min_us)
{
    struct report_unit u = {"us", 1, 0};
    if (max_us >= 1e6)
        u = (struct report_unit){"s", 1e6, 0};
    else if (max_us >= 1000)
        u = (struct report_unit){"ms", 1000, 0};
    if (u.div > 1 && min_us > 0) {
        int d = 2 - (int)floor(log10(min_us / u.div));
        u.dec = d < 0 ? 0 : d > 3 ? 3 : d;
    }
    return u;
}

void report_unit_span(const struct hist *h, double *mn, double *mx)
{
    if (!h->total_count)
        return;
    double lo = (double)h->min, hi = (double)h->max;
    if (lo > 0 && (*mn <= 0 || lo < *mn))
        *mn = lo;
    if (lo <= 0 && *mn <= 0) {
        double p = (double)hist_percentile(h, 50); /* zeros print as 0 anyway */
        if (p > 0)
            *mn = p;
    }
    if (hi > *mx)
        *mx = hi;
}

void report_unit_fmt(const struct report_unit *u, int have, double us, char *out, size_t len)
{
    if (!have)
        snprintf(out, len, "n/a");
    else
        snprintf(out, len, "%.*f%s", u->dec, us / u->div, u->name);
}

void report_fmt_bytes(double bytes, char *out, size_t len)
{
    static const char *const names[] = {"B", "kB", "MB", "GB", "TB"};
    int i = 0;
    while (i < 4 && bytes >= 999.5)
        bytes /= 1000, i++;
    if (i == 0)
        snprintf(out, len, "%.0f B", bytes);
    else
        snprintf(out, len, "%.*f %s", bytes < 9.995 ? 2 : bytes < 99.95 ? 1 : 0, bytes,
                 names[i]);
}

static const char *plural(int64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* ---- sections ---------------------------------------------------------- */

static void duration_line(FILE *out, const struct run_result *r)
{
    const struct run_config *c = &r->cfg;
    char dur[32], warm[32], tmo[32];
    units_format_duration(c->duration_ns, dur, sizeof dur);
    units_format_duration(c->warmup_ns, warm, sizeof warm);
    units_format_duration(c->timeout_ns, tmo, sizeof tmo);
    fprintf(out, "duration    ");
    if (r->interrupted)
        fprintf(out, "%.2fs measured of %s planned, INTERRUPTED", r->duration_s, dur);
    else
        fprintf(out, "%s measured", dur);
    fprintf(out, " (+%s warmup), %d %s, timeout %s\n", warm, c->connections,
            plural(c->connections, "connection", "connections"), tmo);
    char iso[40];
    result_format_start(r->start_unix, iso, sizeof iso);
    if (iso[0]) /* the measured window's start, for lining up with other logs */
        fprintf(out, "started     %s (%.6f s since the epoch)\n", iso, r->start_unix);
}

static void header(FILE *out, const struct run_result *r)
{
    const struct run_config *c = &r->cfg;
    fprintf(out, "rpcbench %s\n", rpcbench_version());
    fprintf(out, "target      %s (%s)%s\n", r->target_url, c->encoding,
            c->url[0] ? "" : " built-in simulator");
    fprintf(out, "verbs       ");
    for (size_t i = 0; i < c->nverbs; i++)
        fprintf(out, "%s%s:%u", i ? "," : "", c->verbs[i].name, c->verbs[i].weight);
    if (r->closed_loop)
        fprintf(out, "\nrate        closed loop (max): %.2f/s achieved; latency is service time\n",
                r->rate_achieved);
    else
        fprintf(out, "\nrate        %.2f/s target, %.2f/s achieved (%s arrivals%s)\n", c->rate,
                r->rate_achieved, c->arrival == ARRIVAL_POISSON ? "poisson" : "constant",
                c->busy_poll ? ", busy-poll pacer" : "");
    duration_line(out, r);
}

/* The VDSM table: always in ms, the average/min/max line with one number of
 * decimals for all three; n/a and no rows when nothing succeeded. */
static int bucket_table(FILE *out, const struct run_result *r, char *err)
{
    const struct hist *h = &r->latency;
    double edges[BUCKETS_MAX], pct[BUCKETS_MAX];
    int n = buckets_table(r->cfg.buckets, h, edges, pct, err);
    if (n < 0)
        return -1;
    if (h->total_count) {
        struct report_unit u = report_unit_pick(1000, (double)(h->min > 0 ? h->min : 1));
        fprintf(out, "\naverage=%.*fms min=%.*fms max=%.*fms\n", u.dec, hist_mean(h) / 1000,
                u.dec, (double)h->min / 1000, u.dec, (double)h->max / 1000);
    } else {
        fprintf(out, "\naverage=n/a min=n/a max=n/a (no successful response)\n");
    }
    fprintf(out, "response time: percentage\n");
    for (int i = 0; i < n; i++) {
        char e[32];
        buckets_format_ms(edges[i], e, sizeof e);
        if (h->total_count)
            fprintf(out, "<%sms: %.1f\n", e, pct[i]);
        else /* explicit --buckets: a share of nothing is no figure */
            fprintf(out, "<%sms: n/a\n", e);
    }
    return 0;
}

static void percentiles(FILE *out, const struct run_result *r)
{
    const struct hist *lat = &r->latency, *svc = &r->service;
    double mn = 0, mx = 0;
    report_unit_span(lat, &mn, &mx);
    report_unit_span(svc, &mn, &mx);
    struct report_unit u = report_unit_pick(mx, mn);
    fprintf(out, "\n%-10s %12s %12s\n", "percentile", "latency", "service");
    for (size_t i = 0; i < r->cfg.npcts; i++) {
        char a[32], b[32], name[16];
        double p = r->cfg.pcts[i];
        report_unit_fmt(&u, lat->total_count > 0, (double)hist_percentile(lat, p), a, sizeof a);
        report_unit_fmt(&u, svc->total_count > 0, (double)hist_percentile(svc, p), b, sizeof b);
        snprintf(name, sizeof name, "p%g", p);
        fprintf(out, "%-10s %12s %12s\n", name, a, b);
    }
    char m1[32], m2[32];
    report_unit_fmt(&u, lat->total_count > 0, hist_mean(lat), m1, sizeof m1);
    report_unit_fmt(&u, svc->total_count > 0, hist_mean(svc), m2, sizeof m2);
    fprintf(out, "%-10s %12s %12s\n", "mean", m1, m2);
    fprintf(out, "(latency counts from the intended send time; service from the actual write)\n");
}

/* Send lag and pacer lag, one unit per line (they differ by orders of
 * magnitude when the server is the bottleneck). */
static void lags(FILE *out, const struct run_result *r)
{
    const struct hist *hs[2] = {&r->send_lag, &r->pacing_lag};
    static const char *const what[2] = {
        "send lag    p50 %s  p99 %s  max %s (actual - intended send time)\n",
        "pacer lag   p50 %s  p99 %s  max %s (the same, sends that found a free connection)\n",
    };
    for (int i = 0; i < 2; i++) {
        double mn = 0, mx = 0;
        report_unit_span(hs[i], &mn, &mx);
        struct report_unit u = report_unit_pick(mx, mn);
        char p50[32], p99[32], m[32];
        int have = hs[i]->total_count > 0;
        report_unit_fmt(&u, have, (double)hist_percentile(hs[i], 50), p50, sizeof p50);
        report_unit_fmt(&u, have, (double)hist_percentile(hs[i], 99), p99, sizeof p99);
        report_unit_fmt(&u, have, (double)hs[i]->max, m, sizeof m);
        fprintf(out, what[i], p50, p99, m);
    }
}

static void counts(FILE *out, const struct run_result *r)
{
    fprintf(out, "\nrequests    sent %lld  ok %lld  errors %lld  unfinished %lld  (queued %lld)\n",
            (long long)r->sent, (long long)r->ok, (long long)r->errors,
            (long long)r->unfinished, (long long)r->queued);
    fprintf(out, "errors     ");
    for (int k = 0; k < ERR_KINDS; k++)
        fprintf(out, " %s %lld", err_kind_names[k], (long long)r->err[k]);
    int64_t answered = r->ok + r->errors;
    int64_t written = r->sent - r->unfinished;
    char req[32] = "n/a", resp[32] = "n/a";
    if (written > 0)
        report_fmt_bytes((double)r->bytes_sent / (double)written, req, sizeof req);
    if (answered > 0)
        report_fmt_bytes((double)r->bytes_received / (double)answered, resp, sizeof resp);
    fprintf(out, "\nbytes       request %s, response %s (mean)\n", req, resp);
    lags(out, r);
}

static int uses_tls(const struct run_result *r)
{
    return !strncmp(r->target_url, "https:", 6) || !strncmp(r->target_url, "stomps:", 7);
}

/* Connections, TLS and STOMP: what the transport went through. */
static void transport(FILE *out, const struct run_result *r)
{
    fprintf(out, "transport   reconnects %lld (%.1f/s)", (long long)r->reconnects,
            result_reconnects_per_s(r));
    if (result_conn_failures(r)) {
        fprintf(out, ", connection failures %lld (", (long long)result_conn_failures(r));
        for (int k = 0, n = 0; k < CONN_CAUSES; k++)
            if (r->conn_failures[k])
                fprintf(out, "%s%s %lld", n++ ? ", " : "", conn_cause_names[k],
                        (long long)r->conn_failures[k]);
        fprintf(out, ")");
    }
    if (uses_tls(r)) {
        char p50[32], mx[32];
        double lo = 0, hi = 0;
        report_unit_span(&r->handshake, &lo, &hi);
        struct report_unit u = report_unit_pick(hi, lo);
        int have = r->handshake.total_count > 0;
        report_unit_fmt(&u, have, (double)hist_percentile(&r->handshake, 50), p50, sizeof p50);
        report_unit_fmt(&u, have, (double)r->handshake.max, mx, sizeof mx);
        fprintf(out, "; TLS %s, %lld %s (connect + handshake p50 %s, max %s; not in "
                "latency), %lld failed", r->cfg.tls_insecure ? "INSECURE (server not verified)"
                                                             : "verified",
                (long long)r->handshakes, plural(r->handshakes, "handshake", "handshakes"), p50,
                mx, (long long)r->tls_failures);
    }
    if (!strncmp(r->target_url, "stomp", 5))
        fprintf(out, "; STOMP ERROR frames %lld, bad frames %lld, stray replies %lld",
                (long long)r->stomp_errors, (long long)r->stomp_bad_frames,
                (long long)r->stray_replies);
    fprintf(out, "\n");
    if (r->tls_error[0])
        fprintf(out, "            last TLS failure: %s\n", r->tls_error);
    if (r->stomp_error[0])
        fprintf(out, "            last STOMP ERROR: %s\n", r->stomp_error);
}

static void cpu(FILE *out, const struct run_result *r)
{
    double mean, p50, max, cmax;
    result_cpu_summary(r, &mean, &p50, &max);
    if (r->nwatched) {
        fprintf(out, "server      pid");
        for (size_t i = 0; i < r->nwatched; i++)
            fprintf(out, "%s%d", i ? "+" : " ", (int)r->watched_pids[i]);
        fprintf(out, " (%ld %s): CPU mean %.1f%% p50 %.1f%% max %.1f%%", r->server_threads,
                plural(r->server_threads, "thread", "threads"), mean, p50, max);
        double per = result_cpu_ms_per_call(r);
        if (per >= 0)
            fprintf(out, ", %.3f CPU-ms/call", per);
        if (r->server_cpu_source[0])
            fprintf(out, " (%s)", r->server_cpu_source);
        char a[32], b[32];
        report_fmt_bytes((double)r->rss_start_kb * 1024, a, sizeof a);
        report_fmt_bytes((double)r->rss_end_kb * 1024, b, sizeof b);
        fprintf(out, "\n            RSS %s -> %s\n", a, b);
    } else {
        fprintf(out, "server      CPU not sampled (give --server-pid or --server-name)\n");
    }
    double cmean = result_client_cpu_mean(r, &cmax);
    char steal[32] = ""; /* unknown in results saved before steal was measured */
    if (r->machine_steal_pct >= 0)
        snprintf(steal, sizeof steal, ", steal %.1f%%", r->machine_steal_pct);
    char cores[24] = "";
    if (r->machine_cores > 0)
        snprintf(cores, sizeof cores, "%d cores, ", r->machine_cores);
    fprintf(out, "machine     %sbusy %.1f%% (all cores)%s, load %.2f; client CPU mean %.1f%% max "
            "%.1f%%\n", cores, r->machine_busy_pct, steal, r->loadavg1, cmean, cmax);
}

static void per_verb(FILE *out, const struct run_result *r)
{
    if (r->nverbs < 2)
        return;
    fprintf(out, "\n%-16s %8s %8s %8s %10s %10s\n", "verb", "requests", "ok", "errors", "p50",
            "p99");
    double lo = 0, hi = 0;
    for (size_t i = 0; i < r->nverbs; i++)
        report_unit_span(&r->verbs[i].latency, &lo, &hi);
    struct report_unit u = report_unit_pick(hi, lo);
    for (size_t i = 0; i < r->nverbs; i++) {
        const struct verb_result *v = &r->verbs[i];
        char a[32], b[32];
        int have = v->latency.total_count > 0;
        report_unit_fmt(&u, have, (double)hist_percentile(&v->latency, 50), a, sizeof a);
        report_unit_fmt(&u, have, (double)hist_percentile(&v->latency, 99), b, sizeof b);
        fprintf(out, "%-16s %8lld %8lld %8lld %10s %10s\n", v->name, (long long)v->requests,
                (long long)v->ok, (long long)v->errors, a, b);
    }
}

int report_text(FILE *out, const struct run_result *r, char *err)
{
    header(out, r);
    if (bucket_table(out, r, err))
        return -1;
    percentiles(out, r);
    counts(out, r);
    transport(out, r);
    cpu(out, r);
    per_verb(out, r);
    report_ranks(out, r);
    if (r->nwarnings) {
        fprintf(out, "\nwarnings\n");
        for (size_t i = 0; i < r->nwarnings; i++)
            fprintf(out, "  ! %s\n", r->warnings[i]);
    }
    return 0;
}

void report_csv(FILE *out, const struct run_result *r)
{
    fprintf(out, "t,sent,ok,errors,p50_ms,p99_ms,server_cpu_pct,client_cpu_pct,server_rss_kb\n");
    for (size_t i = 0; i < r->nintervals; i++) {
        const struct interval_rec *x = &r->intervals[i];
        fprintf(out, "%.3f,%lld,%lld,%lld,%.3f,%.3f,%.1f,%.1f,%lld\n", x->t, (long long)x->sent,
                (long long)x->ok, (long long)x->errors, x->p50_ms, x->p99_ms, x->server_cpu_pct,
                x->client_cpu_pct, (long long)x->server_rss_kb);
    }
}
