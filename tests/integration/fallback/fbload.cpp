// SPDX-License-Identifier: MIT
//
// fbload.cpp FILE — load rdnacompat's fallback bundle (FILE: a copy of
// rdc_fallback_bundle) with hipModuleLoadData on the current device, look up
// every kernel, ask the runtime's occupancy for each at ggml's thread counts
// (must be >= 1: the fallback exists because ggml's own tile kernels get 0),
// and launch the combine and one tile kernel with ggml-shaped arguments (on
// the simulated card kernels are retired, not executed: this checks loading
// and dispatch, not results).  Prints one line per check; exit 0 when all pass.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad;
#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			bad++;                                             \
			printf("FAIL: " __VA_ARGS__);                      \
			printf("\n");                                      \
		}                                                          \
	} while (0)

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *b = (char *)malloc(n);
	if (!b || fread(b, 1, n, f) != (size_t)n)
		return 2;
	fclose(f);

	hipModule_t m;
	hipError_t e = hipModuleLoadData(&m, b);
	printf("load: %s\n", hipGetErrorString(e));
	if (e != hipSuccess)
		return 1;
	const int dvs[] = {40, 64, 72, 80, 96, 112, 128, 256, 512};
	for (int dv : dvs) {
		char name[64];
		snprintf(name, sizeof name, "rdnacompat_fb_fattn_tile_dv%d", dv);
		hipFunction_t fn;
		e = hipModuleGetFunction(&fn, m, name);
		CHECK(e == hipSuccess, "%s: %s", name, hipGetErrorString(e));
		if (e != hipSuccess)
			continue;
		for (int threads : {64, 128, 256, 512}) {
			int occ = -1;
			e = hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fn, threads, 0);
			CHECK(e == hipSuccess && occ >= 1, "%s: occupancy at %d threads: %d (%s)", name, threads, occ,
			      hipGetErrorString(e));
			if (threads == 256)
				printf("%s: occupancy(256) %d\n", name, occ);
		}
	}
	hipFunction_t comb, tile;
	e = hipModuleGetFunction(&comb, m, "rdnacompat_fb_fattn_combine");
	CHECK(e == hipSuccess, "combine: %s", hipGetErrorString(e));
	e = hipModuleGetFunction(&tile, m, "rdnacompat_fb_fattn_tile_dv128");
	if (bad)
		return 1;

	float *buf;
	if (hipMalloc(&buf, 1 << 22) != hipSuccess)
		return 1;
	// combine: (parts, meta, dst, parallel_blocks), grid (ne01, ne02, ne03), block (D), P*8 dynamic LDS
	struct __attribute__((packed)) {
		void *parts, *meta, *dst;
		int P;
	} ca = {buf, buf + 4096, buf + 8192, 4};
	size_t cs = sizeof ca;
	void *ccfg[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &ca, HIP_LAUNCH_PARAM_BUFFER_SIZE, &cs, HIP_LAUNCH_PARAM_END};
	e = hipModuleLaunchKernel(comb, 3, 8, 1, 128, 1, 1, 4 * 8, 0, NULL, ccfg);
	CHECK(e == hipSuccess, "launch combine: %s", hipGetErrorString(e));
	// tile: ggml's 208-byte explicit argument block, zeroed sizes (the kernel
	// returns early) but valid pointers; grid (1, 2, 8), block (32, 8)
	unsigned char ta[208];
	memset(ta, 0, sizeof ta);
	for (int i = 0; i < 8; i++) {
		void *p = buf + 1024 * i;
		memcpy(ta + 8 * i, &p, 8);
	}
	size_t ts = sizeof ta;
	void *tcfg[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, ta, HIP_LAUNCH_PARAM_BUFFER_SIZE, &ts, HIP_LAUNCH_PARAM_END};
	e = hipModuleLaunchKernel(tile, 1, 2, 8, 32, 8, 1, 0, 0, NULL, tcfg);
	CHECK(e == hipSuccess, "launch tile: %s", hipGetErrorString(e));
	printf("launched both; synchronizing\n");
	e = hipDeviceSynchronize();
	CHECK(e == hipSuccess, "sync: %s", hipGetErrorString(e));
	printf("synchronized: %s\n", hipGetErrorString(e));
	printf("%s\n", bad ? "fbload: failed" : "fbload: ok");
	hipFree(buf);
	hipModuleUnload(m);
	return bad ? 1 : 0;
}
