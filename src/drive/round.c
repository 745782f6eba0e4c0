/* drive/round: one run among many (round.h). */
#include "drive/round.h"
#include "drive/profile_run.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "drive/live_metrics.h"
#include "dist/dist.h"
#include "client/progress.h"

static volatile sig_atomic_t sigint_seen;

static void on_sigint(int sig)
{
    sigint_seen = sig;
}

void drive_catch_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL); /* a CI timeout: report what was measured too */
}

int drive_sigint_seen(void)
{
    return sigint_seen;
}

void drive_note_signal(int sig)
{
    sigint_seen = sig;
}

int drive_round(const struct run_config *cfg, const struct child_server *cs,
              const struct round_tag *tag, struct hdrlog_sink *hdr, struct run_result *res,
              char *err)
{
    drive_catch_sigint(); /* until the engine's loop takes SIGINT over */
    if (!cfg->quiet && tag->line[0])
        fprintf(stderr, "%s\n", tag->line);
    progress_set_prefix(tag->prefix);
    /* the run's intervals to hdr, dated by res->start_unix */
    struct run_hooks hooks =
        live_metrics_hooks(hdrlog_sink_next_run(hdr, res), cfg, &tag->labels);
    static struct profile_session ps;
    static const struct profile_opts off;
    int rc = drive_profile_start(tag->profile ? tag->profile : &off, cfg, cs, &ps, &hooks, err);
    if (rc == 0)
        rc = dist_measured_run(cfg, &hooks, cs, res, err); /* measured_run outside mpirun */
    else
        result_init(res, cfg); /* the caller frees it whatever happened */
    if (rc == 0) {
        live_metrics_run_done(res);
        hdrlog_sink_run_done(hdr, res); /* its failure waits for the close */
    }
    if (rc == 0 && tag->fold)
        *tag->fold = drive_profile_finish(&ps, res, tag->profile_name, 1);
    profile_free(&ps);
    drive_catch_sigint(); /* the engine let SIGINT go: a ^C is noted again */
    progress_set_prefix(NULL);
    if (rc)
        return -1;
    return res->interrupted; /* the signal, or 0 */
}
