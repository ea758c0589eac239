/* SPDX-License-Identifier: MIT */
/*
 * load_failreal.c — test-only: built once per function (-DRDC_FN=name
 * -DRDC_RET=value), preloaded after the shim, it is the "real" function the
 * shim calls (real functions are the next definition: shim/hooks/real.c)
 * and fails every call with RDC_RET (a hipError_t or hsa_status_t), without
 * touching the arguments.  Preloaded without the shim it shows what the
 * program does when that function fails and no shim is there.
 */
#ifndef RDC_FN
#error "build with -DRDC_FN=name -DRDC_RET=value"
#endif
#include <unistd.h>

int RDC_FN(void);
int RDC_FN(void)
{
	static const char msg[] = "failreal: failed a call\n";
	(void)!write(2, msg, sizeof msg - 1);
	return RDC_RET;
}
