/* vmsim_check: helpers the simulator's unit tests share (test_vmsim.c,
 * test_vmsim_full.c). Include after <cmocka.h>. */
#ifndef RPCBENCH_TESTS_VMSIM_CHECK_H
#define RPCBENCH_TESTS_VMSIM_CHECK_H

#include <json-c/json.h>

#include "base/err.h"
#include "server/vmsim.h"
#include "server/vmsim_testing.h"

/* A simulator of n VMs from seed, its clock set to 0 (fails the test when
 * it cannot be made). The caller frees it with vmsim_free. */
static inline struct vmsim *mk(int n, uint64_t seed)
{
    char err[ERR_LEN] = "";
    struct vmsim *sim = vmsim_new(n, seed, err);
    assert_non_null(sim);
    vmsim_set_time(sim, 0);
    return sim;
}

/* o's member key (borrowed), failing the test when it is missing. */
static inline json_object *field(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v))
        fail_msg("missing field %s", key);
    return v;
}

/* o's string member key (borrowed), failing the test unless it is one. */
static inline const char *str_field(json_object *o, const char *key)
{
    json_object *v = field(o, key);
    if (!json_object_is_type(v, json_type_string))
        fail_msg("%s is not a string", key);
    return json_object_get_string(v);
}

#endif
