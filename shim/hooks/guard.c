/* SPDX-License-Identifier: MIT */
/*
 * guard.c — the per-thread recursion guard.  Set while the shim itself runs
 * real functions or its own work (hsa_init, loading tables, HIP calls made
 * on the caller's behalf): any hook reached meanwhile passes straight
 * through.  initial-exec TLS: the shim is preloaded, and a TLS access must
 * never allocate inside open() or a signal handler.
 */
#include "shim.h"

static __thread int depth __attribute__((tls_model("initial-exec")));

bool rdc_guard_active(void)
{
	return depth > 0;
}

void rdc_guard_enter(void)
{
	depth++;
}

void rdc_guard_leave(void)
{
	if (depth > 0)
		depth--;
}

/* The runtime's reading of code, reached from inside a hook's real call
 * (a HIP 7 fat binary registered after hipInit is digested there; a module
 * is read at its load): the hook opens the seam around that call, and the
 * comgr wrappers act at exactly that depth — never inside the shim's own
 * work, which enters the guard again. */
static __thread int seam_depth __attribute__((tls_model("initial-exec")));

void rdc_seam_open(void)
{
	seam_depth = depth;
}

void rdc_seam_close(void)
{
	seam_depth = 0;
}

bool rdc_seam_here(void)
{
	return depth == 0 || (seam_depth > 0 && depth == seam_depth);
}
