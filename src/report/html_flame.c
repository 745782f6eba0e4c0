/* html_flame: the server's profile as flame graphs on the pages (issue
 * 27): one per arm, and on a comparison a differential one, B's shape
 * coloured by the change in CPU-ms per call. Drawn from the saved tree
 * (profile_sum.h's flame), so `report --html` draws the same again.
 * Inline SVG; a few lines of inline script zoom on a click and show the
 * hovered frame; without the script each frame still has its <title>. */
#include "report/html.h"

#include <math.h>
#include <string.h>

#define FLAME_NODES 1024
#define FLAME_ROW 17
#define FLAME_ROUNDS 64 /* rounds per arm drawn (a compare has fewer) */

struct fnode {
    const char *name;           /* into the summaries drawn */
    int parent, depth;
    double v[2][2];             /* [arm][self, total]: ms per call (or % of samples) */
    double x, w;                /* in the graph's width, 0..1 */
};

struct flame {
    struct fnode n[FLAME_NODES];
    int nn;
    int per_call;               /* v in ms per call; 0: in % of the samples */
};

static struct flame fl; /* large; one graph at a time */

/* @return the index of parent's callee name, added when new (-1: full). */
static int child(int parent, const char *name)
{
    for (int i = parent + 1; i < fl.nn; i++)
        if (fl.n[i].parent == parent && !strcmp(fl.n[i].name, name))
            return i;
    if (fl.nn == FLAME_NODES)
        return -1;
    fl.n[fl.nn] = (struct fnode){.name = name, .parent = parent,
                                 .depth = fl.n[parent].depth + 1};
    return fl.nn++;
}

/* Adds p's tree to arm's values, weighted (1 / the arm's rounds). */
static void add(const struct profile_summary *p, int arm, double weight)
{
    int map[PROFILE_MAX_FLAME];
    if (p->nflame == 0 || p->flame[0].total <= 0)
        return;
    double unit = (fl.per_call ? p->cpu_ms_per_call : 100.0) / (double)p->flame[0].total;
    for (int i = 0; i < p->nflame; i++) {
        const struct profile_flame_node *f = &p->flame[i];
        map[i] = i == 0 ? 0 : map[f->parent] < 0 ? -1 : child(map[f->parent], f->func);
        if (map[i] < 0)
            continue;
        fl.n[map[i]].v[arm][0] += (double)f->self * unit * weight;
        fl.n[map[i]].v[arm][1] += (double)f->total * unit * weight;
    }
}

/* Empties the graph: per call when every profile p[0..n) has its CPU per
 * call. */
static void reset(const struct run_result *const *p, size_t n)
{
    memset(&fl, 0, sizeof fl);
    fl.n[0] = (struct fnode){.name = "all", .parent = -1};
    fl.nn = 1;
    fl.per_call = 1;
    for (size_t i = 0; i < n; i++)
        if (!(isfinite(p[i]->profile.cpu_ms_per_call) && p[i]->profile.cpu_ms_per_call > 0))
            fl.per_call = 0;
}

/* Each frame's place, its width arm's total over scale; callees left to
 * right in the order they came (the trees' order: by name). @return the
 * deepest drawn frame's depth. */
static int layout(int arm, double scale)
{
    double next[FLAME_NODES];
    int deepest = 0;
    for (int i = 0; i < fl.nn; i++) {
        struct fnode *f = &fl.n[i];
        f->w = scale > 0 ? f->v[arm][1] / scale : 0;
        f->x = i ? next[f->parent] : 0;
        if (i)
            next[f->parent] += f->w;
        next[i] = f->x;
        if (f->w > 0 && f->depth > deepest)
            deepest = f->depth;
    }
    return deepest;
}

/* A warm colour of its own per name, so a function keeps it across graphs. */
static void name_colour(char *out, size_t len, const char *name)
{
    unsigned h = 2166136261u;
    for (const unsigned char *s = (const unsigned char *)name; *s; s++)
        h = (h ^ *s) * 16777619u;
    snprintf(out, len, "hsl(%u,80%%,%u%%)", h % 50, 55 + (h >> 8) % 12);
}

/* Red where B costs more per call, blue where less, white-grey unchanged;
 * t the change over the largest change, -1..1. */
static void diff_colour(char *out, size_t len, double t)
{
    int c = (int)lround(225 * (1 - fabs(t)));
    if (t >= 0)
        snprintf(out, len, "rgb(255,%d,%d)", c, c);
    else
        snprintf(out, len, "rgb(%d,%d,255)", c, c);
}

