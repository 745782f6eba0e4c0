/* vmsim_full: the full VM definitions that `list(True)`,
 * Host.getVMList {fullStatus: true} and Host.getVMFullList return.
 *
 * VDSM answers these with each VM's configuration (vm.py status(): the
 * creation parameters, plus status, statusTime and guestDiskMapping). The
 * shape here is the schema's VMFullInfo (vdsm-api.yml), with the schema's
 * wire types, so that vdsmapi's check accepts it: ints and booleans where
 * VMFullInfo says uint/int/boolean (VDSM's own conf echoed some of these as
 * the engine's strings). Over XML-RPC, statusTime and the disk sizes exceed
 * int32 and go as <i8>.
 *
 * Each definition is built once, at the first full-list call that returns
 * that VM, from its own seeded generator (so the bytes do not depend on
 * which VMs were asked for first); afterwards only statusTime changes. The
 * values VDSM's stats also carry (vmId, name, pid, imageIDs, MACs, display
 * port, memory, vCPUs, guest names) are the stats' own. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "server/vmsim_int.h"

static json_object *jstr(const char *s) { return json_object_new_string(s); }
static json_object *jint(int v) { return json_object_new_int(v); }
static json_object *jbool(int v) { return json_object_new_boolean(v); }

/* VmDevicePciAddress (a member of the VmDeviceAddress union). */
static json_object *pci_address(int slot)
{
    json_object *a = json_object_new_object();
    add(a, "addressType", jstr("pci"));
    add(a, "domain", jint(0));
    add(a, "bus", jint(0));
    add(a, "slot", jint(slot));
    add(a, "function", jint(0));
    return a;
}

/* deviceType, device, deviceId, alias: what every device below starts with
 * (alias as the engine names user devices: "ua-" + deviceId). */
static json_object *device(uint64_t *rng, const char *type, const char *dev, int with_id)
{
    json_object *d = json_object_new_object();
    add(d, "deviceType", jstr(type));
    add(d, "device", jstr(dev));
    if (with_id) {
        char id[VMSIM_ID_LEN + 1];
        vmsim_make_uuid(rng, id);
        add(d, "deviceId", jstr(id));
        add(d, "alias", vmsim_jfmt("ua-%s", id));
    }
    return d;
}

/* Storage pool and domains: a host's VMs share them, so they come from the
 * sim's seed, not the VM's. */
struct storage {
    char pool[VMSIM_ID_LEN + 1], sd[2][VMSIM_ID_LEN + 1];
};

static void storage_ids(uint64_t seed, struct storage *st)
{
    uint64_t r = seed ^ 0x5d0c0a57e11f00d5ULL;
    vmsim_make_uuid(&r, st->pool);
    vmsim_make_uuid(&r, st->sd[0]);
    vmsim_make_uuid(&r, st->sd[1]);
}

/* VmDiskDeviceVolumeChainEntry; *path gets the volume's path. */
static json_object *chain_entry(const char *sd, const char *img, const char *vol, char *path,
                                size_t path_len)
{
    json_object *e = json_object_new_object();
    snprintf(path, path_len, "/rhev/data-center/mnt/blockSD/%s/images/%s/%s", sd, img, vol);
    add(e, "domainID", jstr(sd));
    add(e, "imageID", jstr(img));
    add(e, "volumeID", jstr(vol));
    add(e, "path", jstr(path));
    return e;
}

/* VmDiskDevice for disk i. Its "shared" (VmSharedDriveType) is left out:
 * that union has a primitive member vdsmapi cannot walk, so any value makes
 * its check abort. */
static json_object *disk_device(uint64_t *rng, const struct vm *v, int i, const struct storage *st)
{
    const struct vm_disk *dk = &v->disks[i];
    json_object *d = device(rng, "disk", "disk", 1), *chain = json_object_new_array();
    const char *sd = st->sd[rng_int(rng, 0, 1)];
    char vol[VMSIM_ID_LEN + 1], path[200];
    int nvol = rng_int(rng, 1, 3); /* base image plus snapshots */
    for (int k = 0; k < nvol; k++) {
        vmsim_make_uuid(rng, vol);
        json_object_array_add(chain, chain_entry(sd, dk->img, vol, path, sizeof path));
    }
    add(d, "name", jstr(vmsim_disk_name(i)));
    add(d, "address", pci_address(6 + i));
    add(d, "index", jint(i));
    add(d, "iface", jstr(i == 2 ? "scsi" : "virtio"));
    add(d, "format", jstr(nvol > 1 ? "cow" : "raw"));
    add(d, "diskType", jstr("block"));
    add(d, "readonly", jbool(0));
    add(d, "optional", jbool(0));
    add(d, "propagateErrors", jbool(0));
    add(d, "truesize", json_object_new_int64((int64_t)dk->truesize));
    add(d, "apparentsize", json_object_new_int64((int64_t)dk->truesize * 2));
    add(d, "poolID", jstr(st->pool));
    add(d, "domainID", jstr(sd));
    add(d, "imageID", jstr(dk->img));
    add(d, "volumeID", jstr(vol)); /* the chain's top */
    add(d, "path", jstr(path));
    add(d, "volumeChain", chain);
    add(d, "specParams", json_object_new_object());
    if (i == 0)
        add(d, "bootOrder", jint(1));
    return d;
}

