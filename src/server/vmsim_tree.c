/* vmsim_tree: a VM's VmStats json-c objects, built from its numbers
 * (vmsim_int.h's struct vm) and updated in place at each render.
 *
 * The numbers drawn from the seed are vmsim.c's; this file draws nothing,
 * so a tree dropped and built again is the same tree. Building allocates
 * some two hundred objects per VM; rendering only rewrites the fields that
 * change (struct vm_tree's slots). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "server/vmsim_int.h"

/* ---- helpers vmsim_full.c shares ---- */

json_object *vmsim_jfmt(const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    return json_object_new_string(tmp);
}

const char *vmsim_disk_name(int i)
{
    static const char *const names[MAX_DEV] = {"vda", "vdb", "sda"};
    return names[i];
}

json_object *vmsim_mac(int vm_idx, int nic)
{
    return vmsim_jfmt("00:1a:4a:%02x:%02x:%02x", (vm_idx >> 8) & 0xff, vm_idx & 0xff, nic);
}

/* Adds v under key and remembers it for in-place updates. */
static void add_slot(json_object *o, const char *key, json_object *v, json_object **slot)
{
    json_object_object_add(o, key, v);
    *slot = v;
}

static json_object *str_array(int n, const char *const *items)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < n; i++)
        json_object_array_add(a, json_object_new_string(items[i]));
    return a;
}

static json_object *hex64(const uint64_t h64[4])
{
    char h[65];
    for (int i = 0; i < 4; i++)
        snprintf(h + i * 16, 17, "%016" PRIx64, h64[i]);
    return json_object_new_string(h);
}

/* VmDiskStats (one value of RunningVmStats.disks, a VmDiskStatsMap). */
static json_object *build_disk(const struct vm_disk *d, json_object **f)
{
    json_object *o = json_object_new_object();
    add(o, "imageID", json_object_new_string(d->img));
    add_slot(o, "truesize", json_object_new_string("0"), &f[D_TRUESIZE]);
    add(o, "apparentsize", vmsim_jfmt("%.0f", d->apparent));
    add_slot(o, "readRate", json_object_new_string("0"), &f[D_RD_RATE]);
    add_slot(o, "writeRate", json_object_new_string("0"), &f[D_WR_RATE]);
    add_slot(o, "readLatency", json_object_new_string("0"), &f[D_RD_LAT]);
    add_slot(o, "writeLatency", json_object_new_string("0"), &f[D_WR_LAT]);
    add_slot(o, "flushLatency", json_object_new_string("0"), &f[D_FL_LAT]);
    add_slot(o, "readOps", json_object_new_string("0"), &f[D_RD_OPS]);
    add_slot(o, "writeOps", json_object_new_string("0"), &f[D_WR_OPS]);
    add_slot(o, "readBytes", json_object_new_string("0"), &f[D_RD_BYTES]);
    add_slot(o, "writtenBytes", json_object_new_string("0"), &f[D_WR_BYTES]);
    return o;
}

/* NetworkInterfaceStats (one value of RunningVmStats.network). */
static json_object *build_nic(json_object **f, int vm, int i)
{
    json_object *o = json_object_new_object();
    add(o, "name", vmsim_jfmt("vnet%d", vm * MAX_DEV + i));
    add(o, "macAddr", vmsim_mac(vm, i));
    add(o, "speed", json_object_new_string("1000"));
    add(o, "state", json_object_new_string("unknown"));
    add_slot(o, "rx", json_object_new_string("0"), &f[N_RX]);
    add_slot(o, "tx", json_object_new_string("0"), &f[N_TX]);
    add(o, "rxErrors", json_object_new_string("0"));
    add_slot(o, "rxDropped", json_object_new_string("0"), &f[N_RX_DROP]);
    add(o, "txErrors", json_object_new_string("0"));
    add(o, "txDropped", json_object_new_string("0"));
    add_slot(o, "sampleTime", json_object_new_double(0), &f[N_SAMPLE_TIME]);
    return o;
}

/* VmDiskDeviceTuneParams (RunningVmStats.ioTune) with its VmDiskDeviceIoTuneParams. */
static json_object *build_iotune(const char *name, const char *img)
{
    json_object *o = json_object_new_object(), *t = json_object_new_object();
    add(o, "name", json_object_new_string(name));
    add(o, "path", vmsim_jfmt("/rhev/data-center/mnt/blockSD/images/%s", img));
    add(t, "total_bytes_sec", json_object_new_string("0"));
    add(t, "read_bytes_sec", json_object_new_string("104857600"));
    add(t, "write_bytes_sec", json_object_new_string("52428800"));
    add(t, "total_iops_sec", json_object_new_string("0"));
    add(t, "read_iops_sec", json_object_new_string("2000"));
    add(t, "write_iops_sec", json_object_new_string("1000"));
    add(o, "ioTune", t);
    return o;
}

