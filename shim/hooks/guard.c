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
