/* result_stages: where a --stages run's stages lie in its measured window,
 * and the per-stage figures that are computed rather than counted (the
 * server CPU from the timeline's samples). The counts and histograms are
 * recorded by the engine (client/engine_record.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "model/run_result.h"
#include "model/server_cpu.h"

int result_stages_init(struct run_result *r)
{
    r->nstages = r->cfg.nstages <= RUN_MAX_STAGES ? r->cfg.nstages : RUN_MAX_STAGES;
    for (size_t i = 0; i < r->nstages; i++) {
        r->stages[i].server_cpu_pct = r->stages[i].server_cpu_ms = FIG_UNKNOWN;
        if (hist_init_latency(&r->stages[i].latency))
            return -1;
    }
    return 0;
}

int64_t result_stage_start(const struct run_config *cfg, size_t i)
{
    int64_t t = 0;
    for (size_t j = 0; j < i && j < cfg->nstages; j++)
        t += cfg->stages[j].duration_ns;
    return t;
}

int result_stage_of(const struct run_config *cfg, int64_t off_ns)
{
    if (off_ns < 0)
        return -1;
    int64_t end = 0;
    for (size_t i = 0; i < cfg->nstages; i++) {
        end += cfg->stages[i].duration_ns;
        if (off_ns < end)
            return (int)i;
    }
    return -1;
}

/* A stage's rate: units_parse_rate's forms, or 0 (a ramp may start or end
 * at rest, a hold at 0 is a pause); "max" (closed loop) is refused. */
static int stage_rate(const char *s, double *r, char *err)
{
    char *end;
    if (!strcmp(s, "max")) {
        snprintf(err, ERR_LEN, "'max' (closed loop) is not for a stage: give each stage a rate");
        return -1;
    }
    if (strtod(s, &end) == 0 && end != s && (!*end || *end == '/')) {
        *r = 0;
        return 0;
    }
    return units_parse_rate(s, r, err);
}

/* One stage "D:R" or "D:R1-R2" (text[0..len)) into st. */
static int parse_stage(const char *text, size_t len, struct run_stage *st, char *err)
{
    char buf[128], why[ERR_LEN] = "";
    if (len >= sizeof buf) {
        snprintf(err, ERR_LEN, "stage too long");
        return -1;
    }
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *colon = strchr(buf, ':');
    if (!colon) {
        snprintf(err, ERR_LEN, "'%s' is not D:R or D:R1-R2 (e.g. 60s:10/s-100/s)", buf);
        return -1;
    }
    *colon = '\0';
    char *to = strchr(colon + 1, '-');
    if (to)
        *to++ = '\0';
    if (units_parse_duration(buf, &st->duration_ns, why) || st->duration_ns <= 0 ||
        stage_rate(colon + 1, &st->from, why) || (to && stage_rate(to, &st->to, why))) {
        snprintf(err, ERR_LEN, "'%.*s': %.160s", (int)(len < 60 ? len : 60), text,
                 why[0] ? why : "the duration must be above zero");
        return -1;
    }
    if (!to)
        st->to = st->from;
    return 0;
}

int result_stages_parse(const char *arg, struct run_stage *st, size_t *n, char *why)
{
    *n = 0;
    for (const char *p = arg;; p++) {
        size_t len = strcspn(p, ",");
        if (*n == RUN_MAX_STAGES) {
            snprintf(why, ERR_LEN, "%d stages at most", RUN_MAX_STAGES);
            return -1;
        }
        char one[ERR_LEN];
        if (parse_stage(p, len, &st[*n], one)) {
            snprintf(why, ERR_LEN, "stage %zu %.200s", *n + 1, one);
            *n = 0;
            return -1;
        }
        (*n)++;
        p += len;
        if (!*p)
            return 0;
    }
}

double result_stage_offered(const struct run_stage *st)
{
    return (st->from + st->to) / 2 * (double)st->duration_ns / 1e9;
}

/* The overlap of [a0, a1) and [b0, b1), ns (0 when none). */
static int64_t overlap(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
    int64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    return hi > lo ? hi - lo : 0;
}

/* @return how long stage i ran, s: its length, or less when a signal ended
 * the window (r->duration_s) within it (0 when before it). */
static double result_stage_ran_s(const struct run_result *r, size_t i)
{
    double t0 = (double)result_stage_start(&r->cfg, i) / 1e9;
    double len = (double)r->cfg.stages[i].duration_ns / 1e9;
    if (r->duration_s > 0 && r->duration_s < t0 + len) /* a signal ended it early */
        len = r->duration_s > t0 ? r->duration_s - t0 : 0;
    return len;
}

/* What the samples say of stage i: where the server was read, its CPU %
 * times ns and for how long; where it was not (it had exited, or was not
 * found yet), the calls answered there, each interval's by how much of it
 * lies in the stage (none when the timeline does not line up with the
 * samples: a merge). */
