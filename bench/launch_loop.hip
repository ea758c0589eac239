// SPDX-License-Identifier: MIT
// launch_loop.hip — a launch-bound loop for bench/rules-launch.sh: N launches
// of a one-instruction kernel through the `<<<>>>` path (hipLaunchKernel) or
// through hipModuleLaunchKernel on a module loaded from this program's own
// code object (argv[3]), one hipDeviceSynchronize every 64 launches; prints
// the loop's own time (start-up excluded).
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern "C" __global__ void rdc_bench_nop(int *p)
{
	if (p && threadIdx.x == 0 && blockIdx.x == 0)
		p[0] = 1;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long n = atol(argv[2]);
	bool module = !strcmp(argv[1], "module");
	hipFunction_t f = nullptr;
	hipModule_t m = nullptr;
	if (module && (argc < 4 || hipModuleLoad(&m, argv[3]) != hipSuccess ||
		       hipModuleGetFunction(&f, m, "rdc_bench_nop") != hipSuccess))
		return 3;
	int *p = nullptr;
	void *args[] = { &p };
	/* warm-up (first launch loads code), then the timed loop */
	if (module)
		hipModuleLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr);
	else
		hipLaunchKernel((const void *)rdc_bench_nop, dim3(1), dim3(32), args, 0, nullptr);
	hipDeviceSynchronize();
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++) {
		hipError_t e = module ? hipModuleLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr)
				      : hipLaunchKernel((const void *)rdc_bench_nop, dim3(1), dim3(32), args, 0,
							nullptr);
		if (e != hipSuccess)
			return 4;
		if (i % 64 == 63)
			hipDeviceSynchronize();
	}
	hipDeviceSynchronize();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%ld launches %.6f s\n", n, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
	return 0;
}
