/* SPDX-License-Identifier: MIT */
/*
 * agents.h — the GPU agents the ROCm runtime reports, asked in a child
 * process (agents.c), and their entry into struct rdc_sysinfo for doctor.
 */
#ifndef RDC_TOOL_AGENTS_H
#define RDC_TOOL_AGENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysinfo.h"

struct rdc_agent {
	char name[64];             /* HSA_AGENT_INFO_NAME: "gfx1031" */
	char product[64];          /* HSA_AMD_AGENT_INFO_PRODUCT_NAME, may be "" */
	uint32_t chip_id;          /* PCI device id */
	uint32_t bdfid;            /* bus << 8 | device << 3 | function */
	int hip_index;             /* order among the GPU agents */
};

/* Up to `cap` GPU agents into out, *n of them, asked in a child process
 * whose HSA_OVERRIDE_GFX_VERSION[_N] variables are removed unless
 * `keep_overrides`.  0, or -1 with the reason in `why` (no runtime,
 * hsa_init failed, crashed, timed out): then *n is 0. */
int rdc_runtime_agents(struct rdc_agent *out, size_t cap, size_t *n, bool keep_overrides, char *why, size_t why_len);

/* Is HSA_OVERRIDE_GFX_VERSION or an HSA_OVERRIDE_GFX_VERSION_<N> set? */
bool rdc_override_set(void);

/* Ask the runtime about si's GPUs: with the override variables removed
 * (rt_target, product, hip_index when unknown) and, when one is set, with
 * this environment (rt_env_target); GPUs are matched to agents by PCI
 * location, else by order.  With no GPU in si: the runtime's agents become
 * its GPUs (rdc_sys_add_runtime_gpus), else si->runtime_note says why not. */
void rdc_sys_ask_runtime(struct rdc_sysinfo *si, const struct rdc_tables *t);

/* When si has no GPU from /sys: the runtime's GPU agents as si's GPUs
 * (from_runtime set, card looked up by PCI id).  Returns how many; `why`
 * says why none when 0. */
size_t rdc_sys_add_runtime_gpus(struct rdc_sysinfo *si, const struct rdc_tables *t, char *why,
				size_t why_len);

#endif
