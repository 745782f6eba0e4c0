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
 * Each VM's stats object is built once and then updated in place, so a
 * stats call allocates only the outer array. The returned arrays share
 * those objects: render them before the next call into the simulator. */
#ifndef RPCBENCH_VMSIM_H
#define RPCBENCH_VMSIM_H

#include <json-c/json.h>
#include <stdint.h>

#define VMSIM_MAX_VMS 100000
#define VMSIM_ID_LEN 36

struct vmsim;

/* @return a simulator of nvms (0..VMSIM_MAX_VMS) VMs on the real monotonic
 * clock, or NULL with err filled (ERR_LEN bytes). */
struct vmsim *vmsim_new(int nvms, uint64_t seed, char *err);
void vmsim_free(struct vmsim *sim);

int vmsim_count(const struct vmsim *sim);
/* The vmId of VM i (0 <= i < count), a UUID string. */
const char *vmsim_vm_id(const struct vmsim *sim, int i);

/* Switches sim to a manual clock and moves it to t_ns since its start
 * (never backwards); later calls do not read the real clock. For tests. */
void vmsim_set_time(struct vmsim *sim, int64_t t_ns);

/* Array of every VM's stats object (new reference; NULL without memory). */
json_object *vmsim_stats_all(struct vmsim *sim);
/* One-element array with vm_id's stats, or NULL when no such VM. */
json_object *vmsim_stats_one(struct vmsim *sim, const char *vm_id);
/* Array of {vmId, status, statusTime}: VDSM's list without fullStatus. */
json_object *vmsim_list(struct vmsim *sim);
/* Array of full VM definitions (the schema's VMFullInfo): VDSM's list with
 * fullStatus, Host.getVMFullList. vm_ids (borrowed) filters as VDSM's
 * vmList does: NULL, a non-array or an empty array means every VM; ids
 * that name no VM are skipped. New reference, NULL without memory; the
 * definitions are shared like the stats objects. */
json_object *vmsim_full_list(struct vmsim *sim, json_object *vm_ids);

#endif
