/* reqlog_read: rebuilds a result from a --requests-log (see its header).
 * Two passes over the file: the calls it names make the result's verbs
 * (result_init sizes their histograms), then every row is counted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <json-c/json.h>

#include "model/reqlog_read.h"
#include "model/result_json.h"

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

/* A row never written (empty sent_us): given up at once when its outcome
 * is an error kind (the connections' failure), else it waited for a
 * connection until the run was over (over_us, -1 unknown: censored then,
 * as the run did). A log written before the ledger has "unfinished" or an
 * error kind there: read the same way. */
static void count_unsent(struct run_result *r, struct verb_result *vr, int kind,
                         int64_t intended, int64_t over_us)
{
    r->unsent++;
    vr->unsent++;
    if (kind >= 0 && kind < ERR_KINDS) {
        r->unsent_failed++;
        vr->unsent_failed++;
        r->unsent_kind = kind;
    } else if (over_us >= 0) {
        result_censor(r, (int)(vr - r->verbs), over_us - intended);
    }
}

/* One row into r. @return 0, or -1 when it does not read. */
static int count_row(struct run_result *r, char **f, int64_t *last_us, int64_t over_us)
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
    if (kind == ERR_KINDS + 1 || !f[C_SENT][0]) {
        count_unsent(r, vr, kind, intended, over_us);
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
        if (over_us >= 0) /* its wait until the run was over, a lower bound */
            result_censor(r, v, over_us - intended);
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

/* The REQLOG_CONFIG_TAG line's JSON into cfg (zeroed here first).
 * @return 1 when it read, 0 when it is not that line, -1 when it is and
 * does not parse. */
static int config_line(const char *line, struct run_config *cfg)
{
    size_t k = strlen(REQLOG_CONFIG_TAG);
    if (strncmp(line, REQLOG_CONFIG_TAG, k) || line[k] != ' ')
        return 0;
    json_object *j = json_tokener_parse(line + k + 1);
    if (!j || !json_object_is_type(j, json_type_object)) {
        json_object_put(j);
        return -1;
    }
    memset(cfg, 0, sizeof *cfg);
    result_config_load(j, cfg);
    json_object_put(j);
    return 1;
}

/* The lines before the header ('#': the config line, or any comment),
 * then the header. *have_cfg: the config line was read into cfg (pass 0
 * only). @return the number of the header's line, or -1 with err. */
static long read_head(gzFile g, const char *path, int pass, struct run_config *cfg,
                      int *have_cfg, char *line, int len, char *err)
{
    long no = 0;
    while (gzgets(g, line, len)) {
        no++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] != '#')
            break;
        int got = pass == 0 ? config_line(line, cfg) : 0;
        if (got < 0) {
            snprintf(err, ERR_LEN, "%.120s:%ld: its %s line does not parse", path, no,
                     REQLOG_CONFIG_TAG);
            return -1;
        }
        *have_cfg |= got;
    }
    if (!no || strncmp(line, REQLOG_FIRST_COLUMNS, strlen(REQLOG_FIRST_COLUMNS))) {
        snprintf(err, ERR_LEN, "%.200s: not a --requests-log (no header)", path);
        return -1;
    }
    return no;
}

/* Reads every row of g: pass 0 collects the configuration line, the calls
 * and the target into cfg (*have_cfg: the line was there), pass 1 counts
 * into r. @return 0, or -1 with err. */
static int read_rows(gzFile g, const char *path, int pass, struct run_config *cfg,
                     int *have_cfg, struct run_result *r, int64_t *last_us, int64_t *over_us,
                     char *err)
{
    char line[65536], *f[C_N]; /* the config line is the longest */
    long no = read_head(g, path, pass, cfg, have_cfg, line, (int)sizeof line, err);
    if (no < 0)
        return -1;
    while (gzgets(g, line, sizeof line)) {
        no++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!strncmp(line, REQLOG_END_TAG, strlen(REQLOG_END_TAG))) { /* after the rows */
            long long over = atoll(line + strlen(REQLOG_END_TAG));
            *over_us = over >= 0 ? over : -1;
            continue;
        }
        int bad = split(line, f);
        if (!bad && pass == 0) {
            bad = verb_of(cfg, f[C_CALL], 1) < 0;
            if (!cfg->url[0])
                snprintf(cfg->url, sizeof cfg->url, "%s", f[C_TARGET]);
        } else if (!bad) {
            bad = count_row(r, f, last_us, *over_us);
        }
        if (bad) {
            snprintf(err, ERR_LEN, "%.200s:%ld: not a row of a --requests-log", path, no);
            return -1;
        }
    }
    return 0;
}

