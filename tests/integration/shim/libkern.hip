// SPDX-License-Identifier: MIT
// libkern.hip — a shared library with its own fat binary, dlopen'ed by
// dlmain after HIP is initialised (HIP 5.2 then digests at registration).
#include <hip/hip_runtime.h>
__global__ void lib_fill(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 2 * i; }
extern "C" int run_kernel(void)
{
	int *d;
	if (hipMalloc(&d, 64 * sizeof(int)) != hipSuccess)
		return -1;
	hipLaunchKernelGGL(lib_fill, dim3(1), dim3(64), 0, 0, d, 64);
	hipError_t e = hipDeviceSynchronize();
	hipFree(d);
	return e == hipSuccess ? 0 : (int)e;
}
