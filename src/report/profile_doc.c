/* profile_doc: the server's profile over the measured window (issue 27)
 * as one table, the text's and the page's: the top functions by self
 * share, with their CPU-ms per call, then how the samples were taken,
 * the profiler's own cost, and the caveats (saturation, stacks). */
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Columns from..from+n get the heads h and their text widths w; the
 * function and module columns long. */
static void set_heads_from(struct doc_table *t, int from, const char *const *h, const int *w,
                           int n)
{
    for (int c = 0; c < n; c++) {
        snprintf(t->heads[from + c], sizeof t->heads[from + c], "%s", h[c]);
        t->width[from + c] = w[c];
    }
    t->cell_len = PROFILE_FUNC_LEN;
}

/* n heads and their text widths, from the first column. */
static void set_heads(struct doc_table *t, const char *const *h, const int *w, int n)
{
    set_heads_from(t, 0, h, w, n);
}

/* The name columns (the first n) cut to their widths, in the text and on
 * the page alike, the whole name on hover and in the JSON: a long name
 * (a JIT's, with its path) never runs into the next column. */
static void cut_to_columns(struct doc_table_style *st, const int *w, int n)
{
    st->text.cut = 1;
    for (int c = 0; c < n; c++)
        st->text.max[c] = st->html.max[c] = w[c] < 0 ? -w[c] : w[c];
}

static void heads(struct doc_table *t, struct doc_table_style *st)
{
    static const char *const h[] = {"function", "module", "self ms/call", "total ms/call",
                                    "self %", "total %"};
    static const int w[] = {-40, -24, 12, 13, 7, 7};
    set_heads(t, h, w, 6);
    cut_to_columns(st, w, 2);
    snprintf(t->id, sizeof t->id, "profile");
    snprintf(t->cell_ids, sizeof t->cell_ids, "prof");
}

static void ms_cell(char *out, size_t len, double v)
{
    if (isfinite(v))
        snprintf(out, len, "%.3f", v);
    else
        snprintf(out, len, "n/a");
}

/* The caption: what was sampled, how often, and at what cost. */
static void caption(const struct profile_summary *p, struct doc_table *t)
{
    char cost[160] = "";
    if (fig_known(p->profiled_cpu_ms))
        snprintf(cost, sizeof cost, "; the stacks hold %.0f CPU-ms", p->profiled_cpu_ms);
    if (fig_known(p->profiler_cpu_ms))
        snprintf(cost + strlen(cost), sizeof cost - strlen(cost), "; the profiler's own CPU "
                 "%.0f ms", p->profiler_cpu_ms);
    snprintf(t->caption, sizeof t->caption,
             "server profile (%s): %lld samples in the %.1fs window (%.0f/s)%s; CPU-ms/call "
             "= share x %.3f measured", p->profiler, (long long)p->samples, p->window_s,
             isfinite(p->rate_hz) ? p->rate_hz : 0.0, cost, p->cpu_ms_per_call);
    snprintf(t->legend, sizeof t->legend, "self: in the function itself; total: with its "
             "callees; %lld samples outside the window left out", (long long)p->outside);
    if (p->saturated)
        snprintf(t->warning, sizeof t->warning, "profile %s", PROFILE_SATURATED_TEXT);
    snprintf(t->notes, sizeof t->notes, "%s", p->note);
    if (p->samples == 0)
        snprintf(t->empty, sizeof t->empty, "no sample in the window: was the server busy?");
}

/* rows[0..n) into t's rows, with their module column when modules.
 * @return 0, or -1 with err. */
static int add_rows(struct doc_table *t, const struct profile_row *rows, int n, int modules,
                    char *err)
{
    for (int i = 0; i < n; i++) {
        const struct profile_row *w = &rows[i];
        char v[4][32];
        ms_cell(v[0], sizeof v[0], w->self_ms);
        ms_cell(v[1], sizeof v[1], w->total_ms);
        snprintf(v[2], sizeof v[2], "%.1f", w->self_pct);
        snprintf(v[3], sizeof v[3], "%.1f", w->total_pct);
        const char *cells[6] = {w->func, w->module[0] ? w->module : "-", v[0], v[1], v[2],
                                v[3]};
        if (!modules)
            memmove(cells + 1, cells + 2, 4 * sizeof *cells);
        if (doc_table_add(t, cells, err))
            return -1;
    }
    return 0;
}

int report_profile_doc(const struct run_result *r, struct doc_table *t,
                       struct doc_table_style *st, char *err)
{
    const struct profile_summary *p = &r->profile;
    doc_table_init(t, 6);
    doc_table_style_init(st);
    if (!p->taken)
        return 0;
    heads(t, st);
    caption(p, t);
    return add_rows(t, p->rows, p->nrows < p->top ? p->nrows : p->top, 1, err);
}

