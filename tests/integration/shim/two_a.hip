// SPDX-License-Identifier: MIT
// two_a.hip — the first of libtwo.so's fat binaries (43-shim-process: a
// library whose constructor closes the descriptor the shim keeps between a
// library's registrations; two_close.cpp, two_b.hip).
#include <hip/hip_runtime.h>
__global__ void two_fill_a(int *p, int n) { int i = threadIdx.x; if (i < n) p[i] = 3 * i; }
extern "C" int two_run_a(int *d, int n)
{
	hipLaunchKernelGGL(two_fill_a, dim3(1), dim3(64), 0, 0, d, n);
	return (int)hipDeviceSynchronize();
}
