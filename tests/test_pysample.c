/* The Python sampler's walk (src/profile/pysample_walk.c) over fake
 * CPython 3.11 structures built in this process's own memory with the
 * layout table's offsets, read back through process_vm_readv on our own
 * pid: a plain stack, and what a hostile or moving target can show (a
 * frame cycle, a huge string length, a pointer to nowhere, a thread list
 * that loops, a ';' in a name) stays bounded; the names cache follows a
 * code object's names. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "profile/pysample_int.h"

static const struct py_layout *L;
static struct py_thread threads[8];
static struct py_scratch scratch; /* its cache is keyed by address: fakes are never freed mid-test */

static void *blocks[256];
static size_t nblocks;

/* A zeroed block of len bytes (all freed by main at the end). */
static unsigned char *block(size_t len)
{
    unsigned char *p = calloc(1, len + 1024); /* slack: reads may go past a fake's end */
    assert_non_null(p);
    assert_true(nblocks < sizeof blocks / sizeof *blocks);
    blocks[nblocks++] = p;
    return p;
}

static void put_ptr(unsigned char *obj, size_t off, const void *p)
{
    uint64_t v = (uint64_t)(uintptr_t)p;
    memcpy(obj + off, &v, sizeof v);
}

/* A compact ASCII str with length len (its characters s, up to 512). */
static unsigned char *str_len(const char *s, int64_t len)
{
    unsigned char *o = block(L->str_compact_data + 512);
    uint32_t state = L->compact_bit | L->ascii_bit | (1u << L->kind_shift);
    memcpy(o + L->str_length, &len, sizeof len);
    memcpy(o + L->str_state, &state, sizeof state);
    memcpy(o + L->str_ascii_data, s, strlen(s));
    return o;
}

static unsigned char *str(const char *s)
{
    return str_len(s, (int64_t)strlen(s));
}

static unsigned char *code(const char *qual, const char *file)
{
    unsigned char *co = block(L->co_size);
    put_ptr(co, L->co_qualname, str(qual));
    put_ptr(co, L->co_filename, str(file));
    return co; /* _co_firsttraceable 0: any prev_instr past co_code runs */
}

static unsigned char *frame(unsigned char *co, const void *previous)
{
    unsigned char *f = block(L->fr_size);
    put_ptr(f, L->fr_code, co);
    put_ptr(f, L->fr_previous, previous);
    put_ptr(f, L->fr_prev_instr, co + L->co_code);
    return f;
}

/* A runtime with one interpreter whose one thread (tid 42) is at leaf. */
static struct py_target target(const void *leaf, unsigned char **ts_out)
{
    unsigned char *cf = block(L->cf_current_frame + 8), *ts = block(L->ts_native_tid + 8);
    unsigned char *is = block(L->is_threads_head + L->is_next + 8);
    unsigned char *rt = block(L->rt_interp_head + 8);
    unsigned long tid = 42;
    put_ptr(cf, L->cf_current_frame, leaf);
    put_ptr(ts, L->ts_cframe, cf);
    memcpy(ts + L->ts_native_tid, &tid, sizeof tid);
    put_ptr(is, L->is_threads_head, ts);
    put_ptr(rt, L->rt_interp_head, is);
    if (ts_out)
        *ts_out = ts;
    struct py_target t = {.pid = getpid(), .l = L, .runtime = (uint64_t)(uintptr_t)rt};
    return t;
}

static void test_stack(void **state)
{
    (void)state;
    unsigned char *outer = frame(code("main", "/srv/app/server.py"), NULL);
    unsigned char *inner = frame(code("Handler.do;POST", "/srv/app/server.py"), outer);
    struct py_target t = target(inner, NULL);
    assert_int_equal(py_walk(&t, &scratch, threads, 8), 1);
    assert_true(threads[0].tid == 42);
    assert_string_equal(threads[0].stack, "server.main@app/server.py:0;"
                                          "server.Handler.do_POST@app/server.py:0");
}

/* A frame is named module.qualname with its file and def line; the
 * module of a file under the library or site-packages is its dotted
 * path, a package's __init__.py outside them its directory. */
