/* cli_profile: see cli_profile.h. */
#include "cli/cli_profile.h"

#include <stdio.h>
#include <string.h>

#include "dist/dist.h"

int cli_profile_alone(const struct profile_opts *o, const char *what, char *err)
{
    if (!o->on || dist_size() <= 1)
        return 0;
    snprintf(err, ERR_LEN, "--profile: not under mpirun (the profiler runs beside one "
             "process); profile a %s of one process", what);
    return -1;
}

int cli_profile_start(const struct profile_opts *o, const struct run_config *cfg,
                      const struct child_server *cs, struct profile_session *ps,
                      struct run_hooks *hooks, char *err)
{
    pid_t pids[RUN_MAX_PIDS];
    size_t n = cfg->nserver_pids;
    memset(ps, 0, sizeof *ps);
    if (!o->on)
        return 0;
    memcpy(pids, cfg->server_pids, n * sizeof *pids);
    int simulator = !n && cs && cs->pid > 0;
    if (simulator)
        pids[n++] = cs->pid;
    if (!n) {
        snprintf(err, ERR_LEN, "--profile: no server to profile: give --server-pid P");
        return -1;
    }
    if (profile_begin(ps, o, pids, n, simulator, err))
        return -1;
    hooks->on_window = profile_window;
    hooks->window_ctx = ps;
    return 0;
}

struct fold *cli_profile_finish(struct profile_session *ps, struct run_result *res,
                                const char *name, int keep)
{
    char err[ERR_LEN];
    struct fold *kept = NULL;
    if (!ps->o)
        return NULL;
    if (profile_end(ps, res, name, err)) {
        fprintf(stderr, "rpcbench: %s\n", err);
        result_warn(res, "no profile: %s", err);
    } else if (keep) {
        kept = ps->fold;
        ps->fold = NULL;
    }
    profile_free(ps);
    return kept;
}
