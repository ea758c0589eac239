// SPDX-License-Identifier: MIT
// vgprmix.hip — vgprhog.hip's kernel (too many VGPRs for gfx1102/gfx1103
// at 1024 threads when built for gfx1100) next to a small kernel in one fat
// binary: where the shim holds the hog (docs/SHIM.md "Held kernels"), the
// small kernel still runs.  Launches `small` (64 threads, writes i * 3) and
// checks it, then the hog with 1024 threads; prints "small ok" (or "small
// wrong: N" / "small launch: ERROR") and "hog launch: STATUS" (HIP's error
// string of the launch, else of the synchronize).  Exit 0 when small ran
// right, whatever the hog did; 1 otherwise.
#define VGPRHOG_NO_MAIN 1
#include "vgprhog.hip"

__global__ void small(int *out)
{
	out[threadIdx.x] = (int)threadIdx.x * 3;
}

int main()
{
	int *d = nullptr, h[64];
	if (hipMalloc(&d, sizeof h) != hipSuccess) {
		printf("no device\n");
		return 1;
	}
	hipLaunchKernelGGL(small, dim3(1), dim3(64), 0, 0, d);
	hipError_t e = hipGetLastError();
	if (e == hipSuccess)
		e = hipDeviceSynchronize();
	int bad = 0;
	if (e != hipSuccess) {
		printf("small launch: %s\n", hipGetErrorString(e));
		bad = 1;
	} else if (hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost) == hipSuccess) {
		int wrong = 0;
		for (int i = 0; i < 64; i++)
			wrong += h[i] != i * 3;
		if (wrong)
			printf("small wrong: %d\n", wrong);
		else
			printf("small ok\n");
		bad = wrong != 0;
	}
	float *in = nullptr, *out = nullptr;
	hipMalloc(&in, (1024 + N * 1024) * sizeof(float));
	hipMalloc(&out, 1024 * sizeof(float));
	hipLaunchKernelGGL(vgpr_hog, dim3(1), dim3(1024), 0, 0, out, in, 1024);
	e = hipGetLastError();
	hipError_t s = hipDeviceSynchronize();
	if (e == hipSuccess)
		e = s;
	printf("hog launch: %s\n", hipGetErrorString(e));
	hipFree(in);
	hipFree(out);
	hipFree(d);
	return bad;
}
