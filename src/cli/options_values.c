/* options_values: the parsers of the odd options of run and compare (the
 * OT_CUSTOM rows of option_rows.c), each an opt_parse_fn
 * (option_table.h): a value that no plain type (int, duration, choice,
 * ...) says. */
#include "cli/option_table.h"

#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "workload/expect.h"

int options_parse_verbs(const char *s, struct run_config *cfg, char *err)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", s);
    cfg->nverbs = 0;
    for (char *save = NULL, *tok = strtok_r(tmp, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (cfg->nverbs == RUN_MAX_VERBS) {
            snprintf(err, ERR_LEN, "--verb: at most %d verbs", RUN_MAX_VERBS);
            return -1;
        }
        struct verb_spec *v = &cfg->verbs[cfg->nverbs++];
        char *colon = strchr(tok, ':');
        v->weight = 1;
        if (colon) {
            *colon = '\0';
            char *end;
            long w = strtol(colon + 1, &end, 10);
            if (*end || w < 1 || w > 1000) {
                snprintf(err, ERR_LEN, "--verb: bad weight '%s' (1..1000)", colon + 1);
                return -1;
            }
            v->weight = (unsigned)w;
        }
        if (!*tok || strlen(tok) >= sizeof v->name) {
            snprintf(err, ERR_LEN, "--verb: bad verb in '%.64s'", s);
            return -1;
        }
        snprintf(v->name, sizeof v->name, "%s", tok);
    }
    if (!cfg->nverbs) {
        snprintf(err, ERR_LEN, "--verb: empty");
        return -1;
    }
    return 0;
}

/* --verb names built-in verbs, --method one raw method: one of them, never
 * both (the last would silently replace the other). */
static int conflict(const struct options *o, const char *other, char *err)
{
    if (!o->verb_given || !o->cfg.custom_method)
        return 0;
    if (o->cfg.workload[0]) {
        snprintf(err, ERR_LEN, "not with --workload (the file names its calls)");
        return -1;
    }
    snprintf(err, ERR_LEN, "not with %s: give one (--verb for the built-in verbs, --method "
             "for any other method)", other);
    return -1;
}

/* One method name: a weighted list ("a:3,b:1") would go out literally as
 * a name no server has. */
static int check_method(const char *arg, char *err)
{
    const char *colon = strrchr(arg, ':');
    int weight = colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1);
    if (!strchr(arg, ',') && !weight && !strpbrk(arg, " \t"))
        return 0;
    snprintf(err, ERR_LEN, "'%.100s': one method name (weighted mixes are --verb's)", arg);
    return -1;
}

/* --cpu-saturation P[%] (1..100000, % of one core), or off (stored as 0:
 * no run is then called saturated, and --find-max does not stop on it). */
int opt_parse_cpu_sat(struct options *o, const char *arg, char *err)
{
    double *out = &o->cfg.cpu_saturation;
    char num[32];
    long long v;
    if (!strcmp(arg, "off")) {
        *out = 0;
        return 0;
    }
    size_t n = strlen(arg);
    if (n && arg[n - 1] == '%')
        n--;
    snprintf(num, sizeof num, "%.*s", (int)(n < 31 ? n : 31), arg);
    if (cli_parse_int("--cpu-saturation", num, 1, 100000, &v, err)) {
        snprintf(err, ERR_LEN, "--cpu-saturation: '%.40s': want a %% of one core, 1..100000 "
                 "(95%% by default), or off", arg);
        return -1;
    }
    *out = (double)v;
    return 0;
}

/* --rounds K, or auto[:MAX] (MAX 3..1000, default GATE_AUTO_MAX). */
int opt_parse_rounds(struct options *o, const char *arg, char *err)
{
    long long v = GATE_AUTO_MAX;
    o->rounds_auto = !strncmp(arg, "auto", 4) && (arg[4] == 0 || arg[4] == ':');
    if (!o->rounds_auto)
        return cli_parse_int("--rounds", arg, 1, 1000, &v, err) ? -1 : (o->rounds = (int)v, 0);
    if (arg[4] == ':' &&
        cli_parse_int("--rounds auto:MAX", arg + 5, GATE_MIN_ROUNDS, 1000, &v, err))
        return -1;
    o->rounds = (int)v;
    return 0;
}


