/* perf: Linux perf as the built-in profiler. `perf record -e cpu-clock -g
 * -k mono` samples the server's pids (their threads too) with call
 * graphs; cpu-clock works in VMs without hardware counters, and the
 * CLOCK_MONOTONIC time stamps (the engine's clock) let the samples be
 * cut to exactly the measured window, whenever perf itself got going.
 * `perf script` then gives the stacks, folded here (fold.h). */
#ifndef RPCBENCH_PERF_H
#define RPCBENCH_PERF_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "profile/fold.h"

#define PERF_DEFAULT_HZ 99
#define PERF_MAX_PIDS 16 /* the first ones are sampled */

struct perf_rec {
    pid_t pid;          /* perf record; 0: not running */
    char data[300];     /* its perf.data */
    char log[300];      /* perf's own messages */
    int hz;
    int dwarf;          /* call graphs by DWARF unwinding, not frame pointers */
};

/* @return 0 when perf can sample a process here, or -1 with err (ERR_LEN):
 * one line saying what to install or set (perf missing, not root and
 * kernel.perf_event_paranoid above 1, perf_event_open refused: a
 * sandbox). */
int perf_check(char *err);
/* Starts perf record on pids (n of them) at hz, writing into dir (the
 * caller's, existing), with call graphs from frame pointers, or by DWARF
 * unwinding of a copy of each sample's stack when dwarf (libraries built
 * without frame pointers, as Debian's are), and waits (up to 3 s) until it
 * samples. @return 0, or -1 with err (nothing left running). */
int perf_start(struct perf_rec *p, const char *dir, const pid_t *pids, size_t n, int hz,
               int dwarf, char *err);
/* Stops perf record (SIGINT, so that it writes its file). *cpu_ms gets its
 * CPU (FIG_UNKNOWN, base/figure.h, when perf was not running). @return 0, or -1 with err (perf failed: its last message). */
int perf_stop(struct perf_rec *p, double *cpu_ms, char *err);
/* Folds the recorded samples stamped within [t0_ns, t1_ns]
 * (CLOCK_MONOTONIC) into f; *outside counts the others. The sampling
 * interrupt's own kernel frames are left out. @return 0, or -1 with err. */
int perf_fold(const struct perf_rec *p, int64_t t0_ns, int64_t t1_ns, struct fold *f,
              int64_t *outside, char *err);
/* Fills err (ERR_LEN) with "what: " and perf's last message line. */
void perf_message(const struct perf_rec *p, const char *what, char *err);

#endif
