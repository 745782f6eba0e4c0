/* test_profile_fold: the profile's folding (profile/fold.h), the `perf
 * script` parser (perf.h's perf_fold_stream: external input, bad lines
 * included), the view by module, and compare's B - A (profile/diff.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/diff.h"
#include "profile/fold.h"
#include "profile/fold_testing.h"
#include "profile/perf.h"
#include "profile/perf_testing.h"

/* perf_fold_stream over text, the window [t0, t1] in ns. */
static struct fold *parse(const char *text, int64_t t0, int64_t t1, int64_t *outside)
{
    struct fold *f = fold_new();
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(f);
    assert_non_null(in);
    assert_int_equal(perf_fold_stream(in, t0, t1, f, outside), 0);
    fclose(in);
    assert_int_equal(fold_index(f), 0);
    return f;
}

static const char SCRIPT[] =
    " 1553 10.000000100: \n"
    "\t            5d6f json_object_object_add_ex (/usr/lib/libjson-c.so.5)\n"
    "\t           4e28b render (/usr/bin/server)\n"
    "\t            d850 main (/usr/bin/server)\n"
    "\n"
    " 1553 10.500000000: \n"
    "\tffffffff81000c82 asm_sysvec_apic_timer_interrupt ([kernel.kallsyms])\n"
    "\t           98109 _int_malloc (/usr/lib/libc.so.6)\n"
    "\t            9a14 [unknown] (/usr/lib/libxmlrpc.so.3)\n"
    "\t            a85d xmlrpc_serialize_value2 (/usr/lib/libxmlrpc.so.3)\n"
    "\t            d850 main (/usr/bin/server)\n"
    "\n"
    " 1553 12.000000000: \n" /* after the window */
    "\t            d850 main (/usr/bin/server)\n"
    "\n";

static void test_perf_script(void **state)
{
    (void)state;
    int64_t outside = -1;
    struct fold *f = parse(SCRIPT, 10000000000LL, 11000000000LL, &outside);
    assert_int_equal(fold_samples(f), 2);
    assert_int_equal(outside, 1);
    assert_true(fold_share(f, "main", 0) == 1.0);
    assert_true(fold_share(f, "json_object_object_add_ex", 1) == 0.5);
    assert_true(fold_share(f, "_int_malloc", 1) == 0.5); /* the interrupt's frame left out */
    assert_true(fold_share(f, "asm_sysvec_apic_timer_interrupt", 0) == 0);
    assert_true(fold_share(f, "[libxmlrpc.so.3]", 0) == 0.5); /* named by its module */
    assert_int_equal(fold_unsymbolised(f), 1);
    assert_int_equal(fold_truncated(f), 0);
    fold_free(f);
}

/* Garbage, cut lines, frames before any header, a time that is none:
 * skipped, never a crash, and the good sample still counted. */
static void test_perf_script_bad_input(void **state)
{
    (void)state;
    static const char bad[] =
        "\t 1 orphan (x)\n"
        "garbage\n"
        " 7 notatime: \n"
        "\t 2 lost (x)\n"
        " 7 1.5: \n"
        "\t\n"
        "\t 3 noparen\n"
        "\t 4 (onlydso)\n"
        "\t 5 leaf (/lib/a.so\n"
        "\t 6 root (/bin/b)\n"
        "\n"
        " 7 99999999999999999999999.1: \n";
    int64_t outside = 0;
    struct fold *f = parse(bad, 0, INT64_MAX, &outside);
    assert_int_equal(fold_samples(f), 1);
    assert_true(fold_share(f, "leaf", 1) == 1.0);
    assert_true(fold_share(f, "orphan", 0) == 0 && fold_share(f, "lost", 0) == 0);
    fold_free(f);
    f = parse("", 0, 1, &outside);
    assert_int_equal(fold_samples(f), 0);
    fold_free(f);
}

