/* sweep_cell: one run of one sweep cell (cmd_sweep.h): the simulator it
 * needs, its progress line with the time left, and its result into the
 * cell. Called by the grid (cmd_sweep.c) and the searches (sweep_find.c),
 * and calls neither. */
#include <stdio.h>

#include "base/clock.h"
#include "base/units.h"
#include "drive/round.h"
#include "cli/cmd_sweep.h"
#include "dist/dist.h"

static const struct child_server *server_for(struct sweep_cmd *c, const struct run_config *cfg,
                                             char *err)
{
    if (cfg->url[0])
        return NULL;
    for (size_t i = 0; i < c->nservers; i++)
        if (c->servers[i].vms == cfg->vms)
            return &c->servers[i].cs;
    struct sweep_server *sv = &c->servers[c->nservers];
    if (dist_spawn_server(cfg, &sv->cs, err))
        return NULL;
    sv->vms = cfg->vms;
    c->nservers++;
    return &sv->cs;
}

/* "about 1m20s left": the runs to go at the mean time a run took so far
 * (before the first: its warmup and duration, plus a little). */
static void time_left(const struct sweep_cmd *c, const struct run_config *cfg, char *out,
                      size_t len)
{
    if (!c->runs_total) {
        out[0] = '\0';
        return;
    }
    int64_t per = cfg->warmup_ns + cfg->duration_ns + NS_PER_S / 2;
    if (c->runs_done)
        per = (clock_now_ns() - c->t0_ns) / (int64_t)c->runs_done;
    char d[32];
    int64_t left = per * (int64_t)(c->runs_total - c->runs_done);
    units_format_duration((left + NS_PER_S / 2) / NS_PER_S * NS_PER_S, d, sizeof d);
    snprintf(out, len, "; about %s left", d);
}

int sweep_run_cell(struct sweep_cmd *c, size_t cell, const struct run_config *cfg,
                   const char *what, char *err)
{
    static struct run_result res; /* large; moved into the sweep after */
    if (drive_sigint_seen())
        return drive_sigint_seen();
    const struct child_server *cs = server_for(c, cfg, err);
    if (!cs && !cfg->url[0])
        return -1;
    if (!c->runs_done)
        c->t0_ns = clock_now_ns();
    char left[64], line[400], prefix[96], params[200];
    time_left(c, cfg, left, sizeof left);
    sweep_params_text(&c->s.cells[cell].p, SWEEP_P_ALL, params, sizeof params);
    snprintf(line, sizeof line, "sweep %s: %s%s", what, params, left);
    snprintf(prefix, sizeof prefix, "%.90s", what);
    char name[64];
    struct fold *fold = NULL;
    snprintf(name, sizeof name, "cell%zu.r%zu", cell + 1, c->s.cells[cell].nreps + 1);
    struct round_tag tag = {.line = line, .prefix = prefix, .labels = {.cell = (int)cell},
                            .profile = &c->o->profile, .profile_name = name, .fold = &fold};
    int rc = drive_round(cfg, cs, &tag, c->o->hdr_log[0] ? &c->hdr : NULL, &res, err);
    fold_free(fold); /* the cell keeps its summary, --profile-out the stacks */
    c->runs_done++;
    if (rc >= 0 && sweep_add_rep(&c->s, cell, &res)) {
        snprintf(err, ERR_LEN, "out of memory");
        rc = -1;
    }
    result_free(&res); /* a no-op once moved */
    return rc == 0 && drive_sigint_seen() ? drive_sigint_seen() : rc;
}
