/* plot: --plot of a run or a comparison, the page's chart documents
 * (run_charts.h) as one standalone SVG (chart_svg.c). */
#include "report/plot.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "report/run_charts.h"

int plot_svg(const char *svg_path, const struct run_result *const *arms,
             const char *const *names, size_t narms, char *err)
{
    if (narms < 1 || narms > 2) {
        snprintf(err, ERR_LEN, "--plot: 1 or 2 arms");
        return -1;
    }
    struct doc_chart c[RUN_CHARTS_MAX];
    int n;
    if (narms == 1) {
        n = run_charts_of_run(c, arms[0]);
    } else { /* named as on the comparison's page */
        char ab[2][80];
        const char *lettered[2] = {ab[0], ab[1]};
        for (int a = 0; a < 2; a++)
            snprintf(ab[a], sizeof ab[a], "%c %.60s", 'A' + a, names[a]);
        n = run_charts_of_compare(c, arms, lettered);
    }
    if (!n) {
        snprintf(err, ERR_LEN, "--plot: out of memory");
        return -1;
    }
    char title[256] = "rpcbench:";
    for (size_t i = 0; i < narms; i++) {
        size_t len = strlen(title);
        snprintf(title + len, sizeof title - len, "%s %s", i ? " vs" : "", names[i]);
    }
    int rc = doc_chart_svg(svg_path, c, n, title, err);
    run_charts_free(c, n);
    return rc;
}
