/* `rpcbench report`: re-render saved results, or merge several (e.g. the
 * files of clients that ran side by side) into one report.
 *
 * Buckets and percentiles come from the saved histograms, never from the
 * rounded figures, so `--buckets 1,2,5` on a saved file gives what the run
 * itself would have printed with those edges. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exit_code.h"
#include "cli/cli_args.h"
#include "cli/cli_verdict.h"
#include "cli/cmd_report_sweep.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "report/plot.h"
#include "report/recording_doc.h"
#include "report/verdict_files.h"
#include "model/result_json.h"
#include "model/reqlog_read.h"
#include "model/recording.h"
#include "model/result_merge.h"
#include "model/sweep_json.h"
#include "stats/hlog_merge.h"

struct report_opts {
    enum out_format format;
    char buckets[256];       /* empty: as saved; as large as run_config's */
    double pcts[RUN_MAX_PCTS];
    size_t npcts;            /* 0: as saved */
    int profile_top;         /* --profile-top (0: as saved) */
    char plot[512];
    char html[512];          /* --html FILE */
    char output[512];
    struct cond_list thresholds; /* --threshold */
    char junit[512];         /* --junit FILE */
    char baseline[256];      /* --baseline SPEC: a saved sweep's cell */
    char hdr_log[512];       /* --hdr-log FILE: the merged interval log */
    char requests_log[512];  /* --requests-log FILE: the input, instead of files */
    char **files;
    int nfiles;
    int hlogs;               /* the inputs are interval logs */
};

/* Saved results and interval logs do not mix, and each takes its own
 * options. */
static int check_kinds(struct report_opts *ro, char *err)
{
    ro->hlogs = hlog_is_log(ro->files[0]);
    for (int i = 1; i < ro->nfiles; i++) {
        if (hlog_is_log(ro->files[i]) != ro->hlogs) {
            snprintf(err, ERR_LEN, "%.150s: interval logs (.hlog) and saved results (.json) "
                     "cannot be merged together", ro->files[i]);
            return -1;
        }
    }
    const char *stray = !ro->hlogs ? (ro->hdr_log[0] ? "--hdr-log" : NULL)
                        : ro->output[0] ? "--output" : ro->plot[0] ? "--plot"
                        : ro->buckets[0] ? "--buckets" : ro->npcts ? "--percentiles"
                        : ro->thresholds.n ? "--threshold" : ro->junit[0] ? "--junit"
                        : ro->format != FORMAT_TEXT ? "--format" : NULL;
    if (stray) {
        snprintf(err, ERR_LEN, "%s does not apply to %s", stray,
                 ro->hlogs ? "interval logs (.hlog)" : "saved results (it takes .hlog inputs)");
        return -1;
    }
    return 0;
}

/* What report takes of the options parsed from the table: --buckets and
 * --percentiles only when given (else the saved ones). */
static void from_options(const struct options *o, struct report_opts *ro)
{
    memset(ro, 0, sizeof *ro);
    ro->format = o->format;
    if (options_given(o, "buckets"))
        snprintf(ro->buckets, sizeof ro->buckets, "%s", o->cfg.buckets);
    if (options_given(o, "percentiles")) {
        memcpy(ro->pcts, o->cfg.pcts, sizeof ro->pcts);
        ro->npcts = o->cfg.npcts;
    }
    if (options_given(o, "profile-top"))
        ro->profile_top = o->profile.top;
    snprintf(ro->plot, sizeof ro->plot, "%s", o->plot);
    snprintf(ro->html, sizeof ro->html, "%s", o->html);
    snprintf(ro->output, sizeof ro->output, "%s", o->output);
    snprintf(ro->junit, sizeof ro->junit, "%s", o->junit);
    snprintf(ro->baseline, sizeof ro->baseline, "%s", o->baseline);
    snprintf(ro->hdr_log, sizeof ro->hdr_log, "%s", o->hdr_log);
    snprintf(ro->requests_log, sizeof ro->requests_log, "%s", o->requests_log);
    ro->thresholds = o->thresholds;
    ro->files = o->positional;
    ro->nfiles = o->npositional;
}

