/* dist_single: dist.h for one process, the default build (without MPI):
 * its calls are the plain ones (dist_mpi.c is the MPI build's). */
#ifndef RPCBENCH_MPI
#include "dist/dist.h"

#include <stdio.h>
#include <stdlib.h>

#include "client/measured_run.h"

const char *dist_build(void)
{
    return "without MPI";
}

/* The launchers' variables, and the value above which they mean more
 * than one process: a job size above 1, or a rank above 0 (the other
 * processes of a job). Slurm's SLURM_NTASKS is also set in a batch script
 * that is no job step, so for Slurm the step's own size counts. */
static const struct {
    const char *name;
    long above;
} launch_vars[] = {
    {"OMPI_COMM_WORLD_SIZE", 1}, {"PMI_SIZE", 1},  {"SLURM_STEP_NUM_TASKS", 1},
    {"OMPI_COMM_WORLD_RANK", 0}, {"PMI_RANK", 0},  {"PMIX_RANK", 0},
    {"SLURM_PROCID", 0},
};

const char *dist_foreign_launch(void)
{
    static char seen[96];
    for (size_t i = 0; i < sizeof launch_vars / sizeof launch_vars[0]; i++) {
        const char *v = getenv(launch_vars[i].name);
        if (v && atol(v) > launch_vars[i].above) {
            snprintf(seen, sizeof seen, "%s=%.40s", launch_vars[i].name, v);
            return seen;
        }
    }
    return NULL;
}

int dist_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int dist_finish(int code)
{
    return code;
}

int dist_rank(void)
{
    return 0;
}

int dist_size(void)
{
    return 1;
}

void dist_set_rank_output(const char *prefix)
{
    (void)prefix;
}

void dist_set_server_host(const char *host)
{
    (void)host;
}

int dist_spawn_server(const struct run_config *cfg, struct child_server *cs, char *err)
{
    return measured_run_spawn_server(cfg, cs, err);
}

int dist_measured_run(const struct run_config *cfg, const struct run_hooks *hooks,
                      const struct child_server *cs, struct run_result *res, char *err)
{
    return measured_run(cfg, hooks, cs, res, err);
}
#else
/* ISO C forbids an empty translation unit. */
typedef int dist_single_unused;
#endif
