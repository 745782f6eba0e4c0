/* options_workload: --workload FILE. The file is read here, whole, before
 * anything is sent (a mistake is a usage error naming its line), and its
 * calls become the run's verbs: names, weights and periods, so that every
 * report, table and threshold is per call name as it is per verb. The
 * engine reads the file again for the params (workload/workload.h). */
#include <stdio.h>
#include <string.h>

#include "cli/option_table.h"
#include "cli/options.h"
#include "workload/workload.h"

/* A file of calls that all have their own period needs no --rate: the
 * run's rate is then what they offer together (the reports' offered rate). */
static int own_rate(struct run_config *c)
{
    double sum = 0;
    for (size_t i = 0; i < c->nverbs; i++) {
        if (!c->verbs[i].every_ns)
            return 0;
        sum += 1e9 / (double)c->verbs[i].every_ns;
    }
    c->rate = sum;
    return 0;
}

int opt_parse_workload(struct options *o, const char *arg, char *err)
{
    struct run_config *c = &o->cfg;
    static struct workload w; /* large: off the stack */
    if (strlen(arg) >= sizeof c->workload) {
        snprintf(err, ERR_LEN, "'%.60s...': the path is too long", arg);
        return -1;
    }
    if (workload_load(&w, arg, err))
        return -1;
    snprintf(c->workload, sizeof c->workload, "%s", arg);
    c->custom_method = 1; /* the verbs are no built-in ones */
    c->nverbs = w.ncalls;
    for (size_t i = 0; i < w.ncalls; i++) {
        memcpy(c->verbs[i].name, w.call[i].name, sizeof c->verbs[i].name);
        c->verbs[i].weight = w.call[i].weight;
        c->verbs[i].every_ns = w.call[i].every_ns;
        o->workload_checks |= w.call[i].nexpects > 0;
    }
    workload_free(&w);
    /* a line's own checks need the full decode, as --expect does */
    if (o->workload_checks && o->given[opt_find("validate") - opt_rows] &&
        c->validate != VALIDATE_FULL) {
        snprintf(err, ERR_LEN, "a line has its own \"expect\", which needs the full decode: "
                 "--validate full (what it sets), not another --validate");
        return -1;
    }
    if (o->workload_checks)
        c->validate = VALIDATE_FULL;
    return own_rate(c);
}

int options_check_workload(const struct options *o, char *err)
{
    const struct run_config *c = &o->cfg;
    if (!c->workload[0])
        return 0;
    if (o->verb_given || o->method_given || c->method_params[0]) {
        snprintf(err, ERR_LEN, "--workload: not with --verb, --method or --params (the file "
                 "names its calls)");
        return -1;
    }
    size_t own = 0;
    for (size_t i = 0; i < c->nverbs; i++)
        own += c->verbs[i].every_ns > 0;
    if (own == c->nverbs && o->given[opt_find("rate") - opt_rows]) {
        snprintf(err, ERR_LEN, "--rate: every call of %.100s has its own period (\"every\"); "
                 "give no --rate", c->workload);
        return -1;
    }
    /* a closed loop has no schedule: the periodic calls would never go */
    if (own && c->rate <= 0) {
        snprintf(err, ERR_LEN, "--rate max: %.100s has calls with their own period (\"every\"), "
                 "which a closed loop never sends; give a rate", c->workload);
        return -1;
    }
    return 0;
}

int options_workload_arm(const struct run_config *cfg, char *err)
{
    static struct workload w;
    if (!cfg->workload[0] || strcmp(cfg->encoding, "xmlrpc"))
        return 0;
    if (workload_load(&w, cfg->workload, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < w.ncalls && !rc; i++)
        if (w.call[i].named) {
            snprintf(err, ERR_LEN, "--workload: %.80s:%d: XML-RPC takes positional params only "
                     "(-p xmlrpc): give an array", w.path, w.call[i].line);
            rc = -1;
        }
    workload_free(&w);
    return rc;
}
