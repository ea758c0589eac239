// SPDX-License-Identifier: MIT
// libload.cpp — HIP >= 7.2's other code loaders: hipLibraryLoadData (a heap
// copy of FILE), hipLibraryLoadFromFile (FILE) or hipModuleLoadFatBinary
// (a heap copy); gets fill_iota (hipLibraryGetKernel / hipModuleGetFunction),
// launches it ROUNDS times, unloads.  Usage: libload MODE FILE [ROUNDS];
// MODE = data | file | fatbin.  Prints "loaded", "launch <error>" per round
// ("launch wrong-result" when the output is not the CPU's iota: the
// simulator executes the kernel) and "unloaded"; exits 1 on the first
// error, with HIP's error string.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(what, e)                                                          \
	do {                                                                    \
		hipError_t _e = (e);                                            \
		if (_e != hipSuccess) {                                         \
			printf("%s: %s\n", what, hipGetErrorString(_e));        \
			return 1;                                               \
		}                                                               \
	} while (0)

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *mode = argv[1], *path = argv[2];
	int rounds = argc > 3 ? atoi(argv[3]) : 1;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *image = malloc(n);
	if (fread(image, 1, n, f) != (size_t)n)
		return 2;
	fclose(f);
	hipLibrary_t lib = NULL;
	hipModule_t mod = NULL;
	hipFunction_t fn = NULL;
	if (!strcmp(mode, "fatbin")) {
		CHECK("hipModuleLoadFatBinary", hipModuleLoadFatBinary(&mod, image));
		CHECK("hipModuleGetFunction", hipModuleGetFunction(&fn, mod, "fill_iota"));
	} else {
		if (!strcmp(mode, "file"))
			CHECK("hipLibraryLoadFromFile",
			      hipLibraryLoadFromFile(&lib, path, (hipJitOption *)NULL, NULL, 0,
						     (hipLibraryOption *)NULL, NULL, 0));
		else
			CHECK("hipLibraryLoadData",
			      hipLibraryLoadData(&lib, image, (hipJitOption *)NULL, NULL, 0,
						 (hipLibraryOption *)NULL, NULL, 0));
		hipKernel_t k = NULL;
		CHECK("hipLibraryGetKernel", hipLibraryGetKernel(&k, lib, "fill_iota"));
		fn = (hipFunction_t)k;
	}
	printf("loaded\n");
	int *d = NULL, count = 64;
	CHECK("hipMalloc", hipMalloc(&d, count * sizeof(int)));
	(void)hipMemset(d, 0xff, count * sizeof(int));
	for (int r = 0; r < rounds; r++) {
		struct { int *p; int n; } args = { d, count };
		size_t sz = sizeof args;
		void *cfg[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &sz,
				HIP_LAUNCH_PARAM_END };
		hipError_t e = hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, 0, NULL, cfg);
		if (e == hipSuccess)
			e = hipDeviceSynchronize();
		int h[64], wrong = 0;
		if (e == hipSuccess) {
			if (hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost) != hipSuccess)
				wrong = count;
			else
				for (int i = 0; i < count; i++)
					wrong += h[i] != i;
			/* the next round starts from garbage again */
			(void)hipMemset(d, 0xff, count * sizeof(int));
		}
		printf("launch %s\n", wrong ? "wrong-result" : hipGetErrorName(e));
		if (e != hipSuccess || wrong)
			return 1;
	}
	(void)hipFree(d);
	if (lib)
		CHECK("hipLibraryUnload", hipLibraryUnload(lib));
	else
		CHECK("hipModuleUnload", hipModuleUnload(mod));
	printf("unloaded\n");
	free(image);
	return 0;
}