int report_profile_modules_doc(const struct run_result *r, struct doc_table *t,
                               struct doc_table_style *st, char *err)
{
    static const char *const h[] = {"module", "self ms/call", "total ms/call", "self %",
                                    "total %"};
    static const int w[] = {-40, 12, 13, 7, 7};
    const struct profile_summary *p = &r->profile;
    doc_table_init(t, 5);
    doc_table_style_init(st);
    if (!p->taken || !p->nmodules)
        return 0;
    set_heads(t, h, w, 5);
    cut_to_columns(st, w, 1);
    snprintf(t->id, sizeof t->id, "profile-modules");
    snprintf(t->cell_ids, sizeof t->cell_ids, "profm");
    snprintf(t->caption, sizeof t->caption, "server profile by module (the same samples)");
    snprintf(t->legend, sizeof t->legend, "self: the module's own code and the libc and "
             "kernel time it called; total: with its callees");
    return add_rows(t, p->modules, p->nmodules, 0, err);
}

/* Under the function table: which profiler made each arm's side, what it
 * cost beside the server, and its caveat (round 1's), into out (len bytes,
 * appended lines). */
static void diff_profilers(const struct profile_diff *d, char *out, size_t len)
{
    size_t n = 0;
    for (int i = 0; i < 2 && n < len; i++) {
        const struct profile_diff_arm *a = &d->arm[i];
        char cost[96] = "";
        if (fig_known(a->own_cpu_ms) && fig_known(a->server_cpu_ms) && a->server_cpu_ms > 0)
            snprintf(cost, sizeof cost, "; its own CPU %.0f ms, %.1f%% of the server's %.0f ms",
                     a->own_cpu_ms, 100 * a->own_cpu_ms / a->server_cpu_ms, a->server_cpu_ms);
        else if (fig_known(a->own_cpu_ms))
            snprintf(cost, sizeof cost, "; its own CPU %.0f ms", a->own_cpu_ms);
        n += (size_t)snprintf(out + n, len - n, "\n%c %s: %s%s%s%s", 'A' + i, d->names[i],
                              a->profiler[0] ? a->profiler : "profiler unknown", cost,
                              a->note[0] ? "; " : "", a->note);
    }
}

/* The diff's heads: A and B side by side, then B - A with its interval. */
static void diff_heads(const struct profile_diff *d, struct doc_table *t,
                       struct doc_table_style *st)
{
    char a[DOC_CELL_LEN], b[DOC_CELL_LEN];
    snprintf(a, sizeof a, "%.20s self", d->names[0]);
    snprintf(b, sizeof b, "%.20s self", d->names[1]);
    /* by module, the first column is the module: no second name column */
    const char *h[] = {"function", "module", a, b, "B-A self", "95% CI", "B-A total", "B/A",
                       ""};
    static const int w[] = {-36, -20, 10, 10, 9, 19, 10, 7, 0};
    int skip = d->modules ? 1 : 0;
    set_heads(t, h, w, 1);
    set_heads_from(t, 1, h + 1 + skip, w + 1 + skip, 8 - skip);
    cut_to_columns(st, w, 2 - skip);
    snprintf(t->id, sizeof t->id, d->modules ? "profile-diff-modules" : "profile-diff");
    snprintf(t->caption, sizeof t->caption, "server profile%s, B - A (CPU-ms per call, %d "
             "paired rounds, the samples' shares x each round's CPU per call)",
             d->modules ? " by module" : "", d->rounds);
    snprintf(t->legend, sizeof t->legend, "rows by how much of the difference they explain "
             "(self%s); * the interval excludes 0",
             d->modules ? ": the module's own code and the libc and kernel time it called" : "");
    if (d->modules)
        snprintf(t->heads[0], sizeof t->heads[0], "module");
    snprintf(t->notes, sizeof t->notes, "%s", d->summary);
    if (!d->modules)
        diff_profilers(d, t->notes + strlen(t->notes), sizeof t->notes - strlen(t->notes));
}

int report_profile_diff_doc(const struct profile_diff *d, struct doc_table *t,
                            struct doc_table_style *st, char *err)
{
    int skip = d->modules ? 1 : 0; /* diff_heads' */
    doc_table_init(t, 9 - skip);
    doc_table_style_init(st);
    diff_heads(d, t, st);
    for (int i = 0; i < d->nrows && i < d->top; i++) {
        const struct profile_diff_row *r = &d->rows[i];
        char v[6][48];
        snprintf(v[0], sizeof v[0], "%.3f", r->a_self);
        snprintf(v[1], sizeof v[1], "%.3f", r->b_self);
        snprintf(v[2], sizeof v[2], "%+.3f", r->d_self);
        if (d->rounds > 1)
            snprintf(v[3], sizeof v[3], "%+.3f..%+.3f", r->lo, r->hi);
        else
            snprintf(v[3], sizeof v[3], "n/a (1 round)");
        snprintf(v[4], sizeof v[4], "%+.3f", r->d_total);
        if (isfinite(r->ratio))
            snprintf(v[5], sizeof v[5], "%.2f", r->ratio);
        else
            snprintf(v[5], sizeof v[5], r->b_self > 0 ? "new" : "-");
        const char *cells[9] = {r->func, r->module[0] ? r->module : "-", v[0], v[1], v[2],
                                v[3], v[4], v[5], r->significant ? "*" : ""};
        if (skip)
            memmove(cells + 1, cells + 2, 7 * sizeof *cells);
        if (doc_table_add_row(t, cells, NULL, r->significant ? DOC_ROW_MARKED : 0, err))
            return -1;
    }
    return 0;
}
