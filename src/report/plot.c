#include "report/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "report/plot_gp.h"
#include "report/run_charts.h"

/* The charts of the page (run_charts.h) and the files they are drawn from. */
struct plot_files {
    char base[512];                    /* FILE.svg without ".svg" */
    struct doc_chart chart[RUN_CHARTS_MAX];
    int n;
    char dat[RUN_CHARTS_MAX][600];     /* FILE.<chart id>.dat */
    char gp[600];
};

/* The page's charts of the arms: a run's (one arm) or a comparison's (two:
 * named "A name", "B name" as on its page). @return 0, or -1 (no memory). */
static int build(struct plot_files *pf, const struct run_result *const *arms,
                 const char *const *names, size_t narms)
{
    if (narms == 1) {
        pf->n = run_charts_of_run(pf->chart, arms[0]);
    } else {
        char ab[2][80];
        const char *lettered[2] = {ab[0], ab[1]};
        for (int a = 0; a < 2; a++)
            snprintf(ab[a], sizeof ab[a], "%c %.60s", 'A' + a, names[a]);
        pf->n = run_charts_of_compare(pf->chart, arms, lettered);
    }
    return pf->n > 0 ? 0 : -1;
}

static void name_files(struct plot_files *pf, const char *svg)
{
    size_t len = strlen(svg);
    if (len > 4 && !strcmp(svg + len - 4, ".svg"))
        len -= 4;
    snprintf(pf->base, sizeof pf->base, "%.*s", (int)len, svg);
    for (int k = 0; k < pf->n; k++) {
        char id[64];
        plot_safe_name(pf->chart[k].id, id, sizeof id);
        snprintf(pf->dat[k], sizeof pf->dat[k], "%s.%s.dat", pf->base, id);
    }
    snprintf(pf->gp, sizeof pf->gp, "%s.gp", pf->base);
}

static int write_script(const struct plot_files *pf, const char *svg,
                        const char *const *names, size_t narms, char *err)
{
    FILE *f = file_create(pf->gp, err);
    if (!f)
        return -1;
    fprintf(f, "# rpcbench plot; re-make with: gnuplot %s\n", pf->gp);
    fprintf(f, "set terminal svg size 900,%d dynamic noenhanced font 'sans,11' "
               "background rgb 'white'\nset output ", 100 + 330 * pf->n);
    plot_gp_str(f, svg);
    char title[256] = "rpcbench:";
    for (size_t i = 0; i < narms; i++) {
        size_t n = strlen(title);
        snprintf(title + n, sizeof title - n, "%s %s", i ? " vs" : "", names[i]);
    }
    fprintf(f, "\nset grid\nset multiplot layout %d,1 title ", pf->n);
    plot_gp_str(f, title);
    fprintf(f, "\n");
    for (int k = 0; k < pf->n; k++)
        doc_chart_gp_panel(f, &pf->chart[k], pf->dat[k]);
    fprintf(f, "\nunset multiplot\nset output\n");
    return file_close_checked(f, pf->gp, err);
}

/* The script and data once the SVG is made, unless --plot-keep. */
static void remove_inputs(const struct plot_files *pf)
{
    for (int k = 0; k < pf->n; k++)
        unlink(pf->dat[k]);
    unlink(pf->gp);
}

/* Writes the data and the script, then runs gnuplot. */
static int draw(struct plot_files *pf, const char *svg_path, const char *const *names,
                size_t narms, int keep, char *err)
{
    name_files(pf, svg_path);
    for (int k = 0; k < pf->n; k++)
        if (doc_chart_gp_data(&pf->chart[k], pf->dat[k], err))
            return -1;
    if (write_script(pf, svg_path, names, narms, err))
        return -1;
    if (!plot_have_gnuplot()) {
        fprintf(stderr, "gnuplot not found: apt-get install gnuplot-nox, then gnuplot %s\n",
                pf->gp);
        return 0;
    }
    int rc = plot_run_gnuplot(pf->gp, err);
    if (rc == 0 && !keep)
        remove_inputs(pf);
    return rc;
}

int plot_svg(const char *svg_path, const struct run_result *const *arms,
             const char *const *names, size_t narms, int keep, char *err)
{
    static struct plot_files pf; /* large: keep it off the stack */
    if (narms < 1 || narms > 2) {
        snprintf(err, ERR_LEN, "--plot: 1 or 2 arms");
        return -1;
    }
    if (build(&pf, arms, names, narms)) {
        snprintf(err, ERR_LEN, "--plot: out of memory");
        return -1;
    }
    int rc = draw(&pf, svg_path, names, narms, keep, err);
    run_charts_free(pf.chart, pf.n);
    return rc;
}
