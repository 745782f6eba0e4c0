/* sim_cache: every host keeps its own VMs; only the last hosts whose
 * objects were built keep them, and a list builds none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"
#include "server/sim_cache.h"
#include "server/vmsim_testing.h"

/* A call to host: its stats (builds objects) or its list (builds none). */
static void call(struct sim_cache *c, int host, int want_stats)
{
    char err[ERR_LEN];
    struct vmsim *s = sim_cache_get(c, host, err);
    assert_non_null(s);
    json_object_put(want_stats ? vmsim_stats_all(s) : vmsim_list(s));
    sim_cache_settle(c, host);
}

#define stats(c, host) call(c, host, 1)
#define list(c, host) call(c, host, 0)

static void test_objects_of_the_last_hosts_only(void **state)
{
    (void)state;
    struct sim_cache c;
    assert_int_equal(sim_cache_init(&c, 3, 1, 5, 10), 0);
    stats(&c, 0);
    assert_true(vmsim_has_trees(c.sims[0]));
    list(&c, 1); /* builds nothing: host 0 keeps its objects */
    assert_true(vmsim_has_trees(c.sims[0]));
    assert_false(vmsim_has_trees(c.sims[1]));
    assert_int_equal(c.drops, 0);
    stats(&c, 1);
    assert_false(vmsim_has_trees(c.sims[0]));
    assert_true(vmsim_has_trees(c.sims[1]));
    assert_int_equal(c.drops, 1);
    assert_int_equal(c.made, 2);
    assert_null(c.sims[2]);
    sim_cache_free(&c);
}

static void test_each_host_its_own_vms(void **state)
{
    (void)state;
    struct sim_cache c;
    char err[ERR_LEN];
    assert_int_equal(sim_cache_init(&c, 2, 1, 5, 10), 0);
    struct vmsim *a = sim_cache_get(&c, 0, err), *b = sim_cache_get(&c, 1, err);
    assert_string_not_equal(vmsim_vm_id(a, 0), vmsim_vm_id(b, 0));
    assert_ptr_equal(sim_cache_get(&c, 0, err), a); /* kept, not made again */
    struct vmsim *own = vmsim_new(5, 11, err); /* host 1: seed + 1 */
    assert_string_equal(vmsim_vm_id(own, 3), vmsim_vm_id(b, 3));
    vmsim_free(own);
    sim_cache_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_objects_of_the_last_hosts_only),
        cmocka_unit_test(test_each_host_its_own_vms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
