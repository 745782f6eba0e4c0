/* pysample_int: the Python sampler's insides, shared by pysample_elf.c
 * (finding the interpreter in a process), pysample_walk.c (reading its
 * threads' stacks) and pysample.c (the sampling thread), and the fuzz
 * harness that feeds the walk a forged memory image
 * (tests/fuzz/fuzz_pywalk.c). Everything read from the target is untrusted: lengths,
 * counts and depths are bounded here. */
#ifndef RPCBENCH_PYSAMPLE_INT_H
#define RPCBENCH_PYSAMPLE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile/pysample_layout.h"

#define PY_MAX_DEPTH 256      /* frames of one stack (the leaf side kept) */
#define PY_MAX_NAME 256       /* bytes of one name read */
#define PY_MAX_THREADS 256    /* thread states of one interpreter */
#define PY_MAX_INTERPS 16     /* interpreters of one process */
#define PY_STACK_LEN 16384    /* one folded stack, "a;b;c" */
#define PY_NAME_LEN 256       /* one frame's "module.qualname", cut */
#define PY_CACHE_SLOTS 1024   /* frames' names remembered */
/* Between a frame's name and its file in a walked stack:
 * "json.encoder.JSONEncoder.iterencode@json/encoder.py:205" (no name
 * read holds it: the walk makes it '_'). */
#define PY_FILE_MARK "@"

/* Reads len bytes at addr of a target's memory into buf.
 * @return 0, or -1 (not all of it could be read). */
typedef int (*py_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/* One CPython process. */
struct py_target {
    pid_t pid;
    py_read_fn read;            /* NULL: pid's memory (py_read); else this,
                                   with read_ctx (the fuzz harness's image) */
    void *read_ctx;
    const struct py_layout *l;  /* NULL: not CPython (its CPU is charged unnamed) */
    uint64_t runtime;           /* _PyRuntime's address in the target */
    char path[256];             /* the interpreter's file, as mapped */
    char version[16];           /* "3.11" */
};

/* One Python thread as one walk saw it. */
struct py_thread {
    unsigned long tid;          /* its native_thread_id: the kernel's TID */
    char stack[PY_STACK_LEN];   /* "mod.func@f.py:1;mod.callee@f.py:9" root
                                   first ("" no frame) */
};

/* A frame's name as read once: valid while the code object at code still
 * holds the str objects qual and file (they are immutable and it keeps
 * them alive, so a code object freed and another made at its address
 * with other names does not match). */
struct py_name_slot {
    pid_t pid;
    uint64_t code, qual, file;
    char name[PY_NAME_LEN];     /* "module.qualname@dir/file.py:LINE" */
};

/* A walker's memory: its frames' names and the names cache (the caller's,
 * zeroed before the first walk; about 330 KB). */
struct py_scratch {
    char names[PY_MAX_DEPTH][PY_NAME_LEN];
    struct py_name_slot cache[PY_CACHE_SLOTS];
};

/* Finds CPython in pid: the python3.N executable or libpython3.N.so
 * mapped (/proc/PID/maps), _PyRuntime and Py_Version in its ELF .dynsym
 * plus the load bias, the version (Py_Version, else the file's name) and
 * its layout. @return 1 found (t filled, t->l NULL for a version this
 * build does not know), 0 not CPython, -1 with err (ERR_LEN) when the
 * process or its interpreter's file cannot be read. */
int py_target_find(pid_t pid, struct py_target *t, char *err);
/* @return 1 when pid maps a CPython executable or library, else 0. */
int py_maps_python(pid_t pid);
/* Reads len bytes at addr of pid's memory (process_vm_readv) into buf.
 * @return 0, or -1 with errno (EPERM: refused; ESRCH: gone; EFAULT: not
 * mapped) when not all of it could be read. */
int py_read(pid_t pid, uint64_t addr, void *buf, size_t len);
/* Walks every thread of every interpreter of t into out (at most max),
 * with w's memory. @return the threads walked, or -1 when a read failed
 * before any thread was whole (the sample is then given up). A thread
 * whose frames cannot be read (twice: it moved on as it was read) shows
 * "[stack unreadable]". */
int py_walk(const struct py_target *t, struct py_scratch *w, struct py_thread *out, size_t max);

#endif
