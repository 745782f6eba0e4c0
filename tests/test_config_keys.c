/* test_config_keys: every row of the saved configuration's table
 * (model/config_keys.c) comes back from a saved config as it went in,
 * under its key; and a file without the key loads the row's default, as
 * files saved before the key existed do. One row per field is the whole
 * of adding one: this test walks the table, so a new row is tested too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/config_keys.h"
#include "model/result_json.h"

static struct run_config in, out; /* large: off the stack */

/* A value for k's field that no default has. */
static void set_distinct(const struct config_key *k, struct run_config *c, int i)
{
    void *at = config_key_at(k, c);
    switch (k->kind) {
    case CFK_BOOL: *(int *)at = 1; break;
    case CFK_INT: *(int *)at = (int)k->lo + 3 + i; break;
    case CFK_U64: *(uint64_t *)at = 12345678901ULL + (uint64_t)i; break;
    case CFK_DOUBLE: *(double *)at = 37.5 + i; break;
    case CFK_SECONDS:
    case CFK_SECONDS_OR_NULL: *(int64_t *)at = 2500000000LL + i * 1000000LL; break;
    case CFK_WINDOW_US: *(int64_t *)at = 200000 + i * 1000; break;
    case CFK_SIZE: *(size_t *)at = 12345 + (size_t)i; break;
    case CFK_CHOICE: *(int *)at = ((int)k->dflt + 1) % k->nchoices; break;
    case CFK_TEXT: snprintf(at, k->size, "x-%s", k->key); break;
    case CFK_VERBS:
        snprintf(c->verbs[0].name, sizeof c->verbs[0].name, "list");
        snprintf(c->verbs[1].name, sizeof c->verbs[1].name, "getAllVmStats");
        c->verbs[0].weight = 3, c->verbs[1].weight = 1;
        c->nverbs = 2;
        break;
    case CFK_PCTS:
        c->pcts[0] = 50, c->pcts[1] = 99.9, c->pcts[2] = 100;
        c->npcts = 3;
        break;
    case CFK_BYTES: break; /* counts and secrets: never saved */
    case CFK_STAGES:
        c->stages[0] = (struct run_stage){.duration_ns = 2000000000LL, .from = 5, .to = 20};
        c->stages[1] = (struct run_stage){.duration_ns = 1000000000LL, .from = 20, .to = 20};
        c->nstages = 2;
        break;
    }
}

/* @return 1 when k's field is the same in a and b. */
static int same(const struct config_key *k, const struct run_config *a,
                const struct run_config *b)
{
    switch (k->kind) {
    case CFK_VERBS:
        if (a->nverbs != b->nverbs)
            return 0;
        for (size_t i = 0; i < a->nverbs; i++)
            if (strcmp(a->verbs[i].name, b->verbs[i].name) ||
                a->verbs[i].weight != b->verbs[i].weight)
                return 0;
        return 1;
    case CFK_PCTS:
        return a->npcts == b->npcts && !memcmp(a->pcts, b->pcts, a->npcts * sizeof a->pcts[0]);
    case CFK_STAGES:
        return a->nstages == b->nstages &&
               !memcmp(a->stages, b->stages, a->nstages * sizeof a->stages[0]);
    case CFK_TEXT:
        return !strcmp(config_key_in(k, a), config_key_in(k, b));
    default:
        return !memcmp(config_key_in(k, a), config_key_in(k, b), k->size);
    }
}

static void round_trip(void)
{
    json_object *j = result_config_json(&in, "http://127.0.0.1:1/RPC2");
    memset(&out, 0, sizeof out);
    result_config_load(j, &out);
    json_object_put(j);
}

static void test_every_row_round_trips(void **state)
{
    (void)state;
    memset(&in, 0, sizeof in);
    snprintf(in.encoding, sizeof in.encoding, "jsonrpc");
    for (size_t i = 0; i < config_nkeys; i++)
        set_distinct(&config_keys[i], &in, (int)i);
    round_trip();
    for (size_t i = 0; i < config_nkeys; i++) {
        if (config_keys[i].flags & CFK_UNSAVED)
            continue; /* never written, never read (or saved with another row) */
        int back = same(&config_keys[i], &in, &out);
        if (!back)
            print_error("config key %s did not come back\n", config_keys[i].key);
        assert_true(back);
    }
}