/* The options (option_rows.c's report rows; options_parse checks the
 * outputs), then the files. @return 0, 1 after --help, -1 with err on bad
 * usage. */
static int parse(int argc, char **argv, struct report_opts *ro, char *err)
{
    static struct options o; /* large: off the stack */
    int rc = options_parse(argc, argv, CMD_REPORT, NULL, &o, err);
    if (rc)
        return rc;
    from_options(&o, ro);
    if (ro->requests_log[0]) { /* the one input */
        if (ro->nfiles || ro->hdr_log[0] || ro->baseline[0])
            snprintf(err, ERR_LEN, "--requests-log is read alone (no %s)",
                     ro->nfiles ? "saved results" : ro->hdr_log[0] ? "--hdr-log" : "--baseline");
        return ro->nfiles || ro->hdr_log[0] || ro->baseline[0] ? -1 : 0;
    }
    if (ro->nfiles < 1) {
        snprintf(err, ERR_LEN, "give at least one saved result (FILE.json)");
        return -1;
    }
    for (int i = 0; i < ro->nfiles; i++)
        if (cli_check_readable(NULL, ro->files[i], err))
            return -1;
    return check_kinds(ro, err);
}

/* Adds item to dst, a list joined by sep, unless it is there already. */
static void join(char *dst, size_t len, const char *item, const char *sep)
{
    size_t n = strlen(item), k = strlen(sep);
    if (!n)
        return;
    for (const char *p = dst; *p;) {
        const char *end = strstr(p, sep);
        size_t m = end ? (size_t)(end - p) : strlen(p);
        if (m == n && !strncmp(p, item, n))
            return;
        p = end ? end + k : p + m;
    }
    size_t used = strlen(dst);
    if (used + (used ? k : 0) + n < len)
        snprintf(dst + used, len - used, "%s%s", used ? sep : "", item);
}

/* The merged header describes every input, not only the first: targets,
 * encodings, labels and verbs of all, the longest planned duration. */
static void describe(struct run_result *m, const struct run_result *in)
{
    struct run_config *c = &m->cfg;
    join(m->target_url, sizeof m->target_url, in->target_url, " + ");
    join(c->encoding, sizeof c->encoding, in->cfg.encoding, "+");
    join(c->label, sizeof c->label, in->cfg.label, "+");
    for (size_t i = 0; i < in->cfg.nverbs; i++) {
        size_t j = 0;
        while (j < c->nverbs && strcmp(c->verbs[j].name, in->cfg.verbs[i].name))
            j++;
        if (j == c->nverbs && j < RUN_MAX_VERBS)
            c->verbs[c->nverbs++] = in->cfg.verbs[i];
    }
    if (in->cfg.duration_ns > c->duration_ns)
        c->duration_ns = in->cfg.duration_ns;
    if (in->cfg.url[0] && !c->url[0])
        snprintf(c->url, sizeof c->url, "%s", in->cfg.url); /* not all the simulator */
}

/* Appends "label 1.5s" (measured) to the list of inputs. */
static void name_input(char *list, size_t len, const struct run_result *in)
{
    size_t used = strlen(list);
    snprintf(list + used, len - used, "%s%.40s %.3gs", used ? ", " : "",
             in->cfg.label[0] ? in->cfg.label : in->cfg.encoding, in->duration_s);
}

static int by_time(const void *a, const void *b)
{
    double x = ((const struct interval_rec *)a)->t, y = ((const struct interval_rec *)b)->t;
    return (x > y) - (x < y);
}

/* Each file's measured window, for result_timing. @return 0, or -1 with
 * err (a file that does not load). */