/* A stack deeper than FOLD_MAX_DEPTH keeps its leaf side. */
static void test_perf_script_deep(void **state)
{
    (void)state;
    static char text[64 * (FOLD_MAX_DEPTH + 10) + 64];
    size_t n = (size_t)snprintf(text, sizeof text, " 1 1.0: \n");
    for (int i = 0; i < FOLD_MAX_DEPTH + 10; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "\t 1 f%d (/lib/x.so)\n", i);
    int64_t outside;
    struct fold *f = parse(text, 0, INT64_MAX, &outside);
    assert_int_equal(fold_samples(f), 1);
    assert_true(fold_share(f, "f0", 1) == 1.0);
    fold_free(f);
}

static void test_fold_lines(void **state)
{
    (void)state;
    struct fold *f = fold_new();
    assert_int_equal(fold_add_line(f, "main;a;b 3\n"), 0);
    assert_int_equal(fold_add_line(f, "main;a 1"), 0);
    assert_int_equal(fold_add_line(f, "main;rec;rec;rec 4"), 0);
    assert_int_equal(fold_add_line(f, "no count"), 1);
    assert_int_equal(fold_add_line(f, "main;a -2"), 1);
    assert_int_equal(fold_add_line(f, "main;a 2x"), 1);
    assert_int_equal(fold_add_line(f, ""), 1);
    assert_int_equal(fold_add_line(f, " 5"), 1);
    assert_int_equal(fold_samples(f), 8);
    assert_int_equal(fold_index(f), 0);
    assert_true(fold_share(f, "a", 0) == 0.5);
    assert_true(fold_share(f, "b", 1) == 3.0 / 8);
    assert_true(fold_share(f, "rec", 0) == 0.5); /* recursion counted once per stack */
    const char *frames[] = {"x;y", "z\n"};
    assert_int_equal(fold_add(f, frames, NULL, 2, 1), 0);
    struct fold_func *fn;
    size_t k;
    assert_int_equal(fold_functions(f, &fn, &k), 0);
    int found = 0;
    for (size_t i = 0; i < k; i++)
        found += !strcmp(fn[i].name, "x_y") || !strcmp(fn[i].name, "z_");
    free(fn);
    assert_int_equal(found, 2); /* ';' and controls made '_' */
    fold_free(f);
}

/* f by module, indexed for fold_share (the caller frees it). */
static struct fold *by_module(const struct fold *f)
{
    struct fold *m = fold_new();
    assert_non_null(m);
    assert_int_equal(fold_by_module(f, m), 0);
    assert_int_equal(fold_index(m), 0);
    return m;
}

static void test_by_module(void **state)
{
    (void)state;
    int64_t outside;
    struct fold *f = parse(SCRIPT, 0, 11000000000LL, &outside);
    struct fold *m = by_module(f);
    /* malloc's time charged to the library that called it */
    assert_true(fold_share(m, "libxmlrpc.so.3", 1) == 0.5);
    assert_true(fold_share(m, "libjson-c.so.5", 1) == 0.5);
    assert_true(fold_share(m, "libc.so.6", 0) == 0);
    assert_true(fold_share(m, "server", 0) == 1.0);
    fold_free(m);
    fold_free(f);
}

/* A JIT's map is one module whatever the process's pid, and a Python
 * frame's file is one module whatever its function's line. */
static void test_by_module_jit_and_lines(void **state)
{
    (void)state;
    struct fold *f = fold_new();
    const char *js[] = {"node::Start", "JS:*burn"}, *jsmod[] = {"node", "perf-3274.map"};
    const char *js2[] = {"node::Start", "JS:*work"}, *jsmod2[] = {"node", "perf-5603.map"};
    const char *py[] = {"server.main", "server.burn"};
    const char *pymod[] = {"app/server.py:10", "app/server.py:42"};
    assert_int_equal(fold_add(f, js, jsmod, 2, 30), 0);
    assert_int_equal(fold_add(f, js2, jsmod2, 2, 30), 0);
    assert_int_equal(fold_add(f, py, pymod, 2, 40), 0);
    struct fold *m = by_module(f);
    assert_true(fold_share(m, "JIT", 1) == 0.6);
    assert_true(fold_share(m, "perf-3274.map", 0) == 0);
    assert_true(fold_share(m, "app/server.py", 1) == 0.4);
    fold_free(m);
    fold_free(f);
}

