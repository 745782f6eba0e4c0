/* condition: parsing and judging --threshold conditions (condition.h). */
#include "judge/condition.h"
#include "judge/condition_testing.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "model/metric.h"
#include "model/server_cpu.h"
#include "stats/hist.h"

/* The condition's kind of each figure of model/metric.h a condition takes
 * (its names are there; "pNN" and "send_lag_pNN" are read below). */
static int plain_kind(enum metric m)
{
    switch (m) {
    case METRIC_MEAN: return CM_MEAN;
    case METRIC_MAX: return CM_MAX;
    case METRIC_MIN: return CM_MIN;
    case METRIC_ERRORS: return CM_ERRORS;
    case METRIC_RATE: return CM_RATE;
    case METRIC_CPU_PCT: return CM_SERVER_CPU;
    case METRIC_CPU_MS: return CM_CPU_MS_PER_CALL;
    case METRIC_SEND_LAG_MAX: return CM_SEND_LAG_MAX;
    case METRIC_UNFINISHED: return CM_UNFINISHED;
    default: return -1; /* p50..p99 as pNN; the others by their value (CM_FIGURE) */
    }
}

static int fail(char *err, const char *expr, const char *why)
{
    snprintf(err, ERR_LEN, "'%.48s': %.56s (%s)", expr, why, COND_FORM);
    return -1;
}

/* "99.9" after a "p" into *pct. @return 0, or -1 when not a percentile. */
static int parse_pct(const char *s, double *pct)
{
    if (!isdigit((unsigned char)s[0]))
        return -1;
    char *end;
    double v = strtod(s, &end);
    if (*end || !(v >= 0 && v <= 100))
        return -1;
    *pct = v;
    return 0;
}

/* A metric name (no verb) into c. @return 0, or -1 when unknown. */
static int parse_metric(const char *name, struct condition *c)
{
    const struct metric_def *m = metric_named(name);
    int kind = m ? plain_kind((enum metric)(m - metric_defs)) : -1;
    if (kind >= 0) {
        c->kind = (enum cond_metric)kind;
        return 0;
    }
    if (m && m->value && !metric_per_call((enum metric)(m - metric_defs))) {
        c->kind = CM_FIGURE; /* bytes, client_cpu_ms: a figure is one row (metric.h) */
        c->fig = (int)(m - metric_defs);
        return 0;
    }
    if (name[0] == 'p' && parse_pct(name + 1, &c->pct) == 0) {
        c->kind = CM_PCT;
        return 0;
    }
    if (!strncmp(name, "send_lag_p", 10) && parse_pct(name + 10, &c->pct) == 0) {
        c->kind = CM_SEND_LAG_PCT;
        return 0;
    }
    return -1;
}

static int is_latency(enum cond_metric k)
{
    return k == CM_PCT || k == CM_MEAN || k == CM_MAX || k == CM_MIN;
}

static int is_duration(enum cond_metric k)
{
    return is_latency(k) || k == CM_SEND_LAG_PCT || k == CM_SEND_LAG_MAX;
}

/* "stageN." before the metric names stage N (1..RUN_MAX_STAGES) of a
 * --stages run, not a verb: c->stage set, c->verb cleared. @return 0, or
 * -1 with err (a stage number out of range, a metric no stage has). */
static int stage_prefix(struct condition *c, char *err)
{
    char *end;
    if (strncmp(c->verb, "stage", 5) || !isdigit((unsigned char)c->verb[5]))
        return 0;
    long n = strtol(c->verb + 5, &end, 10);
    if (*end)
        return 0; /* "stage2x": a verb after all */
    if (n < 1 || n > RUN_MAX_STAGES)
        return fail(err, c->expr, "stages are numbered from 1 to 16");
    if (c->kind == CM_SEND_LAG_PCT || c->kind == CM_SEND_LAG_MAX)
        return fail(err, c->expr, "a stage has no send lag of its own");
    if (c->kind == CM_FIGURE)
        return fail(err, c->expr, "a stage takes pNN, mean, max, min, errors, unfinished, rate, "
                    "server_cpu or cpu_ms_per_call");
    c->stage = (int)n;
    c->verb[0] = '\0';
    return 0;
}

/* The left side, "p99" or "VERB.p99" (a verb may hold dots itself:
 * "Host.getStats.p99"). @return 0, or -1 with err. */
