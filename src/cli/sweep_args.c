/* sweep_args: sweep's own options and lists (sweep_args.h). */
#include "cli/sweep_args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "encoders/encoder.h"
#include "server/vmsim.h"

enum sopt { SO_RATE, SO_CONNS, SO_VMS, SO_PROTO, SO_VERB, SO_REPEAT, SO_BASELINE, SO_CSV,
            SO_FIND, SO_RATE_MIN, SO_RATE_MAX, SO_RESOLUTION, SO_N };

static const struct {
    const char *name;
    char short_opt;
} sopts[SO_N] = {
    {"rate", 'R'}, {"connections", 'c'}, {"vms", 0}, {"proto", 'p'}, {"verb", 0},
    {"repeat", 0}, {"baseline", 0}, {"csv", 0}, {"find-max", 0}, {"rate-min", 0},
    {"rate-max", 0}, {"resolution", 0},
};

/* ---- one list item at a time ---------------------------------------------- */

static int too_many(const char *opt, char *err)
{
    snprintf(err, ERR_LEN, "--%s: %d values at most", opt, SWEEP_MAX_LIST);
    return -1;
}

static int add_rate(struct sweep_args *a, double r, char *err)
{
    for (size_t i = 0; i < a->nrates; i++)
        if (fabs(a->rates[i] - r) <= 1e-9 * r) {
            snprintf(err, ERR_LEN, "--rate: %g/s given twice", r);
            return -1;
        }
    if (a->nrates == SWEEP_MAX_LIST)
        return too_many("rate", err);
    a->rates[a->nrates++] = r;
    return 0;
}

