/* spawn: the embedded server as a child (spawn.h), started and stopped
 * by the program's one child helper (base/child.h). */
#include "client/spawn.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/child.h"
#include "base/err.h"

#define SPAWN_MAX_ARGS 32

const char *spawn_self = "/proc/self/exe";

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
    const char *argv[SPAWN_MAX_ARGS] = {"rpcbench", "serve", "--listen", "127.0.0.1:0"};
    int n = 4, out;
    for (; extra && *extra && n < SPAWN_MAX_ARGS - 1; extra++)
        argv[n++] = *extra;
    argv[n] = NULL;
    /* Its stderr (its closing summary would land in the middle of our
     * report) to /dev/null; the terminal's ^C must not stop it before the
     * run has reported: spawn_stop does. */
    struct child_spec c = {.argv = argv, .exe = spawn_self, .flags = CHILD_NO_INT};
    if ((cs->pid = child_spawn(&c, &out, err)) < 0) {
        cs->pid = 0;
        return -1;
    }
    char line[128];
    int rc = read_line(out, line, sizeof line, 10000);
    close(out);
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
    child_stop(cs->pid, SIGTERM, 2000, NULL); /* then SIGKILL */
    cs->pid = 0;
}
