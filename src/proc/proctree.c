/* proctree: a server found by name, and its process tree (proctree.h). */
#include "proc/proctree.h"
#include "proc/proctree_testing.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "proc/procstat.h"

/* Ancestor chains longer than this are garbage (or a loop in a fixture). */
#define MAX_DEPTH 128

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "python3.11" is python: the name, then only digits and dots. */
static int is_interpreter(const char *exe)
{
    static const char *const names[] = {"python", "pypy", "perl", "ruby", "node", "nodejs",
                                        "php", "lua", "java", "tclsh", "Rscript", "bash",
                                        "sh", "dash", "zsh", "ksh"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(exe, names[i], n))
            continue;
        const char *rest = exe + n;
        while (isdigit((unsigned char)*rest) || *rest == '.')
            rest++;
        if (!*rest)
            return 1;
    }
    return 0;
}

/* The script an interpreter runs: the first argument that is not an
 * option; "-m MOD" and "-jar FILE" name it; "-c"/"-e" run inline code (no
 * script); a few options take a value that is skipped. NULL if none. */
static const char *script_arg(const char *cmdline, size_t len)
{
    static const char *const valued[] = {"-W", "-X", "-Q", "-cp", "-classpath", "-I", "-r"};
    const char *end = cmdline + len;
    const char *a = cmdline + strnlen(cmdline, len) + 1; /* after argv[0] */
    while (a < end && *a) {
        const char *next = a + strnlen(a, (size_t)(end - a)) + 1;
        if (!strcmp(a, "-c") || !strcmp(a, "-e"))
            return NULL;
        if (!strcmp(a, "-m") || !strcmp(a, "-jar"))
            return next < end && *next ? next : NULL;
        if (a[0] != '-')
            return a;
        for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++)
            if (!strcmp(a, valued[i]) && next < end)
                next += strnlen(next, (size_t)(end - next)) + 1;
        a = next;
    }
    return NULL;
}

static int path_is(const char *path, const char *name)
{
    return strcmp(strchr(name, '/') ? path : base_name(path), name) == 0;
}

int proctree_cmd_matches(const char *comm, const char *cmdline, size_t len, const char *name)
{
    if (!name || !name[0])
        return 0;
    if (comm && !strcmp(comm, name))
        return 1;
    if (len == 0 || !cmdline[0])
        return 0;
    if (path_is(cmdline, name))
        return 1;
    const char *script = is_interpreter(base_name(cmdline)) ? script_arg(cmdline, len) : NULL;
    return script && path_is(script, name);
}

static int by_pid(const void *a, const void *b)
{
    pid_t x = ((const struct proctree_proc *)a)->pid, y = ((const struct proctree_proc *)b)->pid;
    return (x > y) - (x < y);
}

static const struct proctree_proc *find(const struct proctree_proc *t, size_t n, pid_t pid)
{
    struct proctree_proc key = {.pid = pid};
    return bsearch(&key, t, n, sizeof *t, by_pid);
}

/* Reads one /proc entry into p. @return 0, or -1 when it is gone. */
static int read_entry(const char *root, const char *who, const char *name,
                      struct proctree_proc *p)
{
    struct proc_stat st;
    char buf[4096];
    if (procstat_read_stat_at(root, who, &st) < 0)
        return -1;
    p->pid = (pid_t)atoi(who);
    p->ppid = st.ppid;
    p->match = 0;
    if (name) {
        ssize_t n = procstat_read_file(root, who, "cmdline", buf, sizeof buf);
        p->match = proctree_cmd_matches(st.comm, buf, n > 0 ? (size_t)n : 0, name);
    }
    return 0;
}

/* This process and its ancestors are the client, never the server. */
static void unmark_self(struct proctree_proc *t, size_t n)
{
    pid_t pid = getpid();
    for (int depth = 0; pid > 0 && depth < MAX_DEPTH; depth++) {
        struct proctree_proc *p = (struct proctree_proc *)find(t, n, pid);
        if (!p)
            return;
        p->match = 0;
        pid = p->ppid;
    }
}

long proctree_list(const char *root, const char *name, struct proctree_proc *t, size_t max)
{
    DIR *d = opendir(root);
    struct dirent *e;
    size_t n = 0;
    if (!d)
        return -1;
    while (n < max && (e = readdir(d)) != NULL)
        if (procstat_all_digits(e->d_name) && read_entry(root, e->d_name, name, &t[n]) == 0)
            n++;
    closedir(d);
    qsort(t, n, sizeof *t, by_pid);
    unmark_self(t, n);
    return (long)n;
}