/* START:END:STEP, in requests per second. */
static int add_range(struct sweep_args *a, char *item, char *err)
{
    char *c1 = strchr(item, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *end;
    double lo, hi, step;
    if (!c2 || strchr(c2 + 1, ':')) {
        snprintf(err, ERR_LEN, "--rate: '%.60s' is not START:END:STEP", item);
        return -1;
    }
    *c1 = *c2 = '\0';
    if (units_parse_rate(item, &lo, err) || units_parse_rate(c1 + 1, &hi, err))
        return -1;
    step = strtod(c2 + 1, &end);
    if (end == c2 + 1 || *end || !(step > 0) || lo <= 0 || hi <= 0) {
        snprintf(err, ERR_LEN, "--rate: range %.30s:%.30s:%.30s needs rates above 0 and a STEP above 0",
                 item, c1 + 1, c2 + 1);
        return -1;
    }
    if (hi < lo) {
        snprintf(err, ERR_LEN, "--rate: range %.30s:%.30s:%.30s is empty (END below START)", item, c1 + 1,
                 c2 + 1);
        return -1;
    }
    if ((hi - lo) / step >= SWEEP_MAX_LIST)
        return too_many("rate", err);
    for (double k = 0; lo + k * step <= hi * (1 + 1e-9); k++)
        if (add_rate(a, lo + k * step, err))
            return -1;
    return 0;
}

static int add_int(const char *opt, const char *item, long long lo, long long hi, int *list,
                   size_t *n, char *err)
{
    long long v;
    char name[32];
    snprintf(name, sizeof name, "--%s", opt);
    if (cli_parse_int(name, item, lo, hi, &v, err))
        return -1;
    for (size_t i = 0; i < *n; i++)
        if (list[i] == v) {
            snprintf(err, ERR_LEN, "%s: %lld given twice", name, v);
            return -1;
        }
    if (*n == SWEEP_MAX_LIST)
        return too_many(opt, err);
    list[(*n)++] = (int)v;
    return 0;
}

static int add_proto(struct sweep_args *a, const char *item, char *err)
{
    if (!enc_find(item)) {
        snprintf(err, ERR_LEN, "--proto: unknown protocol '%.40s' (xmlrpc or jsonrpc)", item);
        return -1;
    }
    for (size_t i = 0; i < a->nprotos; i++)
        if (!strcmp(a->protos[i], item)) {
            snprintf(err, ERR_LEN, "--proto: %.15s given twice", item);
            return -1;
        }
    if (a->nprotos == SWEEP_MAX_PROTOS) {
        snprintf(err, ERR_LEN, "--proto: xmlrpc and jsonrpc, at most");
        return -1;
    }
    snprintf(a->protos[a->nprotos++], sizeof a->protos[0], "%.15s", item);
    return 0;
}

/* One cell's mix: '+' joins the verbs of a mix, as ',' does in run. */
static int add_verb(struct sweep_args *a, const char *item, char *err)
{
    static struct run_config scratch;
    char mix[sizeof a->verbs[0]];
    if (cli_copy(mix, sizeof mix, "--verb", item, err))
        return -1;
    for (char *p = mix; *p; p++)
        *p = *p == '+' ? ',' : *p;
    if (strchr(item, ',') || options_parse_verbs(mix, &scratch, err))
        return strchr(item, ',') ? (snprintf(err, ERR_LEN, "--verb: bad item '%.60s'", item), -1)
                                 : -1;
    for (size_t i = 0; i < a->nverbs; i++)
        if (!strcmp(a->verbs[i], mix)) {
            snprintf(err, ERR_LEN, "--verb: %.100s given twice", item);
            return -1;
        }
    if (a->nverbs == SWEEP_MAX_LIST)
        return too_many("verb", err);
    snprintf(a->verbs[a->nverbs++], sizeof a->verbs[0], "%s", mix);
    return 0;
}

static int add_item(struct sweep_args *a, enum sopt k, char *item, char *err)
{
    double r;
    switch (k) {
    case SO_RATE:
        if (strchr(item, ':'))
            return add_range(a, item, err);
        if (units_parse_rate(item, &r, err) == 0)
            return add_rate(a, r, err);
        cli_name_error("--rate", err);
        return -1;
    case SO_CONNS: return add_int("connections", item, 1, 10000, a->conns, &a->nconns, err);
    case SO_VMS: return add_int("vms", item, 0, VMSIM_MAX_VMS, a->vms, &a->nvms, err);
    case SO_PROTO: return add_proto(a, item, err);
    default: return add_verb(a, item, err);
    }
}

/* A comma list of option k; a new list replaces one given before. */
static int parse_list(struct sweep_args *a, enum sopt k, const char *arg, char *err)
{
    char tmp[1024];
    if (cli_copy(tmp, sizeof tmp, sopts[k].name, arg, err))
        return -1;
    size_t *counts[] = {&a->nrates, &a->nconns, &a->nvms, &a->nprotos, &a->nverbs};
    *counts[k] = 0;
    char *p = tmp;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (!*p) {
            snprintf(err, ERR_LEN, "--%s: empty item in '%.100s'", sopts[k].name, arg);
            return -1;
        }
        if (add_item(a, k, p, err))
            return -1;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* --resolution 5% (or 5): a share of the good rate, 0.1%..100%. */
static int parse_resolution(struct sweep_args *a, const char *arg, char *err)
{
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || (*end && strcmp(end, "%")) || !(v >= 0.1 && v <= 100)) {
        snprintf(err, ERR_LEN, "--resolution: '%.40s' is not a share in 0.1%%..100%% (e.g. 5%%)",
                 arg);
        return -1;
    }
    a->resolution = v / 100;
    return 0;
}

static int parse_search_rate(const char *opt, const char *arg, double *out, char *err)
{
    if (units_parse_rate(arg, out, err))
        return -1;
    if (*out > 0)
        return 0;
    snprintf(err, ERR_LEN, "--%s: a rate above 0 (not max)", opt);
    return -1;
}

static int apply(struct sweep_args *a, enum sopt k, const char *arg, char *err)
{
    long long v;
    switch (k) {
    case SO_REPEAT:
        if (cli_parse_int("--repeat", arg, 1, SWEEP_MAX_RUNS, &v, err))
            return -1;
        a->repeat = (int)v;
        return 0;
    case SO_BASELINE: return cli_copy(a->baseline, sizeof a->baseline, "--baseline", arg, err);
    case SO_CSV:
        return cli_copy(a->csv, sizeof a->csv, "--csv", arg, err) ||
               cli_check_out_path("--csv", a->csv, err) ? -1 : 0;
    case SO_FIND:
        a->find_max = 1;
        a->find.n = 0;
        if (cli_copy(a->find_text, sizeof a->find_text, "--find-max", arg, err))
            return -1;
        if (condition_parse_list(arg, &a->find, err) == 0)
            return 0;
        cli_name_error("--find-max", err);
        return -1;
    case SO_RATE_MIN: return parse_search_rate("rate-min", arg, &a->rate_min, err);
    case SO_RATE_MAX: return parse_search_rate("rate-max", arg, &a->rate_max, err);
    case SO_RESOLUTION: return parse_resolution(a, arg, err);
    default:
        a->rate_given |= k == SO_RATE;
        a->vms_given |= k == SO_VMS;
        a->verb_given |= k == SO_VERB;
        return parse_list(a, k, arg, err);
    }
}

/* ---- argv ------------------------------------------------------------------ */

/* Which sweep option tok is, with its value inline (after '=' or a short
 * option's letter) in *inl, or NULL; -1 when tok is none of them. An exact
 * name only: a prefix goes to options_parse, which takes run's one value. */
static int which(const char *tok, const char **inl)
{
    *inl = NULL;
    for (int k = 0; k < SO_N; k++) {
        size_t n = strlen(sopts[k].name);
        if (!strncmp(tok, "--", 2) && !strncmp(tok + 2, sopts[k].name, n) &&
            (tok[2 + n] == '\0' || tok[2 + n] == '=')) {
            *inl = tok[2 + n] == '=' ? tok + 3 + n : NULL;
            return k;
        }
        if (sopts[k].short_opt && tok[0] == '-' && tok[1] == sopts[k].short_opt) {
            *inl = tok[2] ? tok + 2 : NULL;
            return k;
        }
    }
    return -1;
}

int sweep_args_split(int argc, char **argv, struct sweep_args *a, char **rest, int *nrest,
                     char *err)
{
    memset(a, 0, sizeof *a);
    a->repeat = 1;
    int n = 0;
    rest[n++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *tok = argv[i], *val;
        if (!strcmp(tok, "--help") || !strcmp(tok, "-h")) {
            sweep_usage(stdout);
            return 1;
        }
        int k = strcmp(tok, "--") ? which(tok, &val) : -1;
        if (k < 0) { /* run's: keep it, with its value */
            rest[n++] = argv[i];
            if (strcmp(tok, "--") && options_takes_value(tok) && i + 1 < argc)
                rest[n++] = argv[++i];
            continue;
        }
        if (!val && i + 1 >= argc) {
            snprintf(err, ERR_LEN, "--%s: needs a value", sopts[k].name);
            return -1;
        }
        if (apply(a, (enum sopt)k, val ? val : argv[++i], err))
            return -1;
    }
    rest[n] = NULL;
    *nrest = n;
    return 0;
}

/* ---- what needs run's options too ----------------------------------------- */

/* Run options that make no sense for a sweep. */
static int check_run_options(const struct sweep_args *a, const struct options *o, char *err)
{
    if (o->pct_dist[0] || o->junit[0]) {
        snprintf(err, ERR_LEN, "%s: not for sweep (it makes many runs)",
                 o->pct_dist[0] ? "--percentile-dist" : "--junit");
        return -1;
    }
    if (o->format != FORMAT_TEXT && o->format != FORMAT_JSON && o->format != FORMAT_CSV) {
        snprintf(err, ERR_LEN, "--format: sweep writes text, json or csv (the table's rows)");
        return -1;
    }
    if (a->find_max && o->thresholds.n) {
        snprintf(err, ERR_LEN, "--threshold: not with --find-max (its COND judges each probe)");
        return -1;
    }
    if (o->url[0] && a->vms_given) {
        snprintf(err, ERR_LEN, "--vms: sizes the built-in simulator; not with --url");
        return -1;
    }
    if (o->cfg.custom_method && a->verb_given) {
        snprintf(err, ERR_LEN, "--verb: not with --method (one method is called)");
        return -1;
    }
    return 0;
}

static int check_search(struct sweep_args *a, char *err)
{
    const char *bad = a->rate_given ? "--rate: the search picks the rates (see --rate-min, "
                                      "--rate-max)"
                      : a->nconns > 1 ? "--connections: one value with --find-max"
                      : a->nvms > 1 ? "--vms: one value with --find-max"
                      : a->repeat > 1 ? "--repeat: not with --find-max (each probe is one run)"
                      : a->baseline[0] ? "--baseline: not with --find-max"
                                       : NULL;
    if (bad) {
        snprintf(err, ERR_LEN, "%s", bad);
        return -1;
    }
    size_t searches = (a->nprotos ? a->nprotos : 1) * (a->nverbs ? a->nverbs : 1);
    if (searches > SWEEP_MAX_SEARCHES) {
        snprintf(err, ERR_LEN, "--find-max: %zu searches (proto x verb); at most %d", searches,
                 SWEEP_MAX_SEARCHES);
        return -1;
    }
    a->rate_min = a->rate_min > 0 ? a->rate_min : 1;
    a->rate_max = a->rate_max > 0 ? a->rate_max : 100000;
    a->resolution = a->resolution > 0 ? a->resolution : 0.05;
    if (a->rate_max < a->rate_min) {
        snprintf(err, ERR_LEN, "--rate-max: %g/s is below --rate-min %g/s", a->rate_max,
                 a->rate_min);
        return -1;
    }
    return 0;
}

/* run's verb mix as sweep writes one cell's: "list:4,ping" (weights of 1 left out). */
static void mix_text(const struct run_config *c, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < c->nverbs && used < len; i++) {
        int w = snprintf(out + used, len - used, "%s%s", i ? "," : "", c->verbs[i].name);
        used += w > 0 ? (size_t)w : 0;
        if (c->verbs[i].weight != 1 && used < len && !c->custom_method) {
            w = snprintf(out + used, len - used, ":%u", c->verbs[i].weight);
            used += w > 0 ? (size_t)w : 0;
        }
    }
}