/* What the hover says of frame f. */
static void frame_title(char *out, size_t len, const struct fnode *f, int arm, int diff)
{
    const char *u = fl.per_call ? " ms/call" : "%";
    const char *fmt = fl.per_call ? "%.3f" : "%.1f";
    char s[4][32];
    snprintf(s[0], sizeof s[0], fmt, f->v[diff ? 0 : arm][0]);
    snprintf(s[1], sizeof s[1], fmt, f->v[diff ? 0 : arm][1]);
    snprintf(s[2], sizeof s[2], fmt, f->v[1][0]);
    snprintf(s[3], sizeof s[3], fmt, f->v[1][1]);
    double root = fl.n[0].v[diff ? 1 : arm][1];
    double share = root > 0 ? 100 * f->v[diff ? 1 : arm][1] / root : 0;
    if (diff)
        snprintf(out, len, "%.100s: total A %s -> B %s%s (%+.3f), self A %s -> B %s%s",
                 f->name, s[1], s[3], u, f->v[1][1] - f->v[0][1], s[0], s[2], u);
    else
        snprintf(out, len, "%.100s: self %s%s, total %s%s, %.1f%% of the samples", f->name,
                 s[0], u, s[1], u, share);
}

static void frame(FILE *out, const struct fnode *f, int deepest, int arm, double maxd)
{
    char fill[40], title[300];
    if (maxd > 0)
        diff_colour(fill, sizeof fill, (f->v[1][1] - f->v[0][1]) / maxd);
    else
        name_colour(fill, sizeof fill, f->name);
    frame_title(title, sizeof title, f, arm, maxd > 0);
    int y = (deepest - f->depth) * FLAME_ROW;
    fprintf(out, "<g class=\"fr\" data-x=\"%.6f\" data-w=\"%.6f\" data-n=\"", f->x, f->w);
    html_esc(out, f->name);
    fputs("\"><title>", out);
    html_esc(out, title);
    fprintf(out, "</title><rect x=\"%.4f%%\" y=\"%d\" width=\"%.4f%%\" height=\"%d\" "
            "fill=\"%s\"/><text x=\"%.4f%%\" dx=\"3\" y=\"%d\"></text></g>\n", 100 * f->x, y,
            100 * f->w, FLAME_ROW - 1, fill, 100 * f->x, y + FLAME_ROW - 5);
}

/* Zoom: a click draws the clicked frame's span across the width (its
 * callers full width, the rest hidden), the root's click zooms out;
 * the names are cut to the frames' widths (again when the window's width
 * changes); hover shows the frame. */
static const char flame_script[] =
    "(function(fig){var svg=fig.querySelector('svg'),info=fig.querySelector('.flame-info'),"
    "gs=[].slice.call(svg.querySelectorAll('g.fr'));\n"
    "var at=[0,1];function zoom(X,W){var px=svg.getBoundingClientRect().width||900;"
    "at=[X,W];svg.setAttribute('data-zoom',X.toFixed(6)+' '+W.toFixed(6));"
    "gs.forEach(function(g){var x=+g.dataset.x,w=+g.dataset.w,l=(x-X)/W,r=(x+w-X)/W;"
    "if(r<=1e-9||l>=1-1e-9||(r-l)*px<0.5){g.style.display='none';return;}"
    "l=Math.max(0,l);r=Math.min(1,r);g.style.display='';"
    "var rc=g.querySelector('rect'),t=g.querySelector('text'),s=g.dataset.n,"
    "n=Math.floor((r-l)*px/7)-1;rc.setAttribute('x',(100*l)+'%');"
    "rc.setAttribute('width',(100*(r-l))+'%');t.setAttribute('x',(100*l)+'%');"
    "t.textContent=n<3?'':s.length>n?s.slice(0,n-2)+'..':s;});}\n"
    "gs.forEach(function(g){g.addEventListener('click',function(){"
    "zoom(+g.dataset.x,+g.dataset.w||1);});g.addEventListener('mouseover',function(){"
    "info.textContent=g.querySelector('title').textContent;});});\n"
    "window.addEventListener('resize',function(){zoom(at[0],at[1]);});\n"
    "zoom(0,1);})(document.currentScript.parentNode);\n";

/* One graph of the laid out tree: widths by arm's totals; maxd > 0 makes
 * it the differential (colour by B - A over maxd). */
static void graph(FILE *out, const char *id, const char *title, const char *caption, int arm,
                  double maxd, int deepest)
{
    fprintf(out, "<figure class=\"flame\" id=\"flame-%s\"><figcaption>", id);
    html_esc(out, title);
    fputs("</figcaption>\n<p class=\"sub\">", out);
    html_esc(out, caption);
    fprintf(out, "</p>\n<svg width=\"100%%\" height=\"%d\">\n", (deepest + 1) * FLAME_ROW);
    for (int i = 0; i < fl.nn; i++)
        if (fl.n[i].w > 0)
            frame(out, &fl.n[i], deepest, arm, maxd);
    fputs("</svg>\n<div class=\"flame-info\">hover a frame for its figures; click one to "
          "zoom in, the bottom one to zoom out</div>\n<script>", out);
    fputs(flame_script, out);
    fputs("</script></figure>\n", out);
}

