/* sweep_args: sweep's own options and lists (sweep_args.h). */
#include "cli/sweep_args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "encoders/encoder.h"

enum sopt { SO_RATE, SO_CONNS, SO_VMS, SO_PROTO, SO_VERB };

static const char *const list_names[] = {"rate", "connections", "vms", "proto", "verb"};

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
    case SO_CONNS: /* each item in its row's range, as run's one value */
    case SO_VMS: {
        const struct opt_row *row = opt_find(list_names[k]);
        return k == SO_CONNS
                   ? add_int(row->name, item, row->min, row->max, a->conns, &a->nconns, err)
                   : add_int(row->name, item, row->min, row->max, a->vms, &a->nvms, err);
    }
    case SO_PROTO: return add_proto(a, item, err);
    default: return add_verb(a, item, err);
    }
}

/* A comma list of option k; a new list replaces one given before. */
static int parse_list(struct sweep_args *a, enum sopt k, const char *arg, char *err)
{
    char tmp[1024];
    if (cli_copy(tmp, sizeof tmp, list_names[k], arg, err))
        return -1;
    size_t *counts[] = {&a->nrates, &a->nconns, &a->nvms, &a->nprotos, &a->nverbs};
    *counts[k] = 0;
    char *p = tmp;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (!*p) {
            snprintf(err, ERR_LEN, "--%s: empty item in '%.100s'", list_names[k], arg);
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
int sweep_opt_resolution(struct options *o, const char *arg, char *err)
{
    struct sweep_args *a = o->sweep;
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

/* ---- the rows' parsers (option_rows.c) --------------------------------------- */

int sweep_list_rate(struct options *o, const char *arg, char *err)
{
    o->sweep->rate_given = 1;
    return parse_list(o->sweep, SO_RATE, arg, err);
}

static int sweep_list_conns(struct options *o, const char *arg, char *err)
{
    return parse_list(o->sweep, SO_CONNS, arg, err);
}

/* -c as a list: sweep's grid, or compare's N (both arms) or A,B (each arm
 * its own: options_arm); here beside sweep's so that neither file calls
 * the other back. */
int opt_list_conns(struct options *o, const char *arg, char *err)
{
    if (o->sweep)
        return sweep_list_conns(o, arg, err);
    char a[32];
    const char *comma = strchr(arg, ',');
    size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
    long long v[2];
    snprintf(a, sizeof a, "%.*s", (int)(n < sizeof a ? n : sizeof a - 1), arg);
    if (cli_parse_int("--connections", a, 1, 10000, &v[0], err) ||
        cli_parse_int("--connections", comma ? comma + 1 : a, 1, 10000, &v[1], err))
        return -1;
    o->conns[0] = (int)v[0];
    o->conns[1] = (int)v[1];
    o->cfg.connections = o->conns[0];
    return 0;
}

int sweep_list_vms(struct options *o, const char *arg, char *err)
{
    o->sweep->vms_given = 1;
    return parse_list(o->sweep, SO_VMS, arg, err);
}

int sweep_list_proto(struct options *o, const char *arg, char *err)
{
    return parse_list(o->sweep, SO_PROTO, arg, err);
}

int sweep_list_verb(struct options *o, const char *arg, char *err)
{
    o->sweep->verb_given = 1;
    return parse_list(o->sweep, SO_VERB, arg, err);
}

int sweep_opt_csv(struct options *o, const char *arg, char *err)
{
    struct sweep_args *a = o->sweep;
    return cli_copy(a->csv, sizeof a->csv, "--csv", arg, err) ||
           cli_check_out_path("--csv", a->csv, err) ? -1 : 0;
}

int sweep_opt_find_max(struct options *o, const char *arg, char *err)
{
    struct sweep_args *a = o->sweep;
    a->find_max = 1;
    a->find.n = 0;
    if (cli_copy(a->find_text, sizeof a->find_text, "--find-max", arg, err))
        return -1;
    if (condition_parse_list(arg, &a->find, err) == 0)
        return 0;
    cli_name_error("--find-max", err);
    return -1;
}

int sweep_opt_rate_min(struct options *o, const char *arg, char *err)
{
    return parse_search_rate("rate-min", arg, &o->sweep->rate_min, err);
}

int sweep_opt_rate_max(struct options *o, const char *arg, char *err)
{
    return parse_search_rate("rate-max", arg, &o->sweep->rate_max, err);
}

/* ---- what needs run's options too ----------------------------------------- */

/* Run options that make no sense for a sweep (beyond those its rows
 * refuse: --junit, --percentile-dist). */
static int check_run_options(const struct sweep_args *a, const struct options *o, char *err)
{
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

static int check_search(struct sweep_args *a, const struct options *o, char *err)
{
    const char *bad = a->rate_given ? "--rate: the search picks the rates (see --rate-min, "
                                      "--rate-max)"
                      : a->nconns > 1 ? "--connections: one value with --find-max"
                      : a->nvms > 1 ? "--vms: one value with --find-max"
                      : a->repeat > 1 ? "--repeat: not with --find-max (each probe is one run)"
                      : o->baseline[0] ? "--baseline: not with --find-max"
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

/* The k-th field of a comma list into out (len bytes, the caller's).
 * @return 0, or -1 when the list has fewer fields. */
static int list_field(const char *list, size_t k, char *out, size_t len)
{
    for (; k; k--) {
        list = strchr(list, ',');
        if (!list++)
            return -1;
    }
    snprintf(out, len, "%.*s", (int)strcspn(list, ","), list);
    return 0;
}

/* -u A,B pairs a URL with each --proto, in order, as compare pairs arms:
 * one URL per protocol (an endpoint serves one encoding at one path:
 * aria2's XML-RPC at /rpc, its JSON-RPC at /jsonrpc). */
static int check_url_pairs(const struct sweep_args *a, const struct options *o, char *err)
{
    if (!strchr(o->url, ','))
        return 0;
    size_t n = 1;
    for (const char *p = o->url; (p = strchr(p, ',')); p++)
        n++;
    size_t np = a->protos[0][0] ? a->nprotos : 0; /* none given: run's default */
    if (n != np) {
        snprintf(err, ERR_LEN, "--url: %zu URLs for %zu --proto value%s: a list of URLs pairs "
                 "one with each protocol, in order (-u URL1,URL2 -p xmlrpc,jsonrpc)", n, np,
                 np == 1 ? "" : "s");
        return -1;
    }
    char url[1024];
    for (size_t i = 0; i < n; i++)
        if (list_field(o->url, i, url, sizeof url) || !url[0]) {
            snprintf(err, ERR_LEN, "--url: an empty URL in '%.200s'", o->url);
            return -1;
        }
    return 0;
}

/* The URL a cell of protocol proto measures: -u's field paired with it
 * (check_url_pairs), or the one URL. */
static void url_for(const struct options *o, const char *proto, char *out, size_t len)
{
    snprintf(out, len, "%s", o->url);
    if (!strchr(o->url, ',') || !o->sweep)
        return;
    for (size_t i = 0; i < o->sweep->nprotos; i++)
        if (!strcmp(o->sweep->protos[i], proto))
            list_field(o->url, i, out, len);
}

int sweep_args_check(struct sweep_args *a, const struct options *o, char *err)
{
    if (check_run_options(a, o, err))
        return -1;
    if (a->find_max) {
        if (check_search(a, o, err))
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
    return check_url_pairs(a, o, err) || check_vm_id(a, o, err) ? -1 : 0;
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
    url_for(o, p->proto, oc.url, sizeof oc.url);
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
