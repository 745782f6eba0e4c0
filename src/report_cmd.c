/* `rpcbench report`: re-render saved results, or merge several (e.g. the
 * files of clients that ran side by side) into one report.
 *
 * Buckets and percentiles come from the saved histograms, never from the
 * rounded figures, so `--buckets 1,2,5` on a saved file gives what the run
 * itself would have printed with those edges. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "buckets.h"
#include "commands.h"
#include "options.h"
#include "plot.h"
#include "report.h"
#include "result_json.h"

struct report_opts {
    enum out_format format;
    char buckets[256];       /* empty: as saved */
    double pcts[RUN_MAX_PCTS];
    size_t npcts;            /* 0: as saved */
    char plot[512];
    char output[512];
    char **files;
    int nfiles;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rpcbench report FILE.json [FILE.json ...] [options]\n"
            "  re-renders saved results (run --output) from their histograms; several files\n"
            "  are merged into one report (histograms merged, counts and rates summed)\n"
            "      --format F         text (default) | json | csv (one row per interval)\n"
            "      --buckets SPEC     auto | START:END:STEP (ms) | 1,2,5,10 (ms)\n"
            "      --percentiles L    e.g. 50,90,99,99.9\n"
            "      --plot FILE.svg    plots with gnuplot\n"
            "      --output FILE      the (merged) result as JSON\n");
}

static int copy(char *dst, size_t len, const char *opt, const char *s, char *err)
{
    if (strlen(s) >= len) {
        snprintf(err, ERR_LEN, "%s: value too long", opt);
        return -1;
    }
    memcpy(dst, s, strlen(s) + 1);
    return 0;
}

static int parse_format(const char *s, enum out_format *f, char *err)
{
    static const char *const names[] = {"text", "json", "csv"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *f = (enum out_format)i;
            return 0;
        }
    snprintf(err, ERR_LEN, "--format: unknown value '%.64s' (text, json, csv)", s);
    return -1;
}

/* @return 0, 1 after --help, -1 with err on bad usage. */
static int parse(int argc, char **argv, struct report_opts *ro, char *err)
{
    static const struct option longs[] = {
        {"format", required_argument, NULL, 'f'}, {"buckets", required_argument, NULL, 'b'},
        {"percentiles", required_argument, NULL, 'p'}, {"plot", required_argument, NULL, 'P'},
        {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(ro, 0, sizeof *ro);
    optind = 1;
    opterr = 0;
    int opt, rc = 0;
    double edges[BUCKETS_MAX];
    while (rc == 0 && (opt = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return 1;
        case 'f': rc = parse_format(optarg, &ro->format, err); break;
        case 'b':
            rc = copy(ro->buckets, sizeof ro->buckets, "--buckets", optarg, err);
            if (rc == 0 && buckets_edges(ro->buckets, NULL, 0, edges, err) < 0)
                rc = -1;
            break;
        case 'p': rc = units_parse_list(optarg, ro->pcts, RUN_MAX_PCTS, &ro->npcts, err); break;
        case 'P': rc = copy(ro->plot, sizeof ro->plot, "--plot", optarg, err); break;
        case 'o': rc = copy(ro->output, sizeof ro->output, "--output", optarg, err); break;
        default:
            snprintf(err, ERR_LEN, "%s option '%s' (see --help)",
                     opt == ':' ? "missing value for" : "unknown", argv[optind - 1]);
            rc = -1;
        }
    }
    for (size_t i = 0; rc == 0 && i < ro->npcts; i++)
        if (ro->pcts[i] < 0 || ro->pcts[i] > 100) {
            snprintf(err, ERR_LEN, "--percentiles: %g is not in 0..100", ro->pcts[i]);
            rc = -1;
        }
    ro->files = argv + optind;
    ro->nfiles = argc - optind;
    if (rc == 0 && ro->nfiles < 1) {
        snprintf(err, ERR_LEN, "give at least one saved result (FILE.json)");
        rc = -1;
    }
    return rc;
}

/* Loads every file into merged (initialised here: free it even on failure). */
static int load_all(const struct report_opts *ro, struct run_result *merged, char *err)
{
    if (result_load(merged, ro->files[0], err))
        return -1;
    for (int i = 1; i < ro->nfiles; i++) {
        struct run_result one;
        int rc = result_load(&one, ro->files[i], err);
        if (rc == 0 && result_merge(merged, &one, RESULT_MERGE_CONCURRENT, err)) {
            char why[ERR_LEN];
            snprintf(why, sizeof why, "%s", err);
            snprintf(err, ERR_LEN, "%.100s: %.150s", ro->files[i], why);
            rc = -1;
        }
        result_free(&one);
        if (rc)
            return -1;
    }
    if (ro->nfiles > 1)
        result_warn(merged, "merged from %d saved results: counts and rates summed, latency "
                    "from the merged histograms, per-interval p50/p99 the worst of them",
                    ro->nfiles);
    return 0;
}

static int emit(const struct report_opts *ro, const struct run_result *r, char *err)
{
    int rc = 0;
    switch (ro->format) {
    case FORMAT_JSON: {
        json_object *j = result_to_json(r);
        puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
        json_object_put(j);
        break;
    }
    case FORMAT_CSV: report_csv(stdout, r); break;
    default: rc = report_text(stdout, r, err); break;
    }
    fflush(stdout);
    if (rc == 0 && ro->output[0])
        rc = result_save(r, ro->output, err);
    if (rc == 0 && ro->plot[0]) {
        const struct run_result *arms[1] = {r};
        const char *names[1] = {r->cfg.label[0] ? r->cfg.label : r->cfg.proto};
        rc = plot_svg(ro->plot, arms, names, 1, err);
    }
    return rc;
}

int cmd_report(int argc, char **argv)
{
    static struct report_opts ro;
    static struct run_result r; /* large: keep it off the stack */
    char err[ERR_LEN] = "";
    int rc = parse(argc, argv, &ro, err);
    if (rc == 1)
        return 0;
    if (rc < 0) {
        fprintf(stderr, "rpcbench report: %s\n", err);
        return 2;
    }
    rc = load_all(&ro, &r, err);
    if (rc == 0) {
        if (ro.buckets[0])
            snprintf(r.cfg.buckets, sizeof r.cfg.buckets, "%s", ro.buckets);
        if (ro.npcts) {
            memcpy(r.cfg.pcts, ro.pcts, ro.npcts * sizeof *ro.pcts);
            r.cfg.npcts = ro.npcts;
        }
        rc = emit(&ro, &r, err);
    }
    result_free(&r);
    if (rc) {
        fprintf(stderr, "rpcbench report: %s\n", err);
        return 1;
    }
    return 0;
}