/* The sentence of B - A over one round: A's and B's folded lines
 * (NULL-ended) at ca and cb CPU-ms per call, into summary (len bytes). */
static void one_round_summary(const char *const *a_lines, double ca, const char *const *b_lines,
                              double cb, char *summary, size_t len)
{
    struct fold *fa[1] = {fold_new()}, *fb[1] = {fold_new()};
    for (const char *const *l = a_lines; *l; l++)
        assert_int_equal(fold_add_line(fa[0], *l), 0);
    for (const char *const *l = b_lines; *l; l++)
        assert_int_equal(fold_add_line(fb[0], *l), 0);
    double c_a[1] = {ca}, c_b[1] = {cb};
    int sat[1] = {0};
    struct profile_arm a = {"A", fa, c_a, sat}, b = {"B", fb, c_b, sat};
    static struct profile_diff d;
    assert_int_equal(profile_diff(&a, &b, 1, 0, 10, &d), 0);
    snprintf(summary, len, "%s", d.summary);
    fold_free(fa[0]);
    fold_free(fb[0]);
}

/* Node's case (issue 37): 0.62 ms planted in "burn" under the handler,
 * half of it in the clock reads it makes. By self time the clock read
 * leads the table; the sentence names burn, by its total, once (not its
 * callers, whose totals grew as much, nor its callee). */
static void test_diff_explains_by_totals(void **state)
{
    (void)state;
    struct fold *fa[2], *fb[2];
    double ca[2], cb[2];
    for (int i = 0; i < 2; i++) {
        fa[i] = fold_new();
        fb[i] = fold_new();
        assert_int_equal(fold_add_line(fa[i], "main;handle;work 60"), 0);
        assert_int_equal(fold_add_line(fa[i], "main;handle;parse 40"), 0);
        assert_int_equal(fold_add_line(fb[i], "main;handle;work 60"), 0);
        assert_int_equal(fold_add_line(fb[i], "main;handle;parse 40"), 0);
        assert_int_equal(fold_add_line(fb[i], i ? "main;handle;burn 31" : "main;handle;burn 29"),
                         0);
        assert_int_equal(fold_add_line(fb[i], "main;handle;burn;__vdso_clock_gettime 32"), 0);
        ca[i] = 1.0;
        cb[i] = (double)fold_samples(fb[i]) / 100.0;
    }
    int sat[2] = {0, 0};
    struct profile_arm a = {"A", fa, ca, sat}, b = {"B", fb, cb, sat};
    static struct profile_diff d;
    assert_int_equal(profile_diff(&a, &b, 2, 0, 10, &d), 0);
    assert_string_equal(d.rows[0].func, "__vdso_clock_gettime"); /* the table: by self */
    const char *say = strstr(d.summary, "; burn explains 0.620 ms with its callees");
    assert_non_null(say);
    assert_null(strstr(d.summary, "then")); /* nothing else changed */
    for (int i = 0; i < 2; i++) {
        fold_free(fa[i]);
        fold_free(fb[i]);
    }
}

/* VDSM's case: JSON-RPC's handler costs more only through its callees
 * (the schema check, a deep copy), XML-RPC's marshalling less. The
 * sentence names the handler by its total, and the callees that explain
 * it, since its own code explains none of it. */
static void test_diff_explains_handler_parts(void **state)
{
    (void)state;
    const char *a[] = {"main;handle;work 60", "main;xml;dump 40", NULL};
    const char *b[] = {"main;handle;work 60", "main;handle;verify 50", "main;handle;copy 40",
                       NULL};
    char say[PROFILE_NOTE_LEN];
    one_round_summary(a, 1.0, b, 1.5, say, sizeof say);
    assert_non_null(strstr(say, "; handle explains 0.900 ms with its callees (0.000 ms in "
                                "itself; of it verify 0.500, copy 0.400), then dump -0.400 ms"));
}

/* The parts in order of what they explain, after a callee took its
 * caller's place: mid (0.45) gives way to leaf (0.40, all but 0.05 of
 * it), which explains less than copy (0.42). */
