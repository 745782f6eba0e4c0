/* pysample: the Python sampler (issue 37), the --profile-mode python
 * profiler. On CPython 3.11 perf sees only the interpreter's C functions;
 * this reads the interpreter's own frames from outside the process
 * (process_vm_readv; nothing is injected, the server is never stopped).
 * A thread of rpcbench ticks about hz times a second (jittered, so that
 * it never locks into step with a paced load). Each tick reads the
 * server's CPU (its process CPU clock, which counts threads that ended
 * too) and each thread's state (/proc/PID/task/TID/stat), and records the
 * Python stack of each thread on a CPU now (state R while the process ran
 * since the last tick; its PyThreadState's native_thread_id is the TID):
 * a thread that is not running is sampled nothing, so the profile is CPU,
 * not wall time.
 * Folding (fold.h) keeps the measured window only, as perf's samples are,
 * and weighs each stack by its share of the window's samples times the
 * CPU ns the server's threads ran in it: "module.func;module.callee NS",
 * whose total is the server's CPU. (Charging each tick's CPU delta to the
 * stack shown at the tick would not do: a call that burns 4 ms and then
 * waits in select() would have its CPU charged to select().) Threads
 * with no Python frame and stacks that could not be read are sampled
 * under names of their own. */
#ifndef RPCBENCH_PYSAMPLE_H
#define RPCBENCH_PYSAMPLE_H

#include <stdint.h>
#include <sys/types.h>

#include "profile/fold.h"

#define PYSAMPLE_NO_PYTHON "[no Python frame]"
#define PYSAMPLE_NOT_PYTHON "[not Python]"
#define PYSAMPLE_UNREADABLE "[stack unreadable]"
#define PYSAMPLE_UNSEEN "[CPU between samples]"

struct pysample;

/* @return 1 when pid runs CPython (its executable or a mapped library is
 * python3.N or libpython3.N.so), else 0: --profile-mode auto's test. */
int pysample_is_python(pid_t pid);
/* Starts sampling pids (n of them; those that are not CPython have their
 * CPU charged to PYSAMPLE_NOT_PYTHON) at hz, recording into the file
 * path (created). Before anything runs it checks that at least one is
 * CPython of a version this build knows and that its memory can be read.
 * @return a sampler (pysample_stop, then pysample_free), or NULL with err
 * (ERR_LEN, one line: not CPython, the version unknown and the known
 * ones, reading refused and kernel.yama.ptrace_scope). */
struct pysample *pysample_start(const pid_t *pids, size_t n, int hz, const char *path,
                                char *version, char *err);
/* Stops the sampling thread. *cpu_ms gets its own CPU time over its life
 * (pysample_fold: over a window).
 * @return 0, or -1 with err (the record could not be written). */
int pysample_stop(struct pysample *s, double *cpu_ms, char *err);
/* What one window held, besides its stacks. */
struct pysample_window {
    int64_t samples;        /* the running threads' stacks sampled in it */
    int64_t outside;        /* those left out, before or after it */
    double own_cpu_ms;      /* the sampler's own CPU in it (-1: unknown) */
};

/* Folds the samples recorded within (t0_ns, t1_ns] into f, weighted so
 * that they add up to the CPU ns the server ran there (PYSAMPLE_UNSEEN
 * holds it all when no thread was seen running), and fills *out.
 * @return 0, or -1 with err. */
int pysample_fold(const struct pysample *s, int64_t t0_ns, int64_t t1_ns, struct fold *f,
                  struct pysample_window *out, char *err);
/* Stops the thread when still running and frees s (NULL: nothing). */
void pysample_free(struct pysample *s);

#endif
