/* `rpcbench run`: one fixed-rate, duration-bounded run and its report. */
#include <stdio.h>
#include <string.h>

#include "base/exit_code.h"
#include "cli/cli_verdict.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "drive/live_metrics.h"
#include "report/hdrlog_sink.h"
#include "report/plot.h"
#include "report/verdict_files.h"
#include "model/result_json.h"
#include "client/measured_run.h"
#include "client/reqlog.h"
#include "client/targets_file.h"
#include "encoders/encoder.h"
#include "drive/profile_run.h"
#include "dist/dist.h"

/* --targets FILE: read and checked before anything is sent (a usage
 * error names the file and line); the first target stands as cfg's url,
 * the longest of the hosts' stages= is the window unless -d is given, and
 * a host gets one connection unless -c is given.
 * @return 0 (tf filled, or empty without --targets), or -1 with err. */
/* @return 1 when every call of the run has its own period ("every"). */
static int all_periodic(const struct run_config *cfg)
{
    for (size_t i = 0; i < cfg->nverbs; i++)
        if (!cfg->verbs[i].every_ns)
            return 0;
    return cfg->nverbs > 0;
}

static int load_targets(struct run_config *cfg, const struct options *o, struct targets_file *tf,
                        char *err)
{
    memset(tf, 0, sizeof *tf);
    if (!cfg->targets_file[0])
        return 0;
    if (cfg->url[0] || cfg->nstages) {
        snprintf(err, ERR_LEN, "--targets: not with %s (each target's URL and rate are "
                 "its line's)", cfg->url[0] ? "--url" : "--stages");
        return -1;
    }
    const struct encoder *enc = enc_find(cfg->encoding);
    if (targets_file_read(cfg->targets_file, cfg->rate, enc->default_path, tf, err))
        return -1;
    if (cfg->rate <= 0) {
        snprintf(err, ERR_LEN, "--targets: --rate max (closed loop) has no schedule to give "
                 "each host: give a rate");
        return -1;
    }
    if (all_periodic(cfg))
        for (size_t i = 0; i < tf->n; i++)
            if (tf->t[i].own_rate) {
                snprintf(err, ERR_LEN, "--targets: %.60s:%d: every call of %.60s has its own "
                         "period (\"every\"): a line's rate= or stages= would set nothing",
                         cfg->targets_file, tf->t[i].line, cfg->workload);
                return -1;
            }
    snprintf(cfg->url, sizeof cfg->url, "%s", tf->t[0].url);
    /* a host's own stages: without -d the window is the longest ramp */
    if (targets_file_stages_ns(tf) && !options_given(o, "duration"))
        cfg->duration_ns = targets_file_stages_ns(tf);
    if (!options_given(o, "connections")) /* as oVirt's engine: one per host */
        cfg->connections = 1;
    return 0;
}

/* The result and its verdicts: --output, stdout, --junit. */
static int emit(const struct options *o, const struct run_result *res, const struct verdict *v,
                char *err)
{
    if (o->output[0] && verdict_save(o->output, res, v, err))
        return -1;
    if (verdict_write(stdout, o->format, res, v, err))
        return -1;
    return o->junit[0] ? verdict_junit(o->junit, "run", v, err) : 0;
}

/* --percentile-dist, --html and --plot, after the report. */
static int extras(const struct options *o, const struct run_result *res, const struct verdict *v,
                  char *err)
{
    if (o->pct_dist[0] && hdrlog_percentile_dist(o->pct_dist, &res->latency, err))
        return -1;
    if (o->html[0] && verdict_html(o->html, res, v, err))
        return -1;
    if (o->plot[0]) {
        const struct run_result *arms[1] = {res};
        const char *names[1] = {res->cfg.label};
        return plot_svg(o->plot, arms, names, 1, err);
    }
    return 0;
}

/* A per-verb --threshold names a verb this run sends. */
static int check_verbs(const struct options *o, const struct run_config *cfg, char *err)
{
    if (condition_check_verbs(&o->thresholds, cfg, err) == 0)
        return 0;
    cli_name_error("--threshold", err);
    return -1;
}

/* --hdr-log and --requests-log, opened before the run (*rl NULL without
 * it). @return 0, or -1 with err. */
static int open_logs(const struct options *o, struct hdrlog_sink *hdr, struct reqlog **rl,
                     char *err)
{
    if (o->hdr_log[0] && hdrlog_sink_open(hdr, o->hdr_log, err))
        return -1;
    *rl = o->requests_log[0] ? reqlog_open(o->requests_log, 0, err) : NULL;
    return o->requests_log[0] && !*rl ? -1 : 0;
}

/* Closes --requests-log once the run is over, before its report, which
 * says how many rows a full ring dropped. @return 0, or -1 with err. */
