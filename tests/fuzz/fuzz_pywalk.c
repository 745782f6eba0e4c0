/* fuzz_pywalk: the Python sampler's walk of another process's memory
 * (profile/pysample_int.h's py_walk) against a forged memory image: the
 * input is the target's memory from FAKE_BASE on, with _PyRuntime at
 * FAKE_BASE, read through CPython 3.11's layout (pysample_layout.c).
 * Interpreters, thread states, frame chains, code objects and str
 * objects are all the input's to forge: cycles, huge lengths, wild
 * pointers, any byte in a name. Memory read from a running target is
 * untrusted input (issue 37): the walk must stay within its bounds, end
 * every stack NUL-terminated within PY_STACK_LEN, and name every frame
 * "module.qualname@file:LINE" with no blank nor control in it (a folded
 * line must stay one line). The seed (tests/fuzz/corpus/fuzz_pywalk) is a
 * well-formed image: one interpreter, one thread, two frames. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile/pysample_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAKE_BASE 0x100000ull

struct image {
    const uint8_t *data;
    size_t size;
};

/* The image as the target's memory: what lies outside it is unmapped. */
static int fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
    const struct image *im = ctx;
    if (addr < FAKE_BASE || addr - FAKE_BASE > im->size || len > im->size - (addr - FAKE_BASE))
        return -1;
    memcpy(buf, im->data + (addr - FAKE_BASE), len);
    return 0;
}

/* A stack as the record and fold take it: NUL-ended in its buffer, no
 * control in it, no blank but in the walk's own "[stack unreadable]",
 * each frame's file mark at most once. */
static void check_stack(const char *stack)
{
    size_t len = strnlen(stack, PY_STACK_LEN);
    if (len == PY_STACK_LEN)
        abort();
    int marks = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)stack[i];
        if (c < ' ' || c == 0x7f || (c == ' ' && stack[0] != '['))
            abort();
        marks = c == ';' ? 0 : marks + (c == (unsigned char)PY_FILE_MARK[0]);
        if (marks > 1)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct py_scratch w;            /* large: off the stack */
    static struct py_thread out[PY_MAX_THREADS];
    struct image im = {data, size};
    struct py_target t = {.pid = 1, .read = fake_read, .read_ctx = &im, .runtime = FAKE_BASE};
    t.l = py_layout_find("3.11");
    if (!t.l)
        abort();
    memset(&w, 0, sizeof w);               /* nothing remembered from another input */
    int n = py_walk(&t, &w, out, PY_MAX_THREADS);
    if (n > PY_MAX_THREADS)
        abort();
    for (int i = 0; i < n; i++)
        check_stack(out[i].stack);
    return 0;
}
