/* sweep_plot: --plot of a sweep, its chart documents (sweep_charts.c, the
 * page's and the server CPU per call) as one standalone SVG (chart_svg.c). */
#include "report/sweep_out.h"

#include "base/err.h"

int sweep_plot_svg(const char *svg_path, const struct sweep *s, char *err)
{
    size_t run = 0;
    for (size_t i = 0; i < s->ncells; i++)
        run += s->cells[i].nreps > 0;
    if (run == 0) {
        snprintf(err, ERR_LEN, "--plot: no cell was measured");
        return -1;
    }
    struct doc_chart c[SWEEP_CHARTS_MAX];
    int dropped = 0, n = sweep_charts(c, SWEEP_CHARTS_MAX, s, &dropped);
    if (!n) {
        snprintf(err, ERR_LEN, "out of memory");
        return -1;
    }
    if (dropped)
        fprintf(stderr, "--plot: the charts draw the first %d lines; %d more cells are in the "
                        "table only\n", SWEEP_CHARTS_LINES, dropped);
    char title[64];
    snprintf(title, sizeof title, "rpcbench sweep: %zu cells", s->ncells);
    int rc = doc_chart_svg(svg_path, c, n, title, err);
    for (int k = 0; k < n; k++)
        doc_chart_free(&c[k]);
    return rc;
}