static int read_windows(const struct report_opts *ro, double *start, double *dur, char *err)
{
    for (int i = 0; i < ro->nfiles; i++) {
        struct run_result one;
        int rc = result_load(&one, ro->files[i], err);
        start[i] = one.start_unix;
        dur[i] = one.duration_s;
        result_free(&one); /* freed on failure too (result_load's contract) */
        if (rc)
            return -1;
    }
    return 0;
}

/* Runs that never overlapped merge one after the other; runs that did,
 * side by side; a mix of both has no one honest reading. @return the
 * merge mode, or -1 with err (a usage error: the mix). */
static int merge_mode(const struct report_opts *ro, const double *start, const double *dur,
                      const size_t *order, enum result_timing t, char *err)
{
    if (t != RESULT_TIMING_MIXED)
        return t == RESULT_TIMING_APART ? RESULT_MERGE_CONSECUTIVE : RESULT_MERGE_CONCURRENT;
    double end = 0;
    for (int k = 0; k < ro->nfiles; k++) {
        size_t i = order[k];
        if (k > 0 && start[i] >= end) {
            snprintf(err, ERR_LEN, "%.80s started %ld s after the runs before it ended, while "
                     "others overlap: merge those first (report --output), then with it",
                     ro->files[i], (long)(start[i] - end));
            return -1;
        }
        end = fmax(end, start[i] + dur[i]);
    }
    return RESULT_MERGE_CONCURRENT; /* not reached: MIXED has a gap */
}

/* What the merged report says of how its files were merged. */
static void say_how(struct run_result *m, int n, const char *inputs, int mode, double common,
                    const double *start, const double *dur, const size_t *order)
{
    if (n < 2)
        return;
    if (mode == RESULT_MERGE_CONSECUTIVE) {
        double gap = start[order[1]] - (start[order[0]] + dur[order[0]]);
        result_warn(m, "merged from %d saved results (%s) as consecutive runs (no measured "
                    "windows overlap; %ld s apart): durations and server CPU added, rates not "
                    "summed", n, inputs, (long)gap);
        return;
    }
    result_warn(m, "merged from %d saved results (%s) as concurrent runs: counts summed, rate "
                "over the windows' span, latency from the merged histograms, per-interval "
                "p50/p99 the worst", n, inputs);
    if (m->start_unix > 0 && common < 0.9 * m->duration_s)
        result_warn(m, "the runs overlapped for %.1f s of their %.1f s span: side by side only "
                    "there; the server CPU per call reads low where one ran alone",
                    common, m->duration_s);
}

/* Loads every file into merged (initialised here: free it even on failure),
 * in start order. @return 0, -1 with err, or -2 with err (a usage error). */
static int load_all(const struct report_opts *ro, struct run_result *merged, char *err)
{
    char inputs[120] = ""; /* "long 3s, short 1.5s": each input's label and length */
    char undated[200] = "";  /* files with no start time */
    size_t n = (size_t)ro->nfiles, *order = calloc(n, sizeof *order);
    double *start = calloc(n, sizeof *start), *dur = calloc(n, sizeof *dur), common = 0;
    int mode = -1, rc = -1, usage = 0;
    memset(merged, 0, sizeof *merged); /* safe to result_free on any failure */
    if (!order || !start || !dur) {
        snprintf(err, ERR_LEN, "out of memory");
        goto out;
    }
    if (n > 1 && read_windows(ro, start, dur, err)) /* one file: nothing to line up */
        goto out;
    mode = merge_mode(ro, start, dur, order, result_timing(start, dur, n, order, &common), err);
    usage = mode < 0;
    if (usage || result_load(merged, ro->files[order[0]], err))
        goto out;
    name_input(inputs, sizeof inputs, merged);
    if (!(merged->start_unix > 0))
        join(undated, sizeof undated, ro->files[order[0]], ", ");
    rc = 0;
    for (size_t k = 1; rc == 0 && k < n; k++) {
        const char *path = ro->files[order[k]];
        struct run_result one;
        rc = result_load(&one, path, err);
        if (rc == 0) {
            describe(merged, &one);
            name_input(inputs, sizeof inputs, &one);
            if (!(one.start_unix > 0))
                join(undated, sizeof undated, path, ", ");
        }
        if (rc == 0 && result_merge(merged, &one, (enum result_merge)mode, err)) {
            char why[ERR_LEN];
            snprintf(why, sizeof why, "%s", err);
            snprintf(err, ERR_LEN, "%.100s: %.150s", path, why);
            rc = -1;
        }
        result_free(&one);
    }
    if (rc == 0) {
        /* inputs that ran side by side, or for different lengths, interleave */
        qsort(merged->intervals, merged->nintervals, sizeof *merged->intervals, by_time);
        say_how(merged, ro->nfiles, inputs, mode, common, start, dur, order);
        if (ro->profile_top)
            merged->profile.top = ro->profile_top;
        if (ro->nfiles > 1)
            merged->profile.taken = 0; /* one run's profile is not the merge's */
        if (ro->nfiles > 1 && undated[0])
            result_warn(merged, "no start time in %s (saved by an older rpcbench): intervals "
                        "merged at the same time since each run's start, not aligned by "
                        "absolute time", undated);
    }
out:
    free(order);
    free(start);
    free(dur);
    return rc == 0 ? 0 : usage ? -2 : -1;
}

