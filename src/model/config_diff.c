/* config_diff: the parameters two results differ in (config_diff.h). */
#include "model/config_diff.h"

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

/* The load: what is sent, how fast, over how many connections. */
static void window_text(const struct run_config *c, char *out, size_t len)
{
    if (c->pacer_window_auto)
        snprintf(out, len, "auto");
    else
        units_format_duration(c->pacer_window_ns, out, len);
}

static void diff_load(const struct run_config *a, const struct run_config *b,
                      struct config_diff *out, size_t *n)
{
    char va[96], vb[96];
    verbs_text(a, va, sizeof va);
    verbs_text(b, vb, sizeof vb);
    add(out, n, a->custom_method && b->custom_method ? "method" : "verb", va, vb);
    units_format_rate(a->rate, va, sizeof va);
    units_format_rate(b->rate, vb, sizeof vb);
    add(out, n, "rate", va, vb);
    snprintf(va, sizeof va, "%d", a->connections);
    snprintf(vb, sizeof vb, "%d", b->connections);
    add(out, n, "connections", va, vb);
    add(out, n, "arrival", result_arrival_name(a->arrival), result_arrival_name(b->arrival));
    units_format_duration(a->duration_ns, va, sizeof va);
    units_format_duration(b->duration_ns, vb, sizeof vb);
    add(out, n, "duration", va, vb);
    add(out, n, "pacer", a->busy_poll ? "busy-poll" : "sleeping",
        b->busy_poll ? "busy-poll" : "sleeping");
    window_text(a, va, sizeof va);
    window_text(b, vb, sizeof vb);
    add(out, n, "pacer window", va, vb);
}

/* The other side: where the requests went, in which encoding. */
static void diff_target(const struct run_result *a, const struct run_result *b,
                        struct config_diff *out, size_t *n)
{
    char va[96], vb[96];
    /* the built-in simulator listens on a new port every time: it is one
     * target, told apart by its size */
    add(out, n, "URL", a->cfg.url[0] ? a->cfg.url : "built-in simulator",
        b->cfg.url[0] ? b->cfg.url : "built-in simulator");
    if (!a->cfg.url[0] && !b->cfg.url[0]) {
        snprintf(va, sizeof va, "%d VMs", a->cfg.vms);
        snprintf(vb, sizeof vb, "%d VMs", b->cfg.vms);
        add(out, n, "simulator size", va, vb);
    }
    add(out, n, "encoding", a->cfg.encoding, b->cfg.encoding);
    if (a->cfg.url[0] || b->cfg.url[0]) { /* two simulators are one program */
        server_text(a, va, sizeof va);
        server_text(b, vb, sizeof vb);
        add(out, n, "server", va, vb);
    }
    add(out, n, "build", a->build[0] ? a->build : "unknown", b->build[0] ? b->build : "unknown");
}

size_t config_diff(const struct run_result *a, const struct run_result *b,
                   struct config_diff *out)
{
    size_t n = 0;
    diff_load(&a->cfg, &b->cfg, out, &n);
    diff_target(a, b, out, &n);
    return n;
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