/* What a log without the config line does not say: a run's defaults
 * where they only shape the report (percentiles, buckets), unknown (-1)
 * where they are figures of the run (timeout, warmup). */
static void default_config(struct run_config *cfg)
{
    static const double pcts[] = {50, 90, 99, 99.9};
    memcpy(cfg->pcts, pcts, sizeof pcts);
    cfg->npcts = sizeof pcts / sizeof *pcts;
    snprintf(cfg->buckets, sizeof cfg->buckets, "auto");
    snprintf(cfg->label, sizeof cfg->label, "requests-log");
    snprintf(cfg->encoding, sizeof cfg->encoding, "?"); /* the log does not say */
    cfg->interval_ns = 1000000000;
    cfg->timeout_ns = -1;
    cfg->warmup_ns = -1;
}

/* What no requests log holds, unknown in r (result.h: FIG_UNKNOWN, or -1
 * for a count): the machine's load, the queued count, the warmup's counts
 * (the client's CPU and the server's are unknown already, with no
 * sample). */
static void unknown_figures(struct run_result *r)
{
    r->machine_busy_pct = FIG_UNKNOWN;
    r->machine_steal_pct = FIG_UNKNOWN;
    r->loadavg1 = FIG_UNKNOWN;
    r->queued = -1;
    r->warmup = (struct warmup_counts){-1, -1, -1, -1}; /* warmup requests are not logged */
}

/* The window: the configured one when the config line gave it, else
 * estimated: n sends evenly spread from 0 to last, a window of
 * last * n / (n - 1). */
static void window(struct run_result *r, int have_cfg, int64_t last_us)
{
    double n = (double)r->offered; /* every row's */
    if (have_cfg && r->cfg.duration_ns > 0) {
        r->duration_s = (double)r->cfg.duration_ns / 1e9;
    } else {
        r->duration_s = (double)last_us / 1e6 * (n > 1 ? n / (n - 1) : 1);
        r->cfg.duration_ns = (int64_t)(r->duration_s * 1e9);
        if (r->duration_s > 0)
            r->cfg.rate = n / r->duration_s;
    }
    if (r->duration_s > 0) /* achieved: what was written */
        r->rate_achieved = (double)r->sent / r->duration_s;
}

int reqlog_load(const char *path, struct run_result *r, char *err)
{
    static struct run_config cfg;
    int64_t last_us = 0, over_us = -1;
    int have_cfg = 0;
    memset(r, 0, sizeof *r); /* safe to result_free on any failure */
    memset(&cfg, 0, sizeof cfg);
    default_config(&cfg);
    gzFile g = gzopen(path, "rb"); /* reads plain files as they are */
    if (!g) {
        snprintf(err, ERR_LEN, "%.200s: cannot open", path);
        return -1;
    }
    int rc = read_rows(g, path, 0, &cfg, &have_cfg, r, &last_us, &over_us, err);
    if (rc == 0 && result_init(r, &cfg)) {
        snprintf(err, ERR_LEN, "out of memory");
        rc = -1;
    }
    if (rc == 0 && gzrewind(g) == 0)
        rc = read_rows(g, path, 1, &cfg, &have_cfg, r, &last_us, &over_us, err);
    gzclose(g);
    if (rc)
        return -1;
    snprintf(r->target_url, sizeof r->target_url, "%s", cfg.url);
    unknown_figures(r);
    window(r, have_cfg, last_us);
    result_warn(r, "rebuilt from the requests log %.200s: counts and latency as the run had "
                "them; no server CPU, machine load, queued count nor timeline%s", path,
                have_cfg ? "" : "; the window's length is estimated from the intended send "
                "times (the log has no configuration line)");
    int64_t waited = r->unfinished + r->unsent - r->unsent_failed;
    if (waited && over_us < 0) /* the run counted their waits as lower bounds */
        result_warn(r, "%lld unfinished or unsent requests are not in the percentiles (the log "
                    "has no time for their waits): the run's own are higher", (long long)waited);
    return 0;
}
