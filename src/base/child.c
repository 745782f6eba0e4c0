/* child: see child.h. */
#include "base/child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/exit_code.h"

/* In the child: stdin from /dev/null, stdout to out_fd (or where stderr
 * goes), stderr to the log (or /dev/null); dies with its parent. Never
 * returns. */
static void exec_child(const struct child_spec *s, int out_fd)
{
    if (s->flags & CHILD_GROUP)
        setpgid(0, 0);
    if (s->flags & CHILD_NO_INT)
        signal(SIGINT, SIG_IGN);
    int nul = open("/dev/null", O_RDWR);
    int lg = s->log ? open(s->log, O_WRONLY | O_CREAT | O_APPEND, 0600) : nul;
    if (nul < 0 || lg < 0)
        _exit(EXIT_CHILD_EXEC);
    dup2(nul, 0);
    dup2(out_fd >= 0 ? out_fd : lg, 1);
    dup2(lg, 2);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (s->exe)
        execv(s->exe, (char *const *)s->argv);
    else
        execvp(s->argv[0], (char *const *)s->argv);
    dprintf(2, "%s: %s\n", s->exe ? s->exe : s->argv[0], strerror(errno));
    _exit(EXIT_CHILD_EXEC);
}

pid_t child_spawn(const struct child_spec *s, int *out_fd, char *err)
{
    int fd[2] = {-1, -1};
    if (out_fd && pipe2(fd, O_CLOEXEC) < 0) {
        snprintf(err, ERR_LEN, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, ERR_LEN, "fork: %s", strerror(errno));
        if (out_fd)
            close(fd[0]), close(fd[1]);
        return -1;
    }
    if (pid == 0)
        exec_child(s, fd[1]);
    if (out_fd) {
        close(fd[1]);
        *out_fd = fd[0];
    }
    return pid;
}

static int status_code(int st)
{
    return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

/* Reaps pid within wait_ms (then SIGKILL). @return its code, -1 killed. */
static int reap(pid_t pid, int wait_ms, double *cpu_ms)
{
    struct rusage ru;
    int st = 0, killed = 0;
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int waited = 0;; waited += 10) {
        pid_t r = wait4(pid, &st, WNOHANG, &ru);
        if (r == pid || (r < 0 && errno != EINTR))
            break;
        if (waited >= wait_ms && !killed) {
            kill(pid, SIGKILL);
            killed = 1;
        }
        nanosleep(&tick, NULL);
    }
    if (cpu_ms)
        *cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                  (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    return killed ? -1 : status_code(st);
}

int child_stop(pid_t pid, int sig, int wait_ms, double *cpu_ms)
{
    if (pid <= 0)
        return -1;
    if (sig && kill(-pid, sig) != 0) /* its group, when it leads one */
        kill(pid, sig);
    return reap(pid, wait_ms, cpu_ms);
}

FILE *child_read(const char *const *argv, const char *log, pid_t *pid, char *err)
{
    struct child_spec s = {.argv = argv, .log = log};
    int fd;
    if ((*pid = child_spawn(&s, &fd, err)) < 0)
        return NULL;
    FILE *in = fdopen(fd, "r");
    if (!in) {
        snprintf(err, ERR_LEN, "fdopen: %s", strerror(errno));
        close(fd);
        child_stop(*pid, SIGKILL, 1000, NULL);
    }
    return in;
}

int child_close(FILE *in, pid_t pid, int wait_ms)
{
    fclose(in);
    return reap(pid, wait_ms, NULL);
}

int child_in_path(const char *name)
{
    if (strchr(name, '/'))
        return access(name, X_OK) == 0;
    const char *path = getenv("PATH");
    char dir[4096];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        if (n && snprintf(dir, sizeof dir, "%.*s/%s", (int)n, p, name) < (int)sizeof dir &&
            access(dir, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

int child_exited(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}