static void test_module_file_line(void **state)
{
    (void)state;
    unsigned char *lib = code("JSONEncoder.iterencode", "/usr/lib/python3.11/json/encoder.py");
    unsigned char *pkg = code("Schema._verify_type", "/usr/lib/python3/dist-packages/vdsm/api/vdsmapi.py");
    unsigned char *init = code("walk", "/srv/app/password/__init__.py");
    int32_t line = 205;
    memcpy(lib + L->co_firstlineno, &line, sizeof line);
    struct py_target t = target(frame(lib, frame(pkg, frame(init, NULL))), NULL);
    assert_int_equal(py_walk(&t, &scratch, threads, 8), 1);
    assert_string_equal(threads[0].stack, "password.walk@password/__init__.py:0;"
                        "vdsm.api.vdsmapi.Schema._verify_type@vdsm/api/vdsmapi.py:0;"
                        "json.encoder.JSONEncoder.iterencode@json/encoder.py:205");
}

static void test_frame_cycle_bounded(void **state)
{
    (void)state;
    unsigned char *f = frame(code("spin", "x.py"), NULL);
    put_ptr(f, L->fr_previous, f); /* its own caller */
    struct py_target t = target(f, NULL);
    assert_int_equal(py_walk(&t, &scratch, threads, 8), 1);
    size_t n = 1;
    for (const char *p = threads[0].stack; *p; p++)
        n += *p == ';';
    assert_true(n == PY_MAX_DEPTH);
}

static void test_huge_length_bounded(void **state)
{
    (void)state;
    unsigned char *co = code("f", "y.py");
    put_ptr(co, L->co_qualname, str_len("abc", (int64_t)1 << 40));
    put_ptr(co, L->co_filename, str_len("z.py", -5)); /* negative: "?" */
    struct py_target t = target(frame(co, NULL), NULL);
    assert_int_equal(py_walk(&t, &scratch, threads, 8), 1);
    assert_true(strlen(threads[0].stack) < 2 + 130 + 2);
    assert_true(strncmp(threads[0].stack, "?.abc", 5) == 0);
}

static void test_pointer_to_nowhere(void **state)
{
    (void)state;
    unsigned char *f = frame(code("f", "y.py"), (void *)(uintptr_t)0x10);
    struct py_target t = target(f, NULL);
    assert_int_equal(py_walk(&t, &scratch, threads, 8), 1);
    assert_string_equal(threads[0].stack, "[stack unreadable]");
    uint64_t word;
    assert_int_equal(py_read(getpid(), 0x10, &word, sizeof word), -1);
    assert_true(errno == EFAULT);
}

static void test_thread_cycle_bounded(void **state)
{
    (void)state;
    unsigned char *ts;
    struct py_target t = target(frame(code("f", "y.py"), NULL), &ts);
    put_ptr(ts, L->ts_next, ts);
    assert_int_equal(py_walk(&t, &scratch, threads, 8), 8);
}

static void test_names_cache(void **state)
{
    (void)state;
    unsigned char *co = code("first", "c.py");
    struct py_target t = target(frame(co, NULL), NULL);
    assert_int_equal(py_walk(&t, &scratch, threads, 8), 1);
    assert_string_equal(threads[0].stack, "c.first@c.py:0");
    assert_int_equal(py_walk(&t, &scratch, threads, 8), 1); /* from the cache */
    assert_string_equal(threads[0].stack, "c.first@c.py:0");
    /* another code object at the same address: other str objects */
    put_ptr(co, L->co_qualname, str("second"));
    assert_int_equal(py_walk(&t, &scratch, threads, 8), 1);
    assert_string_equal(threads[0].stack, "c.second@c.py:0");
}

static void test_versions(void **state)
{
    (void)state;
    assert_null(py_layout_find("3.12"));
    assert_null(py_layout_find(""));
    assert_string_equal(py_layout_known(), "3.11");
}

int main(void)
{
    L = py_layout_find("3.11");
    if (!L)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stack),
        cmocka_unit_test(test_frame_cycle_bounded),
        cmocka_unit_test(test_huge_length_bounded),
        cmocka_unit_test(test_pointer_to_nowhere),
        cmocka_unit_test(test_thread_cycle_bounded),
        cmocka_unit_test(test_names_cache),
        cmocka_unit_test(test_module_file_line),
        cmocka_unit_test(test_versions),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    while (nblocks)
        free(blocks[--nblocks]);
    return rc;
}