/* VmInterfaceDevice for NIC i: the MAC the stats show. */
static json_object *nic_device(uint64_t *rng, const struct vm *v, int i)
{
    json_object *d = device(rng, "interface", "bridge", 1);
    add(d, "nicModel", jstr("pv"));
    add(d, "macAddr", vmsim_mac(v->idx, i));
    add(d, "network", jstr(i ? "vmnet" : "ovirtmgmt"));
    add(d, "filter", jstr("vdsm-no-mac-spoofing"));
    add(d, "linkActive", jbool(1));
    add(d, "address", pci_address(3 + i));
    add(d, "specParams", json_object_new_object());
    return d;
}

/* VmControllerDevice. */
static json_object *controller(uint64_t *rng, const char *dev, const char *model, int slot)
{
    json_object *d = device(rng, "controller", dev, 1);
    add(d, "model", jstr(model));
    add(d, "address", pci_address(slot));
    return d;
}

#define SPICE_CHANNELS "smain,sinputs,scursor,splayback,srecord,sdisplay,ssmartcard,susbredir"

/* VmGraphicsDevice: its schema member has no deviceId, alias or address. */
static json_object *graphics(const struct vm *v)
{
    json_object *d = device(NULL, "graphics", "spice", 0), *sp = json_object_new_object();
    add(d, "port", jint(v->display_port));
    add(d, "tlsPort", jint(v->display_port + 1));
    add(sp, "keyMap", jstr("en-us"));
    add(sp, "displayNetwork", jstr("ovirtmgmt"));
    add(sp, "spiceSecureChannels", jstr(SPICE_CHANNELS));
    add(sp, "copyPasteEnable", jbool(1));
    add(sp, "fileTransferEnable", jbool(1));
    add(d, "specParams", sp);
    return d;
}

/* VmRngDevice. */
static json_object *rng_device(void)
{
    json_object *d = device(NULL, "rng", "virtio", 0), *sp = json_object_new_object();
    add(d, "model", jstr("virtio"));
    add(sp, "source", jstr("random"));
    add(sp, "bytes", jint(1024));
    add(sp, "period", jint(1000));
    add(d, "specParams", sp);
    return d;
}

/* devices: [VmDevice]. Only kinds vdsmapi can tell apart: the union takes
 * the first member whose properties cover a device's keys, and a video,
 * balloon, channel or console device has only keys VmDiskDevice (the first
 * member) also has, so it would be checked, and rejected, as a disk. */
static json_object *devices(uint64_t *rng, const struct vm *v, const struct storage *st)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < v->ndisks; i++)
        json_object_array_add(a, disk_device(rng, v, i, st));
    for (int i = 0; i < v->nnics; i++)
        json_object_array_add(a, nic_device(rng, v, i));
    json_object_array_add(a, controller(rng, "virtio-serial", "virtio-serial", 2));
    json_object_array_add(a, controller(rng, "scsi", "virtio-scsi", 9));
    json_object_array_add(a, controller(rng, "usb", "qemu-xhci", 10));
    json_object_array_add(a, graphics(v));
    json_object_array_add(a, rng_device());
    return a;
}

/* guestDiskMapping (GuestDisksMappingMap): disk serial (the imageID's first
 * 20 characters, as VDSM sets it) -> GuestDiskMappingInfo. */
static json_object *disk_mapping(const struct vm *v)
{
    json_object *m = json_object_new_object();
    for (int i = 0; i < v->ndisks; i++) {
        char serial[21];
        json_object *e = json_object_new_object();
        snprintf(serial, sizeof serial, "%.20s", v->disks[i].img);
        add(e, "name", vmsim_jfmt("/dev/%s", vmsim_disk_name(i)));
        add(m, serial, e);
    }
    return m;
}

/* custom (StringMap): the VM's custom properties, a seeded pick. */
static json_object *custom_props(uint64_t *rng)
{
    static const char *const kv[][2] = {
        {"viodiskcache", "writeback"}, {"sap_agent", "false"}, {"hugepages", "1048576"},
        {"vhost", "ovirtmgmt:true"}, {"mdev_type", "nvidia-22"}, {"scsi_hostdev", "scsi_generic"},
    };
    json_object *m = json_object_new_object();
    int n = rng_int(rng, 1, 4), first = rng_int(rng, 0, 5);
    for (int i = 0; i < n; i++)
        add(m, kv[(first + i) % 6][0], jstr(kv[(first + i) % 6][1]));
    return m;
}

/* guestOsInfo (VMGuestOsInfo) and guestTimezone (VMGuestTimezone): what
 * the guest agent reports, carried by the definition, not the stats. */
