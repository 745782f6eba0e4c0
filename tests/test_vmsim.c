/* vmsim: determinism per seed, VDSM's field set and wire types, evolution. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/units.h"
#include "server/vmsim.h"
#include "server/vmsim_testing.h"
#include "vmsim_check.h"

/* "%.2f": digits, one dot, exactly two decimals. */
static int is_fixed2(const char *s)
{
    const char *dot = strchr(s, '.');
    if (!dot || dot == s || strlen(dot) != 3)
        return 0;
    for (const char *p = s; *p; p++)
        if (p != dot && (*p < '0' || *p > '9'))
            return 0;
    return 1;
}

static int is_uint_str(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

static uint64_t u64(json_object *o, const char *key)
{
    return strtoull(str_field(o, key), NULL, 10);
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    struct vmsim *a = mk(20, 42), *b = mk(20, 42), *c = mk(20, 43);
    vmsim_set_time(a, 3 * 1000000000LL);
    vmsim_set_time(b, 3 * 1000000000LL);
    vmsim_set_time(c, 3 * 1000000000LL);
    json_object *ja = vmsim_stats_all(a), *jb = vmsim_stats_all(b), *jc = vmsim_stats_all(c);
    const char *sa = json_object_to_json_string_ext(ja, JSON_C_TO_STRING_PLAIN);
    assert_string_equal(sa, json_object_to_json_string_ext(jb, JSON_C_TO_STRING_PLAIN));
    assert_string_not_equal(sa, json_object_to_json_string_ext(jc, JSON_C_TO_STRING_PLAIN));
    assert_string_equal(vmsim_vm_id(a, 7), vmsim_vm_id(b, 7));
    assert_string_not_equal(vmsim_vm_id(a, 7), vmsim_vm_id(c, 7));
    json_object_put(ja);
    json_object_put(jb);
    json_object_put(jc);
    vmsim_free(a);
    vmsim_free(b);
    vmsim_free(c);
}

static const char *plain(json_object *o)
{
    return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

/* serve --hosts drops a host's objects and builds them again: the answers
 * must be those of a simulator that never dropped them, while the numbers
 * kept evolving in between. */
static void test_dropped_objects_come_back_the_same(void **state)
{
    (void)state;
    struct vmsim *a = mk(30, 7), *b = mk(30, 7);
    for (int t = 1; t <= 3; t++) {
        vmsim_set_time(a, t * 1000000000LL);
        vmsim_set_time(b, t * 1000000000LL);
        json_object *ja = vmsim_stats_all(a), *jb = vmsim_stats_all(b);
        assert_string_equal(plain(ja), plain(jb));
        json_object_put(ja);
        json_object_put(jb);
        vmsim_drop_trees(b);
        vmsim_drop_trees(b); /* twice: nothing left to free */
    }
    vmsim_set_time(a, 5 * 1000000000LL); /* a time neither rendered */
    vmsim_set_time(b, 5 * 1000000000LL);
    json_object *ja = vmsim_stats_one(a, vmsim_vm_id(a, 4));
    json_object *jb = vmsim_stats_one(b, vmsim_vm_id(b, 4));
    assert_string_equal(plain(ja), plain(jb));
    json_object_put(ja);
    json_object_put(jb);
    vmsim_free(a);
    vmsim_free(b);
}

static void test_ids_are_uuids_and_unique(void **state)
{
    (void)state;
    struct vmsim *s = mk(150, 1);
    for (int i = 0; i < 150; i++) {
        const char *id = vmsim_vm_id(s, i);
        assert_int_equal(strlen(id), 36);
        assert_true(id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-');
        assert_int_equal(id[14], '4');
        for (int j = 0; j < i; j++)
            assert_string_not_equal(id, vmsim_vm_id(s, j));
    }
    assert_null(vmsim_vm_id(s, 150));
    vmsim_free(s);
}

static void check_disk(json_object *d)
{
    assert_true(is_uint_str(str_field(d, "readOps")));
    assert_true(is_uint_str(str_field(d, "writtenBytes")));
    assert_non_null(strchr(str_field(d, "readRate"), '.'));
    assert_true(json_object_object_length(d) >= 12);
}

/* Key allow-lists, copied from VDSM's schema (vdsm-api.yml): the running
 * member of the VmStats union and the object types of its fields. A key
 * outside RunningVmStats makes vdsmapi's union check reject the whole VM. */
static const char *const running_vm_stats[] = {
    "acpiEnable", "appsList", "balloonInfo", "boot", "cdrom", "clientIp", "cpuActual", "cpuSys",
    "cpuUsage", "cpuUser", "disks", "disksUsage", "displayInfo", "displayIp", "displayPort",
    "displaySecurePort", "displayType", "elapsedTime", "guestCPUCount", "guestContainers",
    "guestFQDN", "guestIPs", "hash", "ioTune", "kvmEnable", "memUsage", "memoryStats",
    "migrationProgress", "monitorResponse", "netIfaces", "network", "nvramHash", "pauseCode",
    "pci_devices", "pid", "session", "status", "statusTime", "timeOffset", "tpmHash", "username",
    "vcpuCount", "vcpuPeriod", "vcpuQuota", "vcpuUserLimit", "vmId", "vmJobs", "vmName", "vmType",
    "watchdogEvent", NULL};
static const char *const guest_memory_stats[] = {
    "majflt", "mem_buffers", "mem_cached", "mem_free", "mem_total", "mem_unused", "minflt",
    "pageflt", "swap_in", "swap_out", NULL};
static const char *const balloon_info[] = {
    "balloon_cur", "balloon_max", "balloon_min", "balloon_target", "ballooning_enabled", NULL};
static const char *const vm_disk_stats[] = {
    "apparentsize", "flushLatency", "imageID", "readBytes", "readLatency", "readOps", "readRate",
    "truesize", "writeLatency", "writeOps", "writeRate", "writtenBytes", NULL};
static const char *const network_interface_stats[] = {
    "macAddr", "name", "rx", "rxDropped", "rxErrors", "sampleTime", "speed", "state", "tx",
    "txDropped", "txErrors", NULL};

static int allowed(const char *const *list, const char *key)
{
    for (; *list; list++)
        if (!strcmp(*list, key))
            return 1;
    return 0;
}

static void keys_allowed(json_object *o, const char *const *list, const char *type)
{
    json_object_object_foreach(o, key, val) {
        (void)val;
        if (!allowed(list, key))
            fail_msg("%s is not a key of the schema's %s", key, type);
    }
}

static void test_stats_keys_in_schema(void **state)
{
    (void)state;
    struct vmsim *s = mk(60, 11);
    json_object *all = vmsim_stats_all(s);
    for (size_t i = 0; i < json_object_array_length(all); i++) {
        json_object *vm = json_object_array_get_idx(all, i);
        keys_allowed(vm, running_vm_stats, "RunningVmStats");
        keys_allowed(field(vm, "memoryStats"), guest_memory_stats, "GuestMemoryStats");
        keys_allowed(field(vm, "balloonInfo"), balloon_info, "BalloonInfo");
        json_object_object_foreach(field(vm, "disks"), dn, d) {
            (void)dn;
            keys_allowed(d, vm_disk_stats, "VmDiskStats");
        }
        json_object_object_foreach(field(vm, "network"), nn, nic) {
            (void)nn;
            keys_allowed(nic, network_interface_stats, "NetworkInterfaceStats");
        }
    }
    /* The ones VDSM dropped or never sent as stats stay out. */
    json_object *vm = json_object_array_get_idx(all, 0), *v = NULL;
    assert_false(json_object_object_get_ex(vm, "statsAge", &v));
    assert_false(json_object_object_get_ex(vm, "vNodeRuntimeInfo", &v));
    assert_false(json_object_object_get_ex(vm, "guestOsInfo", &v));
    json_object_put(all);
    vmsim_free(s);
}

static void check_vm(json_object *vm)
{
    int n = json_object_object_length(vm);
    assert_in_range(n, 45, 50); /* vmstats-sample.json: 50 */
    assert_true(is_fixed2(str_field(vm, "cpuUser")));
    assert_true(is_fixed2(str_field(vm, "cpuSys")));
    assert_true(is_uint_str(str_field(vm, "cpuUsage")));
    assert_true(is_uint_str(str_field(vm, "memUsage")));
    assert_true(is_uint_str(str_field(vm, "statusTime")));
    assert_string_equal(str_field(vm, "status"), "Up");
    assert_string_equal(str_field(vm, "kvmEnable"), "true");
    assert_true(json_object_is_type(field(vm, "vcpuPeriod"), json_type_int));
    assert_true(json_object_is_type(field(vm, "cpuActual"), json_type_boolean));
    json_object *ms = field(vm, "memoryStats");
    assert_true(json_object_is_type(field(ms, "swap_in"), json_type_int));
    assert_true(json_object_is_type(field(ms, "minflt"), json_type_int));
    assert_true(is_uint_str(str_field(ms, "mem_total")));
    json_object *disks = field(vm, "disks"), *nets = field(vm, "network");
    assert_in_range(json_object_object_length(disks), 1, 3);
    assert_in_range(json_object_object_length(nets), 1, 3);
    assert_int_equal(json_object_array_length(field(vm, "ioTune")),
                     json_object_object_length(disks));
    json_object_object_foreach(disks, dname, d) {
        assert_true(!strcmp(dname, "vda") || !strcmp(dname, "vdb") || !strcmp(dname, "sda"));
        check_disk(d);
    }
    json_object_object_foreach(nets, nname, nic) {
        assert_memory_equal(nname, "vnet", 4);
        assert_string_equal(str_field(nic, "name"), nname);
        assert_true(json_object_is_type(field(nic, "sampleTime"), json_type_double));
        assert_true(is_uint_str(str_field(nic, "rx")));
    }
    assert_true(json_object_is_type(field(vm, "displayInfo"), json_type_array));
    assert_true(json_object_is_type(field(vm, "balloonInfo"), json_type_object));
}

static void test_schema_and_wire_types(void **state)
{
    (void)state;
    struct vmsim *s = mk(150, 7);
    json_object *all = vmsim_stats_all(s);
    assert_int_equal(json_object_array_length(all), 150);
    int seen_disks[4] = {0}, seen_nics[4] = {0};
    for (int i = 0; i < 150; i++) {
        json_object *vm = json_object_array_get_idx(all, (size_t)i);
        check_vm(vm);
        assert_string_equal(str_field(vm, "vmId"), vmsim_vm_id(s, i));
        seen_disks[json_object_object_length(field(vm, "disks"))]++;
        seen_nics[json_object_object_length(field(vm, "network"))]++;
    }
    /* The seed spreads device counts over 1..3. */
    for (int k = 1; k <= 3; k++)
        assert_true(seen_disks[k] > 0 && seen_nics[k] > 0);
    /* About 3-4 KB of JSON per VM, as VDSM sends. */
    size_t len = strlen(json_object_to_json_string_ext(all, JSON_C_TO_STRING_PLAIN));
    assert_in_range(len / 150, 2500, 5000);
    json_object_put(all);
    vmsim_free(s);
}

static void test_counters_grow(void **state)
{
    (void)state;
    struct vmsim *s = mk(10, 5);
    json_object *one = vmsim_stats_one(s, vmsim_vm_id(s, 3));
    json_object *vm = json_object_array_get_idx(one, 0);
    json_object *vda = field(field(vm, "disks"), "vda");
    uint64_t usage0 = u64(vm, "cpuUsage"), st0 = u64(vm, "statusTime");
    uint64_t el0 = u64(vm, "elapsedTime"), wr0 = u64(vda, "writtenBytes");
    json_object_put(one);
    vmsim_set_time(s, 10 * 1000000000LL);
    one = vmsim_stats_one(s, vmsim_vm_id(s, 3));
    vm = json_object_array_get_idx(one, 0);
    vda = field(field(vm, "disks"), "vda");
    assert_true(u64(vm, "cpuUsage") > usage0);
    assert_int_equal(u64(vm, "statusTime"), st0 + 10000);
    assert_int_equal(u64(vm, "elapsedTime"), el0 + 10);
    assert_true(u64(vda, "writtenBytes") >= wr0);
    json_object_put(one);
    vmsim_free(s);
}

static void test_one_and_list(void **state)
{
    (void)state;
    struct vmsim *s = mk(5, 9);
    assert_null(vmsim_stats_one(s, "no-such-vm"));
    assert_null(vmsim_stats_one(s, NULL));
    json_object *l = vmsim_list(s);
    assert_int_equal(json_object_array_length(l), 5);
    json_object *e = json_object_array_get_idx(l, 2);
    assert_int_equal(json_object_object_length(e), 3);
    assert_string_equal(str_field(e, "vmId"), vmsim_vm_id(s, 2));
    assert_string_equal(str_field(e, "status"), "Up");
    assert_true(is_uint_str(str_field(e, "statusTime")));
    json_object_put(l);
    vmsim_free(s);
}

static void test_bad_count(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    assert_null(vmsim_new(-1, 1, err));
    assert_non_null(strstr(err, "-1"));
    struct vmsim *s = vmsim_new(0, 1, err);
    assert_non_null(s);
    json_object *all = vmsim_stats_all(s);
    assert_int_equal(json_object_array_length(all), 0);
    json_object_put(all);
    vmsim_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_dropped_objects_come_back_the_same),
        cmocka_unit_test(test_ids_are_uuids_and_unique),
        cmocka_unit_test(test_schema_and_wire_types),
        cmocka_unit_test(test_stats_keys_in_schema),
        cmocka_unit_test(test_counters_grow),
        cmocka_unit_test(test_one_and_list),
        cmocka_unit_test(test_bad_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
