/* vmsim full VM definitions: the schema's VMFullInfo shape and wire types,
 * agreement with the stats, vmList filtering, sizes, determinism. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/units.h"
#include "server/vmsim.h"
#include "server/vmsim_testing.h"
#include "vmsim_check.h"

/* VMFullInfo's properties without a default in VDSM's schema (vdsm-api.yml):
 * vdsmapi reports each one missing. */
static const char *const vm_full_info_required[] = {
    "acpiEnable", "arch", "clientIp", "cpuType", "custom", "devices", "emulatedMachine",
    "guestDiskMapping", "guestFQDN", "guestIPs", "keyboardLayout", "kvmEnable",
    "memGuaranteedSize", "memSize", "nicModel", "nice", "pauseCode", "pid", "pitReinjection",
    "smartcardEnable", "smp", "smpCoresPerSocket", "spiceSslCipherSuite", "status", "statusTime",
    "timeOffset", "transparentHugePages", "username", "vmId", "vmName", "vmType", NULL};
/* ... and the ones with a default. */
static const char *const vm_full_info_optional[] = {
    "display", "displayIp", "displayPort", "displaySecurePort", "guestOsInfo", "guestTimezone",
    "spiceSecureChannels", NULL};
/* VMFullInfo fields the schema types uint/int (not strings, unlike VmStats). */
static const char *const vm_full_info_ints[] = {
    "memSize", "memGuaranteedSize", "smp", "smpCoresPerSocket", "nice", "timeOffset", "pid",
    "statusTime", "displayPort", "displaySecurePort", NULL};
static const char *const vm_full_info_bools[] = {
    "acpiEnable", "kvmEnable", "pitReinjection", "smartcardEnable", "transparentHugePages", NULL};

static int in(const char *const *list, const char *key)
{
    for (; *list; list++)
        if (!strcmp(*list, key))
            return 1;
    return 0;
}

static void check_shape(json_object *vm)
{
    for (const char *const *k = vm_full_info_required; *k; k++)
        field(vm, *k);
    json_object_object_foreach(vm, key, val) {
        (void)val;
        if (!in(vm_full_info_required, key) && !in(vm_full_info_optional, key))
            fail_msg("%s is not a VMFullInfo property", key);
    }
    for (const char *const *k = vm_full_info_ints; *k; k++) {
        json_object *v = field(vm, *k);
        if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
            fail_msg("%s is not a uint", *k);
    }
    for (const char *const *k = vm_full_info_bools; *k; k++)
        if (!json_object_is_type(field(vm, *k), json_type_boolean))
            fail_msg("%s is not a boolean", *k);
    assert_string_equal(str_field(vm, "status"), "Up");
    assert_string_equal(str_field(vm, "vmType"), "kvm");
    assert_true(json_object_is_type(field(vm, "custom"), json_type_object));
    json_object_object_foreach(field(vm, "custom"), ck, cv) {
        (void)ck;
        assert_true(json_object_is_type(cv, json_type_string)); /* StringMap */
    }
}

/* How many devices of deviceType type; each device has deviceType and device. */
static int count_devices(json_object *vm, const char *type)
{
    json_object *devs = field(vm, "devices");
    int n = 0;
    assert_true(json_object_is_type(devs, json_type_array));
    for (size_t i = 0; i < json_object_array_length(devs); i++) {
        json_object *d = json_object_array_get_idx(devs, i);
        field(d, "device");
        n += !strcmp(str_field(d, "deviceType"), type);
    }
    return n;
}

/* The definition names the devices the stats show: same disks (imageID),
 * same NICs (macAddr), same vmId, pid and vCPUs. */
static void check_matches_stats(json_object *full, json_object *stats)
{
    json_object *disks = field(stats, "disks"), *nets = field(stats, "network");
    assert_string_equal(str_field(full, "vmId"), str_field(stats, "vmId"));
    assert_int_equal(json_object_get_int(field(full, "pid")), atoi(str_field(stats, "pid")));
    assert_int_equal(json_object_get_int(field(full, "smp")), atoi(str_field(stats, "vcpuCount")));
    assert_int_equal(count_devices(full, "disk"), json_object_object_length(disks));
    assert_int_equal(count_devices(full, "interface"), json_object_object_length(nets));
    assert_int_equal(count_devices(full, "graphics"), 1);
    json_object *devs = field(full, "devices");
    for (size_t i = 0; i < json_object_array_length(devs); i++) {
        json_object *d = json_object_array_get_idx(devs, i);
        const char *type = str_field(d, "deviceType");
        int found = 0;
        if (!strcmp(type, "disk")) {
            json_object_object_foreach(disks, dn, sd) {
                (void)dn;
                found |= !strcmp(str_field(sd, "imageID"), str_field(d, "imageID"));
            }
            assert_true(json_object_array_length(field(d, "volumeChain")) >= 1);
            assert_true(json_object_is_type(field(d, "truesize"), json_type_int));
        } else if (!strcmp(type, "interface")) {
            json_object_object_foreach(nets, nn, sn) {
                (void)nn;
                found |= !strcmp(str_field(sn, "macAddr"), str_field(d, "macAddr"));
            }
        } else {
            found = 1;
        }
        if (!found)
            fail_msg("%s device %zu is not in the stats", type, i);
    }
}