/* --vm-id goes to the cells whose mix has getVmStats: some cell must. */
static int check_vm_id(const struct sweep_args *a, const struct options *o, char *err)
{
    for (size_t i = 0; i < a->nverbs && !o->cfg.custom_method; i++)
        if (strstr(a->verbs[i], "getVmStats"))
            return 0;
    if (!o->cfg.vm_id[0] || o->cfg.custom_method) /* --method: options_arm says it */
        return 0;
    snprintf(err, ERR_LEN, "--vm-id: only --verb getVmStats takes a VM (no --verb here has it)");
    return -1;
}

int sweep_args_check(struct sweep_args *a, const struct options *o, char *err)
{
    if (check_run_options(a, o, err))
        return -1;
    if (a->find_max) {
        if (check_search(a, err))
            return -1;
    } else if (a->rate_min > 0 || a->rate_max > 0 || a->resolution > 0) {
        snprintf(err, ERR_LEN, "%s: needs --find-max", a->rate_min > 0   ? "--rate-min"
                                                       : a->rate_max > 0 ? "--rate-max"
                                                                         : "--resolution");
        return -1;
    }
    if (!a->nrates)
        a->rates[a->nrates++] = o->cfg.rate;
    if (!a->nconns)
        a->conns[a->nconns++] = o->cfg.connections;
    if (!a->nvms)
        a->vms[a->nvms++] = o->url[0] ? 0 : o->cfg.vms;
    if (!a->nprotos)
        a->protos[a->nprotos++][0] = '\0'; /* run's default, resolved per cell */
    if (!a->nverbs)
        mix_text(&o->cfg, a->verbs[a->nverbs++], sizeof a->verbs[0]);
    return check_vm_id(a, o, err);
}