static json_object *build_iface(int idx, int i)
{
    json_object *ni = json_object_new_object();
    add(ni, "name", vmsim_jfmt("eth%d", i));
    add(ni, "hw", vmsim_mac(idx, i));
    json_object *in4 = json_object_new_array(), *in6 = json_object_new_array();
    json_object_array_add(in4, vmsim_jfmt("10.%d.%d.%d", i, (idx >> 8) & 0xff, idx & 0xff));
    json_object_array_add(in6, vmsim_jfmt("fe80::21a:4aff:fe%02x:%02x%02x", idx >> 8 & 0xff,
                                          idx & 0xff, i));
    add(ni, "inet", in4);
    add(ni, "inet6", in6);
    return ni;
}

/* disks, network, ioTune and netIfaces (GuestNetworkDeviceInfo). */
static void build_devices(const struct vm *v, struct vm_tree *t)
{
    json_object *disks = json_object_new_object(), *nets = json_object_new_object();
    json_object *iot = json_object_new_array(), *ifaces = json_object_new_array();
    for (int i = 0; i < v->ndisks; i++) {
        add(disks, vmsim_disk_name(i), build_disk(&v->disks[i], t->df[i]));
        json_object_array_add(iot, build_iotune(vmsim_disk_name(i), v->disks[i].img));
    }
    for (int i = 0; i < v->nnics; i++) {
        char name[16];
        snprintf(name, sizeof name, "vnet%d", v->idx * MAX_DEV + i);
        add(nets, name, build_nic(t->nf[i], v->idx, i));
        json_object_array_add(ifaces, build_iface(v->idx, i));
    }
    add(t->obj, "disks", disks);
    add(t->obj, "network", nets);
    add(t->obj, "ioTune", iot);
    add(t->obj, "netIfaces", ifaces);
}

/* memoryStats (GuestMemoryStats) and balloonInfo (BalloonInfo). */
static void build_memory(const struct vm *v, struct vm_tree *t)
{
    json_object *m = json_object_new_object(), *b = json_object_new_object();
    add(m, "mem_total", vmsim_jfmt("%.0f", v->mem_total - 380000));
    add_slot(m, "mem_unused", json_object_new_string("0"), &t->f[F_MEM_UNUSED]);
    add_slot(m, "mem_free", json_object_new_string("0"), &t->f[F_MEM_FREE]);
    add(m, "mem_cached", vmsim_jfmt("%d", v->mem_cached));
    add(m, "mem_buffers", vmsim_jfmt("%d", v->mem_buffers));
    add(m, "swap_in", json_object_new_int(0));
    add(m, "swap_out", json_object_new_int(0));
    add(m, "majflt", json_object_new_int(0));
    add_slot(m, "minflt", json_object_new_int(0), &t->f[F_MINFLT]);
    add_slot(m, "pageflt", json_object_new_int(0), &t->f[F_PAGEFLT]);
    add(t->obj, "memoryStats", m);
    add(b, "balloon_max", vmsim_jfmt("%.0f", v->mem_total));
    add(b, "balloon_min", vmsim_jfmt("%.0f", v->mem_total / 2));
    add(b, "balloon_cur", vmsim_jfmt("%.0f", v->mem_total));
    add(b, "balloon_target", vmsim_jfmt("%.0f", v->mem_total));
    add(b, "ballooning_enabled", json_object_new_boolean(1));
    add(t->obj, "balloonInfo", b);
}

/* displayInfo (VmDisplayInfo) and the display* scalars of RunningVmStats. */
static void build_display(const struct vm *v, json_object *o)
{
    json_object *di = json_object_new_array(), *d = json_object_new_object();
    int port = v->display_port;
    add(d, "type", json_object_new_string("spice"));
    add(d, "port", vmsim_jfmt("%d", port));
    add(d, "tlsPort", vmsim_jfmt("%d", port + 1));
    add(d, "ipAddress", json_object_new_string("192.0.2.21"));
    json_object_array_add(di, d);
    add(o, "displayInfo", di);
    add(o, "displayType", json_object_new_string("qxl"));
    add(o, "displayIp", json_object_new_string("192.0.2.21"));
    add(o, "displayPort", vmsim_jfmt("%d", port));
    add(o, "displaySecurePort", vmsim_jfmt("%d", port + 1));
}

/* What the guest agent reports, as RunningVmStats carries it: guestFQDN,
 * username, session, guestIPs, guestCPUCount, appsList, disksUsage
 * (GuestMountInfo), guestContainers (GuestContainerInfo). The agent's OS
 * info and timezone are VMFullInfo fields (guestOsInfo, guestTimezone), not
 * stats: see vmsim_full.c. */
