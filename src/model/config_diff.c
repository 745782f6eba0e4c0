/* config_diff: the parameters two results differ in (config_diff.h). */
#include "model/config_diff.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"

/* Adds one difference when va and vb (as shown) differ. */
static void add(struct config_diff *out, size_t *n, const char *name, const char *va,
                const char *vb)
{
    if (!strcmp(va, vb) || *n == CONFIG_DIFF_MAX)
        return;
    out[*n].name = name;
    snprintf(out[*n].a, sizeof out[*n].a, "%s", va);
    snprintf(out[*n].b, sizeof out[*n].b, "%s", vb);
    (*n)++;
}

static void verbs_text(const struct run_config *c, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < c->nverbs && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s:%u", i ? "," : "",
                                 c->verbs[i].name, c->verbs[i].weight);
}

/* The server whose CPU was sampled: its pids, "" when none was. */
static void server_text(const struct run_result *r, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < r->nwatched && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%d", i ? "+" : "pid ",
                                 (int)r->watched_pids[i]);
    if (!r->nwatched)
        snprintf(out, len, "%s", r->cfg.server_name[0] ? r->cfg.server_name : "none");
}

static void pacer_window_text(const struct run_config *c, char *out, size_t len)
{
    if (c->pacer_window_auto)
        snprintf(out, len, "auto");
    else
        units_format_duration(c->pacer_window_ns, out, len);
}

/* "2s:5/s-20/s,2s:20/s" ("none" without stages). */
static void stages_text(const struct run_config *c, char *out, size_t len)
{
    size_t used = 0;
    snprintf(out, len, "none");
    for (size_t i = 0; i < c->nstages && used < len; i++) {
        char d[24], from[24], to[24] = "";
        units_format_duration(c->stages[i].duration_ns, d, sizeof d);
        units_format_rate(c->stages[i].from, from, sizeof from);
        if (c->stages[i].to != c->stages[i].from) {
            to[0] = '-';
            units_format_rate(c->stages[i].to, to + 1, sizeof to - 1);
        }
        used += (size_t)snprintf(out + used, len - used, "%s%s:%s%s", i ? "," : "", d, from, to);
    }
}

static void list_text(const char (*items)[RUN_EXPECT_LEN], size_t n, char *out, size_t len)
{
    size_t used = 0;
    snprintf(out, len, "none");
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? "; " : "", items[i]);
}

static void auth_text(const struct run_config *c, char *out, size_t len)
{
    int n = snprintf(out, len, "%s%s%s", c->auth_shown,
                     c->auth_shown[0] && c->headers_shown[0] ? "; " : "", c->headers_shown);
    if (n <= 0) /* cut to the cell when longer */
        snprintf(out, len, "none");
}

static void profile_text(const struct run_result *r, char *out, size_t len)
{
    snprintf(out, len, "%s", r->profile.taken ? r->profile.profiler : "none");
}

/* The value at f->off of a run_config, by its C type. */
static void value_text(const struct config_field *f, const struct run_config *c, char *out,
                       size_t len)
{
    const char *at = (const char *)c + f->off;
    int i;
    int64_t ns;
    double d;
    uint64_t u;
    size_t z;
    switch (f->kind) {
    case CK_INT: memcpy(&i, at, sizeof i); snprintf(out, len, "%d", i); return;
    case CK_U64: memcpy(&u, at, sizeof u); snprintf(out, len, "%llu", (unsigned long long)u); return;
    case CK_DURATION: memcpy(&ns, at, sizeof ns); units_format_duration(ns, out, len); return;
    case CK_RATE: memcpy(&d, at, sizeof d); units_format_rate(d, out, len); return;
    case CK_SIZE: memcpy(&z, at, sizeof z); snprintf(out, len, "%zu B", z); return;
    case CK_FLAG: memcpy(&i, at, sizeof i); snprintf(out, len, "%s", i ? "on" : "off"); return;
    case CK_CHOICE:
        memcpy(&i, at, sizeof i);
        snprintf(out, len, "%s", i >= 0 && i < f->nchoices ? f->choices[i] : "?");
        return;
    default: /* CK_TEXT: a char array, terminated within it */
        snprintf(out, len, "%.*s", (int)strnlen(at, f->size), at);
        if (!out[0])
            snprintf(out, len, "none");
    }
}