/* ---- cells ------------------------------------------------------------------- */

static void cell_label(const struct options *o, const struct run_config *c, char *out,
                       size_t len)
{
    if (o->label[0]) {
        snprintf(out, len, "%.63s", o->label);
        return;
    }
    char rate[24];
    if (c->rate > 0)
        snprintf(rate, sizeof rate, "%g/s", c->rate);
    else
        snprintf(rate, sizeof rate, "max");
    snprintf(out, len, "%.8s %.24s %.12s c%d", c->encoding, c->verbs[0].name, rate,
             c->connections % 100000);
}

int sweep_cell_config(const struct options *o, const struct sweep_params *p,
                      struct run_config *cfg, char *err)
{
    static struct options oc; /* large: off the stack */
    oc = *o;
    oc.cfg.rate = p->rate;
    oc.cfg.connections = p->connections;
    oc.cfg.vms = p->vms;
    if (p->proto[0]) {
        snprintf(oc.encoding, sizeof oc.encoding, "%s", p->proto);
        oc.encoding_given = 1;
    }
    if (!o->cfg.custom_method && options_parse_verbs(p->verb, &oc.cfg, err))
        return -1;
    int takes_vm = 0;
    for (size_t i = 0; i < oc.cfg.nverbs && !oc.cfg.custom_method; i++)
        if (!strcmp(oc.cfg.verbs[i].name, "getVmStats")) {
            if (!oc.cfg.vm_id[0]) {
                snprintf(err, ERR_LEN, "--verb: getVmStats needs --vm-id UUID");
                return -1;
            }
            takes_vm = 1;
        }
    if (!takes_vm && !o->cfg.custom_method)
        oc.cfg.vm_id[0] = '\0'; /* another cell's getVmStats takes it (sweep_args_check) */
    if (options_check(&oc, err) || options_arm(&oc, 0, cfg, err))
        return -1;
    if (condition_check_verbs(&o->thresholds, cfg, err)) {
        cli_name_error("--threshold", err); /* a verb this cell does not send */
        return -1;
    }
    cell_label(o, cfg, cfg->label, sizeof cfg->label);
    return 0;
}

