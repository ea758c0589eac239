// SPDX-License-Identifier: MIT
// dlck.cpp — a program's dlopen under the shim: after HIP knows the
// devices, each PATH is dlopen'ed (RTLD_NOW | RTLD_LOCAL, as MIOpen loads
// its CK library) and the string its `which()` returns printed, or "-" when
// dlopen fails.  A PATH starting with "call:" is dlopen'ed and its
// `load()` called instead: a library that dlopens another by bare name,
// found through its own RUNPATH only (the caller must stay the caller).
// Usage: dlck PATH...
#include <dlfcn.h>
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int n = 0;
	if (argc < 2 || hipGetDeviceCount(&n) != hipSuccess || n < 1)
		return 2;
	for (int i = 1; i < argc; i++) {
		bool call = !strncmp(argv[i], "call:", 5);
		const char *p = call ? argv[i] + 5 : argv[i];
		void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
		const char *got = "-";
		if (h) {
			void *f = dlsym(h, call ? "load" : "which");
			got = f ? ((const char *(*)(void))f)() : "nosym";
		}
		printf("%s %s\n", p, got);
	}
	return 0;
}
