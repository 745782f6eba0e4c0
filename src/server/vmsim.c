/* vmsim: N simulated running VMs with VDSM-shaped, evolving stats.
 *
 * Two phases per call: evolve (cheap arithmetic on doubles for every VM,
 * consuming the seeded PRNG in a fixed order, so the walk does not depend
 * on which VMs a caller asks for) and render (write the current numbers as
 * VDSM's strings into the VM's long-lived json-c object, only for the VMs
 * returned). */
#include "server/vmsim.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/units.h"
#include "server/vmsim_int.h"

static double walk(uint64_t *s, double x, double step, double lo, double hi)
{
    x += (rng_u01(s) - 0.5) * 2.0 * step;
    return x < lo ? lo : x > hi ? hi : x;
}

/* ---- building the long-lived objects ---- */

json_object *vmsim_jfmt(const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    return json_object_new_string(tmp);
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

void vmsim_make_uuid(uint64_t *rng, char *out)
{
    uint64_t a = rng_next(rng), b = rng_next(rng);
    snprintf(out, VMSIM_ID_LEN + 1, "%08x-%04x-4%03x-%04x-%012" PRIx64,
             (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff, (unsigned)a & 0xfff,
             (unsigned)(0x8000 | ((b >> 48) & 0x3fff)), (uint64_t)(b & 0xffffffffffffULL));
}

static json_object *hex64(uint64_t *rng)
{
    char h[65];
    for (int i = 0; i < 4; i++)
        snprintf(h + i * 16, 17, "%016" PRIx64, rng_next(rng));
    return json_object_new_string(h);
}

const char *vmsim_disk_name(int i)
{
    static const char *const names[MAX_DEV] = {"vda", "vdb", "sda"};
    return names[i];
}

/* VmDiskStats (one value of RunningVmStats.disks, a VmDiskStatsMap). */
static json_object *build_disk(uint64_t *rng, struct vm_disk *d)
{
    json_object *o = json_object_new_object();
    d->truesize = (double)rng_int(rng, 2, 60) * 1073741824.0;
    d->rd_rate = rng_int(rng, 0, 200000);
    d->wr_rate = rng_int(rng, 0, 600000);
    d->rd_lat = rng_int(rng, 100000, 900000);
    d->wr_lat = rng_int(rng, 500000, 3000000);
    d->fl_lat = rng_int(rng, 1000000, 5000000);
    d->rd_ops = rng_int(rng, 1000, 500000);
    d->wr_ops = rng_int(rng, 1000, 3000000);
    d->rd_bytes = d->rd_ops * 4096.0 * rng_int(rng, 1, 16);
    d->wr_bytes = d->wr_ops * 4096.0 * rng_int(rng, 1, 16);
    vmsim_make_uuid(rng, d->img);
    add(o, "imageID", json_object_new_string(d->img));
    add_slot(o, "truesize", json_object_new_string("0"), &d->f[D_TRUESIZE]);
    add(o, "apparentsize", vmsim_jfmt("%.0f", d->truesize * 2));
    add_slot(o, "readRate", json_object_new_string("0"), &d->f[D_RD_RATE]);
    add_slot(o, "writeRate", json_object_new_string("0"), &d->f[D_WR_RATE]);
    add_slot(o, "readLatency", json_object_new_string("0"), &d->f[D_RD_LAT]);
    add_slot(o, "writeLatency", json_object_new_string("0"), &d->f[D_WR_LAT]);
    add_slot(o, "flushLatency", json_object_new_string("0"), &d->f[D_FL_LAT]);
    add_slot(o, "readOps", json_object_new_string("0"), &d->f[D_RD_OPS]);
    add_slot(o, "writeOps", json_object_new_string("0"), &d->f[D_WR_OPS]);
    add_slot(o, "readBytes", json_object_new_string("0"), &d->f[D_RD_BYTES]);
    add_slot(o, "writtenBytes", json_object_new_string("0"), &d->f[D_WR_BYTES]);
    return o;
}

json_object *vmsim_mac(int vm_idx, int nic)
{
    return vmsim_jfmt("00:1a:4a:%02x:%02x:%02x", (vm_idx >> 8) & 0xff, vm_idx & 0xff, nic);
}

/* NetworkInterfaceStats (one value of RunningVmStats.network). */
static json_object *build_nic(uint64_t *rng, struct vm_nic *n, int vm, int i)
{
    json_object *o = json_object_new_object();
    n->rx_rate = rng_int(rng, 100, 2000000);
    n->tx_rate = rng_int(rng, 100, 2000000);
    n->rx = rng_int(rng, 0, 1 << 30) * 8.0;
    n->tx = rng_int(rng, 0, 1 << 30) * 8.0;
    n->rx_drop = rng_int(rng, 0, 2000);
    add(o, "name", vmsim_jfmt("vnet%d", vm * MAX_DEV + i));
    add(o, "macAddr", vmsim_mac(vm, i));
    add(o, "speed", json_object_new_string("1000"));
    add(o, "state", json_object_new_string("unknown"));
    add_slot(o, "rx", json_object_new_string("0"), &n->f[N_RX]);
    add_slot(o, "tx", json_object_new_string("0"), &n->f[N_TX]);
    add(o, "rxErrors", json_object_new_string("0"));
    add_slot(o, "rxDropped", json_object_new_string("0"), &n->f[N_RX_DROP]);
    add(o, "txErrors", json_object_new_string("0"));
    add(o, "txDropped", json_object_new_string("0"));
    add_slot(o, "sampleTime", json_object_new_double(0), &n->f[N_SAMPLE_TIME]);
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

/* disks, network, ioTune and netIfaces (GuestNetworkDeviceInfo): 1..3 of
 * each, names from the seed. */
static void build_devices(uint64_t *rng, struct vm *v, int idx)
{
    json_object *disks = json_object_new_object(), *nets = json_object_new_object();
    json_object *iot = json_object_new_array(), *ifaces = json_object_new_array();
    v->ndisks = rng_int(rng, 1, MAX_DEV);
    v->nnics = rng_int(rng, 1, MAX_DEV);
    for (int i = 0; i < v->ndisks; i++) {
        add(disks, vmsim_disk_name(i), build_disk(rng, &v->disks[i]));
        json_object_array_add(iot, build_iotune(vmsim_disk_name(i), v->disks[i].img));
    }
    for (int i = 0; i < v->nnics; i++) {
        char name[16];
        snprintf(name, sizeof name, "vnet%d", idx * MAX_DEV + i);
        add(nets, name, build_nic(rng, &v->nics[i], idx, i));
        json_object *ni = json_object_new_object();
        add(ni, "name", vmsim_jfmt("eth%d", i));
        add(ni, "hw", vmsim_mac(idx, i));
        json_object *in4 = json_object_new_array(), *in6 = json_object_new_array();
        json_object_array_add(in4, vmsim_jfmt("10.%d.%d.%d", i, (idx >> 8) & 0xff, idx & 0xff));
        json_object_array_add(in6, vmsim_jfmt("fe80::21a:4aff:fe%02x:%02x%02x", idx >> 8 & 0xff,
                                        idx & 0xff, i));
        add(ni, "inet", in4);
        add(ni, "inet6", in6);
        json_object_array_add(ifaces, ni);
    }
    add(v->obj, "disks", disks);
    add(v->obj, "network", nets);
    add(v->obj, "ioTune", iot);
    add(v->obj, "netIfaces", ifaces);
}

/* memoryStats (GuestMemoryStats) and balloonInfo (BalloonInfo). */
static void build_memory(uint64_t *rng, struct vm *v)
{
    json_object *m = json_object_new_object(), *b = json_object_new_object();
    v->mem_total = 1048576.0 * rng_int(rng, 1, 16);
    v->mem_usage = rng_int(rng, 10, 80);
    v->minflt = rng_int(rng, 0, 500);
    add(m, "mem_total", vmsim_jfmt("%.0f", v->mem_total - 380000));
    add_slot(m, "mem_unused", json_object_new_string("0"), &v->f[F_MEM_UNUSED]);
    add_slot(m, "mem_free", json_object_new_string("0"), &v->f[F_MEM_FREE]);
    add(m, "mem_cached", vmsim_jfmt("%d", rng_int(rng, 100000, 900000)));
    add(m, "mem_buffers", vmsim_jfmt("%d", rng_int(rng, 10000, 200000)));
    add(m, "swap_in", json_object_new_int(0));
    add(m, "swap_out", json_object_new_int(0));
    add(m, "majflt", json_object_new_int(0));
    add_slot(m, "minflt", json_object_new_int(0), &v->f[F_MINFLT]);
    add_slot(m, "pageflt", json_object_new_int(0), &v->f[F_PAGEFLT]);
    add(v->obj, "memoryStats", m);
    add(b, "balloon_max", vmsim_jfmt("%.0f", v->mem_total));
    add(b, "balloon_min", vmsim_jfmt("%.0f", v->mem_total / 2));
    add(b, "balloon_cur", vmsim_jfmt("%.0f", v->mem_total));
    add(b, "balloon_target", vmsim_jfmt("%.0f", v->mem_total));
    add(b, "ballooning_enabled", json_object_new_boolean(1));
    add(v->obj, "balloonInfo", b);
}

/* displayInfo (VmDisplayInfo) and the display* scalars of RunningVmStats. */
static void build_display(struct vm *v, int idx)
{
    json_object *o = v->obj, *di = json_object_new_array(), *d = json_object_new_object();
    int port = v->display_port = 5900 + 2 * (idx % 500);
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
static void build_guest(uint64_t *rng, struct vm *v, int idx)
{
    static const char *const apps[] = {"kernel-4.18.0-553.el8_10.x86_64",
                                       "qemu-guest-agent-8.2.0", "ovirt-guest-agent-1.0.16"};
    json_object *o = v->obj, *du = json_object_new_array(), *fs = json_object_new_object();
    v->fs_total = 21464350720.0;
    v->fs_used = v->fs_total * (0.1 + 0.6 * rng_u01(rng));
    add(o, "guestFQDN", vmsim_jfmt("vm-%03d.example.com", idx));
    add(o, "username", json_object_new_string("Unknown"));
    add(o, "session", json_object_new_string("Unknown"));
    add(o, "guestIPs", vmsim_jfmt("10.0.%d.%d", (idx >> 8) & 0xff, idx & 0xff));
    add(o, "guestCPUCount", json_object_new_int(v->ncpu));
    add(o, "appsList", str_array(rng_int(rng, 1, 3), apps));
    add(fs, "path", json_object_new_string("/"));
    add(fs, "fs", json_object_new_string("xfs"));
    add(fs, "total", vmsim_jfmt("%.0f", v->fs_total));
    add_slot(fs, "used", json_object_new_string("0"), &v->f[F_FS_USED]);
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
static void build_misc(uint64_t *rng, struct vm *v)
{
    json_object *o = v->obj, *w = json_object_new_object(), *pci = json_object_new_array();
    add(w, "action", json_object_new_string("reset"));
    add(w, "time", json_object_new_double(1718031045.12));
    add(o, "watchdogEvent", w);
    add(o, "vmJobs", json_object_new_object());
    json_object_array_add(pci, build_pci(6900, 4096));
    json_object_array_add(pci, build_pci(6900, 4097));
    add(o, "pci_devices", pci);
    add(o, "hash", vmsim_jfmt("%" PRId64, (int64_t)rng_next(rng)));
    add(o, "tpmHash", hex64(rng));
    add(o, "nvramHash", hex64(rng));
}

/* RunningVmStats (the running member of the schema's VmStats union): the
 * top-level scalars, then the groups above. Every key is one the schema
 * lists (vdsm-api.yml); a key outside it makes vdsmapi reject the VM. */
static void build_vm(uint64_t *rng, struct vm *v, int idx)
{
    json_object *o = v->obj = json_object_new_object();
    vmsim_make_uuid(rng, v->id);
    v->ncpu = 1 << rng_int(rng, 0, 3);
    v->cpu_user = rng_u01(rng) * 40;
    v->cpu_sys = rng_u01(rng) * 5;
    v->cpu_usage_ns = rng_u01(rng) * 1e13;
    v->elapsed0_s = rng_int(rng, 60, 10000000);
    v->rendered_ns = -1;
    add(o, "vmId", json_object_new_string(v->id));
    add(o, "vmName", vmsim_jfmt("vm-%03d", idx));
    add(o, "status", json_object_new_string("Up"));
    add_slot(o, "statusTime", json_object_new_string("0"), &v->f[F_STATUS_TIME]);
    add(o, "vmType", json_object_new_string("kvm"));
    add(o, "kvmEnable", json_object_new_string("true"));
    add(o, "acpiEnable", json_object_new_string("true"));
    v->idx = idx;
    v->pid = rng_int(rng, 1000, 99999);
    add(o, "pid", vmsim_jfmt("%d", v->pid));
    add_slot(o, "elapsedTime", json_object_new_string("0"), &v->f[F_ELAPSED]);
    add(o, "timeOffset", json_object_new_string("0"));
    add(o, "monitorResponse", json_object_new_string("0"));
    add(o, "clientIp", json_object_new_string(""));
    add(o, "pauseCode", json_object_new_string("NOERR"));
    add_slot(o, "cpuUser", json_object_new_string("0"), &v->f[F_CPU_USER]);
    add_slot(o, "cpuSys", json_object_new_string("0"), &v->f[F_CPU_SYS]);
    add_slot(o, "cpuUsage", json_object_new_string("0"), &v->f[F_CPU_USAGE]);
    add(o, "cpuActual", json_object_new_boolean(1));
    add(o, "vcpuCount", vmsim_jfmt("%d", v->ncpu));
    add(o, "vcpuQuota", json_object_new_string("-1"));
    add(o, "vcpuPeriod", json_object_new_int(100000));
    add(o, "vcpuUserLimit", json_object_new_int(100));
    add(o, "migrationProgress", json_object_new_int(0));
    add_slot(o, "memUsage", json_object_new_string("0"), &v->f[F_MEM_USAGE]);
    add(o, "cdrom", json_object_new_string(""));
    add(o, "boot", json_object_new_string("c"));
    build_memory(rng, v);
    build_devices(rng, v, idx);
    build_display(v, idx);
    build_guest(rng, v, idx);
    build_misc(rng, v);
}

struct vmsim *vmsim_new(int nvms, uint64_t seed, char *err)
{
    if (nvms < 0 || nvms > VMSIM_MAX_VMS) {
        snprintf(err, ERR_LEN, "vms: %d is out of range 0..%d", nvms, VMSIM_MAX_VMS);
        return NULL;
    }
    struct vmsim *sim = calloc(1, sizeof *sim);
    if (!sim || !(sim->vms = calloc((size_t)nvms + 1, sizeof *sim->vms))) {
        free(sim);
        snprintf(err, ERR_LEN, "vmsim: out of memory");
        return NULL;
    }
    sim->n = nvms;
    sim->seed = sim->rng = seed;
    sim->mono0_ms = 4000000000LL + (int64_t)(rng_next(&sim->rng) % 1000000000ULL);
    for (int i = 0; i < nvms; i++)
        build_vm(&sim->rng, &sim->vms[i], i);
    sim->t0_real = clock_now_ns();
    return sim;
}

void vmsim_free(struct vmsim *sim)
{
    if (!sim)
        return;
    for (int i = 0; i < sim->n; i++) {
        json_object_put(sim->vms[i].obj);
        json_object_put(sim->vms[i].full); /* vmsim_full's cache of the definition */
    }
    free(sim->vms);
    free(sim);
}

int vmsim_count(const struct vmsim *sim) { return sim->n; }

const char *vmsim_vm_id(const struct vmsim *sim, int i)
{
    return i >= 0 && i < sim->n ? sim->vms[i].id : NULL;
}

/* ---- evolving ---- */

static void evolve_vm(uint64_t *rng, struct vm *v, double dt)
{
    v->cpu_user = walk(rng, v->cpu_user, 2.0, 0, 100);
    v->cpu_sys = walk(rng, v->cpu_sys, 0.5, 0, 20);
    v->cpu_usage_ns += (v->cpu_user + v->cpu_sys) / 100.0 * v->ncpu * dt * 1e9;
    v->mem_usage = walk(rng, v->mem_usage, 1.0, 5, 95);
    v->minflt = walk(rng, v->minflt, 20, 0, 5000);
    v->fs_used = walk(rng, v->fs_used, 1e6, 0, v->fs_total) + 4096.0 * dt;
    for (int i = 0; i < v->ndisks; i++) {
        struct vm_disk *d = &v->disks[i];
        d->rd_rate = walk(rng, d->rd_rate, 8192, 0, 50e6);
        d->wr_rate = walk(rng, d->wr_rate, 16384, 0, 50e6);
        d->rd_lat = walk(rng, d->rd_lat, 20000, 50000, 5e6);
        d->wr_lat = walk(rng, d->wr_lat, 50000, 100000, 9e6);
        d->fl_lat = walk(rng, d->fl_lat, 80000, 100000, 9e6);
        d->rd_bytes += d->rd_rate * dt;
        d->wr_bytes += d->wr_rate * dt;
        d->rd_ops += d->rd_rate / 4096.0 * dt;
        d->wr_ops += d->wr_rate / 4096.0 * dt;
        d->truesize += d->wr_rate * dt / 64.0;
    }
    for (int i = 0; i < v->nnics; i++) {
        struct vm_nic *n = &v->nics[i];
        n->rx_rate = walk(rng, n->rx_rate, 50000, 0, 125e6);
        n->tx_rate = walk(rng, n->tx_rate, 50000, 0, 125e6);
        n->rx += n->rx_rate * dt;
        n->tx += n->tx_rate * dt;
        n->rx_drop += n->rx_rate * dt * 1e-7;
    }
}

static void move_to(struct vmsim *sim, int64_t t_ns)
{
    if (t_ns <= sim->t_ns)
        return;
    double dt = (double)(t_ns - sim->t_ns) / 1e9;
    sim->t_ns = t_ns;
    for (int i = 0; i < sim->n; i++)
        evolve_vm(&sim->rng, &sim->vms[i], dt);
}

void vmsim_advance(struct vmsim *sim)
{
    if (!sim->manual)
        move_to(sim, clock_now_ns() - sim->t0_real);
}

void vmsim_set_time(struct vmsim *sim, int64_t t_ns)
{
    sim->manual = 1;
    move_to(sim, t_ns);
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

int64_t vmsim_status_time_ms(const struct vmsim *sim)
{
    return sim->mono0_ms + sim->t_ns / NS_PER_MS;
}

static void render_vm(const struct vmsim *sim, struct vm *v)
{
    if (v->rendered_ns == sim->t_ns)
        return;
    v->rendered_ns = sim->t_ns;
    double unused = v->mem_total * (100.0 - v->mem_usage) / 100.0;
    set_fixed(v->f[F_CPU_USER], v->cpu_user, 2);
    set_fixed(v->f[F_CPU_SYS], v->cpu_sys, 2);
    set_fixed(v->f[F_CPU_USAGE], v->cpu_usage_ns, 0);
    set_int(v->f[F_ELAPSED], v->elapsed0_s + sim->t_ns / NS_PER_S);
    set_int(v->f[F_STATUS_TIME], vmsim_status_time_ms(sim));
    set_int(v->f[F_MEM_USAGE], (int64_t)v->mem_usage);
    set_fixed(v->f[F_MEM_UNUSED], unused, 0);
    set_fixed(v->f[F_MEM_FREE], unused * 1.2 < v->mem_total ? unused * 1.2 : unused, 0);
    set_fixed(v->f[F_FS_USED], v->fs_used, 0);
    json_object_set_int(v->f[F_MINFLT], (int)v->minflt);
    json_object_set_int(v->f[F_PAGEFLT], (int)v->minflt);
    for (int i = 0; i < v->ndisks; i++) {
        struct vm_disk *d = &v->disks[i];
        set_fixed(d->f[D_RD_RATE], d->rd_rate, 1);
        set_fixed(d->f[D_WR_RATE], d->wr_rate, 1);
        set_fixed(d->f[D_RD_LAT], d->rd_lat, 1);
        set_fixed(d->f[D_WR_LAT], d->wr_lat, 1);
        set_fixed(d->f[D_FL_LAT], d->fl_lat, 1);
        set_fixed(d->f[D_RD_OPS], d->rd_ops, 0);
        set_fixed(d->f[D_WR_OPS], d->wr_ops, 0);
        set_fixed(d->f[D_RD_BYTES], d->rd_bytes, 0);
        set_fixed(d->f[D_WR_BYTES], d->wr_bytes, 0);
        set_fixed(d->f[D_TRUESIZE], d->truesize, 0);
    }
    double sample_time = (double)vmsim_status_time_ms(sim) / 1000.0;
    for (int i = 0; i < v->nnics; i++) {
        struct vm_nic *n = &v->nics[i];
        set_fixed(n->f[N_RX], n->rx, 0);
        set_fixed(n->f[N_TX], n->tx, 0);
        set_fixed(n->f[N_RX_DROP], n->rx_drop, 0);
        json_object_set_double(n->f[N_SAMPLE_TIME], sample_time);
    }
}

json_object *vmsim_stats_all(struct vmsim *sim)
{
    json_object *a = json_object_new_array_ext(sim->n ? sim->n : 1);
    if (!a)
        return NULL;
    vmsim_advance(sim);
    for (int i = 0; i < sim->n; i++) {
        render_vm(sim, &sim->vms[i]);
        json_object_array_add(a, json_object_get(sim->vms[i].obj));
    }
    return a;
}

static struct vm *find_vm(struct vmsim *sim, const char *vm_id)
{
    for (int i = 0; i < sim->n; i++)
        if (!strcmp(sim->vms[i].id, vm_id))
            return &sim->vms[i];
    return NULL;
}

json_object *vmsim_stats_one(struct vmsim *sim, const char *vm_id)
{
    struct vm *v = vm_id ? find_vm(sim, vm_id) : NULL;
    if (!v)
        return NULL;
    json_object *a = json_object_new_array_ext(1);
    if (!a)
        return NULL;
    vmsim_advance(sim);
    render_vm(sim, v);
    json_object_array_add(a, json_object_get(v->obj));
    return a;
}

json_object *vmsim_list(struct vmsim *sim)
{
    json_object *a = json_object_new_array_ext(sim->n ? sim->n : 1);
    if (!a)
        return NULL;
    vmsim_advance(sim);
    char st[32];
    snprintf(st, sizeof st, "%" PRId64, vmsim_status_time_ms(sim));
    for (int i = 0; i < sim->n; i++) {
        json_object *e = json_object_new_object();
        add(e, "vmId", json_object_new_string(sim->vms[i].id));
        add(e, "status", json_object_new_string("Up"));
        add(e, "statusTime", json_object_new_string(st));
        json_object_array_add(a, e);
    }
    return a;
}