/* The parameters of one cell from its list indexes. */
static void params_at(const struct sweep_args *a, size_t iv, size_t ip, size_t ib, size_t ic,
                      size_t ir, struct sweep_params *p)
{
    memset(p, 0, sizeof *p);
    p->rate = a->rates[ir];
    p->connections = a->conns[ic];
    p->vms = a->vms[iv];
    snprintf(p->proto, sizeof p->proto, "%s", a->protos[ip]);
    snprintf(p->verb, sizeof p->verb, "%s", a->verbs[ib]);
}

/* One cell: its config checked, its proto resolved, added to s. */
static int add_cell(const struct options *o, struct sweep_params *p, struct sweep *s,
                    struct run_config *cfg, char *err)
{
    if (sweep_cell_config(o, p, cfg, err))
        return -1;
    snprintf(p->proto, sizeof p->proto, "%s", cfg->encoding);
    if (sweep_add_cell(s, p) >= 0)
        return 0;
    snprintf(err, ERR_LEN, "out of memory");
    return -1;
}

static int count_cells(const struct sweep_args *a, size_t *n, char *err)
{
    *n = a->nvms * a->nprotos * a->nverbs * a->nconns * a->nrates;
    if (*n > SWEEP_MAX_CELLS) {
        snprintf(err, ERR_LEN, "%zu cells (%zu vms x %zu proto x %zu verb x %zu connections x "
                 "%zu rate); at most %d: shorten a list", *n, a->nvms, a->nprotos, a->nverbs,
                 a->nconns, a->nrates, SWEEP_MAX_CELLS);
        return -1;
    }
    if (*n * (size_t)a->repeat > SWEEP_MAX_RUNS) {
        snprintf(err, ERR_LEN, "--repeat: %zu cells x %d repeats is over %d runs", *n, a->repeat,
                 SWEEP_MAX_RUNS);
        return -1;
    }
    return 0;
}

