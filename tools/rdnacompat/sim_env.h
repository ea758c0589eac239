/* SPDX-License-Identifier: MIT */
/*
 * sim_env.h — putting a child program on simulated GPUs, shared by
 * `rdnacompat sim` and `rdnacompat run/explain --gpu TARGET`: checking a
 * RDNACOMPAT_SIM_GPUS item against the tables, finding the simulator
 * (librdnacompat-sim.so) and making it load into every process the child
 * starts.  The simulator itself is tools/simgpu (docs/SIMGPU.md).
 */
#ifndef RDC_TOOL_SIM_ENV_H
#define RDC_TOOL_SIM_ENV_H

#include <stdbool.h>
#include <stddef.h>

/* One simulated GPU as RDNACOMPAT_SIM_GPUS takes it — TARGET, TARGET@CARD
 * or @CARD, CARD a PCI id ("73df", "1002:73df", "73df:c1") or a card name
 * ("RX 6700 XT") — checked as the simulator will read it: 0, or -1 with
 * the reason in err (unknown target, no such card, an ambiguous name). */
int rdc_sim_check_item(const char *item, char *err, size_t n);

/* --card NAME as `sim` takes it: 0, or -1 with the reason in err. */
int rdc_sim_check_card(const char *name, char *err, size_t n);

/* The simulator's path (malloc'd): RDNACOMPAT_SIM_LIB, else
 * ../sim/librdnacompat-sim.so beside the tool (build tree), else
 * ../lib/rdnacompat/sim/ (installed).  NULL when not found. */
char *rdc_sim_lib(void);

/* Move this process (and what it execs) into a private mount namespace,
 * with a user namespace mapping the caller's uid/gid to 0 when it is not
 * privileged; mounts made afterwards are seen by it and its children only.
 * Also used by `run --view-arch-files` (view_env.c).  0, or -1 with the
 * failing step and errno's text in err. */
int rdc_private_mount_ns(char *err, size_t n);

/* Make every process this one execs load the simulator `lib`: a private
 * mount namespace whose /etc/ld.so.preload names it (so a child that sets
 * its own LD_PRELOAD keeps the simulated card), unless use_ns is false
 * (RDNACOMPAT_SIM_NAMESPACE=0) or namespaces cannot be made here — then
 * the simulator goes first in LD_PRELOAD, said on stderr with `who`.
 * *in_ns says which.  0, or -1 with a message on stderr. */
int rdc_sim_attach(const char *lib, bool use_ns, const char *who, bool *in_ns);

#endif
