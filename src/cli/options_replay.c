/* options_replay: --replay FILE, --as, --speed, --loop. The recording is
 * read here, whole, before anything is sent, in each arm's encoding (a
 * call with no counterpart in it is a usage error naming its method),
 * and its distinct calls become the run's verbs, so that every report,
 * table and threshold is per call as it is per verb. The engine reads
 * the file again for the schedule (workload/replay_file.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/option_table.h"
#include "cli/options.h"
#include "workload/replay_file.h"

int opt_parse_speed(struct options *o, const char *arg, char *err)
{
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || (*end && strcmp(end, "x")) || !isfinite(v) || v <= 0 || v > 1e6) {
        snprintf(err, ERR_LEN, "'%.40s' is not a factor > 0 (e.g. 10: ten times faster)", arg);
        return -1;
    }
    o->cfg.replay_speed = v;
    return 0;
}

/* options_given's test, here: options.c calls this file. */
static int given(const struct options *o, const char *name)
{
    const struct opt_row *r = opt_find(name);
    return r && o->given[r - opt_rows];
}

/* The options a replay's recording decides. @return 0, or -1 with err. */
static int refuse_others(const struct options *o, const struct run_config *c, char *err)
{
    static const char *const theirs[] = {"verb", "method", "workload", "rate", "connections",
                                         "targets", "stages", "params"};
    for (size_t i = 0; i < sizeof theirs / sizeof theirs[0]; i++)
        if (given(o, theirs[i])) {
            snprintf(err, ERR_LEN, "--replay: not with --%s (the recording gives its calls, "
                     "their times and connections; --speed scales the times)", theirs[i]);
            return -1;
        }
    if (c->replay_loop && !given(o, "duration")) {
        snprintf(err, ERR_LEN, "--loop: give -d (how long the recording repeats)");
        return -1;
    }
    return 0;
}

/* Without --replay, its own options mean nothing: refused. */
static int check_alone(const struct options *o, const struct run_config *c, char *err)
{
    static const char *const own[] = {"as", "speed", "loop"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (given(o, own[i])) {
            snprintf(err, ERR_LEN, "--%s: only with --replay FILE", own[i]);
            return -1;
        }
    (void)c;
    return 0;
}

/* The recording's calls into cfg: its verbs, connections, rate and
 * window. */
static void take_recording(const struct options *o, const struct replay_file *r,
                           struct run_config *c)
{
    snprintf(c->encoding, sizeof c->encoding, "%s", r->encoding);
    c->custom_method = 1; /* the verbs are the recorded calls, no built-in ones */
    c->nverbs = r->wl.ncalls;
    for (size_t i = 0; i < r->wl.ncalls; i++) {
        memcpy(c->verbs[i].name, r->wl.call[i].name, sizeof c->verbs[i].name);
        c->verbs[i].weight = 0;
        c->verbs[i].every_ns = 0;
    }
    c->connections = (int)r->nconns;
    c->rate = (double)r->ncalls / ((double)r->period_ns / 1e9) * c->replay_speed;
    /* the last call intended at span / speed goes out before the end */
    int64_t span = (int64_t)((double)r->span_ns / c->replay_speed) + 1000000;
    if (!c->replay_loop && (!given(o, "duration") || span < c->duration_ns))
        c->duration_ns = span;
}

int options_replay_arm(const struct options *o, struct run_config *c, char *err)
{
    if (!c->replay[0])
        return check_alone(o, c, err);
    if (refuse_others(o, c, err))
        return -1;
    if (c->replay_as[0] && strcmp(c->replay_as, "xmlrpc") && strcmp(c->replay_as, "jsonrpc")) {
        snprintf(err, ERR_LEN, "--as: '%.40s' is no encoding (xmlrpc or jsonrpc)", c->replay_as);
        return -1;
    }
    /* --as, else the arm's --proto (a stomp:// URL's jsonrpc), else as recorded */
    const char *as = c->replay_as[0] ? c->replay_as
                     : o->encoding_given || !strncmp(c->url, "stomp", 5) ? c->encoding : "";
    static struct replay_file r; /* its workload is large: off the stack */
    char why[ERR_LEN];
    int rc = replay_file_load(&r, c->replay, as, why);
    if (rc)
        snprintf(err, ERR_LEN, "--replay: %.200s", why);
    else
        take_recording(o, &r, c);
    replay_file_free(&r);
    return rc;
}
