/* vmsim_testing: test hooks of server/vmsim.h, as HdrHistogram_c keeps its own
 * in hdr_tests.h. The library defines them; only tests and fuzz harnesses
 * include this header: nothing in rpcbench calls them. */
#ifndef RPCBENCH_VMSIM_TESTING_H
#define RPCBENCH_VMSIM_TESTING_H

#include <stdint.h>

#include "server/vmsim.h"

/* @return the vmId of VM i, a UUID string owned by sim (valid until
 * vmsim_free), or NULL when i is not in 0..count-1. */
const char *vmsim_vm_id(const struct vmsim *sim, int i);

/* Switches sim to a manual clock and moves it to t_ns since its start
 * (never backwards); later calls do not read the real clock. */
void vmsim_set_time(struct vmsim *sim, int64_t t_ns);

#endif
