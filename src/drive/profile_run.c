/* profile_run: see profile_run.h. */
#include "drive/profile_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "proc/proctree.h"

int drive_profile_alone(const struct profile_opts *o, const char *what, char *err)
{
    if (!o->on || dist_size() <= 1)
        return 0;
    snprintf(err, ERR_LEN, "--profile: not under mpirun (the profiler runs beside one "
             "process); profile a %s of one process", what);
    return -1;
}

/* --server-name's one process tree as it is now, into pids (at most
 * max): its head first, then its descendants. @return how many, or -1
 * with err (no tree, several, or out of memory). */
static long tree_pids(const char *name, pid_t *pids, size_t max, char *err)
{
    struct proctree_proc *t = malloc(PROCTREE_MAX * sizeof *t);
    pid_t root;
    long n = -1;
    if (!t)
        snprintf(err, ERR_LEN, "--profile: out of memory");
    else if (proctree_find_one(name, t, PROCTREE_MAX, &root, err) == 0) {
        long listed = proctree_list("/proc", name, t, PROCTREE_MAX);
        n = listed < 0 ? 0 : (long)proctree_members(t, (size_t)listed, root, pids, max);
        if (n == 0)
            snprintf(err, ERR_LEN, "--server-name %.64s: its process %d is gone", name,
                     (int)root);
        n = n ? n : -1;
    } else {
        char why[ERR_LEN];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, ERR_LEN, "--server-name: %.200s", why);
    }
    free(t);
    return n;
}

/* The pids to profile: --server-pid's, else --server-name's tree, else the
 * built-in simulator's (*simulator set). @return how many, or -1 with err. */
static long profiled_pids(const struct run_config *cfg, const struct child_server *cs,
                          pid_t *pids, int *simulator, char *err)
{
    *simulator = 0;
    if (cfg->nserver_pids) {
        memcpy(pids, cfg->server_pids, cfg->nserver_pids * sizeof *pids);
        return (long)cfg->nserver_pids;
    }
    if (cfg->server_name[0])
        return tree_pids(cfg->server_name, pids, RUN_MAX_PIDS, err);
    if (cs && cs->pid > 0) {
        *simulator = 1;
        pids[0] = cs->pid;
        return 1;
    }
    snprintf(err, ERR_LEN, "--profile: no server to profile: give --server-pid P or "
             "--server-name NAME");
    return -1;
}

int drive_profile_start(const struct profile_opts *o, const struct run_config *cfg,
                      const struct child_server *cs, struct profile_session *ps,
                      struct run_hooks *hooks, char *err)
{
    pid_t pids[RUN_MAX_PIDS];
    int simulator;
    memset(ps, 0, sizeof *ps);
    if (!o->on)
        return 0;
    long n = profiled_pids(cfg, cs, pids, &simulator, err);
    if (n < 0)
        return -1;
    if (profile_begin(ps, o, pids, (size_t)n, simulator, err))
        return -1;
    hooks->on_window = profile_window;
    hooks->window_ctx = ps;
    return 0;
}

struct fold *drive_profile_finish(struct profile_session *ps, struct run_result *res,
                                const char *name, int keep)
{
    char err[ERR_LEN];
    struct fold *kept = NULL;
    if (!ps->o)
        return NULL;
    if (profile_end(ps, res, name, err)) {
        fprintf(stderr, "rpcbench: %s\n", err);
        result_warn(res, "no profile: %s", err);
        res->profile.lost = 1;
    } else if (keep) {
        kept = ps->fold;
        ps->fold = NULL;
    }
    profile_free(ps);
    return kept;
}
