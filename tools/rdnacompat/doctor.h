/* SPDX-License-Identifier: MIT */
/*
 * doctor.h — the checks of `rdnacompat doctor`, separate from its printing so
 * `report` can include them.  Each check has an id, a level (ok, warn, fail),
 * one sentence of finding and, unless ok, one line of fix.
 */
#ifndef RDC_TOOL_DOCTOR_H
#define RDC_TOOL_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "sysinfo.h"

enum rdc_level { RDC_LVL_OK = 0, RDC_LVL_WARN = 1, RDC_LVL_FAIL = 2 };

struct rdc_check {
	char id[32];
	int level;
	char *msg;
	char *fix;                 /* NULL when ok */
};

struct rdc_checks {
	size_t n;
	struct rdc_check *v;
	bool no_gpu;               /* no AMD display device found */
};

struct rdc_doctor_opts {
	const char *user;          /* evaluate group membership/permissions for this user
	                              (from <root>/etc/passwd and group); NULL: this process */
};

/* Add one check (doctor.c); `fix` is kept only when level is not ok. */
void rdc_check_add(struct rdc_checks *c, const char *id, int level, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The card's marketing name, or "unknown AMD GPU". */
const char *rdc_card_name(const struct rdc_gpu *g);
/* Every GPU is a simulated card (reported by the runtime under `rdnacompat
 * sim`, none on the PCI bus). */
bool rdc_doctor_simulated(const struct rdc_sysinfo *si);

/* HSA_OVERRIDE_GFX_VERSION[_<node>] in the environment and in shell
 * start-up files (doctor_override.c). */
void rdc_doctor_override(const struct rdc_sysinfo *si, const struct rdc_tables *t, struct rdc_checks *c);
/* The build to install for each card, and the TheRock layouts found
 * (doctor_build.c, tables/builds.tsv). */
void rdc_doctor_build(const struct rdc_sysinfo *si, struct rdc_checks *c);
/* Kernel, amdgpu parameters and firmware against known faults
 * (doctor_platform.c, tables/platform.tsv). */
void rdc_doctor_platform(const struct rdc_sysinfo *si, struct rdc_checks *c);

/* With two or more GPUs: whether they reach each other (KFD p2p_links, the
 * public frame buffer heap, pcie_p2p, IOMMU) (doctor_peer.c). */
void rdc_doctor_peer(const struct rdc_sysinfo *si, struct rdc_checks *c);

/* Run every check against `si` (and the process environment). */
void rdc_doctor_run(const struct rdc_doctor_opts *o, const struct rdc_sysinfo *si,
		    const struct rdc_tables *t, struct rdc_checks *out);
void rdc_checks_free(struct rdc_checks *c);
const char *rdc_level_name(int level);

/* Exit code: 3 no AMD GPU, else 2 any fail, 1 any warn, 0 all ok. */
int rdc_doctor_exit(const struct rdc_checks *c);

/* doctor --libs (doctor_libs.c): `inspect --gpu TARGET` on the library
 * directories under si->root for each card found, else each simulated one;
 * prints to stdout; returns inspect's worst exit status. */
int rdc_doctor_libs(const struct rdc_sysinfo *si);

#endif
