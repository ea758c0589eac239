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