static int parse_lhs(const char *lhs, struct condition *c, char *err)
{
    if (strlen(lhs) >= sizeof c->verb + sizeof c->metric)
        return fail(err, c->expr, "metric name too long");
    const char *name = lhs;
    int ok = parse_metric(lhs, c) == 0;
    for (const char *dot = strchr(lhs, '.'); !ok && dot; dot = strchr(dot + 1, '.')) {
        ok = dot > lhs && parse_metric(dot + 1, c) == 0 && (size_t)(dot - lhs) < sizeof c->verb;
        if (ok) {
            snprintf(c->verb, sizeof c->verb, "%.*s", (int)(dot - lhs), lhs);
            name = dot + 1;
        }
    }
    if (!ok)
        return fail(err, c->expr, "unknown metric");
    if (strlen(name) >= sizeof c->metric)
        return fail(err, c->expr, "unknown metric");
    snprintf(c->metric, sizeof c->metric, "%.31s", name);
    if (c->verb[0] && stage_prefix(c, err))
        return -1;
    if (c->verb[0] && !is_latency(c->kind) && c->kind != CM_ERRORS && c->kind != CM_UNFINISHED)
        return fail(err, c->expr, "a verb takes pNN, mean, max, min, errors or unfinished");
    return 0;
}

/* The operator at s into c; @return its length, or 0 when there is none. */
static size_t parse_op(const char *s, struct condition *c)
{
    if (s[0] == '=') {
        c->op = COND_EQ;
        return 1;
    }
    int eq = s[1] == '=';
    c->op = s[0] == '<' ? (eq ? COND_LE : COND_LT) : (eq ? COND_GE : COND_GT);
    return eq ? 2 : 1;
}

/* The right side: a number and the unit the metric allows, into c->bound.
 * @return 0, or -1 with err. */
static int parse_value(const char *v, struct condition *c, char *err)
{
    char *unit;
    double x = strtod(v, &unit);
    if (unit == v || !isdigit((unsigned char)v[0]) || !isfinite(x))
        return fail(err, c->expr, "the value is not a non-negative number");
    if (is_duration(c->kind)) {
        int64_t ns;
        char why[ERR_LEN];
        if (!*unit || *unit == '%')
            return fail(err, c->expr, "a duration needs a unit: us, ms, s");
        if (units_parse_duration(v, &ns, why))
            return fail(err, c->expr, "bad duration (us, ms, s)");
        c->bound = (double)ns / 1e6;
        return 0;
    }
    int pct = !strcmp(unit, "%");
    c->bound = x;
    switch (c->kind) {
    case CM_ERRORS: case CM_UNFINISHED:
        if (*unit && !pct)
            return fail(err, c->expr, c->kind == CM_ERRORS
                        ? "errors takes a count or a share in %"
                        : "unfinished takes a count or a share in %");
        if (pct)
            c->kind = c->kind == CM_ERRORS ? CM_ERROR_SHARE : CM_UNFINISHED_SHARE;
        break;
    case CM_RATE:
        if (!pct)
            return fail(err, c->expr, "rate takes a % of the target rate");
        break;
    case CM_SERVER_CPU:
        if (*unit && !pct)
            return fail(err, c->expr, "server_cpu takes a % of one core");
        break;
    case CM_FIGURE:
        if (*unit)
            return fail(err, c->expr, "this figure takes a bare number, in its unit");
        break;
    default: /* cpu_ms_per_call */
        if (*unit && strcmp(unit, "ms"))
            return fail(err, c->expr, "cpu_ms_per_call takes CPU-ms (bare or ms)");
    }
    if ((c->kind == CM_ERROR_SHARE || c->kind == CM_UNFINISHED_SHARE) && x > 100)
        return fail(err, c->expr, "a share is at most 100%");
    return 0;
}

/* One condition, spaces around it already trimmed. */
static int parse_one(const char *s, size_t len, struct condition *c, char *err)
{
    memset(c, 0, sizeof *c);
    snprintf(c->expr, sizeof c->expr, "%.*s", (int)len, s);
    if (len >= sizeof c->expr)
        return fail(err, c->expr, "too long");
    char lhs[COND_EXPR_LEN];
    size_t at = strcspn(c->expr, "<>=");
    if (!c->expr[at])
        return fail(err, c->expr, "no operator (< <= > >= =)");
    snprintf(lhs, sizeof lhs, "%.*s", (int)at, c->expr);
    size_t oplen = parse_op(c->expr + at, c);
    const char *v = c->expr + at + oplen;
    if (strchr(lhs, ' ') || strchr(v, ' '))
        return fail(err, c->expr, "no spaces inside a condition");
    if (strpbrk(v, "<>="))
        return fail(err, c->expr, "one operator (< <= > >= =)");
    return parse_lhs(lhs, c, err) || parse_value(v, c, err) ? -1 : 0;
}