static void test_diff_parts_in_order(void **state)
{
    (void)state;
    const char *a[] = {"main;handle;work 100", NULL};
    const char *b[] = {"main;handle;work 100", "main;handle;mid 5", "main;handle;mid;leaf 40",
                       "main;handle;copy 42", NULL};
    char say[PROFILE_NOTE_LEN];
    one_round_summary(a, 1.0, b, 1.87, say, sizeof say);
    assert_non_null(strstr(say, "(0.000 ms in itself; of it copy 0.420, leaf 0.400)"));
}

/* perf's stacks cut short hang under "[unknown]", whose total then holds
 * the whole change, split between two callees (neither 2/3 of it): the
 * sentence names the functions, not "[unknown]". */
static void test_diff_never_names_unknown(void **state)
{
    (void)state;
    const char *a[] = {"[unknown];eval 100", NULL};
    const char *b[] = {"[unknown];eval 100", "[unknown];encode 30", "[unknown];dump 20", NULL};
    char say[PROFILE_NOTE_LEN];
    one_round_summary(a, 1.0, b, 1.5, say, sizeof say);
    assert_non_null(strstr(say, "; encode explains 0.300 ms with its callees (0.300 ms in "
                                "itself), then dump 0.200 ms"));
}

/* By module, the runtime (node) calls the JIT's code, which calls the
 * runtime back (builtins): each is above the other in some stacks. The
 * JIT, called in most of them, is what the sentence names. */
static void test_diff_explains_mutual_callers(void **state)
{
    (void)state;
    const char *a[] = {"node 50", "node;JIT 45", "node;JIT;node 5", NULL};
    const char *b[] = {"node 60", "node;JIT 125", "node;JIT;node 15", NULL};
    char say[PROFILE_NOTE_LEN];
    one_round_summary(a, 1.0, b, 2.0, say, sizeof say);
    assert_non_null(strstr(say, "; JIT explains 0.900 ms with its callees"));
}

/* Two rounds per arm: "x" costs 2 ms more per call in A, "c" the same. */
static void test_diff(void **state)
{
    (void)state;
    struct fold *fa[2], *fb[2];
    for (int i = 0; i < 2; i++) {
        fa[i] = fold_new();
        fb[i] = fold_new();
        assert_int_equal(fold_add_line(fa[i], "main;x 50"), 0);
        assert_int_equal(fold_add_line(fa[i], "main;c 50"), 0);
        assert_int_equal(fold_add_line(fb[i], "main;c 100"), 0);
    }
    double ca[2] = {4.0, 4.2}, cb[2] = {2.0, 2.0};
    int sat[2] = {0, 0};
    struct profile_arm a = {"A", fa, ca, sat}, b = {"B", fb, cb, sat};
    static struct profile_diff d;
    assert_int_equal(profile_diff(&a, &b, 2, 0, 10, &d), 0);
    assert_string_equal(d.refused, "");
    assert_string_equal(d.rows[0].func, "x");
    assert_true(fabs(d.rows[0].d_self + 2.05) < 1e-9);
    assert_true(fabs(d.d_cpu + 2.1) < 1e-9);
    for (int i = 0; i < d.nrows; i++)
        if (!strcmp(d.rows[i].func, "c"))
            assert_true(fabs(d.rows[i].d_self + 0.05) < 1e-9);
    sat[1] = 1; /* a saturated round: refused unless saturated_ok */
    assert_int_equal(profile_diff(&a, &b, 2, 0, 10, &d), 0);
    assert_non_null(strstr(d.refused, "saturation"));
    struct fold *kept = fb[1];
    fb[1] = NULL; /* a round without a profile: refused */
    assert_int_equal(profile_diff(&a, &b, 2, 1, 10, &d), 0);
    assert_non_null(strstr(d.refused, "no profile"));
    for (int i = 0; i < 2; i++)
        fold_free(fa[i]);
    fold_free(fb[0]);
    fold_free(kept);
}

/* The flame tree: callers before callees, a name under two callers two
 * frames, siblings in name order, frames under the share left out, and
 * the cap on frames keeping each kept frame's callers. */
