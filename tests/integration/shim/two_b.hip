// SPDX-License-Identifier: MIT
// two_b.hip — the last of libtwo.so's fat binaries, registered after
// two_close.cpp's constructor closed the shim's descriptor of the library.
#include <hip/hip_runtime.h>
__global__ void two_fill_b(int *p, int n) { int i = threadIdx.x; if (i < n) p[i] += 5; }
extern "C" int two_run_b(int *d, int n)
{
	hipLaunchKernelGGL(two_fill_b, dim3(1), dim3(64), 0, 0, d, n);
	return (int)hipDeviceSynchronize();
}