static void test_full_shape_and_size(void **state)
{
    (void)state;
    struct vmsim *s = mk(150, 7);
    json_object *full = vmsim_full_list(s, NULL), *stats = vmsim_stats_all(s);
    assert_int_equal(json_object_array_length(full), 150);
    for (size_t i = 0; i < 150; i++) {
        json_object *vm = json_object_array_get_idx(full, i);
        check_shape(vm);
        check_matches_stats(vm, json_object_array_get_idx(stats, i));
    }
    /* A VM's definition with 7-11 devices: several KB of JSON, more than
     * its stats (vdsClient's "list table" was the expensive list). */
    size_t flen = strlen(json_object_to_json_string_ext(full, JSON_C_TO_STRING_PLAIN));
    size_t slen = strlen(json_object_to_json_string_ext(stats, JSON_C_TO_STRING_PLAIN));
    assert_in_range(flen / 150, 4000, 9000);
    assert_true(flen > slen);
    json_object_put(full);
    json_object_put(stats);
    vmsim_free(s);
}

static json_object *ids(int n, const char *const *v)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < n; i++)
        json_object_array_add(a, json_object_new_string(v[i]));
    return a;
}

static void test_full_filter(void **state)
{
    (void)state;
    struct vmsim *s = mk(10, 3);
    /* Asked in another order, with an unknown id: the sim's order, unknown skipped. */
    const char *want[] = {vmsim_vm_id(s, 7), "00000000-0000-4000-8000-000000000000",
                          vmsim_vm_id(s, 2)};
    json_object *q = ids(3, want), *r = vmsim_full_list(s, q);
    assert_int_equal(json_object_array_length(r), 2);
    assert_string_equal(str_field(json_object_array_get_idx(r, 0), "vmId"), vmsim_vm_id(s, 2));
    assert_string_equal(str_field(json_object_array_get_idx(r, 1), "vmId"), vmsim_vm_id(s, 7));
    json_object_put(r);
    json_object_put(q);
    q = ids(0, NULL); /* empty = every VM, as VDSM's vmList=() */
    r = vmsim_full_list(s, q);
    assert_int_equal(json_object_array_length(r), 10);
    json_object_put(r);
    json_object_put(q);
    q = ids(1, want + 1);
    r = vmsim_full_list(s, q);
    assert_int_equal(json_object_array_length(r), 0);
    json_object_put(r);
    json_object_put(q);
    vmsim_free(s);
}

static const char *render(json_object *a)
{
    return json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN);
}

/* Same seed, same bytes, whichever VMs were asked for first; statusTime is
 * the stats' and moves with time. */
static void test_full_deterministic(void **state)
{
    (void)state;
    struct vmsim *a = mk(8, 42), *b = mk(8, 42), *c = mk(8, 43);
    const char *one[] = {vmsim_vm_id(b, 5)};
    json_object *q = ids(1, one), *first = vmsim_full_list(b, q);
    json_object_put(first);
    json_object_put(q);
    json_object *ja = vmsim_full_list(a, NULL), *jb = vmsim_full_list(b, NULL);
    json_object *jc = vmsim_full_list(c, NULL);
    char *sa = strdup(render(ja));
    assert_string_equal(sa, render(jb));
    assert_string_not_equal(sa, render(jc));
    json_object *st = vmsim_list(a);
    char want[32];
    snprintf(want, sizeof want, "%" PRId64,
             json_object_get_int64(field(json_object_array_get_idx(ja, 0), "statusTime")));
    assert_string_equal(want, str_field(json_object_array_get_idx(st, 0), "statusTime"));
    int64_t t0 = json_object_get_int64(field(json_object_array_get_idx(ja, 0), "statusTime"));
    json_object_put(ja);
    vmsim_set_time(a, 5 * 1000000000LL);
    ja = vmsim_full_list(a, NULL);
    assert_int_equal(json_object_get_int64(field(json_object_array_get_idx(ja, 0), "statusTime")),
                     t0 + 5000);
    free(sa);
    json_object_put(st);
    json_object_put(ja);
    json_object_put(jb);
    json_object_put(jc);
    vmsim_free(a);
    vmsim_free(b);
    vmsim_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_shape_and_size),
        cmocka_unit_test(test_full_filter),
        cmocka_unit_test(test_full_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
