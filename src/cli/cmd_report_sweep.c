/* `rpcbench report S.json`: a saved sweep rendered again from its cells'
 * histograms, so --baseline, --buckets and --format may differ from the
 * sweep's own. */
#include "cli/cmd_report_sweep.h"

#include <stdio.h>
#include <string.h>

#include "base/exit_code.h"
#include "report/html.h"
#include "model/result_json.h"
#include "model/sweep_json.h"
#include "report/sweep_out.h"

/* Options that make no sense for a sweep, as a usage error. */
static int check_format(const struct report_sweep_opts *o, char *err)
{
    if (o->format == FORMAT_TEXT || o->format == FORMAT_CSV || o->format == FORMAT_JSON)
        return 0;
    snprintf(err, ERR_LEN, "--format %s: a sweep is text, csv or json",
             out_format_names[o->format]);
    return -1;
}

/* --baseline SPEC into *base (-1 without). */
static int baseline(const struct sweep *s, const struct report_sweep_opts *o, long *base,
                    char *err)
{
    *base = -1;
    if (!o->baseline[0])
        return 0;
    size_t cell;
    char why[ERR_LEN];
    if (sweep_select(s, o->baseline, &cell, why)) {
        snprintf(err, ERR_LEN, "--baseline %.60s: %.180s", o->baseline, why);
        return -1;
    }
    *base = (long)cell;
    return 0;
}

static int render(const struct sweep *s, const struct report_sweep_opts *o, long base,
                  char *err)
{
    int rc = 0;
    if (o->format == FORMAT_JSON) {
        json_object *j = sweep_to_json(s);
        rc = j ? 0 : -1;
        if (j)
            puts(result_json_text(j));
        json_object_put(j);
        if (rc)
            snprintf(err, ERR_LEN, "out of memory");
    } else if (o->format == FORMAT_CSV) {
        rc = sweep_table_csv(stdout, s, base);
        if (rc)
            snprintf(err, ERR_LEN, "out of memory");
    } else {
        rc = sweep_table_text(stdout, s, base, err);
        if (rc == 0)
            sweep_capacity_text(stdout, s);
        if (rc == 0 && o->buckets[0])
            rc = sweep_buckets_text(stdout, s, o->buckets, err);
    }
    fflush(stdout);
    if (rc == 0 && o->output[0])
        rc = sweep_save(s, o->output, err);
    if (rc == 0 && o->plot[0])
        rc = sweep_plot_svg(o->plot, s, err);
    if (rc == 0 && o->html && o->html[0])
        rc = html_write_sweep(o->html, s, base, err);
    return rc;
}

int cmd_report_sweep(json_object *root, const char *path, const struct report_sweep_opts *o)
{
    static struct sweep s;
    char err[ERR_LEN] = "";
    int code = EXIT_OK;
    long base = -1;
    if (check_format(o, err)) {
        code = EXIT_USAGE;
    } else if (sweep_load_json(&s, root, err)) {
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, ERR_LEN, "%.100s: %.150s", path, why);
        code = EXIT_RUN_FAILED;
    } else if (baseline(&s, o, &base, err)) {
        code = EXIT_USAGE;
    } else if (render(&s, o, base, err)) {
        code = EXIT_RUN_FAILED;
    }
    sweep_free(&s);
    if (code != EXIT_OK)
        fprintf(stderr, "rpcbench report: %s\n", err);
    return code;
}
