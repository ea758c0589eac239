// SPDX-License-Identifier: MIT
// dlmain.cpp — initialise HIP, then dlopen a library with GPU code and run it.
#include <dlfcn.h>
#include <hip/hip_runtime.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	int n = 0;
	if (argc < 2 || hipGetDeviceCount(&n) != hipSuccess)
		return 2;
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 2;
	}
	int (*run)(void) = (int (*)(void))dlsym(h, "run_kernel");
	int rc = run ? run() : -2;
	printf("devices %d run_kernel %d\n", n, rc);
	return rc ? 1 : 0;
}
