#include "report/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "report/plot_gp.h"

#define PLOT_MAX_ARMS 8

/* ---- file names ---------------------------------------------------------- */

struct plot_files {
    char base[512];                    /* FILE.svg without ".svg" */
    char arm[PLOT_MAX_ARMS][64];       /* name safe for a file name */
    char cdf[PLOT_MAX_ARMS][600];
    char timeline[PLOT_MAX_ARMS][600];
    char gp[600];
};

/* Arm names from the labels; letters A, B, ... when labels are missing or
 * would give two arms the same files. */
static void name_files(struct plot_files *pf, const char *svg, const char *const *names,
                       size_t narms)
{
    size_t len = strlen(svg);
    if (len > 4 && !strcmp(svg + len - 4, ".svg"))
        len -= 4;
    snprintf(pf->base, sizeof pf->base, "%.*s", (int)len, svg);
    int clash = 0;
    for (size_t i = 0; i < narms; i++) {
        plot_safe_name(names[i], pf->arm[i], sizeof pf->arm[i]);
        for (size_t j = 0; j < i; j++)
            clash |= !strcmp(pf->arm[i], pf->arm[j]);
        clash |= !pf->arm[i][0];
    }
    for (size_t i = 0; i < narms; i++) {
        if (clash)
            snprintf(pf->arm[i], sizeof pf->arm[i], "%c", (char)('A' + i));
        snprintf(pf->cdf[i], sizeof pf->cdf[i], "%s.%s.cdf.dat", pf->base, pf->arm[i]);
        snprintf(pf->timeline[i], sizeof pf->timeline[i], "%s.%s.timeline.dat", pf->base,
                 pf->arm[i]);
    }
    snprintf(pf->gp, sizeof pf->gp, "%s.gp", pf->base);
}

/* ---- data files ---------------------------------------------------------- */

/* One point per non-empty bucket: (its highest value in ms, % of values at
 * or below it), starting from (min, 0). */
static int write_cdf(const char *path, const struct hist *h, char *err)
{
    FILE *f = file_create(path, err);
    if (!f)
        return -1;
    fprintf(f, "# latency_ms  pct_at_or_below   (rpcbench, from the merged histogram)\n");
    if (h->total_count) {
        fprintf(f, "%.3f 0\n", (double)h->min / 1000.0);
        int64_t running = 0;
        for (int32_t i = 0; i < h->counts_len && running < h->total_count; i++) {
            if (!h->counts[i])
                continue;
            running += h->counts[i];
            int64_t v = hist_highest_equivalent(h, hist_value_at_index(h, i));
            v = v > h->max ? h->max : v; /* never past the exact max */
            fprintf(f, "%.3f %.4f\n", (double)v / 1000.0,
                    100.0 * (double)running / (double)h->total_count);
        }
    }
    return file_close_checked(f, path, err);
}

/* t, p50, p99 (ms), server CPU % (NaN when not sampled: gnuplot skips it). */
static int write_timeline(const char *path, const struct run_result *r, char *err)
{
    FILE *f = file_create(path, err);
    if (!f)
        return -1;
    fprintf(f, "# t_s  p50_ms  p99_ms  server_cpu_pct\n");
    for (size_t i = 0; i < r->nintervals; i++) {
        const struct interval_rec *x = &r->intervals[i];
        int answered = x->ok + x->errors > 0;
        fprintf(f, "%.3f ", x->t);
        if (answered)
            fprintf(f, "%.3f %.3f ", x->p50_ms, x->p99_ms);
        else
            fprintf(f, "NaN NaN ");
        if (x->server_cpu_pct >= 0)
            fprintf(f, "%.2f\n", x->server_cpu_pct);
        else
            fprintf(f, "NaN\n");
    }
    return file_close_checked(f, path, err);
}

static int has_timeline(const struct run_result *r, int cpu)
{
    for (size_t i = 0; i < r->nintervals; i++) {
        const struct interval_rec *x = &r->intervals[i];
        if (cpu ? x->server_cpu_pct >= 0 : x->ok + x->errors > 0)
            return 1;
    }
    return 0;
}

/* ---- the script ------------------------------------------------------------ */

static void panel_cdf(FILE *f, const struct plot_files *pf, const struct run_result *const *arms,
                      const char *const *names, size_t narms)
{
    int64_t lo = INT64_MAX, hi = 0;
    for (size_t i = 0; i < narms; i++)
        if (arms[i]->latency.total_count) {
            lo = arms[i]->latency.min < lo ? arms[i]->latency.min : lo;
            hi = arms[i]->latency.max > hi ? arms[i]->latency.max : hi;
        }
    fprintf(f, "\nset title 'cumulative response-time distribution (from the intended send time)'\n"
               "set xlabel 'response time (ms)'\nset ylabel '%% of requests at or below'\n");
    if (!hi) {
        plot_placeholder(f, "no answered requests");
        return;
    }
    /* a long tail squeezes the body into one corner on a linear axis */
    if (lo > 0 && hi / lo > 50)
        fprintf(f, "set logscale x\n");
    fprintf(f, "set yrange [0:100]\nset key bottom right\nplot ");
    int first = 1;
    for (size_t i = 0; i < narms; i++) {
        if (!arms[i]->latency.total_count)
            continue;
        fprintf(f, "%s", first ? "" : ", \\\n     ");
        plot_gp_str(f, pf->cdf[i]);
        fprintf(f, " using 1:2 with lines lw 2 title ");
        plot_gp_str(f, names[i]);
        first = 0;
    }
    fprintf(f, "\nunset logscale x\nset autoscale y\n");
}

