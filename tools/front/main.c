/* SPDX-License-Identifier: MIT */
/*
 * main.c — entry point of the `rdnacompat` front end (front.h): `run` is
 * tried here first; everything else goes to the full tool unchanged.
 * Exit codes: those of CMD (run) or of the tool; 2 when the tool is missing.
 */
#include <string.h>

#include "front.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "run")) {
		int rc = rdc_front_run(argc - 1, argv + 1);
		if (rc != RDC_FRONT_TOOL)
			return rc;
	}
	return rdc_front_exec_tool(argv);
}
