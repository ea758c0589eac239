// SPDX-License-Identifier: MIT
/*
 * doctor_libs.c — `rdnacompat doctor --libs`: for each card the doctor found
 * (else each simulated one, RDNACOMPAT_SIM_GPUS), which installed libraries
 * and per-arch data files lack the card's target and what the shim does
 * about each: it runs `inspect --gpu TARGET` on the library directories
 * (cmd_inspect.c, inspect_dir.c), so the verdicts are inspect's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "doctor.h"
#include "tool_util.h"

static const char *const lib_dirs[] = { "/usr/lib/x86_64-linux-gnu", "/opt/rocm/lib", NULL };

/* Adds target t to list (n entries of RDC_PROC_MAX) unless there already. */
static void add_target(char (*list)[RDC_PROC_MAX], size_t *n, size_t max, const char *t, size_t len)
{
	if (!len || len >= RDC_PROC_MAX || *n == max)
		return;
	for (size_t i = 0; i < *n; i++)
		if (strlen(list[i]) == len && !strncmp(list[i], t, len))
			return;
	memcpy(list[*n], t, len);
	list[(*n)++][len] = '\0';
}

int rdc_doctor_libs(const struct rdc_sysinfo *si)
{
	char targets[RDC_SYS_MAX_GPUS][RDC_PROC_MAX];
	size_t n = 0;
	const char *from = "found on this machine";
	for (size_t i = 0; i < si->n_gpus; i++)
		add_target(targets, &n, RDC_SYS_MAX_GPUS, si->gpus[i].target, strlen(si->gpus[i].target));
	const char *sim = getenv("RDNACOMPAT_SIM_GPUS");
	if (!n && sim && *sim) {
		/* Items are TARGET or TARGET@CARD, comma-separated (cmd_sim.c). */
		from = "simulated (RDNACOMPAT_SIM_GPUS)";
		for (const char *p = sim; *p;) {
			size_t len = strcspn(p, ",");
			size_t tl = strcspn(p, ",@");
			add_target(targets, &n, RDC_SYS_MAX_GPUS, p, tl < len ? tl : len);
			p += len + (p[len] == ',');
		}
	}
	fflush(stdout);
	if (!n) {
		printf("\nlibraries: no card with a known target, found or simulated: nothing to check\n");
		return 0;
	}
	int worst = 0;
	for (size_t d = 0; lib_dirs[d]; d++) {
		char *dir = rdc_rooted(si->root, lib_dirs[d]);
		struct stat st;
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			for (size_t i = 0; i < n; i++) {
				printf("\nlibraries for %s (%s): rdnacompat inspect --gpu %s %s\n", targets[i],
					from, targets[i], dir);
				fflush(stdout);
				char *argv[] = { "inspect", "--gpu", targets[i], dir, NULL };
				int rc = rdc_cmd_inspect(4, argv);
				worst = rc > worst ? rc : worst;
			}
		free(dir);
	}
	return worst;
}