static const char *units(void)
{
    return fl.per_call ? "widths in CPU-ms per call" : "widths in % of the samples (the CPU "
                                                       "per call is unknown)";
}

/* The graph of arm (already added) alone; saturated: a profile in it was
 * taken under saturation (said in its caption). */
static void arm_graph(FILE *out, const char *id, const char *title, int arm, int saturated)
{
    char caption[400];
    int deepest = layout(arm, fl.n[0].v[arm][1]);
    snprintf(caption, sizeof caption, "the server's stacks in the measured window, callers "
             "below callees; %s; frames under %.1f%% of the samples left out%s", units(),
             100 * PROFILE_FLAME_MIN_SHARE,
             saturated ? "; " PROFILE_SATURATED_TEXT : "");
    graph(out, id, title, caption, arm, 0, deepest);
}

void html_flame_run(FILE *out, const struct run_result *r)
{
    if (!r->profile.taken || r->profile.nflame < 2)
        return;
    reset(&r, 1);
    add(&r->profile, 0, 1);
    html_section(out, "Server profile: flame graph");
    arm_graph(out, "run", "flame graph", 0, r->profile.saturated);
    html_section_end(out);
}

/* The differential: B's shape, coloured by B - A of each frame's total. */
static void diff_graph(FILE *out)
{
    double maxd = 0;
    for (int i = 0; i < fl.nn; i++)
        maxd = fmax(maxd, fabs(fl.n[i].v[1][1] - fl.n[i].v[0][1]));
    int deepest = layout(1, fmax(fl.n[0].v[0][1], fl.n[0].v[1][1]));
    char caption[400];
    snprintf(caption, sizeof caption, "B's stacks, %s (to the larger arm's whole), coloured "
             "by B - A of each frame's total: red B costs more, blue less (deepest at a "
             "change of %.3f%s); frames only in A are not drawn", units(), maxd,
             fl.per_call ? " ms/call" : "%");
    graph(out, "diff", "differential flame graph, B - A", caption, 1, maxd > 0 ? maxd : 1e-300,
          deepest);
}

/* Adds arm a's first n rounds with a tree, each weighted 1 / their
 * count. @return how many were taken under saturation. */
static int add_arm(const struct run_result *rounds, size_t n, int a)
{
    size_t m = 0;
    int saturated = 0;
    for (size_t i = 0; i < n && i < FLAME_ROUNDS; i++)
        m += rounds[i].profile.nflame > 1;
    for (size_t i = 0; i < n && i < FLAME_ROUNDS; i++)
        if (rounds[i].profile.nflame > 1) {
            add(&rounds[i].profile, a, 1.0 / (double)m);
            saturated += rounds[i].profile.saturated;
        }
    return saturated;
}

/* Why a graph is not drawn, in its place. */
static void not_drawn(FILE *out, const char *why)
{
    html_warn_open(out);
    html_warn_item(out, "flame graph: ", why);
    html_warn_close(out);
}

void html_flame_compare(FILE *out, const struct run_result *const arm[2], size_t n,
                        const char *const names[2])
{
    const struct run_result *all[2 * FLAME_ROUNDS];
    size_t k = 0;
    for (int a = 0; a < 2; a++)
        for (size_t i = 0; i < n && i < FLAME_ROUNDS; i++)
            if (arm[a][i].profile.nflame > 1)
                all[k++] = &arm[a][i];
    if (k == 0)
        return;
    reset(all, k);
    int saturated[2] = {add_arm(arm[0], n, 0), add_arm(arm[1], n, 1)};
    html_section(out, "Server profile: flame graphs");
    char title[120];
    for (int a = 0; a < 2; a++) {
        snprintf(title, sizeof title, "%c: %.60s, the mean of its rounds", 'A' + a, names[a]);
        if (fl.n[0].v[a][1] > 0)
            arm_graph(out, a ? "b" : "a", title, a, saturated[a]);
    }
    if (saturated[0] || saturated[1])
        not_drawn(out, "no differential: a round's profile was " PROFILE_SATURATED_TEXT);
    else if (fl.n[0].v[0][1] <= 0 || fl.n[0].v[1][1] <= 0)
        not_drawn(out, "no differential: an arm has no profile's stacks");
    else
        diff_graph(out);
    html_section_end(out);
}
