// SPDX-License-Identifier: MIT
// spoofmain.cpp — per device: the name the application sees, the name
// librocblas.so.0 (fakeblas) sees, and what it reads for its own name.
// Usage: spoofmain DATADIR
#include <hip/hip_runtime.h>
#include <stdio.h>
extern "C" const char *fake_arch(int dev);
extern "C" void fake_load(const char *dir, const char *arch, char *out, size_t n);
int main(int argc, char **argv)
{
	int n = 0;
	if (argc < 2 || hipGetDeviceCount(&n) != hipSuccess)
		return 2;
	for (int dev = 0; dev < n; dev++) {
		hipDeviceProp_t p;
		hipGetDeviceProperties(&p, dev);
		const char *lib = fake_arch(dev);
		char got[256];
		fake_load(argv[1], lib, got, sizeof got);
		printf("device%d app=%s rocblas=%s %s\n", dev, p.gcnArchName, lib, got);
	}
	return 0;
}
