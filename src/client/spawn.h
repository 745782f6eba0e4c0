/* spawn: the embedded default target, `rpcbench serve` as a child process
 * on a free loopback port, started before a run and stopped after it. */
#ifndef RPCBENCH_SPAWN_H
#define RPCBENCH_SPAWN_H

#include <sys/types.h>

struct child_server {
    pid_t pid;
    char hostport[64]; /* "127.0.0.1:PORT" from its "listening on" line */
};

/* The program to start as the server: main() sets it from argv[0] when
 * that names a file (under valgrind /proc/self/exe is valgrind itself). */
extern const char *spawn_self;

/* Starts `<self> serve --listen 127.0.0.1:0` with extra args (NULL-ended,
 * the caller's) and waits (up to 10 s) for its listening line. @return 0
 * with cs filled (the child is then the caller's: spawn_stop it), or -1
 * with err and no child left running. */
int spawn_server(struct child_server *cs, const char *const *extra, char *err);
/* SIGTERM, then SIGKILL after 2 s; reaps the child. cs->pid <= 0: nothing
 * to do. */
void spawn_stop(struct child_server *cs);

#endif