static void build_guest(const struct vm *v, struct vm_tree *t)
{
    static const char *const apps[] = {"kernel-4.18.0-553.el8_10.x86_64",
                                       "qemu-guest-agent-8.2.0", "ovirt-guest-agent-1.0.16"};
    json_object *o = t->obj, *du = json_object_new_array(), *fs = json_object_new_object();
    int idx = v->idx;
    add(o, "guestFQDN", vmsim_jfmt("vm-%03d.example.com", idx));
    add(o, "username", json_object_new_string("Unknown"));
    add(o, "session", json_object_new_string("Unknown"));
    add(o, "guestIPs", vmsim_jfmt("10.0.%d.%d", (idx >> 8) & 0xff, idx & 0xff));
    add(o, "guestCPUCount", json_object_new_int(v->ncpu));
    add(o, "appsList", str_array(v->napps, apps));
    add(fs, "path", json_object_new_string("/"));
    add(fs, "fs", json_object_new_string("xfs"));
    add(fs, "total", vmsim_jfmt("%.0f", v->fs_total));
    add_slot(fs, "used", json_object_new_string("0"), &t->f[F_FS_USED]);
    json_object_array_add(du, fs);
    add(o, "disksUsage", du);
    add(o, "guestContainers", json_object_new_array());
}

static json_object *build_pci(int vendor, int device)
{
    json_object *p = json_object_new_object();
    add(p, "vendor_id", json_object_new_int(vendor));
    add(p, "device_id", json_object_new_int(device));
    add(p, "driver_name", json_object_new_string("virtio-pci"));
    add(p, "driver_date", NULL);
    add(p, "driver_version", NULL);
    return p;
}

/* watchdogEvent (WatchdogEvent), vmJobs (VmJobsMap), pci_devices
 * (GuestPCIDevice) and the hashes of RunningVmStats. */
static void build_misc(const struct vm *v, json_object *o)
{
    json_object *w = json_object_new_object(), *pci = json_object_new_array();
    add(w, "action", json_object_new_string("reset"));
    add(w, "time", json_object_new_double(1718031045.12));
    add(o, "watchdogEvent", w);
    add(o, "vmJobs", json_object_new_object());
    json_object_array_add(pci, build_pci(6900, 4096));
    json_object_array_add(pci, build_pci(6900, 4097));
    add(o, "pci_devices", pci);
    add(o, "hash", vmsim_jfmt("%" PRId64, v->hash));
    add(o, "tpmHash", hex64(v->tpm_hash));
    add(o, "nvramHash", hex64(v->nvram_hash));
}

/* RunningVmStats (the running member of the schema's VmStats union): the
 * top-level scalars, then the groups above. Every key is one the schema
 * lists (vdsm-api.yml); a key outside it makes vdsmapi reject the VM. */
static void build_vm(const struct vm *v, struct vm_tree *t)
{
    json_object *o = t->obj;
    add(o, "vmId", json_object_new_string(v->id));
    add(o, "vmName", vmsim_jfmt("vm-%03d", v->idx));
    add(o, "status", json_object_new_string("Up"));
    add_slot(o, "statusTime", json_object_new_string("0"), &t->f[F_STATUS_TIME]);
    add(o, "vmType", json_object_new_string("kvm"));
    add(o, "kvmEnable", json_object_new_string("true"));
    add(o, "acpiEnable", json_object_new_string("true"));
    add(o, "pid", vmsim_jfmt("%d", v->pid));
    add_slot(o, "elapsedTime", json_object_new_string("0"), &t->f[F_ELAPSED]);
    add(o, "timeOffset", json_object_new_string("0"));
    add(o, "monitorResponse", json_object_new_string("0"));
    add(o, "clientIp", json_object_new_string(""));
    add(o, "pauseCode", json_object_new_string("NOERR"));
    add_slot(o, "cpuUser", json_object_new_string("0"), &t->f[F_CPU_USER]);
    add_slot(o, "cpuSys", json_object_new_string("0"), &t->f[F_CPU_SYS]);
    add_slot(o, "cpuUsage", json_object_new_string("0"), &t->f[F_CPU_USAGE]);
    add(o, "cpuActual", json_object_new_boolean(1));
    add(o, "vcpuCount", vmsim_jfmt("%d", v->ncpu));
    add(o, "vcpuQuota", json_object_new_string("-1"));
    add(o, "vcpuPeriod", json_object_new_int(100000));
    add(o, "vcpuUserLimit", json_object_new_int(100));
    add(o, "migrationProgress", json_object_new_int(0));
    add_slot(o, "memUsage", json_object_new_string("0"), &t->f[F_MEM_USAGE]);
    add(o, "cdrom", json_object_new_string(""));
    add(o, "boot", json_object_new_string("c"));
    build_memory(v, t);
    build_devices(v, t);
    build_display(v, o);
    build_guest(v, t);
    build_misc(v, o);
}

