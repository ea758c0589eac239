// SPDX-License-Identifier: MIT
// axpy_lib.hip — a HIP shared library for tests/integration/91-wheel.sh:
// Python loads it with ctypes, so its code object (built for gfx1030 only)
// is registered in the Python process itself, where the shim decides about
// it and rdnacompat.status() reports that decision.  rdc_axpy(n) runs
// y = 2x + y on the GPU and returns the number of elements that differ from
// the CPU's result, or -1 on a HIP error (printed).
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void axpy(float *y, const float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

#define CHECK(x)                                                                      \
	do {                                                                          \
		hipError_t e_ = (x);                                                  \
		if (e_ != hipSuccess) {                                               \
			fprintf(stderr, "%s failed: %s\n", #x, hipGetErrorString(e_)); \
			return -1;                                                    \
		}                                                                     \
	} while (0)

extern "C" int rdc_axpy(int n)
{
	float *x = (float *)malloc(n * sizeof *x), *y = (float *)malloc(n * sizeof *y);
	float *dx, *dy;
	if (!x || !y)
		return -1;
	for (int i = 0; i < n; i++) {
		x[i] = (float)i;
		y[i] = 1.0f;
	}
	CHECK(hipMalloc(&dx, n * sizeof *x));
	CHECK(hipMalloc(&dy, n * sizeof *y));
	CHECK(hipMemcpy(dx, x, n * sizeof *x, hipMemcpyHostToDevice));
	CHECK(hipMemcpy(dy, y, n * sizeof *y, hipMemcpyHostToDevice));
	hipLaunchKernelGGL(axpy, dim3((n + 255) / 256), dim3(256), 0, 0, dy, dx, 2.0f, n);
	CHECK(hipGetLastError());
	CHECK(hipMemcpy(y, dy, n * sizeof *y, hipMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += y[i] != 2.0f * (float)i + 1.0f;
	hipFree(dx);
	hipFree(dy);
	free(x);
	free(y);
	return bad;
}
