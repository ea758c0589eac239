// SPDX-License-Identifier: MIT
// prefer.hip — for 64-rules-prefer.sh: a kernel whose result says which
// target's code ran (the target macro clang defines while compiling each
// --offload-arch), launched from the program's own fat binary, or, with
// "module FILE", from a code object file through hipModuleLoad.  Prints
// "arch N" (N = 1030, 1031, ...; -1 another target) and exits 0 when all
// threads agree and every HIP call succeeded.  RDC_PREFER_DEVICE=N runs on
// HIP device N.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" __global__ void rdc_which_arch(int *out)
{
#if defined(__gfx1030__)
	out[threadIdx.x] = 1030;
#elif defined(__gfx1031__)
	out[threadIdx.x] = 1031;
#elif defined(__gfx1100__)
	out[threadIdx.x] = 1100;
#elif defined(__gfx1101__)
	out[threadIdx.x] = 1101;
#else
	out[threadIdx.x] = -1;
#endif
}

#define CHECK(x)                                                                          \
	do {                                                                              \
		hipError_t e_ = (x);                                                      \
		if (e_ != hipSuccess) {                                                   \
			printf("%s: %s\n", #x, hipGetErrorString(e_));                     \
			return 2;                                                         \
		}                                                                         \
	} while (0)

int main(int argc, char **argv)
{
	int *d = nullptr, h[64];
	const char *dev = getenv("RDC_PREFER_DEVICE"); /* a HIP ordinal: run there */
	if (dev)
		CHECK(hipSetDevice(atoi(dev)));
	CHECK(hipMalloc(&d, sizeof h));
	CHECK(hipMemset(d, 0, sizeof h));
	if (argc == 3 && !strcmp(argv[1], "module")) {
		hipModule_t m;
		hipFunction_t f;
		CHECK(hipModuleLoad(&m, argv[2]));
		CHECK(hipModuleGetFunction(&f, m, "rdc_which_arch"));
		void *args[] = { &d };
		CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
	} else {
		hipLaunchKernelGGL(rdc_which_arch, dim3(1), dim3(64), 0, 0, d);
		CHECK(hipGetLastError());
	}
	CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
	for (int i = 1; i < 64; i++)
		if (h[i] != h[0]) {
			printf("threads disagree: %d vs %d\n", h[i], h[0]);
			return 1;
		}
	printf("arch %d\n", h[0]);
	return 0;
}
