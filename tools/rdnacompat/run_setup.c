/* SPDX-License-Identifier: MIT */
/*
 * run_setup.c — the whole of `run`'s environment for the tool (run_env.h):
 * run_env.c's part, then a --gpu that names a target (the simulated GPU,
 * as `rdnacompat sim` gives it: sim_env.c), then the override warning.
 * Kept apart from run_env.c so that the front end, which hands a simulated
 * --gpu to the tool, links no tables.
 */
#include "run_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_env.h"

/* Each comma item of a --gpu that is not an index list: a simulated GPU
 * as RDNACOMPAT_SIM_GPUS takes it (TARGET, TARGET@CARD, @CARD). */
static bool gpu_items_ok(const char *gpu, char *why, size_t n)
{
	for (const char *p = gpu;;) {
		size_t len = strcspn(p, ",");
		char item[128], err[256];
		snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
		if (rdc_sim_check_item(item, err, sizeof err)) {
			snprintf(why, n, "%s%s (--gpu takes a GPU index, a target such as gfx1031, or "
				 "TARGET@CARD with a card of `rdnacompat cards`)", strncmp(err, "--gpu", 5) ? "--gpu: " : "",
				 err);
			return false;
		}
		p += len;
		if (*p++ != ',')
			return true; /* an empty item ("gfx1031,") was refused above */
	}
}

/* A target: the simulated GPU, in every process the program starts, as
 * `rdnacompat sim` does.  0, or -1 with a message on stderr. */
static int setup_sim(const char *gpu)
{
	char why[512];
	if (*gpu && !gpu_items_ok(gpu, why, sizeof why)) {
		fprintf(stderr, "rdnacompat: %s\n", why);
		return -1;
	}
	char *sim = rdc_sim_lib();
	if (!sim) {
		fprintf(stderr, "rdnacompat: --gpu %s names a target, which needs the simulated GPU "
				"(sim/librdnacompat-sim.so beside the tool, or RDNACOMPAT_SIM_LIB), not "
				"found; to select a real GPU give its index (--gpu 1)\n", gpu);
		return -1;
	}
	const char *nsenv = getenv("RDNACOMPAT_SIM_NAMESPACE");
	bool in_ns;
	int rc = rdc_sim_attach(sim, !(nsenv && !strcmp(nsenv, "0")), "rdnacompat", &in_ns);
	free(sim);
	if (rc)
		return -1;
	if (setenv("RDNACOMPAT_SIM_GPUS", gpu, 1) != 0) {
		perror("rdnacompat: setenv RDNACOMPAT_SIM_GPUS");
		exit(70);
	}
	return 0;
}

int rdc_run_setup_env(const struct rdc_run_opts *o)
{
	if (rdc_run_setup_base(o) != 0)
		return -1;
	if (o->gpu && rdc_run_gpu_simulated(o->gpu) && setup_sim(o->gpu) != 0)
		return -1;
	rdc_run_warn_override();
	return 0;
}
