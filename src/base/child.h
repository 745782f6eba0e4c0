/* child: the one fork/exec/bounded-wait helper of the program: the
 * embedded server (client/spawn.c), the profilers and their
 * post-processors (profile/). A child dies with rpcbench
 * (PR_SET_PDEATHSIG), its output goes to a log file or a pipe, and it is
 * stopped by a signal with a bounded wait, its own CPU taken from its
 * rusage. */
#ifndef RPCBENCH_CHILD_H
#define RPCBENCH_CHILD_H

#include <stdio.h>
#include <sys/types.h>

#define CHILD_GROUP 1   /* in a process group of its own, which child_stop signals
                           whole (a shell's commands) */
#define CHILD_NO_INT 2  /* SIGINT ignored: the terminal's ^C is the parent's, which
                           stops the child when it has reported */

/* What to start and where its output goes. */
struct child_spec {
    const char *const *argv; /* NULL-ended, the caller's */
    const char *exe;         /* the file to run as is; NULL: argv[0], searched in PATH */
    const char *log;         /* stderr (and stdout unless piped) appended; NULL: /dev/null */
    int flags;               /* CHILD_GROUP, CHILD_NO_INT */
};

/* Starts s's program with stdin from /dev/null. out_fd NULL: its stdout
 * goes where its stderr goes; else it is a pipe whose read end (close-on-
 * exec, the caller's to close) is put in *out_fd. @return its pid (the
 * caller's: child_stop or child_close it), or -1 with err (ERR_LEN) and no
 * child. A program that cannot be started exits EXIT_CHILD_EXEC, its
 * reason in the log. */
pid_t child_spawn(const struct child_spec *s, int *out_fd, char *err);
/* Sends sig (0: none) to pid's process group when it leads one, else to
 * pid (once), waits up to wait_ms for it to end, then
 * SIGKILLs and reaps it. *cpu_ms (may be NULL) gets its user + system CPU.
 * @return its exit status as a shell says it (0..255, 128+N for signal N),
 * or -1 when it had to be killed. */
int child_stop(pid_t pid, int sig, int wait_ms, double *cpu_ms);
/* Starts argv (argv[0] searched in PATH) with its stdout on a pipe
 * (stderr appended to log): @return the pipe's read end as a FILE (the
 * caller's: child_close it) with *pid set, or NULL with err. */
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
