/* vmsim: N simulated running VMs with VDSM-shaped, evolving stats.
 *
 * Two phases per call: evolve (cheap arithmetic on doubles for every VM,
 * consuming the seeded PRNG in a fixed order, so the walk does not depend
 * on which VMs a caller asks for) and render (write the current numbers as
 * VDSM's strings into the VM's json-c object, only for the VMs returned:
 * vmsim_tree.c). A VM is its numbers, drawn here once from the seed; its
 * objects are built from them when first needed. */
#include "server/vmsim.h"
#include "server/vmsim_testing.h"

#include <inttypes.h>
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

void vmsim_make_uuid(uint64_t *rng, char *out)
{
    uint64_t a = rng_next(rng), b = rng_next(rng);
    snprintf(out, VMSIM_ID_LEN + 1, "%08x-%04x-4%03x-%04x-%012" PRIx64,
             (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff, (unsigned)a & 0xfff,
             (unsigned)(0x8000 | ((b >> 48) & 0x3fff)), (uint64_t)(b & 0xffffffffffffULL));
}

/* ---- drawing a VM's numbers from the seed ----
 * The draws' order is the simulator's identity: every seed has given the
 * same VMs since the first version, so keep it. */

static void draw_disk(uint64_t *rng, struct vm_disk *d)
{
    d->truesize = (double)rng_int(rng, 2, 60) * 1073741824.0;
    d->apparent = d->truesize * 2;
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
}

static void draw_nic(uint64_t *rng, struct vm_nic *n)
{
    n->rx_rate = rng_int(rng, 100, 2000000);
    n->tx_rate = rng_int(rng, 100, 2000000);
    n->rx = rng_int(rng, 0, 1 << 30) * 8.0;
    n->tx = rng_int(rng, 0, 1 << 30) * 8.0;
    n->rx_drop = rng_int(rng, 0, 2000);
}

/* memoryStats, devices (1..3 disks and NICs), guest and hashes. */
static void draw_groups(uint64_t *rng, struct vm *v)
{
    v->mem_total = 1048576.0 * rng_int(rng, 1, 16);
    v->mem_usage = rng_int(rng, 10, 80);
    v->minflt = rng_int(rng, 0, 500);
    v->mem_cached = rng_int(rng, 100000, 900000);
    v->mem_buffers = rng_int(rng, 10000, 200000);
    v->ndisks = rng_int(rng, 1, MAX_DEV);
    v->nnics = rng_int(rng, 1, MAX_DEV);
    for (int i = 0; i < v->ndisks; i++)
        draw_disk(rng, &v->disks[i]);
    for (int i = 0; i < v->nnics; i++)
        draw_nic(rng, &v->nics[i]);
    v->fs_total = 21464350720.0;
    v->fs_used = v->fs_total * (0.1 + 0.6 * rng_u01(rng));
    v->napps = rng_int(rng, 1, 3);
    v->hash = (int64_t)rng_next(rng);
    for (int i = 0; i < 4; i++)
        v->tpm_hash[i] = rng_next(rng);
    for (int i = 0; i < 4; i++)
        v->nvram_hash[i] = rng_next(rng);
}

static void draw_vm(uint64_t *rng, struct vm *v, int idx)
{
    vmsim_make_uuid(rng, v->id);
    v->ncpu = 1 << rng_int(rng, 0, 3);
    v->cpu_user = rng_u01(rng) * 40;
    v->cpu_sys = rng_u01(rng) * 5;
    v->cpu_usage_ns = rng_u01(rng) * 1e13;
    v->elapsed0_s = rng_int(rng, 60, 10000000);
    v->idx = idx;
    v->pid = rng_int(rng, 1000, 99999);
    v->display_port = 5900 + 2 * (idx % 500);
    draw_groups(rng, v);
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
        draw_vm(&sim->rng, &sim->vms[i], i);
    sim->t0_real = clock_now_ns();
    return sim;
}

void vmsim_free(struct vmsim *sim)
{
    if (!sim)
        return;
    vmsim_drop_trees(sim);
    free(sim->vms);
    free(sim);
}

void vmsim_drop_trees(struct vmsim *sim)
{
    for (int i = 0; i < sim->n; i++)
        vmsim_tree_free(&sim->vms[i]);
}

int vmsim_has_trees(const struct vmsim *sim)
{
    for (int i = 0; i < sim->n; i++)
        if (sim->vms[i].tree || sim->vms[i].full)
            return 1;
    return 0;
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

json_object *vmsim_stats_all(struct vmsim *sim)
{
    json_object *a = json_object_new_array_ext(sim->n ? sim->n : 1);
    if (!a)
        return NULL;
    vmsim_advance(sim);
    for (int i = 0; i < sim->n; i++) {
        json_object *o = vmsim_tree_render(sim, &sim->vms[i]);
        if (!o) {
            json_object_put(a);
            return NULL;
        }
        json_object_array_add(a, json_object_get(o));
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
    json_object *o = vmsim_tree_render(sim, v);
    if (!o) {
        json_object_put(a);
        return NULL;
    }
    json_object_array_add(a, json_object_get(o));
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
