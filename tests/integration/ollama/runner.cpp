// SPDX-License-Identifier: MIT
// runner.cpp — the runner a stand-in for Ollama starts (standin.go): an
// ordinary libc/HIP program like Ollama's llama-server.  It prints each
// device as ggml-hip does ("Device N: NAME, gfxNNNN (0x...), ..."),
// whether librdnacompat.so is mapped into it and named in LD_PRELOAD, and
// then reads LIBDIR/rocblas/library/TensileLibrary_lazy_<target>.dat as
// rocBLAS does (stat, then open) and prints its first line ("-" when it
// cannot be opened).
// Usage: runner LIBDIR
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool mapped(const char *name)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	bool found = false;
	while (f && fgets(line, sizeof line, f))
		found |= strstr(line, name) != NULL;
	if (f)
		fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	int n = 0;
	if (argc != 2 || hipGetDeviceCount(&n) != hipSuccess)
		return 2;
	const char *pre = getenv("LD_PRELOAD");
	printf("shim: mapped=%s ld_preload=%s\n", mapped("/librdnacompat.so") ? "yes" : "no",
	       pre && strstr(pre, "librdnacompat.so") ? "yes" : "no");
	for (int i = 0; i < n; i++) {
		hipDeviceProp_t p;
		if (hipGetDeviceProperties(&p, i) != hipSuccess)
			return 3;
		char arch[64];
		snprintf(arch, sizeof arch, "%s", p.gcnArchName);
		arch[strcspn(arch, ":")] = 0;
		printf("Device %d: %s, %s (0x%x), VMM: no, Wave Size: %d\n", i, p.name, arch,
		       (unsigned)strtoul(arch + 3, NULL, 16), p.warpSize);
		char path[4096], first[256] = "-";
		snprintf(path, sizeof path, "%s/rocblas/library/TensileLibrary_lazy_%s.dat", argv[1], arch);
		struct stat st;
		FILE *f = stat(path, &st) == 0 ? fopen(path, "r") : NULL;
		if (f) {
			if (!fgets(first, sizeof first, f))
				first[0] = 0;
			first[strcspn(first, "\n")] = 0;
			fclose(f);
		}
		printf("dat %s: %s\n", arch, first);
	}
	return 0;
}
