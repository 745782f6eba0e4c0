/* child: the profiler's processes. A profiler is started as a child of
 * rpcbench (it dies with rpcbench: PR_SET_PDEATHSIG), its output to a log
 * file, and stopped by a signal with a bounded wait, its own CPU taken
 * from its rusage; a post-processor (perf script) is read through a pipe. */
#ifndef RPCBENCH_CHILD_H
#define RPCBENCH_CHILD_H

#include <stdio.h>
#include <sys/types.h>

/* Starts argv (NULL-ended, argv[0] searched in PATH) with stdin from
 * /dev/null and stdout and stderr appended to log; group: in a process
 * group of its own, which child_stop signals whole (a shell's commands).
 * @return its pid, or -1 with err (ERR_LEN). */
pid_t child_start(const char *const *argv, const char *log, int group, char *err);
/* Sends sig (0: none) to pid's process group when it leads one, else to
 * pid (once), waits up to wait_ms for it to end, then
 * SIGKILLs and reaps it. *cpu_ms (may be NULL) gets its user + system CPU.
 * @return its exit status as a shell says it (0..255, 128+N for signal N),
 * or -1 when it had to be killed. */
int child_stop(pid_t pid, int sig, int wait_ms, double *cpu_ms);
/* Starts argv with its stdout on a pipe (stderr appended to log):
 * @return the pipe's read end as a FILE (the caller's: child_close it)
 * with *pid set, or NULL with err. */
FILE *child_read(const char *const *argv, const char *log, pid_t *pid, char *err);
/* Closes in and reaps pid (waits up to wait_ms, then SIGKILL).
 * @return as child_stop. */
int child_close(FILE *in, pid_t pid, int wait_ms);
/* @return 1 when the child pid has ended (it is left to reap), else 0. */
int child_exited(pid_t pid);
/* @return 1 when the executable name is found in PATH (or is a path
 * that can be executed), else 0. */
int child_in_path(const char *name);

#endif
