/* test_tmpl: the template renderer on both encodings' real rendering: a
 * whole ${seq} becomes an integer value (<int>, or a bare JSON number), a
 * partial one text; strings from a file are escaped for each encoding; the
 * id slot lands where the stamp says; ${rand} keeps its bounds; the same
 * seed gives the same values; ${line} wraps; and a steady run of stamps
 * allocates nothing once the buffer has grown. Bad templates are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include "encoders/encoder.h"
#include "workload/tmpl.h"
#include "workload/workload.h"

struct fixture {
    struct tmpl_var vars[TMPL_MAX_VARS];
    size_t nvars, nfiles;
    struct tmpl_file files[TMPL_MAX_FILES];
    char dir[64];
};

static void make_dir(struct fixture *f)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/test_tmpl.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    char p[128];
    snprintf(p, sizeof p, "%s/ids.txt", f->dir);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fputs("a<&\"\\b\r\n\nsecond\n", fp); /* specials, CRLF, an empty line */
    fclose(fp);
}

static void drop_dir(struct fixture *f)
{
    char p[128];
    snprintf(p, sizeof p, "%s/ids.txt", f->dir);
    unlink(p);
    rmdir(f->dir);
    tmpl_files_free(f->files, f->nfiles);
}

/* params with markers, rendered by enc and compiled into t */
static void compile(struct fixture *f, const struct encoder *enc, const char *const *strs,
                    size_t n, struct tmpl *t, struct enc_request *req)
{
    char err[ERR_LEN], out[512];
    json_object *params = json_object_new_array();
    for (size_t i = 0; i < n; i++) {
        if (tmpl_parse_string(strs[i], "rpcbenchV", f->dir, f->vars, &f->nvars, f->files,
                              &f->nfiles, out, sizeof out, err))
            fail_msg("%s: %s", strs[i], err);
        json_object_array_add(params, json_object_new_string(out));
    }
    assert_int_equal(enc->render_request("m", params, req, err), ENC_OK);
    json_object_put(params);
    if (tmpl_compile(t, "rpcbenchV", req->body.data, req->body.len, req->id_off, req->id_len,
                     enc == &enc_xmlrpc, f->vars, f->nvars, err))
        fail_msg("compile: %s", err);
}

static void xmlrpc_values(void **state)
{
    (void)state;
    struct fixture f = {0};
    struct tmpl t = {0};
    struct enc_request req = {0};
    struct tmpl_state st;
    struct buf out = {0};
    size_t id = 0;
    make_dir(&f);
    const char *strs[] = {"${seq}", "vm-${seq}", "${line:ids.txt}", "${rand:-3:3}"};
    compile(&f, &enc_xmlrpc, strs, 4, &t, &req);
    tmpl_state_init(&st, 1, 1, 0);
    assert_int_equal(tmpl_stamp(&t, f.vars, f.files, &st, 1, 41, &out, &id), 0);
    buf_append(&out, "", 1);
    assert_non_null(strstr(out.data, "<value><int>41</int></value>"));
    assert_non_null(strstr(out.data, "<value><string>vm-41</string></value>"));
    assert_non_null(strstr(out.data, "<string>a&lt;&amp;\"\\b</string>"));
    assert_null(strstr(out.data, "rpcbenchV"));
    assert_int_equal(tmpl_stamp(&t, f.vars, f.files, &st, 1, (uint64_t)1 << 40, &out, &id), 0);
    buf_append(&out, "", 1);
    assert_non_null(strstr(out.data, "<i8>1099511627776</i8>"));
    assert_non_null(strstr(out.data, "<string>second</string>")); /* the next line */
    assert_int_equal(tmpl_stamp(&t, f.vars, f.files, &st, 1, 0, &out, &id), 0);
    buf_append(&out, "", 1);
    assert_non_null(strstr(out.data, "<string>a&lt;")); /* wrapped */
    tmpl_free(&t);
    enc_request_free(&req);
    buf_free(&out);
    drop_dir(&f);
}

static void jsonrpc_values_and_id(void **state)
{
    (void)state;
    struct fixture f = {0};
    struct tmpl t = {0};
    struct enc_request req = {0};
    struct tmpl_state st;
    struct buf out = {0};
    size_t id = 0;
    make_dir(&f);
    const char *strs[] = {"${seq}", "x${pick:ids.txt}", "${uuid}", "${rand:5:6}"};
    compile(&f, &enc_jsonrpc, strs, 4, &t, &req);
    tmpl_state_init(&st, 7, 1, 0);
    for (int i = 0; i < 200; i++) {
        assert_int_equal(tmpl_stamp(&t, f.vars, f.files, &st, 0, 12345, &out, &id), 0);
        struct enc_request slot = {.body = out, .id_off = id, .id_len = t.id_len};
        enc_stamp_id(&slot, 0xabc);
        json_object *doc = json_tokener_parse(out.data); /* buf keeps it NUL-ended */
        assert_non_null(doc);
        json_object *p = json_object_object_get(doc, "params");
        assert_int_equal(json_object_get_int64(json_object_array_get_idx(p, 0)), 12345);
        const char *s = json_object_get_string(json_object_array_get_idx(p, 1));
        assert_true(!strcmp(s, "xa<&\"\\b") || !strcmp(s, "xsecond"));
        assert_int_equal(strlen(json_object_get_string(json_object_array_get_idx(p, 2))), 36);
        int64_t r = json_object_get_int64(json_object_array_get_idx(p, 3));
        assert_true(r == 5 || r == 6);
        const char *idtext = json_object_get_string(json_object_object_get(doc, "id"));
        assert_non_null(strstr(idtext, "000000000abc"));
        json_object_put(doc);
    }
    tmpl_free(&t);
    enc_request_free(&req);
    buf_free(&out);
    drop_dir(&f);
}

