// SPDX-License-Identifier: MIT
// miopen_stub.cpp — stand-in libMIOpen.so.1: loads a code object with
// hipModuleLoadData, probes the preferred solver's kernel with
// hipModuleGetFunction and, as MIOpen's find step does when a solver is not
// applicable, takes another solver when the lookup fails.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>

extern "C" int rdc_miopen_run(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 2;
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	if (!n)
		return 2;
	hipModule_t m;
	hipError_t e = hipModuleLoadData(&m, buf);
	if (e != hipSuccess) {
		printf("load failed %d\n", (int)e);
		return 3;
	}
	hipFunction_t k = nullptr;
	const char *used = "MIOpenCvBwdWrW";
	e = hipModuleGetFunction(&k, m, used);
	printf("probe MIOpenCvBwdWrW: %d\n", (int)e);
	if (e != hipSuccess) {
		used = "other_solver";
		if (hipModuleGetFunction(&k, m, used) != hipSuccess)
			return 4;
	}
	float *out = nullptr;
	hipMalloc(&out, 256 * sizeof(float));
	struct { float *out; int n; } args = { out, 256 };
	size_t sz = sizeof args;
	void *cfg[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &sz,
			HIP_LAUNCH_PARAM_END };
	e = hipModuleLaunchKernel(k, 4, 1, 1, 64, 1, 1, 0, nullptr, nullptr, cfg);
	if (e == hipSuccess)
		e = hipDeviceSynchronize();
	hipFree(out);
	hipModuleUnload(m);
	printf("ran %s: %d\n", used, (int)e);
	return e == hipSuccess ? 0 : 5;
}
