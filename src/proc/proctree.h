/* proctree: finding a server process by the name a user types, and the
 * process tree it heads.
 *
 * A process is "called" NAME when its comm, its argv[0]'s basename or,
 * for an interpreter (python, perl, ruby, node, java, a shell...), its
 * script's basename is NAME: `--server-name srv.py` finds
 * `python3 -u /opt/srv.py`, `--server-name vdsmd` finds vdsmd. A server
 * is one process tree: a process called NAME and its descendants (a
 * forking server's workers belong to their parent's tree). Processes
 * called NAME that are not in one tree are different servers: callers
 * refuse to guess among them, rather than sum strangers' CPU.
 *
 * This process and its ancestors (the shell or the test harness that
 * started rpcbench) are never called anything: they are the client.
 * Nothing here allocates: the caller owns the table. */
#ifndef RPCBENCH_PROCTREE_H
#define RPCBENCH_PROCTREE_H

#include <stddef.h>
#include <sys/types.h>

/* Processes listed at most; beyond, the rest of /proc is not seen. */
#define PROCTREE_MAX 8192

/* One process of a listing. */
struct proctree_proc {
    pid_t pid, ppid;
    int match;          /* called the name looked for */
};

/* Lists the processes of the proc tree at root ("/proc"; tests give a
 * fixture) into t (at most max, sorted by pid) and marks those called
 * name (none when name is NULL); this process and its ancestors are
 * never marked. @return how many were listed, or -1 when root cannot be
 * read. */
long proctree_list(const char *root, const char *name, struct proctree_proc *t, size_t max);

/* The heads of the separate trees among the marked processes of t (n
 * listed): marked processes with no marked ancestor. Writes the first max
 * into roots. @return how many there are (may exceed max). */
size_t proctree_roots(const struct proctree_proc *t, size_t n, pid_t *roots, size_t max);

/* Writes root and its descendants (root first) into pids, at most max.
 * @return how many were written (0 when root is not listed in t). */
size_t proctree_members(const struct proctree_proc *t, size_t n, pid_t root, pid_t *pids,
                        size_t max);

/* @return 1 when pid is listed in t and marked, else 0. */
int proctree_is_marked(const struct proctree_proc *t, size_t n, pid_t pid);

/* Resolves name for a check before a run: finds its trees in the real
 * /proc with the caller's table t (max entries). @return 0 with *root set
 * when exactly one tree matches; -1 with err (ERR_LEN, one line: nothing
 * matches, or the trees that do, each as "PID (command)", and a hint to
 * give --server-pid). */
int proctree_find_one(const char *name, struct proctree_proc *t, size_t max, pid_t *root,
                      char *err);

/* The server a run is to sample is there and is one server: each of the
 * npids pids a process we can see, or name (NULL or "": none) matching
 * exactly one tree. The check before a run, here (the CLI) and on an
 * agent's host (agent_conn). @return 0; -1 with err (ERR_LEN, one line)
 * when a pid is not running ("no process 123 is running"); -2 with err
 * when the name is not one tree (proctree_find_one's, or "out of
 * memory"). */
int proctree_check_server(const pid_t *pids, size_t npids, const char *name, char *err);

#endif
