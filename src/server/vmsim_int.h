/* vmsim_int: what vmsim.c (the stats) and vmsim_full.c (the full VM
 * definitions) share. Not part of the simulator's interface. */
#ifndef RPCBENCH_VMSIM_INT_H
#define RPCBENCH_VMSIM_INT_H

#include <json-c/json.h>
#include <stdint.h>

#include "base/rng.h"
#include "server/vmsim.h"

#define MAX_DEV 3

/* Top-level fields rewritten at each render. */
enum { F_CPU_USER, F_CPU_SYS, F_CPU_USAGE, F_ELAPSED, F_STATUS_TIME, F_MEM_USAGE,
       F_MEM_UNUSED, F_MEM_FREE, F_MINFLT, F_PAGEFLT, F_FS_USED, F_NFIELDS };
enum { D_RD_RATE, D_WR_RATE, D_RD_LAT, D_WR_LAT, D_FL_LAT, D_RD_OPS, D_WR_OPS,
       D_RD_BYTES, D_WR_BYTES, D_TRUESIZE, D_NFIELDS };
enum { N_RX, N_TX, N_RX_DROP, N_SAMPLE_TIME, N_NFIELDS };

/* A VM's state is plain numbers (struct vm, a few hundred bytes), drawn
 * from the seed once; its json-c objects (struct vm_tree, tens of KB) are
 * built from those numbers when an answer needs them and may be dropped
 * and built again (vmsim_drop_trees): the same numbers give the same
 * objects, so `serve --hosts` keeps every host's state and only a few
 * hosts' objects. */
struct vm_disk {
    double rd_rate, wr_rate, rd_lat, wr_lat, fl_lat; /* B/s, ns */
    double rd_ops, wr_ops, rd_bytes, wr_bytes, truesize;
    double apparent; /* apparentsize: twice the first truesize */
    char img[VMSIM_ID_LEN + 1]; /* imageID, shared by stats and definition */
};

struct vm_nic {
    double rx_rate, tx_rate, rx, tx, rx_drop;
};

/* The VmStats object and its fields rewritten at each render. */
struct vm_tree {
    json_object *obj;
    json_object *f[F_NFIELDS];
    json_object *df[MAX_DEV][D_NFIELDS];
    json_object *nf[MAX_DEV][N_NFIELDS];
    int64_t rendered_ns; /* sim time of the last render, -1 never */
};

struct vm {
    char id[VMSIM_ID_LEN + 1];
    struct vm_tree *tree; /* owned; NULL until an answer needs it */
    json_object *full; /* the VMFullInfo object, built at first use; NULL before */
    json_object *full_status_time;
    double cpu_user, cpu_sys, cpu_usage_ns, mem_usage, mem_total, minflt;
    double fs_used, fs_total;
    int64_t elapsed0_s, hash;
    uint64_t tpm_hash[4], nvram_hash[4];
    int idx, ncpu, ndisks, nnics, napps, pid, display_port, mem_cached, mem_buffers;
    struct vm_disk disks[MAX_DEV];
    struct vm_nic nics[MAX_DEV];
};

struct vmsim {
    struct vm *vms;
    int n;
    uint64_t seed;
    uint64_t rng;
    int manual;
    int64_t t0_real; /* real clock at start */
    int64_t t_ns;    /* sim time since start */
    int64_t mono0_ms; /* host monotonic ms at start, as VDSM's statusTime */
};

/* @return a number in [lo, hi] (inclusive), advancing *s. */
static inline int rng_int(uint64_t *s, int lo, int hi)
{
    return lo + (int)(rng_next(s) % (uint64_t)(hi - lo + 1));
}

/* Adds v under key: o takes the caller's reference to v. */
static inline void add(json_object *o, const char *key, json_object *v)
{
    json_object_object_add(o, key, v);
}

/* vmsim_tree.c: @return a new json string (new reference) from printf-style arguments,
 * truncated to 255 bytes; NULL without memory. */
json_object *vmsim_jfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* vmsim.c: writes a random v4 UUID (VMSIM_ID_LEN + 1 bytes with the NUL) into out
 * (the caller's), advancing *rng. */
void vmsim_make_uuid(uint64_t *rng, char *out);
/* @return the name of disk i (0 <= i < MAX_DEV): "vda", "vdb", "sda";
 * static storage. */
const char *vmsim_disk_name(int i);
/* @return the VM's MAC address for NIC i, as the stats and the definition
 * show it: a new json string (new reference), NULL without memory. */
json_object *vmsim_mac(int vm_idx, int nic);
/* @return host monotonic ms at the sim's current time: VDSM's statusTime. */
static inline int64_t vmsim_status_time_ms(const struct vmsim *sim)
{
    return sim->mono0_ms + sim->t_ns / 1000000;
}
/* Moves the sim to the real clock's now (no-op on a manual clock). */
void vmsim_advance(struct vmsim *sim);
/* vmsim_tree.c: builds v's VmStats objects from its numbers if they are
 * not built, and writes its current numbers into them (once per sim time).
 * @return v's object (owned by v: json_object_get to keep it), or NULL
 * without memory. */
json_object *vmsim_tree_render(const struct vmsim *sim, struct vm *v);
/* Frees v's objects (the stats tree and the full definition); v's numbers
 * stay. References others hold stay valid. */
void vmsim_tree_free(struct vm *v);

#endif
