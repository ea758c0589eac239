/* SPDX-License-Identifier: MIT */
/*
 * sim_realpath.c — test program for tests/integration/20-sim-kfd.sh: prints
 * "PATH -> realpath(PATH)" for each argument (glibc's realpath, as RCCL
 * calls it to place a GPU in the PCI tree; coreutils' realpath and Python's
 * resolve links with their own readlink calls), "PATH -> (error)" on
 * failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *r = realpath(argv[i], NULL);
		printf("%s -> %s\n", argv[i], r ? r : strerror(errno));
		free(r);
	}
	return 0;
}