/* Field f of r as a report shows it, into out (len bytes, the caller's).
 * @return 0, or -1 when f's kind reads nothing (CK_BY_TYPE). */
static int config_field_text(const struct config_field *f, const struct run_result *r, char *out,
                             size_t len)
{
    const struct run_config *c = &r->cfg;
    out[0] = '\0';
    switch (f->kind) {
    case CK_BY_TYPE: return -1;
    case CK_STAGES: stages_text(c, out, len); return 0;
    case CK_EXPECTS: list_text((const char (*)[RUN_EXPECT_LEN])c->expects, c->nexpects, out,
                               len); return 0;
    case CK_VERBS: verbs_text(c, out, len); return 0;
    case CK_URL: snprintf(out, len, "%s", c->url[0] ? c->url : "built-in simulator"); return 0;
    case CK_VMS: snprintf(out, len, "%d VMs", c->vms); return 0;
    case CK_ENCODING: snprintf(out, len, "%s", c->encoding); return 0;
    case CK_SERVER: server_text(r, out, len); return 0;
    case CK_PACER_WINDOW: pacer_window_text(c, out, len); return 0;
    case CK_AUTH: auth_text(c, out, len); return 0;
    case CK_PROFILE: profile_text(r, out, len); return 0;
    default: value_text(f, c, out, len); return 0;
    }
}

/* Whether f means anything for this pair: the simulator's size and the
 * server watched only where both arms run the simulator, or not. */
static int applies(const struct config_field *f, const struct run_result *a,
                   const struct run_result *b)
{
    int sims = !a->cfg.url[0] && !b->cfg.url[0];
    if (f->kind == CK_VMS)
        return sims;
    if (f->kind == CK_SERVER) /* two simulators are one program */
        return !sims;
    return 1;
}

/* The name a field goes by here: one value is its option's name; a field
 * several options make is named for what it is ("verb", or "method" for
 * a mix of raw methods). */
static const char *field_name(const struct config_field *f, const struct run_result *a,
                              const struct run_result *b)
{
    static const char *const names[] = {
        [CK_STAGES] = "stages", [CK_EXPECTS] = "expect", [CK_URL] = "URL",
        [CK_VMS] = "simulator size", [CK_ENCODING] = "encoding", [CK_SERVER] = "server",
        [CK_PACER_WINDOW] = "pacer window", [CK_AUTH] = "headers and auth",
        [CK_PROFILE] = "profile"};
    if (f->kind == CK_VERBS)
        return a->cfg.custom_method && b->cfg.custom_method ? "method" : "verb";
    return f->kind > CK_TEXT && f->kind < sizeof names / sizeof *names && names[f->kind]
               ? names[f->kind] : f->name;
}

size_t config_diff(const struct run_result *a, const struct run_result *b,
                   const struct config_field *fields, size_t n, struct config_diff *out)
{
    size_t nd = 0;
    char va[96], vb[96];
    for (size_t i = 0; i < n; i++) {
        if (!applies(&fields[i], a, b) || config_field_text(&fields[i], a, va, sizeof va) ||
            config_field_text(&fields[i], b, vb, sizeof vb))
            continue;
        add(out, &nd, field_name(&fields[i], a, b), va, vb);
    }
    add(out, &nd, "build", a->build[0] ? a->build : "unknown", b->build[0] ? b->build : "unknown");
    return nd;
}

void config_diff_text(const struct config_diff *d, size_t n, char *text, size_t len)
{
    size_t used = 0;
    if (len)
        text[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(text + used, len - used, "%s%s (%s vs %s)", i ? ", " : "",
                                 d[i].name, d[i].a, d[i].b);
}
