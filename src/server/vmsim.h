/* vmsim: the simulated VMs of `rpcbench serve`.
 *
 * N running VMs whose stats follow VDSM's VmStats schema and wire types
 * (mostly decimal strings: floats "%.2f", ints "%d"; booleans, vcpuPeriod
 * and the memoryStats fault counters stay native). Counters grow with
 * elapsed time and rates random-walk between calls; everything derives
 * from the seed (vmIds, device counts, names, the walk), so two simulators
 * with the same seed advanced to the same times answer the same bytes.
 *
 * Stats keys are the schema's RunningVmStats (vdsm-api.yml); full VM
 * definitions (vmsim_full_list) are its VMFullInfo.
 *
 * A VM is a few hundred bytes of numbers; its stats object is built from
 * them at the first call that returns it and then updated in place, so a
 * stats call allocates only the outer array. The returned arrays share
 * those objects: render them before the next call into the simulator.
 * vmsim_drop_trees frees the objects and keeps the numbers (serve --hosts
 * keeps every host's numbers and only a few hosts' objects). */
#ifndef RPCBENCH_VMSIM_H
#define RPCBENCH_VMSIM_H

#include <json-c/json.h>
#include <stdint.h>

#define VMSIM_MAX_VMS 100000
#define VMSIM_ID_LEN 36

struct vmsim;

/* @return a simulator of nvms (0..VMSIM_MAX_VMS) VMs on the real monotonic
 * clock, owned by the caller (vmsim_free), or NULL with err (caller's,
 * ERR_LEN bytes) filled: nvms out of range, or out of memory. */
struct vmsim *vmsim_new(int nvms, uint64_t seed, char *err);
/* Frees sim and every object it built (sim may be NULL). References the
 * caller still holds to arrays from the calls below stay valid. */
void vmsim_free(struct vmsim *sim);

/* Frees every VM's json-c objects (stats and full definitions), keeping
 * its numbers: the next call that needs them builds the same objects
 * again. References the caller holds stay valid. */
void vmsim_drop_trees(struct vmsim *sim);
/* @return 1 when some VM of sim holds json-c objects, 0 when none does. */
int vmsim_has_trees(const struct vmsim *sim);

/* @return the number of VMs. */
int vmsim_count(const struct vmsim *sim);

/* The arrays below are new references the caller puts (json_object_put).
 *
 * @return an array of every VM's stats object, NULL without memory. */
json_object *vmsim_stats_all(struct vmsim *sim);
/* @return a one-element array with vm_id's stats (vm_id borrowed), or
 * NULL when vm_id is NULL or names no VM, or without memory. */
json_object *vmsim_stats_one(struct vmsim *sim, const char *vm_id);
/* @return an array of {vmId, status, statusTime} objects (VDSM's list
 * without fullStatus; these are new, not shared), NULL without memory. */
json_object *vmsim_list(struct vmsim *sim);
/* Full VM definitions (the schema's VMFullInfo): VDSM's list with
 * fullStatus, Host.getVMFullList. vm_ids (borrowed) filters as VDSM's
 * vmList does: NULL, a non-array or an empty array means every VM; ids
 * that name no VM are skipped. The definitions are shared like the stats
 * objects. @return a new array reference, NULL without memory. */
json_object *vmsim_full_list(struct vmsim *sim, json_object *vm_ids);

#endif
