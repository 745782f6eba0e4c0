/* session: the server's profile over one run's measured window (issue
 * 27), by Linux perf (perf.h) or by a --profiler command, folded
 * (fold.h) and summed up into the result (model/profile_sum.h): each
 * function's share of the window's samples times the run's measured
 * CPU-ms per call. One session per run (a compare has one per arm and
 * round). */
#ifndef RPCBENCH_SESSION_H
#define RPCBENCH_SESSION_H

#include <stdint.h>
#include <sys/types.h>

#include "model/run_result.h"
#include "profile/fold.h"
#include "profile/perf.h"
#include "profile/pysample.h"

/* --profile-call-graph: auto is DWARF for the built-in simulator (its
 * time goes into xmlrpc-c, json-c and libc, built without frame
 * pointers), frame pointers for a --server-pid (DWARF copies 8 KB of stack
 * per sample). The order is the option's choices'. */
enum profile_call_graph { PROFILE_CG_AUTO, PROFILE_CG_FP, PROFILE_CG_DWARF };

/* --profile-mode: which sampler. auto is python when the server runs
 * CPython (pysample.h: perf sees only the interpreter's C functions
 * there), else perf. The order is the option's choices'. */
enum profile_mode { PROFILE_MODE_AUTO, PROFILE_MODE_PERF, PROFILE_MODE_PYTHON };

/* The profile options (--profile, --profile-out, --profile-top,
 * --profiler, --profile-saturated, --profile-call-graph, --profile-freq),
 * the command line's. */
struct profile_opts {
    int on;                 /* --profile or --profiler given */
    char out_dir[512];      /* --profile-out DIR ("" none) */
    int top;                /* --profile-top N */
    char cmd[1024];         /* --profiler CMD ("" perf) */
    int saturated_ok;       /* --profile-saturated */
    int saved;              /* report: a saved profile is shown, none taken */
    int call_graph;         /* enum profile_call_graph */
    int hz;                 /* --profile-freq: perf's samples per second */
    int mode;               /* --profile-mode: enum profile_mode */
};

struct profile_session {
    const struct profile_opts *o;
    char tmp[64];           /* our temporary directory ("" none) */
    struct perf_rec perf;
    struct pysample *py;    /* the Python sampler, when it runs (else perf) */
    char py_version[16];    /* the CPython it reads ("3.11") */
    int interpreter;        /* perf samples a CPython server (the report says
                               its Python frames are not visible) */
    pid_t cmd_pid;          /* --profiler's shell; 0 none */
    double cmd_cpu_ms;
    char cmd_out[128];      /* its {out} */
    pid_t pids[PERF_MAX_PIDS];
    size_t npids;
    int64_t from_ns, to_ns; /* the window, once closed (to_ns 0: never) */
    int failed;             /* the --profiler could not start */
    char err[ERR_LEN];      /* why */
    struct fold *fold;      /* profile_end's: the window's stacks */
};

/* Checks, before anything is sent, that o can be honoured: perf usable
 * (perf_check's one line) when it is perf that will sample (server: a
 * --server-pid or --server-name is given, which --profile-mode auto may
 * find to be CPython: then profile_begin checks), a --profiler with
 * {out}, a --profile-out directory that can be made. @return 0, or -1
 * with err. */
int profile_check(const struct profile_opts *o, int server, char *err);
/* Starts a session on the server's pids (n > 0; the first PERF_MAX_PIDS):
 * perf or the Python sampler (--profile-mode; auto: python when the first
 * pid runs CPython, and not the simulator) starts sampling now (its
 * samples are cut to the window later); a
 * --profiler starts when the window opens. simulator: the pids are the
 * built-in simulator's (--profile-call-graph auto picks DWARF). s is the
 * caller's (zeroed here). @return 0, or -1 with err (nothing left
 * running). */
int profile_begin(struct profile_session *s, const struct profile_opts *o, const pid_t *pids,
                  size_t n, int simulator, char *err);
/* The engine's run_hooks.on_window, with ctx the session. */
void profile_window(void *ctx, int end, int64_t from_ns, int64_t to_ns);
/* Ends the session after the run: stops the profiler, folds the window's
 * stacks (s->fold, the session's until profile_free), writes them to
 * --profile-out's DIR/name.folded, and fills res->profile from them and
 * res's CPU per call (and its saturation). @return 0, or -1 with err
 * (the profiler failed: said, the run's figures stay good). */
int profile_end(struct profile_session *s, struct run_result *res, const char *name, char *err);
/* Stops whatever still runs, removes the temporary files, frees s->fold
 * (NULL it first to keep it). Safe on a zeroed session and twice. */
void profile_free(struct profile_session *s);

#endif