int condition_parse_list(const char *s, struct cond_list *l, char *err)
{
    size_t n0 = l->n;
    for (const char *p = s;; p++) {
        size_t len = strcspn(p, ",");
        const char *end = p + len;
        while (p < end && isspace((unsigned char)*p))
            p++;
        size_t trimmed = (size_t)(end - p);
        while (trimmed && isspace((unsigned char)p[trimmed - 1]))
            trimmed--;
        if (l->n == COND_MAX) {
            snprintf(err, ERR_LEN, "more than %d conditions", COND_MAX);
            l->n = n0;
            return -1;
        }
        if (trimmed == 0)
            fail(err, s, "empty condition in the list");
        if (trimmed == 0 || parse_one(p, trimmed, &l->c[l->n], err)) {
            l->n = n0;
            return -1;
        }
        l->n++;
        if (!*end)
            return 0;
        p = end;
    }
}

/* The verb named v in r, or NULL. */
static const struct verb_result *find_verb(const struct run_result *r, const char *v)
{
    for (size_t i = 0; i < r->nverbs; i++)
        if (!strcmp(r->verbs[i].name, v))
            return &r->verbs[i];
    return NULL;
}

static void na(struct cond_result *out, const char *why)
{
    out->na = 1;
    snprintf(out->why, sizeof out->why, "%s", why);
}

/* A latency or lag figure (ms) of h, or n/a when h is empty; cs (NULL for
 * the lags) says which latency figures are lower bounds. */
static void from_hist(const struct condition *c, const struct hist *h, const struct censor *cs,
                      const char *empty, struct cond_result *out)
{
    if (h->total_count == 0) {
        na(out, empty);
        return;
    }
    double us;
    switch (c->kind) {
    case CM_PCT: case CM_SEND_LAG_PCT: us = (double)hist_percentile(h, c->pct); break;
    case CM_MEAN: us = hist_mean(h); break;
    case CM_MIN: us = (double)h->min; break;
    default: us = (double)h->max; /* max, send_lag_max */
    }
    out->value = us / 1000;
    /* The mean takes every censored value in: a lower bound as soon as one is. */
    out->lower_bound = cs && result_lower_bound(cs, c->kind == CM_MEAN, us);
}

/* A count (errors, unfinished) as the condition wants it: as is, or as a
 * share of sent (n/a when nothing was sent). */
static void count_or_share(const struct condition *c, int64_t n, int64_t sent,
                           struct cond_result *out)
{
    if (c->kind == CM_ERRORS || c->kind == CM_UNFINISHED)
        out->value = (double)n;
    else if (sent <= 0)
        na(out, "nothing sent");
    else
        out->value = 100.0 * (double)n / (double)sent;
}

/* x into out, or n/a for why when x is not known. */
static void known_or_na(double x, const char *why, struct cond_result *out)
{
    if (!fig_known(x))
        na(out, why);
    else
        out->value = x;
}

/* The value of a stage's condition on r's stage c->stage into out (or
 * n/a): its own histogram and counts; rate is achieved / offered over
 * the stage; the server CPU is the stage's (result_stages_cpu). */
static void measure_stage(const struct condition *c, const struct run_result *r, int allowed,
                          struct cond_result *out)
{
    if ((size_t)c->stage > r->nstages) {
        na(out, "no such stage in the result");
        return;
    }
    size_t i = (size_t)c->stage - 1;
    const struct stage_result *s = &r->stages[i];
    double offered = result_stage_offered_rate(r, i), x;
    /* Failures: errors, and requests given up for want of a connection;
     * never answered (allowed by an unfinished condition): unfinished, or
     * left waiting for a connection at the end. */
    int64_t failed = s->errors + s->unsent_failed;
    int64_t unfinished = s->unfinished + s->unsent - s->unsent_failed;
    out->unfinished = unfinished;
    switch (c->kind) {
    case CM_ERRORS: case CM_ERROR_SHARE:
        count_or_share(c, allowed ? failed : failed + unfinished, s->offered, out);
        return;
    case CM_UNFINISHED: case CM_UNFINISHED_SHARE:
        count_or_share(c, unfinished, s->offered, out);
        return;
    case CM_RATE:
        if (offered <= 0)
            na(out, "the stage offered nothing");
        else
            out->value = 100.0 * result_stage_achieved(r, i) / offered;
        return;
    case CM_SERVER_CPU: case CM_CPU_MS_PER_CALL:
        x = c->kind == CM_SERVER_CPU ? s->server_cpu_pct : result_stage_cpu_per_call(r, i);
        known_or_na(x, !fig_known(s->server_cpu_pct) ? server_cpu_na_reason(r)
                                                     : "no request answered", out);
        return;
    default:
        from_hist(c, &s->latency, NULL, "no successful response", out);
    }
}