struct stage_cover {
    double pct_x_ns;
    int64_t read_ns;
    double unread_answered;
};

/* Sample j covers the time since the one before it (the first: since the
 * window's start) up to its t_ns. */
static void stage_cover(const struct run_result *r, size_t i, struct stage_cover *c)
{
    int64_t s0 = result_stage_start(&r->cfg, i);
    int64_t s1 = s0 + (int64_t)llround(result_stage_ran_s(r, i) * 1e9), prev = 0;
    int lined_up = r->nintervals == r->nsamples;
    *c = (struct stage_cover){0};
    for (size_t j = 0; j < r->nsamples; j++) {
        const struct proc_point *p = &r->samples[j];
        int64_t ov = overlap(prev, p->t_ns, s0, s1), len = p->t_ns - prev;
        prev = p->t_ns;
        if (ov == 0)
            continue;
        if (fig_known(p->server_pct)) {
            c->pct_x_ns += p->server_pct * (double)ov;
            c->read_ns += ov;
        } else if (lined_up && len > 0) {
            c->unread_answered += result_interval_answered(r, j) * (double)ov / (double)len;
        }
    }
}

static void stage_cpu(struct run_result *r, size_t i)
{
    struct stage_cover c;
    struct stage_result *st = &r->stages[i];
    stage_cover(r, i, &c);
    if (c.read_ns == 0) {
        st->server_cpu_pct = st->server_cpu_ms = FIG_UNKNOWN;
        return;
    }
    st->server_cpu_pct = c.pct_x_ns / (double)c.read_ns;
    st->server_cpu_ms = c.pct_x_ns / 100 / 1e6; /* % of a core x ns: ms where it was read */
}

void result_stages_cpu(struct run_result *r)
{
    for (size_t i = 0; i < r->nstages; i++)
        stage_cpu(r, i);
}

double result_stage_offered_rate(const struct run_result *r, size_t i)
{
    const struct run_stage *st = &r->cfg.stages[i];
    double len = (double)st->duration_ns / 1e9, tau = result_stage_ran_s(r, i);
    if (tau <= 0)
        return 0;
    return st->from + (st->to - st->from) * tau / (2 * len); /* N(tau) / tau */
}

double result_stage_achieved(const struct run_result *r, size_t i)
{
    double len = result_stage_ran_s(r, i);
    return len > 0 ? (double)r->stages[i].sent / len : 0;
}

double result_stage_cpu_per_call(const struct run_result *r, size_t i)
{
    const struct stage_result *st = &r->stages[i];
    struct stage_cover c;
    if (!fig_known(st->server_cpu_ms) || st->answered < 0) /* -1: a count unknown */
        return FIG_UNKNOWN;
    stage_cover(r, i, &c);
    double answered = (double)st->answered - c.unread_answered; /* where it lived */
    return answered > 0 ? st->server_cpu_ms / answered : FIG_UNKNOWN;
}

/* Every measured request is intended inside some stage: the stages' counts
 * are the run's. @return whether they add up. */
static int stages_add_up(const struct run_result *r)
{
    int64_t sent = 0, ok = 0, errors = 0, unsent = 0;
    for (size_t i = 0; i < r->nstages; i++) {
        sent += r->stages[i].sent;
        ok += r->stages[i].ok;
        errors += r->stages[i].errors;
        unsent += r->stages[i].unsent;
    }
    return sent == r->sent && ok == r->ok && errors == r->errors && unsent == r->unsent;
}

/* Stage i (from 0) ran whole and achieved under 99 % of what it offered:
 * its warning into out. @return 1 when so. */
static int not_held(const struct run_result *r, size_t i, char *out, size_t len)
{
    const struct run_stage *st = &r->cfg.stages[i];
    double offered = result_stage_offered(st), secs = (double)st->duration_ns / 1e9;
    double end = (double)(result_stage_start(&r->cfg, i) + st->duration_ns) / 1e9;
    if (end > r->duration_s + 1e-6 || offered < 1)
        return 0; /* cut short by a signal, or too little to tell */
    double done = result_stage_achieved(r, i) * secs; /* it ran whole */
    /* one request less is the schedule's rounding, not a lost one */
    if (done >= 0.99 * offered - 1)
        return 0;
    snprintf(out, len, "stage %zu: %.2f/s achieved of %.2f/s offered (%.0f%%): rate not held",
             i + 1, done / secs, offered / secs, 100 * done / offered);
    return 1;
}

int result_stage_warning(const struct run_result *r, size_t k, char *out, size_t len)
{
    if (k > r->nstages || (k == 0 && (!r->nstages || stages_add_up(r))))
        return 0;
    if (k > 0)
        return not_held(r, k - 1, out, len);
    snprintf(out, len, "counts: the stages' do not add up to the run's sent %lld, ok %lld, "
             "errors %lld (a bug: please report it)", (long long)r->sent, (long long)r->ok,
             (long long)r->errors);
    return 1;
}
