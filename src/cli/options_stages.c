/* options_stages: --stages D:R[-R2],... (issue 26): the stages of the
 * measured window, each checked before anything is sent, and what they
 * make of the window's duration and mean rate. */
#include "cli/option_table.h"
#include "cli/options.h"

#include <stdlib.h>
#include <string.h>

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

int opt_parse_stages(struct options *o, const char *arg, char *err)
{
    struct run_config *c = &o->cfg;
    c->nstages = 0;
    for (const char *p = arg;; p++) {
        size_t len = strcspn(p, ",");
        if (c->nstages == RUN_MAX_STAGES) {
            snprintf(err, ERR_LEN, "--stages: %d stages at most", RUN_MAX_STAGES);
            return -1;
        }
        char why[ERR_LEN];
        if (parse_stage(p, len, &c->stages[c->nstages], why)) {
            snprintf(err, ERR_LEN, "--stages: stage %zu %.200s", c->nstages + 1, why);
            c->nstages = 0;
            return -1;
        }
        c->nstages++;
        p += len;
        if (!*p)
            return 0;
    }
}

/* @return whether the option named name was on the command line (as
 * options_given says, read here from the table: options.c calls this file). */
static int given(const struct options *o, const char *name)
{
    const struct opt_row *r = opt_find(name);
    return r && o->given[r - opt_rows];
}

int options_stages_finish(struct options *o, char *err)
{
    struct run_config *c = &o->cfg;
    if (!c->nstages)
        return 0;
    const char *other = given(o, "rate") ? "--rate" : given(o, "duration") ? "--duration" : NULL;
    if (other) {
        snprintf(err, ERR_LEN, "--stages and %s: give one of them (the stages set the %s)", other,
                 other[2] == 'r' ? "rates" : "measured window");
        return -1;
    }
    double offered = 0;
    c->duration_ns = 0;
    for (size_t i = 0; i < c->nstages; i++) {
        c->duration_ns += c->stages[i].duration_ns;
        offered += result_stage_offered(&c->stages[i]);
    }
    if (offered <= 0) {
        snprintf(err, ERR_LEN, "--stages: every rate is 0: nothing would be sent");
        return -1;
    }
    c->rate = offered / ((double)c->duration_ns / 1e9);
    return 0;
}
