// SPDX-License-Identifier: MIT
// vgprhog.hip — a kernel that keeps N (default 188) floats live per thread,
// flat work-group size up to 1024, launched with 1024 threads: built for
// gfx1100 (whose 1.5x VGPR file lets LLVM give it ~192 VGPRs at 1024
// threads), it needs more VGPRs than gfx1102/gfx1103 have per lane at that
// size.  Prints "launch <status>" (the launch's own error, else the
// synchronize's); exit 0 only when both succeeded.  With VGPRHOG_NO_MAIN
// defined, the kernel alone (tests/integration/shim/vgprmix.hip).
#include <hip/hip_runtime.h>
#include <stdio.h>
#ifndef N
#define N 188
#endif
__global__ __launch_bounds__(1024) void vgpr_hog(float *out, const float *in, int n)
{
	float acc[N];
	unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
#pragma unroll
	for (int i = 0; i < N; i++)
		acc[i] = in[t + i * n];
	for (int k = 0; k < n; k++) {
		float x = in[k];
		float first = acc[0];
#pragma unroll
		for (int i = 0; i < N - 1; i++)
			acc[i] = acc[i] * x + acc[i + 1];
		acc[N - 1] = acc[N - 1] * x + first;
	}
	float s = 0.0f;
#pragma unroll
	for (int i = 0; i < N; i++)
		s += acc[i] * (float)(i + 1);
	out[t] = s;
}
#ifndef VGPRHOG_NO_MAIN   /* vgprmix.hip takes the kernel alone */
int main()
{
	hipDeviceProp_t prop;
	if (hipGetDeviceProperties(&prop, 0) != hipSuccess) { printf("no device\n"); return 2; }
	printf("device0 %s\n", prop.gcnArchName);
	float *in = nullptr, *out = nullptr;
	hipMalloc(&in, (1024 + N * 1024) * sizeof(float));
	hipMalloc(&out, 1024 * sizeof(float));
	hipLaunchKernelGGL(vgpr_hog, dim3(1), dim3(1024), 0, 0, out, in, 1024);
	hipError_t e = hipGetLastError();
	hipError_t s = hipDeviceSynchronize();
	if (e == hipSuccess) e = s;
	printf("launch %s\n", hipGetErrorString(e));
	hipFree(in);
	hipFree(out);
	return e == hipSuccess ? 0 : 1;
}
#endif