static void same_seed_same_values(void **state)
{
    (void)state;
    struct fixture f = {0};
    struct tmpl t = {0};
    struct enc_request req = {0};
    struct tmpl_state a, b;
    struct buf x = {0}, y = {0};
    size_t id;
    make_dir(&f);
    const char *strs[] = {"${uuid}", "${rand:0:1000000}"};
    compile(&f, &enc_jsonrpc, strs, 2, &t, &req);
    tmpl_state_init(&a, 3, 1, 0);
    tmpl_state_init(&b, 3, 1, 0);
    for (int i = 0; i < 10; i++) {
        tmpl_stamp(&t, f.vars, f.files, &a, 0, 0, &x, &id);
        tmpl_stamp(&t, f.vars, f.files, &b, 0, 0, &y, &id);
        assert_int_equal(x.len, y.len);
        assert_memory_equal(x.data, y.data, x.len);
    }
    void *before = x.data;
    size_t cap = x.cap;
    for (int i = 0; i < 1000; i++) /* a steady run: the buffer never moves */
        tmpl_stamp(&t, f.vars, f.files, &a, 0, 0, &x, &id);
    assert_ptr_equal(before, x.data);
    assert_int_equal(cap, x.cap);
    tmpl_free(&t);
    enc_request_free(&req);
    buf_free(&x);
    buf_free(&y);
    drop_dir(&f);
}

static void bad_templates_refused(void **state)
{
    (void)state;
    struct fixture f = {0};
    char out[128], err[ERR_LEN];
    make_dir(&f);
    const char *bad[] = {"${nope}", "${rand:2:1}", "${rand:x:1}", "${pick:absent.txt}",
                         "${seq", "${pick:}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (tmpl_parse_string(bad[i], "rpcbenchV", f.dir, f.vars, &f.nvars, f.files, &f.nfiles,
                              out, sizeof out, err) == 0)
            fail_msg("'%s' was taken", bad[i]);
    drop_dir(&f);
}

/* A user's text that looks like a marker stays text: the call's markers
 * take a head its method and params do not have (a key, a tagged value
 * and the method name count too), and only the real template is cut. */
static void marker_text_stays_text(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_tmpl.XXXXXX", path[64], err[ERR_LEN];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/w.jsonl", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("{\"method\": \"m.rpcbenchX\", \"params\": [\"rpcbenchV0000Z\", "
          "{\"rpcbenchW0000Z\": {\"$base64\": \"cnBjYmVuY2hZ\"}}, \"x-${seq}\", "
          "\"rpcbenchY\"]}\n", fp);
    fclose(fp);
    static struct workload w;
    if (workload_load(&w, path, err))
        fail_msg("%s", err);
    assert_string_equal(w.call[0].head, "rpcbenchZ");
    for (int xml = 0; xml < 2; xml++) {
        const struct encoder *enc = xml ? &enc_xmlrpc : &enc_jsonrpc;
        struct enc_request req = {0};
        struct tmpl t = {0};
        struct tmpl_state st;
        struct buf out = {0};
        size_t id = 0;
        json_object *params = workload_params(&w.call[0], xml);
        assert_int_equal(enc->render_request(w.call[0].method, params, &req, err), ENC_OK);
        json_object_put(params);
        if (tmpl_compile(&t, w.call[0].head, req.body.data, req.body.len, req.id_off, req.id_len,
                         xml, w.vars, w.nvars, err))
            fail_msg("compile: %s", err);
        assert_int_equal(t.nvars, 1);
        tmpl_state_init(&st, 1, 1, 0);
        assert_int_equal(tmpl_stamp(&t, w.vars, w.files, &st, xml, 7, &out, &id), 0);
        buf_append(&out, "", 1);
        assert_non_null(strstr(out.data, "rpcbenchV0000Z"));
        assert_non_null(strstr(out.data, "rpcbenchW0000Z"));
        assert_non_null(strstr(out.data, "x-7"));
        assert_null(strstr(out.data, "rpcbenchZ"));
        tmpl_free(&t);
        enc_request_free(&req);
        buf_free(&out);
    }
    workload_free(&w);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(xmlrpc_values),
        cmocka_unit_test(jsonrpc_values_and_id),
        cmocka_unit_test(same_seed_same_values),
        cmocka_unit_test(bad_templates_refused),
        cmocka_unit_test(marker_text_stays_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