static int emit(const struct report_opts *ro, const struct run_result *r,
                const struct verdict *v, char *err)
{
    int rc = verdict_write(stdout, ro->format, r, v, err);
    fflush(stdout);
    if (rc == 0 && ro->output[0])
        rc = verdict_save(ro->output, r, v, err);
    if (rc == 0 && ro->junit[0])
        rc = verdict_junit(ro->junit, "report", v, err);
    if (rc == 0 && ro->html[0])
        rc = verdict_html(ro->html, r, v, err);
    if (rc == 0 && ro->plot[0]) {
        const struct run_result *arms[1] = {r};
        const char *names[1] = {r->cfg.label[0] ? r->cfg.label : r->cfg.encoding};
        rc = plot_svg(ro->plot, arms, names, 1, err);
    }
    return rc;
}

/* A saved sweep is the only file, without the options of a run's report.
 * @return EXIT_OK with *done 0 when root is no sweep (and no --baseline),
 * else, with *done set, the exit code (EXIT_USAGE: a sweep with options
 * it does not take, a --baseline without one; else cmd_report_sweep's). */
static int maybe_sweep(const struct report_opts *ro, json_object *root, int *done)
{
    char err[ERR_LEN] = "";
    *done = 1;
    if (!result_json_is_sweep(root)) {
        *done = ro->baseline[0] != 0;
        if (*done)
            snprintf(err, ERR_LEN, "--baseline: only for a saved sweep (%.100s is none)",
                     ro->files[0]);
    } else if (ro->nfiles > 1) {
        snprintf(err, ERR_LEN, "a saved sweep is reported alone (%.100s)", ro->files[0]);
    } else if (ro->thresholds.n || ro->npcts) {
        snprintf(err, ERR_LEN, "%s: not for a saved sweep",
                 ro->npcts ? "--percentiles" : "--threshold");
    } else {
        struct report_sweep_opts so = {ro->format, ro->baseline, ro->buckets, ro->plot,
                                       ro->output, ro->html};
        return cmd_report_sweep(root, ro->files[0], &so);
    }
    if (err[0])
        fprintf(stderr, "rpcbench report: %s\n", err);
    return err[0] ? EXIT_USAGE : EXIT_OK;
}