static void panel_timeline(FILE *f, const struct plot_files *pf,
                           const struct run_result *const *arms, const char *const *names,
                           size_t narms, int cpu)
{
    fprintf(f, "\nset title '%s'\nset xlabel 'measured time (s)%s'\nset ylabel '%s'\n",
            cpu ? "server CPU" : "latency over time", narms > 1 ? ", rounds end to end" : "",
            cpu ? "% of one core" : "ms");
    fprintf(f, "set yrange [0:*]\n"); /* a flat line must not sit on the frame */
    int first = 1;
    for (size_t i = 0; i < narms; i++) {
        if (!has_timeline(arms[i], cpu))
            continue;
        for (int col = cpu ? 4 : 2; col <= (cpu ? 4 : 3); col++) {
            fprintf(f, "%s", first ? "set key top right\nplot " : ", \\\n     ");
            plot_gp_str(f, pf->timeline[i]);
            /* p99 thin with open points, not dashed: some SVG renderers
             * draw gnuplot's dashed paths with stray segments */
            fprintf(f, " using 1:%d with linespoints lc %zu lw %d pt %d ps 0.5 title ", col,
                    i + 1, col == 3 ? 1 : 2, col == 3 ? 6 : 7);
            char t[96];
            snprintf(t, sizeof t, "%s%s", names[i], cpu ? "" : col == 2 ? " p50" : " p99");
            plot_gp_str(f, t);
            first = 0;
        }
    }
    if (first)
        plot_placeholder(f, cpu ? "server CPU not sampled" : "no intervals");
    else
        fprintf(f, "\n");
}

static int write_script(const struct plot_files *pf, const char *svg,
                        const struct run_result *const *arms, const char *const *names,
                        size_t narms, char *err)
{
    FILE *f = file_create(pf->gp, err);
    if (!f)
        return -1;
    fprintf(f, "# rpcbench plot; re-make with: gnuplot %s\n", pf->gp);
    fprintf(f, "set terminal svg size 900,1100 dynamic noenhanced font 'sans,11' "
               "background rgb 'white'\nset output ");
    plot_gp_str(f, svg);
    char title[256] = "rpcbench:";
    for (size_t i = 0; i < narms; i++) {
        size_t n = strlen(title);
        snprintf(title + n, sizeof title - n, "%s %s", i ? " vs" : "", names[i]);
    }
    fprintf(f, "\nset grid\nset multiplot layout 3,1 title ");
    plot_gp_str(f, title);
    fprintf(f, "\n");
    panel_cdf(f, pf, arms, names, narms);
    panel_timeline(f, pf, arms, names, narms, 0);
    panel_timeline(f, pf, arms, names, narms, 1);
    fprintf(f, "\nunset multiplot\nset output\n");
    return file_close_checked(f, pf->gp, err);
}

/* The script and data once the SVG is made, unless --plot-keep. */
static void remove_inputs(const struct plot_files *pf, size_t narms)
{
    for (size_t i = 0; i < narms; i++) {
        unlink(pf->cdf[i]);
        unlink(pf->timeline[i]);
    }
    unlink(pf->gp);
}

int plot_svg(const char *svg_path, const struct run_result *const *arms,
             const char *const *names, size_t narms, int keep, char *err)
{
    static struct plot_files pf; /* large: keep it off the stack */
    if (narms < 1 || narms > PLOT_MAX_ARMS) {
        snprintf(err, ERR_LEN, "--plot: 1..%d arms", PLOT_MAX_ARMS);
        return -1;
    }
    name_files(&pf, svg_path, names, narms);
    for (size_t i = 0; i < narms; i++)
        if (write_cdf(pf.cdf[i], &arms[i]->latency, err) ||
            write_timeline(pf.timeline[i], arms[i], err))
            return -1;
    if (write_script(&pf, svg_path, arms, names, narms, err))
        return -1;
    if (!plot_have_gnuplot()) {
        fprintf(stderr, "gnuplot not found: apt-get install gnuplot-nox, then gnuplot %s\n",
                pf.gp);
        return 0;
    }
    int rc = plot_run_gnuplot(pf.gp, err);
    if (rc == 0 && !keep)
        remove_inputs(&pf, narms);
    return rc;
}
