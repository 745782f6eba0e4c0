/* sweep_runs: the runs of a sweep's cells (sweep_runs.h). */
#include "drive/sweep_runs.h"

#include <stdio.h>

#include "base/clock.h"
#include "base/units.h"
#include "dist/dist.h"
#include "drive/round.h"

static const struct child_server *server_for(struct sweep_runs *w, const struct run_config *cfg,
                                             char *err)
{
    if (cfg->url[0])
        return NULL;
    for (size_t i = 0; i < w->nservers; i++)
        if (w->servers[i].vms == cfg->vms)
            return &w->servers[i].cs;
    if (w->nservers == SWEEP_MAX_SERVERS) {
        snprintf(err, ERR_LEN, "more than %d --vms sizes", SWEEP_MAX_SERVERS);
        return NULL;
    }
    struct sweep_server *sv = &w->servers[w->nservers];
    if (dist_spawn_server(cfg, &sv->cs, err))
        return NULL;
    sv->vms = cfg->vms;
    w->nservers++;
    return &sv->cs;
}

/* "about 1m20s left": the runs to go at the mean time a run took so far
 * (before the first: its warmup and duration, plus a little). */
static void time_left(const struct sweep_runs *w, const struct run_config *cfg, char *out,
                      size_t len)
{
    if (!w->runs_total) {
        out[0] = '\0';
        return;
    }
    int64_t per = cfg->warmup_ns + cfg->duration_ns + NS_PER_S / 2;
    if (w->runs_done)
        per = (clock_now_ns() - w->t0_ns) / (int64_t)w->runs_done;
    char d[32];
    int64_t left = per * (int64_t)(w->runs_total - w->runs_done);
    units_format_duration((left + NS_PER_S / 2) / NS_PER_S * NS_PER_S, d, sizeof d);
    snprintf(out, len, "; about %s left", d);
}

int sweep_runs_cell(struct sweep_runs *w, size_t cell, const struct run_config *cfg,
                    const char *what, char *err)
{
    static struct run_result res; /* large; moved into the sweep after */
    if (drive_sigint_seen())
        return drive_sigint_seen();
    const struct child_server *cs = server_for(w, cfg, err);
    if (!cs && !cfg->url[0])
        return -1;
    if (!w->runs_done)
        w->t0_ns = clock_now_ns();
    char left[64], line[400], prefix[96], params[200];
    time_left(w, cfg, left, sizeof left);
    sweep_params_text(&w->s.cells[cell].p, SWEEP_P_ALL, params, sizeof params);
    snprintf(line, sizeof line, "sweep %s: %s%s", what, params, left);
    snprintf(prefix, sizeof prefix, "%.90s", what);
    char name[64];
    struct fold *fold = NULL;
    snprintf(name, sizeof name, "cell%zu.r%zu", cell + 1, w->s.cells[cell].nreps + 1);
    struct round_tag tag = {.line = line, .prefix = prefix, .labels = {.cell = (int)cell},
                            .profile = w->profile, .profile_name = name, .fold = &fold};
    int rc = drive_round(cfg, cs, &tag, w->hdr.f ? &w->hdr : NULL, &res, err);
    fold_free(fold); /* the cell keeps its summary, --profile-out the stacks */
    w->runs_done++;
    if (rc >= 0 && sweep_add_rep(&w->s, cell, &res)) {
        snprintf(err, ERR_LEN, "out of memory");
        rc = -1;
    }
    result_free(&res); /* a no-op once moved */
    return rc == 0 && drive_sigint_seen() ? drive_sigint_seen() : rc;
}

void sweep_runs_stop(struct sweep_runs *w)
{
    for (size_t i = 0; i < w->nservers; i++)
        spawn_stop(&w->servers[i].cs);
    w->nservers = 0;
    char herr[ERR_LEN];
    if (w->hdr.f && hdrlog_sink_close(&w->hdr, herr))
        fprintf(stderr, "rpcbench sweep: %s\n", herr);
}