static int close_reqlog(struct reqlog *rl, struct run_result *res, int ran, char *err)
{
    int64_t dropped = 0;
    if (!rl)
        return 0;
    int rc = reqlog_close(rl, &dropped, err);
    if (ran && dropped)
        result_warn(res, "--requests-log dropped %lld of its rows: its writer fell behind the "
                    "run (the counts and percentiles here are whole)", (long long)dropped);
    return rc;
}

/* What was started before the run, stopped when the run cannot begin.
 * @return EXIT_RUN_FAILED, having said err. */
static int start_failed(struct child_server *cs, struct reqlog *rl, const char *err)
{
    char herr[ERR_LEN];
    spawn_stop(cs);
    close_reqlog(rl, NULL, 0, herr);
    fprintf(stderr, "rpcbench run: %s\n", err);
    return EXIT_RUN_FAILED;
}

/* A run's end: the live metrics told, the verdicts judged, the result
 * emitted with its extras, the --hdr-log closed. rc: the run's (0 ok).
 * @return 0, or -1 with err (the first failure). */
static int after_run(const struct options *o, struct run_result *res, struct verdict *v,
                     struct hdrlog_sink *hdr, int rc, char *err)
{
    char herr[ERR_LEN];
    if (rc == 0) {
        live_metrics_run_done(res);
        if (o->hdr_log[0])
            hdrlog_sink_run_done(hdr, res); /* its failure waits for the close */
        verdict_judge(v, &o->thresholds, res);
        rc = emit(o, res, v, err);
    }
    fflush(stdout);
    if (rc == 0)
        rc = extras(o, res, v, err);
    if (o->hdr_log[0] && hdrlog_sink_close(hdr, herr) && rc == 0) {
        snprintf(err, ERR_LEN, "%s", herr);
        rc = -1;
    }
    live_metrics_stop(o->metrics_linger_ns);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    static struct options o; /* large: keep it off the stack */
    struct run_config cfg;
    char err[ERR_LEN] = "";
    int rc = options_parse(argc, argv, CMD_RUN, NULL, &o, err);
    if (rc == 1)
        return EXIT_OK; /* --help, --version */
    static struct targets_file tf;
    if (rc < 0 || options_arm(&o, 0, &cfg, err) || check_verbs(&o, &cfg, err) ||
        load_targets(&cfg, &o, &tf, err) || drive_profile_alone(&o.profile, "run", err) ||
        profile_check(&o.profile, o.server_pid[0] || o.cfg.server_name[0], err)) {
        fprintf(stderr, "rpcbench run: %s\n", err);
        targets_file_free(&tf);
        return EXIT_USAGE;
    }
    options_distribute(&o);
    static struct hdrlog_sink hdr;
    struct reqlog *rl = NULL;
    char herr[ERR_LEN];
    struct child_server cs = {0};
    struct run_result res;
    static struct verdict v;
    static struct profile_session ps;
    if (open_logs(&o, &hdr, &rl, err) || live_metrics_start(o.metrics_listen, &o.cfg, err) ||
        (!cfg.url[0] && dist_spawn_server(&cfg, &cs, err)))
        return start_failed(&cs, rl, err);
    /* after live_metrics_start: its hook is given only once it is up; the
     * run's intervals to --hdr-log, dated by res.start_unix */
    struct run_hooks hooks =
        live_metrics_hooks(hdrlog_sink_next_run(o.hdr_log[0] ? &hdr : NULL, &res), &cfg, NULL);
    if (drive_profile_start(&o.profile, &cfg, &cs, &ps, &hooks, err))
        return start_failed(&cs, rl, err);
    hooks.reqlog = rl;
    hooks.targets = tf.n ? &tf : NULL;
    rc = dist_measured_run(&cfg, &hooks, &cs, &res, err);
    if (rc == 0)
        drive_profile_finish(&ps, &res, "run", 0);
    profile_free(&ps);
    spawn_stop(&cs);
    if (close_reqlog(rl, &res, rc == 0, rc ? herr : err) && rc == 0)
        rc = -1;
    rc = after_run(&o, &res, &v, &hdr, rc, err);
    int code = rc ? EXIT_RUN_FAILED : verdict_exit(&v, result_exit_code(&res));
    if (code == EXIT_OK && res.profile.lost) /* asked for, not delivered: said above */
        code = EXIT_RUN_FAILED;
    result_free(&res);
    targets_file_free(&tf);
    if (rc) {
        fprintf(stderr, "rpcbench run: %s\n", err);
        return EXIT_RUN_FAILED;
    }
    return code; /* a condition failed or no request succeeded (3); interrupted (130, 143) */
}