/* .hlog inputs: merged by absolute interval start, a summary printed. */
static int merge_logs(const struct report_opts *ro, char *err)
{
    struct hlog_merge_info info;
    if (hlog_merge(ro->files, ro->nfiles, ro->hdr_log[0] ? ro->hdr_log : NULL, &info, err))
        return -1;
    char iso[40];
    result_format_start(info.start, iso, sizeof iso);
    printf("merged %d interval %s by absolute start: %ld intervals in, %ld out (slots of "
           "%.3f s from %s), total count %lld\n", ro->nfiles, ro->nfiles > 1 ? "logs" : "log",
           info.in, info.out, info.step, iso[0] ? iso : "-", (long long)info.total);
    if (info.censored > 0)
        printf("of them %lld lower bounds: censored waits of unfinished requests\n",
               (long long)info.censored);
    if (ro->hdr_log[0])
        printf("written to %s\n", ro->hdr_log);
    if (fflush(stdout) == 0)
        return 0;
    snprintf(err, ERR_LEN, "cannot write the summary to stdout");
    return -1;
}

/* A recording (`rpcbench record --out`): its own summary, in text, alone.
 * @return the exit status. */
static int report_recording(const struct report_opts *ro)
{
    static struct recording rec;
    struct doc_kv kv;
    struct doc_table t;
    struct doc_table_style st;
    char err[ERR_LEN] = "";
    int rc = EXIT_OK;
    if (ro->nfiles > 1 || ro->output[0] || ro->html[0] || ro->plot[0] || ro->junit[0] ||
        ro->thresholds.n) {
        fprintf(stderr, "rpcbench report: a recording is reported alone, as text\n");
        return EXIT_USAGE;
    }
    int loaded = recording_load(ro->files[0], &rec, err) == 0;
    if (!loaded || recording_doc(&rec, ro->files[0], &kv, &t, &st, err) < 0) {
        fprintf(stderr, "rpcbench report: %s\n", err);
        rc = EXIT_RUN_FAILED;
    } else {
        doc_kv_text(stdout, &kv);
        doc_table_text(stdout, &t, &st.text);
    }
    if (loaded) { /* the documents were built, in full or in part */
        doc_kv_free(&kv);
        doc_table_free(&t);
    }
    recording_free(&rec);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    static struct report_opts ro;
    static struct run_result r; /* large: keep it off the stack */
    static struct verdict v;
    char err[ERR_LEN] = "";
    int rc = parse(argc, argv, &ro, err);
    if (rc == 1)
        return EXIT_OK; /* --help, --version */
    if (rc < 0) {
        fprintf(stderr, "rpcbench report: %s\n", err);
        return EXIT_USAGE;
    }
    if (ro.nfiles && recording_is(ro.files[0]))
        return report_recording(&ro);
    if (ro.hlogs) {
        if (merge_logs(&ro, err)) {
            fprintf(stderr, "rpcbench report: %s\n", err);
            return EXIT_RUN_FAILED;
        }
        return EXIT_OK;
    }
    int done = 0;
    json_object *root = ro.requests_log[0] ? NULL : json_object_from_file(ro.files[0]);
    int code = ro.requests_log[0] ? EXIT_OK : maybe_sweep(&ro, root, &done);
    json_object_put(root);
    if (done)
        return code;
    rc = ro.requests_log[0] ? reqlog_load(ro.requests_log, &r, err) : load_all(&ro, &r, err);
    if (rc == -2) { /* runs that cannot be read as one: nothing printed */
        result_free(&r);
        fprintf(stderr, "rpcbench report: %s\n", err);
        return EXIT_USAGE;
    }
    if (rc == 0) {
        if (ro.buckets[0])
            snprintf(r.cfg.buckets, sizeof r.cfg.buckets, "%s", ro.buckets);
        if (ro.npcts) {
            memcpy(r.cfg.pcts, ro.pcts, ro.npcts * sizeof *ro.pcts);
            r.cfg.npcts = ro.npcts;
        }
        verdict_judge(&v, &ro.thresholds, &r);
        rc = emit(&ro, &r, &v, err);
    }
    result_free(&r);
    if (rc) {
        fprintf(stderr, "rpcbench report: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    return verdict_exit(&v, EXIT_OK); /* EXIT_CONDITION_FAILED: a condition failed */
}
