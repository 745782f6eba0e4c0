#include "client/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/exit_code.h"
#include "base/units.h"

#define SPAWN_MAX_ARGS 32

const char *spawn_self = "/proc/self/exe";

static void exec_child(int out_fd, const char *const *extra)
{
    const char *argv[SPAWN_MAX_ARGS] = {"rpcbench", "serve", "--listen", "127.0.0.1:0"};
    int n = 4;
    for (; extra && *extra && n < SPAWN_MAX_ARGS - 1; extra++)
        argv[n++] = *extra;
    argv[n] = NULL;
    dup2(out_fd, STDOUT_FILENO);
    close(out_fd);
    /* Its closing summary would land in the middle of our report. */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDERR_FILENO);
        close(null);
    }
    /* The server must not die with the terminal's ^C before the run has
     * reported: the parent stops it. */
    signal(SIGINT, SIG_IGN);
    /* ...and must not outlive a parent that was killed outright. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    execv(spawn_self, (char *const *)argv);
    fprintf(stderr, "rpcbench: cannot start the embedded server: %s\n", strerror(errno));
    _exit(EXIT_CHILD_EXEC);
}

/* Reads the child's first line within the deadline. */
static int read_line(int fd, char *line, size_t len, int timeout_ms)
{
    size_t n = 0;
    while (n + 1 < len) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, timeout_ms) <= 0)
            return -1;
        ssize_t r = read(fd, line + n, 1);
        if (r <= 0)
            return -1;
        if (line[n] == '\n')
            break;
        n++;
    }
    line[n] = '\0';
    return 0;
}

int spawn_server(struct child_server *cs, const char *const *extra, char *err)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        snprintf(err, ERR_LEN, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    cs->pid = fork();
    if (cs->pid < 0) {
        snprintf(err, ERR_LEN, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (cs->pid == 0) {
        close(fds[0]);
        exec_child(fds[1], extra);
    }
    close(fds[1]);
    char line[128];
    int rc = read_line(fds[0], line, sizeof line, 10000);
    close(fds[0]);
    if (rc < 0 || sscanf(line, "listening on %63s", cs->hostport) != 1) {
        snprintf(err, ERR_LEN, "the embedded server did not start (no 'listening on' line)");
        spawn_stop(cs);
        return -1;
    }
    return 0;
}

void spawn_stop(struct child_server *cs)
{
    if (cs->pid <= 0)
        return;
    kill(cs->pid, SIGTERM);
    for (int i = 0; i < 200; i++) {
        if (waitpid(cs->pid, NULL, WNOHANG) == cs->pid) {
            cs->pid = 0;
            return;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(cs->pid, SIGKILL);
    waitpid(cs->pid, NULL, 0);
    cs->pid = 0;
}