/* @return 1 when one of p's ancestors is marked (or is pid `anc` when
 * anc > 0), else 0. */
static int has_ancestor(const struct proctree_proc *t, size_t n, const struct proctree_proc *p,
                        pid_t anc)
{
    for (int depth = 0; depth < MAX_DEPTH && p->ppid > 0 && p->ppid != p->pid; depth++) {
        p = find(t, n, p->ppid);
        if (!p)
            return 0;
        if (anc > 0 ? p->pid == anc : p->match)
            return 1;
    }
    return 0;
}

size_t proctree_roots(const struct proctree_proc *t, size_t n, pid_t *roots, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!t[i].match || has_ancestor(t, n, &t[i], 0))
            continue;
        if (k < max)
            roots[k] = t[i].pid;
        k++;
    }
    return k;
}

size_t proctree_members(const struct proctree_proc *t, size_t n, pid_t root, pid_t *pids,
                        size_t max)
{
    size_t k = 0;
    if (!find(t, n, root) || max == 0)
        return 0;
    pids[k++] = root;
    for (size_t i = 0; i < n && k < max; i++)
        if (t[i].pid != root && has_ancestor(t, n, &t[i], root))
            pids[k++] = t[i].pid;
    return k;
}

int proctree_is_marked(const struct proctree_proc *t, size_t n, pid_t pid)
{
    const struct proctree_proc *p = find(t, n, pid);
    return p && p->match;
}

/* The command line of /proc/<pid> (arguments joined by spaces, control
 * bytes shown as '?') into out, cut to len; "" when unreadable. */
static void proctree_cmdline(pid_t pid, char *out, size_t len)
{
    char who[24], buf[4096];
    snprintf(who, sizeof who, "%d", (int)pid);
    ssize_t n = procstat_read_file("/proc", who, "cmdline", buf, sizeof buf);
    if (len == 0)
        return;
    out[0] = '\0';
    if (n <= 0)
        return;
    while (n > 0 && buf[n - 1] == '\0')
        n--;
    size_t k = 0;
    for (ssize_t i = 0; i < n && k + 1 < len; i++) {
        unsigned char c = (unsigned char)buf[i];
        out[k++] = c == '\0' ? ' ' : c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    out[k] = '\0';
}

/* @return 1 when /proc/<pid> is a process we can see, else 0. */
static int proctree_exists(pid_t pid)
{
    struct proc_stat st;
    return pid > 0 && procstat_read_pid(pid, &st) == 0;
}

/* "123 (python3 srv.py), 456 (python3 other.py)" into out. */
static void describe_roots(const pid_t *roots, size_t n, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++) {
        char cmd[40];
        proctree_cmdline(roots[i], cmd, sizeof cmd);
        int w = snprintf(out + used, len - used, "%s%d (%s)", i ? ", " : "", (int)roots[i],
                         cmd[0] ? cmd : "?");
        used += w > 0 ? (size_t)w : 0;
    }
}

int proctree_find_one(const char *name, struct proctree_proc *t, size_t max, pid_t *root,
                      char *err)
{
    pid_t roots[4];
    long n = proctree_list("/proc", name, t, max);
    size_t k = n < 0 ? 0 : proctree_roots(t, (size_t)n, roots, 4);
    if (k == 1) {
        *root = roots[0];
        return 0;
    }
    if (k == 0) {
        snprintf(err, ERR_LEN, "no process is called '%.64s' (its executable's name, or for an "
                 "interpreter its script's; or give --server-pid)", name);
        return -1;
    }
    char list[ERR_LEN / 2];
    describe_roots(roots, k < 4 ? k : 4, list, sizeof list);
    snprintf(err, ERR_LEN, "%zu separate processes are called '%.40s': %s%s; give --server-pid",
             k, name, list, k > 4 ? ", ..." : "");
    return -1;
}

int proctree_check_server(const pid_t *pids, size_t npids, const char *name, char *err)
{
    for (size_t i = 0; i < npids; i++)
        if (!proctree_exists(pids[i])) {
            snprintf(err, ERR_LEN, "no process %d is running", (int)pids[i]);
            return -1;
        }
    if (!name || !name[0])
        return 0;
    struct proctree_proc *t = malloc(PROCTREE_MAX * sizeof *t); /* large: off the stack */
    pid_t root;
    if (!t) {
        snprintf(err, ERR_LEN, "out of memory");
        return -2;
    }
    int rc = proctree_find_one(name, t, PROCTREE_MAX, &root, err);
    free(t);
    return rc ? -2 : 0;
}
