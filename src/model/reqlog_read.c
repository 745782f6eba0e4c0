/* reqlog_read: rebuilds a result from a --requests-log (see its header).
 * Two passes over the file: the calls it names make the result's verbs
 * (result_init sizes their histograms), then every row is counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "model/reqlog_read.h"

/* The columns, in the header's order (client/reqlog.h's REQLOG_HEADER). */
enum { C_INTENDED, C_SENT, C_LATENCY, C_SERVICE, C_CALL, C_TARGET, C_OUTCOME, C_BYTES_SENT,
       C_BYTES_RECEIVED, C_CONN, C_RANK, C_N };

#define REQLOG_FIRST_COLUMNS "intended_us,sent_us,latency_us,service_us,call,"

/* Splits line (changed in place) into C_N fields, unquoting CSV's quoted
 * ones. @return 0, or -1 when the count is wrong. */
static int split(char *line, char **f)
{
    size_t n = 0;
    char *p = line;
    while (n < C_N) {
        f[n++] = p;
        char *o = p;
        int quoted = *p == '"';
        p += quoted;
        for (; *p && (quoted || *p != ','); p++) {
            if (quoted && *p == '"' && p[1] == '"')
                p++;
            else if (quoted && *p == '"') {
                quoted = 0;
                continue;
            }
            *o++ = *p;
        }
        int more = *p == ',';
        *o = '\0';
        if (!more)
            break;
        p++;
    }
    return n == C_N ? 0 : -1;
}

/* @return the kind an outcome names: REQ_OK, an ERR_*, ERR_KINDS for
 * "unfinished", ERR_KINDS + 1 for "unsent", or -2 when it names none. */
static int outcome_kind(const char *s)
{
    if (!strcmp(s, "ok"))
        return REQ_OK;
    if (!strcmp(s, "unfinished"))
        return ERR_KINDS;
    if (!strcmp(s, "unsent"))
        return ERR_KINDS + 1;
    for (int k = 0; k < ERR_KINDS; k++)
        if (!strcmp(s, err_kind_names[k]))
            return k;
    return -2;
}

/* @return the verb of cfg named call, added when new (-1: too many). */
static int verb_of(struct run_config *cfg, const char *call, int add)
{
    for (size_t i = 0; i < cfg->nverbs; i++)
        if (!strcmp(cfg->verbs[i].name, call))
            return (int)i;
    if (!add || cfg->nverbs >= RUN_MAX_VERBS)
        return -1;
    snprintf(cfg->verbs[cfg->nverbs].name, sizeof cfg->verbs[0].name, "%s", call);
    cfg->verbs[cfg->nverbs].weight = 1;
    return (int)cfg->nverbs++;
}

/* One row into r. @return 0, or -1 when it does not read. */
static int count_row(struct run_result *r, char **f, int64_t *last_us)
{
    int kind = outcome_kind(f[C_OUTCOME]);
    int v = verb_of(&r->cfg, f[C_CALL], 0);
    if (kind == -2 || v < 0)
        return -1;
    struct verb_result *vr = &r->verbs[v];
    int64_t intended = atoll(f[C_INTENDED]);
    *last_us = intended > *last_us ? intended : *last_us;
    r->offered++;
    vr->requests++;
    /* never written: "unsent", or a log written before the ledger, where
     * such a request had an error kind or "unfinished" and no sent_us */
    if (kind == ERR_KINDS + 1 || !f[C_SENT][0]) {
        r->unsent++;
        vr->unsent++;
        return 0;
    }
    r->sent++;
    if (f[C_CONN][0] && atoi(f[C_CONN]) >= r->cfg.connections)
        r->cfg.connections = atoi(f[C_CONN]) + 1; /* those the log saw */
    if (f[C_SENT][0])
        hist_record(&r->send_lag, atoll(f[C_SENT]) - intended);
    r->bytes_sent += atoll(f[C_BYTES_SENT]);
    r->bytes_received += atoll(f[C_BYTES_RECEIVED]);
    if (kind == ERR_KINDS) {
        r->unfinished++;
        vr->unfinished++;
    } else if (req_ok(kind)) {
        int64_t lat = atoll(f[C_LATENCY]);
        r->ok++;
        vr->ok++;
        hist_record(&r->latency, lat);
        hist_record(&vr->latency, lat);
        hist_record(&r->service, atoll(f[C_SERVICE]));
    } else {
        r->errors++;
        r->err[kind]++;
        vr->errors++;
    }
    return 0;
}