/* ---- rendering ---- */

/* Writes v's decimal digits ending at end (exclusive); returns the start.
 * Hand-rolled because printf's float path (big "%.0f" counters) was most of
 * the render time. */
static char *put_u64(char *end, uint64_t v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

/* x >= 0 as VDSM's "%.<decimals>f" (decimals 0..2), into json string o. */
static void set_fixed(json_object *o, double x, int decimals)
{
    static const double scale[] = {1, 10, 100};
    char tmp[32], *end = tmp + sizeof tmp, *p = end;
    uint64_t v = (uint64_t)(x * scale[decimals] + 0.5);
    for (int i = 0; i < decimals; i++, v /= 10)
        *--p = (char)('0' + v % 10);
    if (decimals)
        *--p = '.';
    p = put_u64(p, v);
    json_object_set_string_len(o, p, (int)(end - p));
}

static void set_int(json_object *o, int64_t v)
{
    char tmp[32], *end = tmp + sizeof tmp;
    char *p = put_u64(end, (uint64_t)(v < 0 ? -v : v));
    if (v < 0)
        *--p = '-';
    json_object_set_string_len(o, p, (int)(end - p));
}

static void render_devices(const struct vmsim *sim, const struct vm *v, struct vm_tree *t)
{
    for (int i = 0; i < v->ndisks; i++) {
        const struct vm_disk *d = &v->disks[i];
        json_object **f = t->df[i];
        set_fixed(f[D_RD_RATE], d->rd_rate, 1);
        set_fixed(f[D_WR_RATE], d->wr_rate, 1);
        set_fixed(f[D_RD_LAT], d->rd_lat, 1);
        set_fixed(f[D_WR_LAT], d->wr_lat, 1);
        set_fixed(f[D_FL_LAT], d->fl_lat, 1);
        set_fixed(f[D_RD_OPS], d->rd_ops, 0);
        set_fixed(f[D_WR_OPS], d->wr_ops, 0);
        set_fixed(f[D_RD_BYTES], d->rd_bytes, 0);
        set_fixed(f[D_WR_BYTES], d->wr_bytes, 0);
        set_fixed(f[D_TRUESIZE], d->truesize, 0);
    }
    double sample_time = (double)vmsim_status_time_ms(sim) / 1000.0;
    for (int i = 0; i < v->nnics; i++) {
        const struct vm_nic *n = &v->nics[i];
        json_object **f = t->nf[i];
        set_fixed(f[N_RX], n->rx, 0);
        set_fixed(f[N_TX], n->tx, 0);
        set_fixed(f[N_RX_DROP], n->rx_drop, 0);
        json_object_set_double(f[N_SAMPLE_TIME], sample_time);
    }
}

static void render(const struct vmsim *sim, const struct vm *v, struct vm_tree *t)
{
    json_object **f = t->f;
    double unused = v->mem_total * (100.0 - v->mem_usage) / 100.0;
    set_fixed(f[F_CPU_USER], v->cpu_user, 2);
    set_fixed(f[F_CPU_SYS], v->cpu_sys, 2);
    set_fixed(f[F_CPU_USAGE], v->cpu_usage_ns, 0);
    set_int(f[F_ELAPSED], v->elapsed0_s + sim->t_ns / NS_PER_S);
    set_int(f[F_STATUS_TIME], vmsim_status_time_ms(sim));
    set_int(f[F_MEM_USAGE], (int64_t)v->mem_usage);
    set_fixed(f[F_MEM_UNUSED], unused, 0);
    set_fixed(f[F_MEM_FREE], unused * 1.2 < v->mem_total ? unused * 1.2 : unused, 0);
    set_fixed(f[F_FS_USED], v->fs_used, 0);
    json_object_set_int(f[F_MINFLT], (int)v->minflt);
    json_object_set_int(f[F_PAGEFLT], (int)v->minflt);
    render_devices(sim, v, t);
}

json_object *vmsim_tree_render(const struct vmsim *sim, struct vm *v)
{
    struct vm_tree *t = v->tree;
    if (!t) {
        if (!(t = calloc(1, sizeof *t)) || !(t->obj = json_object_new_object())) {
            free(t);
            return NULL;
        }
        t->rendered_ns = -1;
        build_vm(v, t);
        v->tree = t;
    }
    if (t->rendered_ns != sim->t_ns) {
        t->rendered_ns = sim->t_ns;
        render(sim, v, t);
    }
    return t->obj;
}

void vmsim_tree_free(struct vm *v)
{
    if (v->tree)
        json_object_put(v->tree->obj);
    free(v->tree);
    v->tree = NULL;
    json_object_put(v->full);
    v->full = v->full_status_time = NULL;
}
