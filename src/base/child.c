/* child: see child.h. */
#include "profile/child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"

/* In the child: stdin from /dev/null, stdout to out_fd (or the log), the
 * log for stderr; dies with its parent. Never returns. */
static void exec_child(const char *const *argv, const char *log, int out_fd, int group)
{
    if (group)
        setpgid(0, 0);
    int nul = open("/dev/null", O_RDONLY);
    int lg = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (nul < 0 || lg < 0)
        _exit(127);
    dup2(nul, 0);
    dup2(out_fd >= 0 ? out_fd : lg, 1);
    dup2(lg, 2);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    execvp(argv[0], (char *const *)argv);
    dprintf(2, "%s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

pid_t child_start(const char *const *argv, const char *log, int group, char *err)
{
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, ERR_LEN, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0)
        exec_child(argv, log, -1, group);
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
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) < 0) {
        snprintf(err, ERR_LEN, "pipe: %s", strerror(errno));
        return NULL;
    }
    *pid = fork();
    if (*pid < 0) {
        snprintf(err, ERR_LEN, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (*pid == 0)
        exec_child(argv, log, fd[1], 0);
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    if (!in) {
        snprintf(err, ERR_LEN, "fdopen: %s", strerror(errno));
        close(fd[0]);
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
