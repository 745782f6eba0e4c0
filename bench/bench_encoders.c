/* bench_encoders: a plain loop over the encoders' hot paths with a
 * getAllVmStats answer for N VMs (default 150) cloned from a real-shaped
 * VM stats sample; prints us/call and MB/s per operation.
 *
 * usage: bench_encoders [vmstats-sample.json] [vms] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "encoder.h"

static json_object *answer(const char *sample_path, int vms)
{
    json_object *one = json_object_from_file(sample_path);
    if (!one)
        return NULL;
    json_object *list = json_object_new_array();
    for (int i = 0; i < vms; i++) {
        json_object *vm = NULL;
        json_object_deep_copy(one, &vm, NULL);
        char id[64];
        snprintf(id, sizeof id, "6f2b8a3c-1d4e-4b7a-9c61-%012d", i);
        json_object_object_add(vm, "vmId", json_object_new_string(id));
        json_object_array_add(list, vm);
    }
    json_object_put(one);
    return list;
}

typedef int (*check_fn)(const char *, size_t, struct enc_result *);

/* Runs fn over body for about 0.5 s (bounded by iterations). */
static void time_check(const char *what, check_fn fn, const struct buf *body)
{
    struct enc_result r;
    int64_t start = clock_now_ns(), now = start;
    long n = 0;
    for (; n < 1000000 && now - start < NS_PER_S / 2; n++) {
        fn(body->data, body->len, &r);
        if ((n & 15) == 0)
            now = clock_now_ns();
    }
    now = clock_now_ns();
    double us = (double)(now - start) / 1e3 / (double)n;
    printf("  %-28s %10.2f us/call %9.1f MB/s  (status %d, items %lld)\n", what, us,
           (double)body->len / us, r.status, (long long)r.items);
}

static void time_render(const struct encoder *enc, const struct enc_answer *ans, struct buf *out)
{
    int64_t start = clock_now_ns(), now = start;
    long n = 0;
    for (; n < 100000 && now - start < NS_PER_S / 2; n++) {
        buf_reset(out);
        enc->render_result(NULL, ans, out);
        now = clock_now_ns();
    }
    double us = (double)(now - start) / 1e3 / (double)n;
    printf("  %-28s %10.2f us/call %9.1f MB/s\n", "render_result (server)", us,
           (double)out->len / us);
}

/* The same document with the status member moved after the list, as a
 * Python 2 dict may order it: the cheap check must then scan. */
static int status_last(const struct buf *in, struct buf *out)
{
    const char *s = strstr(in->data, "<member><name>status</name>");
    const char *e = s ? strstr(s, "</struct></value></member>") : NULL;
    const char *t = strstr(in->data, "</struct></value></param>");
    if (!s || !e || !t || t < e)
        return -1;
    e += strlen("</struct></value></member>");
    buf_append(out, in->data, (size_t)(s - in->data));
    buf_append(out, e, (size_t)(t - e));
    buf_append(out, s, (size_t)(e - s));
    return buf_append_str(out, t);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "tests/data/vmstats-sample.json";
    int vms = argc > 2 ? atoi(argv[2]) : 150;
    json_object *list = answer(path, vms);
    if (!list) {
        fprintf(stderr, "bench_encoders: cannot read %s\n", path);
        return 1;
    }
    struct enc_answer ans = {list, "statsList"};
    const struct encoder *encs[] = {&enc_xmlrpc, &enc_jsonrpc};
    for (int e = 0; e < 2; e++) {
        struct buf out = {0};
        time_render(encs[e], &ans, &out);
        printf("%s getAllVmStats, %d VMs, %.2f MB:\n", encs[e]->name, vms, (double)out.len / 1e6);
        time_check("check_response (cheap)", encs[e]->check_response, &out);
        time_check("decode_response (full)", encs[e]->decode_response, &out);
        struct buf moved = {0};
        if (e == 0 && status_last(&out, &moved) == 0)
            time_check("check_response, status last", encs[e]->check_response, &moved);
        buf_free(&moved);
        buf_free(&out);
    }
    json_object_put(list);
    return 0;
}
