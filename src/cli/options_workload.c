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

int options_workload_verbs(const char *path, struct run_config *c, int *checks, char *err)
{
    static struct workload w; /* large: off the stack */
    if (strlen(path) >= sizeof c->workload) {
        snprintf(err, ERR_LEN, "'%.60s...': the path is too long", path);
        return -1;
    }
    if (workload_load(&w, path, err))
        return -1;
    snprintf(c->workload, sizeof c->workload, "%s", path);
    c->custom_method = 1; /* the verbs are no built-in ones */
    c->nverbs = w.ncalls;
    *checks = 0;
    for (size_t i = 0; i < w.ncalls; i++) {
        memcpy(c->verbs[i].name, w.call[i].name, sizeof c->verbs[i].name);
        c->verbs[i].weight = w.call[i].weight;
        c->verbs[i].every_ns = w.call[i].every_ns;
        *checks |= w.call[i].nexpects > 0;
    }
    workload_free(&w);
    return own_rate(c);
}

/* A,B: compare's two files, each arm its own (options_arm), both read
 * now; a name with a comma that is a file is one file. @return 1 when arg
 * is a pair (o->workload_arms filled), 0 when not, -1 with err. */
static int take_pair(struct options *o, const char *arg, char *err)
{
    const char *comma = strchr(arg, ',');
    FILE *f = comma ? fopen(arg, "r") : NULL;
    if (f)
        fclose(f);
    if (!comma || f)
        return 0;
    size_t n = (size_t)(comma - arg);
    if (n >= sizeof o->workload_arms[0] || strlen(comma + 1) >= sizeof o->workload_arms[1] ||
        strchr(comma + 1, ',')) {
        snprintf(err, ERR_LEN, "'%.60s': one file, or A,B (compare: each arm its own)", arg);
        return -1;
    }
    memcpy(o->workload_arms[0], arg, n);
    o->workload_arms[0][n] = '\0';
    snprintf(o->workload_arms[1], sizeof o->workload_arms[1], "%s", comma + 1);
    static struct run_config b; /* B's file read now: its mistakes before a send */
    b = o->cfg;
    int checks;
    if (options_workload_verbs(o->workload_arms[1], &b, &checks, err))
        return -1;
    o->workload_checks |= checks;
    return 1;
}

int opt_parse_workload(struct options *o, const char *arg, char *err)
{
    struct run_config *c = &o->cfg;
    int checks = 0, pair = take_pair(o, arg, err);
    if (pair < 0 ||
        options_workload_verbs(pair ? o->workload_arms[0] : arg, c, &checks, err))
        return -1;
    o->workload_checks |= checks;
    /* a line's own checks need the full decode, as --expect does */
    if (o->workload_checks && o->given[opt_find("validate") - opt_rows] &&
        c->validate != VALIDATE_FULL) {
        snprintf(err, ERR_LEN, "a line has its own \"expect\", which needs the full decode: "
                 "--validate full (what it sets), not another --validate");
        return -1;
    }
    if (o->workload_checks)
        c->validate = VALIDATE_FULL;
    return 0;
}

int options_check_workload(const struct options *o, char *err)
{
    const struct run_config *c = &o->cfg;
    if (!c->workload[0] && !o->verb_given)
        return 0;
    const char *what = c->workload[0] ? c->workload : "--verb";
    if (c->workload[0] && (o->verb_given || o->method_given || c->method_params[0])) {
        snprintf(err, ERR_LEN, "--workload: not with --verb, --method or --params (the file "
                 "names its calls)");
        return -1;
    }
    size_t own = 0;
    for (size_t i = 0; i < c->nverbs; i++)
        own += c->verbs[i].every_ns > 0;
    if (own == c->nverbs && o->given[opt_find("rate") - opt_rows]) {
        snprintf(err, ERR_LEN, "--rate: every call of %.100s has its own period (\"every\", "
                 "V@P); give no --rate", what);
        return -1;
    }
    /* a closed loop has no schedule: the periodic calls would never go */
    if (own && c->rate <= 0) {
        snprintf(err, ERR_LEN, "--rate max: %.100s has calls with their own period (\"every\", "
                 "V@P), which a closed loop never sends; give a rate", what);
        return -1;
    }
    return 0;
}

int options_workload_arm(const struct run_config *cfg, char *err)
{
    static struct workload w;
    if (!cfg->workload[0])
        return 0;
    int xml = !strcmp(cfg->encoding, "xmlrpc");
    if (workload_load(&w, cfg->workload, err))
        return -1;
    char why[ERR_LEN];
    int rc = workload_resolve(&w, xml, why); /* each arm's methods, or its refusal */
    if (rc)
        snprintf(err, ERR_LEN, "--workload: %.200s", why);
    for (size_t i = 0; xml && i < w.ncalls && !rc; i++) /* JSON-RPC takes named params */
        if (w.call[i].named) {
            snprintf(err, ERR_LEN, "--workload: %.80s:%d: XML-RPC takes positional params only "
                     "(-p xmlrpc): give an array", w.path, w.call[i].line);
            rc = -1;
        }
    workload_free(&w);
    return rc;
}