/* Reads every row of g: pass 0 collects the calls and the target into
 * cfg, pass 1 counts into r. @return 0, or -1 with err. */
static int read_rows(gzFile g, const char *path, int pass, struct run_config *cfg,
                     struct run_result *r, int64_t *last_us, char *err)
{
    char line[4096], *f[C_N];
    long no = 1;
    if (!gzgets(g, line, sizeof line) || strncmp(line, REQLOG_FIRST_COLUMNS,
                                                 strlen(REQLOG_FIRST_COLUMNS))) {
        snprintf(err, ERR_LEN, "%.200s: not a --requests-log (no header)", path);
        return -1;
    }
    while (gzgets(g, line, sizeof line)) {
        no++;
        line[strcspn(line, "\r\n")] = '\0';
        int bad = split(line, f);
        if (!bad && pass == 0) {
            bad = verb_of(cfg, f[C_CALL], 1) < 0;
            if (!cfg->url[0])
                snprintf(cfg->url, sizeof cfg->url, "%s", f[C_TARGET]);
        } else if (!bad) {
            bad = count_row(r, f, last_us);
        }
        if (bad) {
            snprintf(err, ERR_LEN, "%.200s:%ld: not a row of a --requests-log", path, no);
            return -1;
        }
    }
    return 0;
}

/* What the log does not say, as a run's defaults. */
static void default_config(struct run_config *cfg)
{
    static const double pcts[] = {50, 90, 99, 99.9};
    memcpy(cfg->pcts, pcts, sizeof pcts);
    cfg->npcts = sizeof pcts / sizeof *pcts;
    snprintf(cfg->buckets, sizeof cfg->buckets, "auto");
    snprintf(cfg->label, sizeof cfg->label, "requests-log");
    snprintf(cfg->encoding, sizeof cfg->encoding, "?"); /* the log does not say */
    cfg->interval_ns = 1000000000;
}

int reqlog_load(const char *path, struct run_result *r, char *err)
{
    static struct run_config cfg;
    int64_t last_us = 0;
    memset(r, 0, sizeof *r); /* safe to result_free on any failure */
    memset(&cfg, 0, sizeof cfg);
    default_config(&cfg);
    gzFile g = gzopen(path, "rb"); /* reads plain files as they are */
    if (!g) {
        snprintf(err, ERR_LEN, "%.200s: cannot open", path);
        return -1;
    }
    int rc = read_rows(g, path, 0, &cfg, r, &last_us, err);
    if (rc == 0 && result_init(r, &cfg)) {
        snprintf(err, ERR_LEN, "out of memory");
        rc = -1;
    }
    if (rc == 0 && gzrewind(g) == 0)
        rc = read_rows(g, path, 1, &cfg, r, &last_us, err);
    gzclose(g);
    if (rc)
        return -1;
    snprintf(r->target_url, sizeof r->target_url, "%s", cfg.url);
    /* n sends evenly spread from 0 to last: a window of last * n / (n - 1) */
    double n = (double)r->offered;
    r->duration_s = (double)last_us / 1e6 * (n > 1 ? n / (n - 1) : 1);
    r->cfg.duration_ns = (int64_t)(r->duration_s * 1e9);
    if (r->duration_s > 0) { /* offered: every row's; achieved: those that ended */
        r->cfg.rate = n / r->duration_s;
        r->rate_achieved = (double)r->sent / r->duration_s;
    }
    result_warn(r, "rebuilt from the requests log %.200s: counts and latency as the run had "
                "them; no server CPU nor timeline; the window's length is estimated from the "
                "intended send times", path);
    if (r->unfinished) /* the run counted their waits as lower bounds */
        result_warn(r, "%lld unfinished requests are not in the percentiles (the log has no "
                    "time for their waits): the run's own are higher", (long long)r->unfinished);
    return 0;
}