int sweep_args_cells(const struct sweep_args *a, const struct options *o, struct sweep *s,
                     struct run_config **cfgs, char *err)
{
    size_t n;
    *cfgs = NULL;
    if (count_cells(a, &n, err))
        return -1;
    struct run_config *c = calloc(n, sizeof *c);
    if (!c) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    *cfgs = c;
    struct sweep_params p;
    for (size_t iv = 0; iv < a->nvms; iv++)
        for (size_t ip = 0; ip < a->nprotos; ip++)
            for (size_t ib = 0; ib < a->nverbs; ib++)
                for (size_t ic = 0; ic < a->nconns; ic++)
                    for (size_t ir = 0; ir < a->nrates; ir++) {
                        params_at(a, iv, ip, ib, ic, ir, &p);
                        if (add_cell(o, &p, s, &c[s->ncells], err))
                            return -1;
                    }
    s->repeats = (size_t)a->repeat;
    return 0;
}

void sweep_usage(FILE *out)
{
    fprintf(out,
            "usage: rpcbench sweep [any run option] [lists] [--repeat N] [--baseline SPEC]\n"
            "                      [--output S.json] [--csv S.csv] [--plot S.svg]\n"
            "       rpcbench sweep [any run option] --find-max COND [--rate-min R]\n"
            "                      [--rate-max R] [--resolution P%%]\n"
            "  One full, duration-bounded run (with its own --warmup) per cell; the cells\n"
            "  are the cross product of the lists, in this order: --vms, --proto, --verb,\n"
            "  --connections, --rate (the rate varies fastest).\n"
            "  -R, --rate L           5,10,20,40 or START:END:STEP (per second), or both\n"
            "                         (5,10:40:10); max is a closed loop\n"
            "  -c, --connections L    4,16\n"
            "      --vms L            50,150,300: the built-in simulator (one per size,\n"
            "                         kept for the whole sweep); not with --url\n"
            "  -p, --proto L          xmlrpc,jsonrpc\n"
            "      --verb L           ping,getAllVmStats; a mix within one cell joins its\n"
            "                         verbs with '+': list:4+getAllVmStats:1,ping is 2 cells\n"
            "      --repeat N         run every cell N times, interleaved: all cells once,\n"
            "                         then again (the table shows medians and min-max)\n"
            "      --baseline SPEC    a cell (its number, or rate=5,proto=xmlrpc): every\n"
            "                         figure also as %% of that cell's\n"
            "      --output FILE      the sweep as JSON (every cell's full result)\n"
            "      --csv FILE         the table as CSV, one row per cell\n"
            "      --plot FILE.svg    latency, CPU and achieved rate against the offered rate\n"
            "      --html FILE.html   one self-contained page: capacity, charts, every table\n"
            "      --format F         stdout: text (default) | json | csv\n"
            "      --threshold COND   judged on every run of every cell (exit 3 if one fails)\n"
            "  capacity search, once per --proto x --verb:\n"
            "      --find-max COND    e.g. 'p99<100ms,errors=0' (run's --threshold grammar):\n"
            "                         double the rate from --rate-min until a run breaks\n"
            "                         COND (or the server saturates, or the client cannot\n"
            "                         hold the rate), then bisect down to --resolution\n"
            "      --rate-min R       default 1/s    --rate-max R  default 100000/s\n"
            "      --resolution P%%    (bad - good) / good at the end, default 5%%\n"
            "  Limits: %d values per list, %d cells, %d runs (cells x repeats; each\n"
            "  run's histograms are kept to the end), %d searches.\n"
            "  Every other option is run's (rpcbench run --help).\n"
            "exit status: 0 ok, 1 failure at run time, 2 bad usage (nothing sent),\n"
            "             3 no request succeeded in any cell, a --threshold failed, or\n"
            "             --find-max: even --rate-min breaks COND; 4 --find-max: --rate-max\n"
            "             still holds (several searches: 3 before 4 before 0);\n"
            "             130 interrupted by SIGINT, 143 by SIGTERM (what was measured is\n"
            "             still written)\n",
            SWEEP_MAX_LIST, SWEEP_MAX_CELLS, SWEEP_MAX_RUNS, SWEEP_MAX_SEARCHES);
}
