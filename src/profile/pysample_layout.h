/* pysample_layout: where CPython keeps what the Python sampler
 * (pysample.h) reads in another process's memory: byte offsets into
 * _PyRuntimeState, PyInterpreterState, PyThreadState, _PyCFrame,
 * _PyInterpreterFrame, PyCodeObject and the str and bytes objects, one
 * table per minor version. They are not guessed: pysample_layout.c takes
 * them with offsetof over CPython's own internal headers
 * (libpython3.11-dev), so another minor version is one more entry there,
 * built against its headers. Plain data. */
#ifndef RPCBENCH_PYSAMPLE_LAYOUT_H
#define RPCBENCH_PYSAMPLE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

struct py_layout {
    const char *version;        /* "3.11" */
    uint64_t hexversion;        /* its PY_VERSION_HEX without the micro level */
    size_t rt_interp_head;      /* _PyRuntimeState.interpreters.head */
    size_t is_next;             /* PyInterpreterState.next */
    size_t is_threads_head;     /* PyInterpreterState.threads.head */
    size_t ts_next;             /* PyThreadState.next */
    size_t ts_cframe;           /* PyThreadState.cframe (a _PyCFrame *) */
    size_t ts_native_tid;       /* PyThreadState.native_thread_id (unsigned long) */
    size_t cf_current_frame;    /* _PyCFrame.current_frame */
    size_t fr_code;             /* _PyInterpreterFrame.f_code */
    size_t fr_previous;         /* _PyInterpreterFrame.previous */
    size_t fr_prev_instr;       /* _PyInterpreterFrame.prev_instr */
    size_t fr_owner;            /* _PyInterpreterFrame.owner (char) */
    size_t fr_size;             /* how much of a frame to read */
    int owner_generator;        /* FRAME_OWNED_BY_GENERATOR */
    int owner_cstack;           /* a shim frame of the C stack (-1: none in this version) */
    size_t co_qualname, co_filename, co_firstlineno, co_linetable;
    size_t co_firsttraceable;   /* PyCodeObject._co_firsttraceable (int) */
    size_t co_code;             /* PyCodeObject.co_code_adaptive: the bytecode */
    size_t co_size;             /* how much of a code object to read */
    size_t str_length;          /* PyASCIIObject.length */
    size_t str_state;           /* PyASCIIObject.state: its first byte */
    unsigned kind_shift, kind_mask; /* state's kind bits (1, 2, 4: bytes a char) */
    unsigned compact_bit, ascii_bit; /* state's compact and ascii flags */
    size_t str_ascii_data;      /* a compact ASCII string's characters */
    size_t str_compact_data;    /* a compact non-ASCII string's characters */
    size_t bytes_size;          /* PyVarObject.ob_size of a bytes object */
    size_t bytes_data;          /* PyBytesObject.ob_sval */
};

/* @return the layout of CPython "MAJOR.MINOR" (static), or NULL when this
 * build knows no such version. */
const struct py_layout *py_layout_find(const char *version);
/* @return the versions known, as "3.11" or "3.11, 3.12" (static). */
const char *py_layout_known(void);

#endif
