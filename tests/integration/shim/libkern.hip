// SPDX-License-Identifier: MIT
// libkern.hip — a shared library with its own fat binary, dlopen'ed by
// dlmain after HIP is initialised (HIP 5.2 then digests at registration).
// run_kernel returns 0 when the kernel ran and its output is 2*i (the
// simulator executes it), -3 when the output is wrong, else HIP's error.
#include <hip/hip_runtime.h>
__global__ void lib_fill(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 2 * i; }
extern "C" int run_kernel(void)
{
	int *d;
	if (hipMalloc(&d, 64 * sizeof(int)) != hipSuccess)
		return -1;
	(void)hipMemset(d, 0xff, 64 * sizeof(int));
	hipLaunchKernelGGL(lib_fill, dim3(1), dim3(64), 0, 0, d, 64);
	hipError_t e = hipDeviceSynchronize();
	int h[64], wrong = 0;
	if (e == hipSuccess) {
		if (hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost) != hipSuccess)
			wrong = 1;
		else
			for (int i = 0; i < 64; i++)
				wrong += h[i] != 2 * i;
	}
	hipFree(d);
	return e != hipSuccess ? (int)e : wrong ? -3 : 0;
}