/* The value of c on r into out (or n/a); allowed: unfinished requests are
 * allowed (else they count as errors). */
static void measure(const struct condition *c, const struct run_result *r, int allowed,
                    struct cond_result *out)
{
    if (c->stage) {
        measure_stage(c, r, allowed, out);
        return;
    }
    const struct verb_result *v = c->verb[0] ? find_verb(r, c->verb) : NULL;
    if (c->verb[0] && !v) {
        na(out, "no such verb in the result");
        return;
    }
    /* Shares of what was offered. Failures: errors, and requests given up
     * for want of a connection (a server gone is no unfinished request);
     * never answered (allowed by an unfinished condition): unfinished, or
     * left waiting for a connection at the end. */
    int64_t given_up = v ? v->unsent_failed : r->unsent_failed;
    int64_t errors = (v ? v->errors : r->errors) + given_up, sent = v ? v->requests : r->offered;
    int64_t unfinished = (v ? v->unfinished + v->unsent : r->unfinished + r->unsent) - given_up;
    out->unfinished = unfinished;
    double x;
    switch (c->kind) {
    case CM_ERRORS: case CM_ERROR_SHARE:
        count_or_share(c, allowed ? errors : errors + unfinished, sent, out);
        return;
    case CM_UNFINISHED: case CM_UNFINISHED_SHARE:
        count_or_share(c, unfinished, sent, out);
        return;
    case CM_RATE:
        if (r->cfg.rate <= 0)
            na(out, "no target rate (closed loop)");
        else
            out->value = 100.0 * r->rate_achieved / r->cfg.rate;
        return;
    case CM_SERVER_CPU: {
        double p50, mx;
        result_cpu_summary(r, &x, &p50, &mx);
        known_or_na(x, server_cpu_na_reason(r), out);
        return;
    }
    case CM_CPU_MS_PER_CALL:
        x = result_cpu_ms_per_call(r);
        /* not measured, or nothing answered */
        known_or_na(x, result_server_measured(r) ? "no request answered"
                                                 : server_cpu_na_reason(r), out);
        return;
    case CM_SEND_LAG_PCT: case CM_SEND_LAG_MAX:
        from_hist(c, &r->send_lag, NULL, "nothing sent", out);
        return;
    case CM_FIGURE:
        known_or_na(metric_defs[c->fig].value(r), "not measured in this run, or nothing answered",
                    out);
        return;
    default:
        from_hist(c, v ? &v->latency : &r->latency, v ? &v->censored : &r->censored,
                  "no successful response", out);
    }
}

static int holds(enum cond_op op, double value, double bound)
{
    switch (op) {
    case COND_LT: return value < bound;
    case COND_LE: return value <= bound;
    case COND_GT: return value > bound;
    case COND_GE: return value >= bound;
    default: return value == bound;
    }
}

static void judge(const struct condition *c, const struct run_result *r, int allowed,
                  struct cond_result *out)
{
    memset(out, 0, sizeof *out);
    measure(c, r, allowed, out);
    out->pass = !out->na && holds(c->op, out->value, c->bound);
    /* Unfinished requests the list does not allow fail every latency
     * condition of the run (or verb) they belong to, even one whose
     * figure they do not reach: the run did not answer what it sent. */
    if (!allowed && is_latency(c->kind) && out->unfinished > 0 && out->pass) {
        out->pass = 0;
        out->unallowed = 1;
    }
    if (!allowed && (c->kind == CM_ERRORS || c->kind == CM_ERROR_SHARE) && out->unfinished > 0)
        out->unallowed = 1; /* counted in the errors */
}

void condition_eval(const struct condition *c, const struct run_result *r,
                    struct cond_result *out)
{
    judge(c, r, 0, out);
}

size_t condition_eval_list(const struct cond_list *l, const struct run_result *r,
                           struct cond_result *out)
{
    int allowed = 0;
    for (size_t i = 0; i < l->n; i++)
        allowed |= l->c[i].kind == CM_UNFINISHED || l->c[i].kind == CM_UNFINISHED_SHARE;
    size_t failed = 0;
    for (size_t i = 0; i < l->n; i++) {
        judge(&l->c[i], r, allowed, &out[i]);
        failed += !out[i].pass;
    }
    return failed;
}