static void guest_info(json_object *o)
{
    json_object *os = json_object_new_object(), *tz = json_object_new_object();
    add(os, "type", jstr("linux"));
    add(os, "arch", jstr("x86_64"));
    add(os, "kernel", jstr("4.18.0-553.el8_10.x86_64"));
    add(os, "distribution", jstr("Red Hat Enterprise Linux"));
    add(os, "version", jstr("8.10"));
    add(os, "codename", jstr("Ootpa"));
    add(o, "guestOsInfo", os);
    add(tz, "offset", jint(0));
    add(tz, "zone", jstr("UTC"));
    add(o, "guestTimezone", tz);
}

/* The scalars of VMFullInfo (the schema's required ones, plus display*). */
static void scalars(json_object *o, const struct vm *v)
{
    int mem_mb = (int)(v->mem_total / 1024);
    add(o, "vmId", jstr(v->id));
    add(o, "vmName", vmsim_jfmt("vm-%03d", v->idx));
    add(o, "status", jstr("Up"));
    add(o, "vmType", jstr("kvm"));
    add(o, "memSize", jint(mem_mb));
    add(o, "memGuaranteedSize", jint(mem_mb / 2));
    add(o, "smp", jint(v->ncpu));
    add(o, "smpCoresPerSocket", jint(v->ncpu >= 4 ? 2 : 1));
    add(o, "cpuType", jstr("Skylake-Server,+spec-ctrl,+ssbd,+md-clear"));
    add(o, "emulatedMachine", jstr("pc-q35-rhel8.6.0"));
    add(o, "arch", jstr("x86_64"));
    add(o, "kvmEnable", jbool(1));
    add(o, "acpiEnable", jbool(1));
    add(o, "pitReinjection", jbool(0));
    add(o, "transparentHugePages", jbool(1));
    add(o, "smartcardEnable", jbool(0));
    add(o, "nice", jint(0));
    add(o, "timeOffset", jint(0));
    add(o, "pid", jint(v->pid));
    add(o, "pauseCode", jstr("NOERR"));
    add(o, "nicModel", jstr("pv"));
    add(o, "keyboardLayout", jstr("en-us"));
    add(o, "display", jstr("qxl"));
    add(o, "displayIp", jstr("192.0.2.21"));
    add(o, "displayPort", jint(v->display_port));
    add(o, "displaySecurePort", jint(v->display_port + 1));
    add(o, "spiceSslCipherSuite", jstr("DEFAULT"));
    add(o, "spiceSecureChannels", jstr(SPICE_CHANNELS));
    add(o, "clientIp", jstr(""));
    add(o, "guestFQDN", vmsim_jfmt("vm-%03d.example.com", v->idx));
    add(o, "guestIPs", vmsim_jfmt("10.0.%d.%d", (v->idx >> 8) & 0xff, v->idx & 0xff));
    add(o, "username", jstr("Unknown"));
}

static json_object *build_full(const struct vmsim *sim, struct vm *v)
{
    struct storage st;
    uint64_t rng = sim->seed ^ (0x2545f4914f6cdd1dULL * (uint64_t)(v->idx + 1));
    json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    storage_ids(sim->seed, &st);
    scalars(o, v);
    v->full_status_time = json_object_new_int64(0);
    add(o, "statusTime", v->full_status_time);
    guest_info(o);
    add(o, "guestDiskMapping", disk_mapping(v));
    add(o, "custom", custom_props(&rng));
    add(o, "devices", devices(&rng, v, &st));
    return o;
}

/* Builds VM v's VMFullInfo object on first use and stamps its statusTime.
 * @return it, owned by v (vmsim_free puts it; borrowed: json_object_get to
 * keep it), or NULL without memory. */
static json_object *vmsim_full_of(const struct vmsim *sim, struct vm *v)
{
    if (!v->full)
        v->full = build_full(sim, v);
    if (v->full)
        json_object_set_int64(v->full_status_time, vmsim_status_time_ms(sim));
    return v->full;
}

/* Is v named in ids (an array of strings)? */
static int listed(const struct vm *v, json_object *ids)
{
    size_t n = json_object_array_length(ids);
    for (size_t i = 0; i < n; i++) {
        json_object *s = json_object_array_get_idx(ids, i);
        if (json_object_is_type(s, json_type_string) && !strcmp(json_object_get_string(s), v->id))
            return 1;
    }
    return 0;
}

json_object *vmsim_full_list(struct vmsim *sim, json_object *vm_ids)
{
    int filter = json_object_is_type(vm_ids, json_type_array) &&
                 json_object_array_length(vm_ids) > 0;
    json_object *a = json_object_new_array_ext(filter ? 1 : sim->n ? sim->n : 1);
    if (!a)
        return NULL;
    vmsim_advance(sim);
    for (int i = 0; i < sim->n; i++) {
        struct vm *v = &sim->vms[i];
        if (filter && !listed(v, vm_ids))
            continue;
        json_object *full = vmsim_full_of(sim, v);
        if (!full || json_object_array_add(a, json_object_get(full)) < 0) {
            if (full)
                json_object_put(full); /* the reference the failed add took */
            json_object_put(a);
            return NULL;
        }
    }
    return a;
}