int opt_parse_proto(struct options *o, const char *arg, char *err)
{
    o->encoding_given = 1;
    return cli_copy(o->encoding, sizeof o->encoding, "--proto", arg, err);
}

int opt_parse_verb(struct options *o, const char *arg, char *err)
{
    o->verb_given = 1;
    return conflict(o, "--method", err) || options_parse_verbs(arg, &o->cfg, err) ? -1 : 0;
}

int opt_parse_method(struct options *o, const char *arg, char *err)
{
    struct run_config *c = &o->cfg;
    c->custom_method = 1;
    o->method_given = 1;
    if (conflict(o, "--verb", err) || check_method(arg, err))
        return -1;
    c->nverbs = 1;
    c->verbs[0].weight = 1;
    return cli_copy(c->verbs[0].name, sizeof c->verbs[0].name, "--method", arg, err);
}

/* auto, or a duration of at most PACER_WINDOW_MAX_NS. */
int opt_parse_pacer_window(struct options *o, const char *arg, char *err)
{
    struct run_config *c = &o->cfg;
    c->pacer_window_auto = !strcmp(arg, "auto");
    c->pacer_window_ns = 0;
    if (c->pacer_window_auto)
        return 0;
    if (units_parse_duration(arg, &c->pacer_window_ns, err)) {
        snprintf(err, ERR_LEN, "--pacer-window: \"%s\" is neither auto nor a duration "
                 "(e.g. 50us, 1ms)", arg);
        return -1;
    }
    if (c->pacer_window_ns > PACER_WINDOW_MAX_NS) {
        snprintf(err, ERR_LEN, "--pacer-window: %s is over 10ms (a window that long "
                 "is a burst, not a rate)", arg);
        return -1;
    }
    return 0;
}

int opt_parse_buckets(struct options *o, const char *arg, char *err)
{
    return cli_parse_buckets(arg, o->cfg.buckets, sizeof o->cfg.buckets, err);
}

int opt_parse_percentiles(struct options *o, const char *arg, char *err)
{
    return cli_parse_percentiles(arg, o->cfg.pcts, RUN_MAX_PCTS, &o->cfg.npcts, err);
}

/* Repeatable: GATES_MAX of them. */
int opt_parse_gate(struct options *o, const char *arg, char *err)
{
    if (o->ngates == GATES_MAX) {
        snprintf(err, ERR_LEN, "--gate: %d gates at most", GATES_MAX);
        return -1;
    }
    return gate_parse(arg, &o->gates[o->ngates++], err);
}

int opt_parse_threshold(struct options *o, const char *arg, char *err)
{
    return cli_parse_threshold(arg, &o->thresholds, err);
}

/* Repeatable: EXPECT_MAX checks, each parsed now (a bad one stops the run
 * before it sends) and again by the engine. They need the full decode, so
 * --expect sets --validate full (options.c refuses another --validate). */
int opt_parse_expect(struct options *o, const char *arg, char *err)
{
    struct run_config *c = &o->cfg;
    struct expect e;
    if (c->nexpects == RUN_MAX_EXPECTS) {
        snprintf(err, ERR_LEN, "--expect: %d checks at most", RUN_MAX_EXPECTS);
        return -1;
    }
    if (expect_parse(arg, &e, err))
        return -1;
    if (options_given(o, "validate") && c->validate != VALIDATE_FULL) {
        snprintf(err, ERR_LEN, "needs the full decode: --validate full (what --expect sets), "
                 "not another --validate");
        return -1;
    }
    snprintf(c->expects[c->nexpects++], sizeof c->expects[0], "%s", arg);
    c->validate = VALIDATE_FULL;
    return 0;
}
