/* pysample_layout: the offsets of pysample_layout.h, by offsetof over
 * CPython's internal headers. This file alone is built with the
 * interpreter's include directory (Makefile: PY_CFLAGS); Py_BUILD_CORE
 * opens the internal headers, where the runtime's structures are. */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_code.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_runtime.h>

#include "profile/pysample_layout.h"

#include <string.h>

#if PY_MAJOR_VERSION != 3 || PY_MINOR_VERSION != 11
#error "pysample_layout.c describes CPython 3.11: build it against python3.11's headers"
#endif

/* The state bitfield's bits (no offsetof for them): each field set alone
 * in a zeroed object and found. @return the mask of field's bits. */
static unsigned state_mask(int field)
{
    PyASCIIObject o;
    memset(&o, 0, sizeof o);
    if (field == 0)
        o.state.kind = 7;
    else if (field == 1)
        o.state.compact = 1;
    else
        o.state.ascii = 1;
    unsigned char b[4];
    memcpy(b, &o.state, sizeof b < sizeof o.state ? sizeof b : sizeof o.state);
    return (unsigned)b[0] | (unsigned)b[1] << 8 | (unsigned)b[2] << 16 | (unsigned)b[3] << 24;
}

static struct py_layout py311 = {
    .version = "3.11",
    .hexversion = 0x030b0000,
    .rt_interp_head = offsetof(_PyRuntimeState, interpreters.head),
    .is_next = offsetof(PyInterpreterState, next),
    .is_threads_head = offsetof(PyInterpreterState, threads.head),
    .ts_next = offsetof(PyThreadState, next),
    .ts_cframe = offsetof(PyThreadState, cframe),
    .ts_native_tid = offsetof(PyThreadState, native_thread_id),
    .cf_current_frame = offsetof(_PyCFrame, current_frame),
    .fr_code = offsetof(_PyInterpreterFrame, f_code),
    .fr_previous = offsetof(_PyInterpreterFrame, previous),
    .fr_prev_instr = offsetof(_PyInterpreterFrame, prev_instr),
    .fr_owner = offsetof(_PyInterpreterFrame, owner),
    .fr_size = sizeof(_PyInterpreterFrame),
    .owner_generator = FRAME_OWNED_BY_GENERATOR,
    .owner_cstack = -1, /* 3.11 has none: entry frames are flagged (is_entry), not shims */
    .co_qualname = offsetof(PyCodeObject, co_qualname),
    .co_filename = offsetof(PyCodeObject, co_filename),
    .co_firstlineno = offsetof(PyCodeObject, co_firstlineno),
    .co_linetable = offsetof(PyCodeObject, co_linetable),
    .co_firsttraceable = offsetof(PyCodeObject, _co_firsttraceable),
    .co_code = offsetof(PyCodeObject, co_code_adaptive),
    .co_size = offsetof(PyCodeObject, co_code_adaptive),
    .str_length = offsetof(PyASCIIObject, length),
    .str_state = offsetof(PyASCIIObject, state),
    .str_ascii_data = sizeof(PyASCIIObject),
    .str_compact_data = sizeof(PyCompactUnicodeObject),
    .bytes_size = offsetof(PyVarObject, ob_size),
    .bytes_data = offsetof(PyBytesObject, ob_sval),
};

/* The bitfields' masks, filled once (before any sampler thread). */
static void fill_bits(struct py_layout *l)
{
    if (l->kind_mask)
        return;
    unsigned kind = state_mask(0);
    l->kind_shift = (unsigned)__builtin_ctz(kind);
    l->kind_mask = kind >> l->kind_shift;
    l->compact_bit = state_mask(1);
    l->ascii_bit = state_mask(2);
}

const struct py_layout *py_layout_find(const char *version)
{
    if (strcmp(version, py311.version) != 0)
        return NULL;
    fill_bits(&py311);
    return &py311;
}

const char *py_layout_known(void)
{
    return py311.version;
}