/* Each row's field is as wide as its kind reads and writes it. */
static void test_rows_fit_their_fields(void **state)
{
    (void)state;
    for (size_t i = 0; i < config_nkeys; i++) {
        const struct config_key *k = &config_keys[i];
        size_t want = 0;
        switch (k->kind) {
        case CFK_BOOL: case CFK_INT: case CFK_CHOICE: want = sizeof(int); break;
        case CFK_U64: want = sizeof(uint64_t); break;
        case CFK_DOUBLE: want = sizeof(double); break;
        case CFK_SECONDS: case CFK_SECONDS_OR_NULL: case CFK_WINDOW_US: want = sizeof(int64_t);
            break;
        case CFK_SIZE: want = sizeof(size_t); break;
        default: continue;
        }
        assert_int_equal(k->size, want);
        for (size_t j = 0; j < i; j++)
            assert_true(strcmp(k->key, config_keys[j].key) != 0);
        assert_true(k->kind != CFK_CHOICE || (k->choices && k->nchoices > 1));
    }
}

static int by_off(const void *a, const void *b)
{
    const struct config_key *x = *(const struct config_key *const *)a;
    const struct config_key *y = *(const struct config_key *const *)b;
    return (x->off > y->off) - (x->off < y->off);
}

/* Every field of struct run_config has its row: the rows, in the
 * struct's order, overlap nowhere and leave no gap but alignment padding
 * (under 8 bytes), so a field added without a row fails here, and is not
 * silently left out of the MPI ranks' results (dist_pack.c). */
static void test_rows_cover_the_struct(void **state)
{
    (void)state;
    const struct config_key *k[128];
    assert_true(config_nkeys <= 128);
    for (size_t i = 0; i < config_nkeys; i++)
        k[i] = &config_keys[i];
    qsort(k, config_nkeys, sizeof k[0], by_off);
    size_t end = 0;
    for (size_t i = 0; i < config_nkeys; i++) {
        if (k[i]->off < end || k[i]->off - end >= 8)
            print_error("before %s: bytes %zu..%zu have no row (or rows overlap)\n", k[i]->key,
                        end, k[i]->off);
        assert_true(k[i]->off >= end && k[i]->off - end < 8);
        end = k[i]->off + k[i]->size;
    }
    assert_true(sizeof(struct run_config) - end < 8);
}

/* An older file, without the keys: each row's default. */
static void test_absent_keys_load_defaults(void **state)
{
    (void)state;
    json_object *root = json_object_new_object();
    json_object_object_add(root, "config", json_object_new_object());
    memset(&out, 0, sizeof out);
    result_config_load(root, &out);
    json_object_put(root);
    assert_int_equal(out.timeout_ns, 10000000000LL);
    assert_int_equal(out.interval_ns, 1000000000LL);
    assert_int_equal(out.idle_baseline_ns, -1);
    assert_int_equal(out.max_response, 64u << 20);
    assert_int_equal(out.validate, VALIDATE_CHEAP);
    assert_string_equal(out.buckets, "auto");
    assert_true(out.cpu_saturation == 95);
}

/* Unknown (null) timeouts stay unknown; a bad choice name is the default. */
static void test_null_and_bad_values(void **state)
{
    (void)state;
    memset(&in, 0, sizeof in);
    in.warmup_ns = in.timeout_ns = in.idle_baseline_ns = -1;
    round_trip();
    assert_int_equal(out.warmup_ns, -1);
    assert_int_equal(out.timeout_ns, -1);
    assert_int_equal(out.idle_baseline_ns, -1);
    json_object *root = json_object_new_object(), *c = json_object_new_object();
    json_object_object_add(c, "validate", json_object_new_string("paranoid"));
    json_object_object_add(c, "connections", json_object_new_int64(-4));
    json_object_object_add(c, "max_response", json_object_new_double(-1));
    json_object_object_add(root, "config", c);
    memset(&out, 0, sizeof out);
    result_config_load(root, &out);
    json_object_put(root);
    assert_int_equal(out.validate, VALIDATE_CHEAP);
    assert_int_equal(out.connections, 0);
    assert_int_equal(out.max_response, 64u << 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row_round_trips),
        cmocka_unit_test(test_rows_fit_their_fields),
        cmocka_unit_test(test_rows_cover_the_struct),
        cmocka_unit_test(test_absent_keys_load_defaults),
        cmocka_unit_test(test_null_and_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
