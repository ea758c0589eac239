// SPDX-License-Identifier: MIT
// early.cpp — a library whose constructor calls HIP before anything else
// (the libfaketime test_constructors case): the shim must initialise lazily.
#include <hip/hip_runtime.h>
#include <stdio.h>
__attribute__((constructor)) static void early(void)
{
	int n = -1;
	void *p = NULL;
	hipError_t e = hipGetDeviceCount(&n);
	if (e == hipSuccess)
		e = hipMalloc(&p, 4096);
	hipFree(p);
	printf("early: devices %d %s\n", n, hipGetErrorString(e));
}