const char *cond_unit(const struct condition *c)
{
    if (is_duration(c->kind))
        return "ms";
    if (c->kind == CM_ERROR_SHARE || c->kind == CM_UNFINISHED_SHARE || c->kind == CM_RATE ||
        c->kind == CM_SERVER_CPU)
        return "%";
    return "";
}

/* "<", "<=", ... */
static const char *cond_op_text(enum cond_op op)
{
    static const char *const names[] = {"<", "<=", ">", ">=", "="};
    return names[op];
}

/* A figure with its unit: "20.13ms", "0.5%", "12". */
static void figure(const struct condition *c, double v, char *buf, size_t len)
{
    snprintf(buf, len, c->kind == CM_ERRORS || c->kind == CM_UNFINISHED ? "%.0f%s" : "%.6g%s", v,
             cond_unit(c));
}

const char *condition_describe(const struct condition *c, const struct cond_result *res,
                               char *buf, size_t len)
{
    char value[64], bound[64], name[100];
    char stage[16] = "";
    if (c->stage)
        snprintf(stage, sizeof stage, "stage%d.", c->stage);
    snprintf(name, sizeof name, "%s%s%s%s", stage, c->verb, c->verb[0] ? "." : "", c->metric);
    figure(c, c->bound, bound, sizeof bound);
    if (res->na) {
        snprintf(buf, len, "%s n/a (%s), bound %s %s", name, res->why, cond_op_text(c->op),
                 bound);
        return buf;
    }
    figure(c, res->value, value, sizeof value);
    char note[160] = "";
    long long n = (long long)res->unfinished;
    if (res->lower_bound || res->unallowed)
        snprintf(note, sizeof note, " (%s%lld requests unfinished%s)",
                 res->lower_bound ? "a lower bound: " : is_latency(c->kind) ? "" : "with ", n,
                 res->unallowed ? ", not allowed: allow with unfinished<N or unfinished<X%" : "");
    snprintf(buf, len, "%s %s %s%s, bound %s %s", name,
             res->lower_bound ? RESULT_LOWER_BOUND_MARK : "=", value, note, cond_op_text(c->op),
             bound);
    return buf;
}

json_object *condition_json(const struct cond_list *l, const struct cond_result *res)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; a && i < l->n; i++) {
        const struct condition *c = &l->c[i];
        json_object *o = json_object_new_object();
        if (!o)
            break;
        json_object_object_add(o, "expr", json_object_new_string(c->expr));
        json_object_object_add(o, "metric", json_object_new_string(c->metric));
        if (c->verb[0])
            json_object_object_add(o, "verb", json_object_new_string(c->verb));
        if (c->stage)
            json_object_object_add(o, "stage", json_object_new_int(c->stage));
        json_object_object_add(o, "value", res[i].na ? NULL : json_object_new_double(res[i].value));
        json_object_object_add(o, "op", json_object_new_string(cond_op_text(c->op)));
        json_object_object_add(o, "bound", json_object_new_double(c->bound));
        json_object_object_add(o, "unit", json_object_new_string(cond_unit(c)));
        json_object_object_add(o, "pass", json_object_new_boolean(res[i].pass));
        if (res[i].na)
            json_object_object_add(o, "na", json_object_new_string(res[i].why));
        if (res[i].lower_bound) /* value: at least this (censored values reach it) */
            json_object_object_add(o, "lower_bound", json_object_new_boolean(1));
        if (res[i].unallowed)
            json_object_object_add(o, "unfinished_not_allowed", json_object_new_int64(res[i].unfinished));
        json_object_array_add(a, o);
    }
    return a;
}

int condition_check_verbs(const struct cond_list *l, const struct run_config *cfg, char *err)
{
    for (size_t i = 0; i < l->n; i++) {
        const struct condition *c = &l->c[i];
        if ((size_t)c->stage > cfg->nstages) {
            if (cfg->nstages)
                snprintf(err, ERR_LEN, "'%.48s': this run has no stage %d (it has %zu)", c->expr,
                         c->stage, cfg->nstages);
            else
                snprintf(err, ERR_LEN, "'%.48s': this run has no stages (--stages)", c->expr);
            return -1;
        }
        size_t j = 0;
        while (c->verb[0] && j < cfg->nverbs && strcmp(cfg->verbs[j].name, c->verb))
            j++;
        if (!c->verb[0] || j < cfg->nverbs)
            continue;
        char list[160] = "";
        for (j = 0; j < cfg->nverbs; j++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", cfg->verbs[j].name);
        }
        snprintf(err, ERR_LEN, "'%.48s': this run has no verb '%.40s' (it has %s)", c->expr,
                 c->verb, list);
        return -1;
    }
    return 0;
}
