// SPDX-License-Identifier: MIT
// multi.hip — every device: its gcnArchName and one launch of a kernel; the
// status printed is the launch's own error (HIP >= 6 reports missing code
// there) or else the synchronize's, or "wrong result" when the launch
// succeeded but the output differs from the CPU's iota (the simulator
// executes the kernel).
#include <hip/hip_runtime.h>
#include <stdio.h>
__global__ void fill_iota(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = i; }
int main()
{
	int n = 0, bad = 0;
	if (hipGetDeviceCount(&n) != hipSuccess)
		return 2;
	for (int dev = 0; dev < n; dev++) {
		hipDeviceProp_t prop;
		hipSetDevice(dev);
		hipGetDeviceProperties(&prop, dev);
		int *d;
		hipMalloc(&d, 64 * sizeof(int));
		hipMemset(d, 0xff, 64 * sizeof(int));
		hipLaunchKernelGGL(fill_iota, dim3(1), dim3(64), 0, 0, d, 64);
		hipError_t e = hipGetLastError();
		hipError_t s = hipDeviceSynchronize();
		if (e == hipSuccess)
			e = s;
		int h[64], wrong = 0;
		if (e == hipSuccess) {
			if (hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost) != hipSuccess)
				wrong = 64;
			else
				for (int i = 0; i < 64; i++)
					wrong += h[i] != i;
		}
		printf("device%d %s %s\n", dev, prop.gcnArchName,
		       wrong ? "wrong result" : hipGetErrorString(e));
		bad += e != hipSuccess || wrong;
		hipFree(d);
	}
	return bad ? 1 : 0;
}
