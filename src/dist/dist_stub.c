/* dist without MPI (the default build): one process, dist.h's calls are
 * the plain ones. */
#ifndef RPCBENCH_MPI
#include "dist/dist.h"

#include "client/measured_run.h"

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

int dist_measured_run(const struct run_config *cfg, const struct child_server *cs,
                      struct run_result *res, char *err)
{
    return measured_run(cfg, cs, res, err);
}
#else
/* ISO C forbids an empty translation unit. */
typedef int dist_stub_unused;
#endif
