/* SPDX-License-Identifier: MIT */
/*
 * front_run.c — `rdnacompat run` without the full tool (front.h): the
 * tool's own option parser and environment set-up (tools/rdnacompat/
 * run_env.c, libc only), so the program gets exactly the environment the
 * tool would give it; what needs the tool's tables or its messages is
 * handed back to main.c, which execs the tool.
 */
#include "front.h"

#include "run_env.h"

int rdc_front_run(int argc, char **argv)
{
	struct rdc_run_opts o = { 0 };
	char why[512];
	int i = rdc_run_parse_args(&o, argc, argv, why, sizeof why);
	if (i < 0 || o.view || (o.gpu && rdc_run_gpu_simulated(o.gpu)))
		return RDC_FRONT_TOOL;
	if (rdc_run_setup_base(&o) != 0)
		return 2;
	rdc_run_warn_override();
	return rdc_run_exec(argv + i);
}