static void test_flame(void **state)
{
    (void)state;
    struct fold *f = fold_new();
    assert_int_equal(fold_add_line(f, "main;b;leaf 50"), 0);
    assert_int_equal(fold_add_line(f, "main;a;leaf 30"), 0);
    assert_int_equal(fold_add_line(f, "main;a 19"), 0);
    assert_int_equal(fold_add_line(f, "main;a!;tiny 1"), 0);
    static struct profile_summary s;
    assert_int_equal(fold_flame(f, 0.05, &s), 0);
    static const char *const names[] = {"all", "main", "a", "leaf", "b", "leaf"};
    static const int parents[] = {-1, 0, 1, 2, 1, 4};
    static const int64_t totals[] = {100, 100, 49, 30, 50, 50};
    assert_int_equal(s.nflame, 6);
    for (int i = 0; i < 6; i++) {
        assert_string_equal(s.flame[i].func, names[i]);
        assert_int_equal(s.flame[i].parent, parents[i]);
        assert_int_equal(s.flame[i].total, totals[i]);
    }
    assert_int_equal(s.flame[2].self, 19);
    assert_int_equal(fold_flame(f, 0, &s), 0); /* everything: "a!" after "a"'s callees */
    assert_int_equal(s.nflame, 8);
    assert_string_equal(s.flame[4].func, "a!");
    assert_int_equal(s.flame[4].parent, 1);
    fold_free(f);
    f = fold_new(); /* wider than the cap: the busiest kept, with their callers */
    char line[64];
    for (int i = 0; i < 2 * PROFILE_MAX_FLAME; i++) {
        snprintf(line, sizeof line, "main;f%03d;g %d", i, i + 1);
        assert_int_equal(fold_add_line(f, line), 0);
    }
    assert_int_equal(fold_flame(f, 0, &s), 0);
    assert_int_equal(s.nflame, PROFILE_MAX_FLAME);
    for (int i = 1; i < s.nflame; i++) {
        assert_true(s.flame[i].parent >= 0 && s.flame[i].parent < i);
        if (!strcmp(s.flame[i].func, "g"))
            assert_string_equal(s.flame[i - 1].func + 0, s.flame[s.flame[i].parent].func);
    }
    fold_free(f);
}

/* A saved tree read back: a frame whose caller is not before it, a
 * count that is no count or a row of the wrong shape ends it there. */
static void test_flame_load(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        int n;
    } cases[] = {
        {"[[\"all\",-1,0,10],[\"a\",0,4,10],[\"b\",1,6,6]]", 3},
        {"[[\"all\",-1,0,10],[\"a\",5,0,1]]", 1},       /* its caller after it */
        {"[[\"all\",-1,0,10],[\"a\",1,0,1]]", 1},       /* its own caller */
        {"[[\"all\",-1,0,10],[\"a\",0,2,1]]", 1},       /* self over total */
        {"[[\"all\",-1,0,10],[\"a\",0,-1,1]]", 1},      /* negative */
        {"[[\"all\",-1,0,10],[7,0,0,1]]", 1},             /* no name */
        {"[[\"all\",-1,0,10],[\"a\",0,0]]", 1},         /* short */
        {"[[\"all\",0,0,10]]", 0},                      /* a root with a caller */
        {"{\"all\":1}", 0},
    };
    static struct profile_summary s;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"samples\":10,\"flame\":%s}", cases[i].json);
        json_object *o = json_tokener_parse(text);
        assert_non_null(o);
        profile_sum_load(o, &s);
        assert_int_equal(s.nflame, cases[i].n);
        json_object_put(o);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perf_script),
        cmocka_unit_test(test_perf_script_bad_input),
        cmocka_unit_test(test_perf_script_deep),
        cmocka_unit_test(test_fold_lines),
        cmocka_unit_test(test_by_module),
        cmocka_unit_test(test_diff),
        cmocka_unit_test(test_by_module_jit_and_lines),
        cmocka_unit_test(test_diff_explains_by_totals),
        cmocka_unit_test(test_diff_explains_mutual_callers),
        cmocka_unit_test(test_diff_explains_handler_parts),
        cmocka_unit_test(test_diff_parts_in_order),
        cmocka_unit_test(test_diff_never_names_unknown),
        cmocka_unit_test(test_flame),
        cmocka_unit_test(test_flame_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
