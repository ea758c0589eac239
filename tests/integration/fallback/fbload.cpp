// SPDX-License-Identifier: MIT
//
// fbload.cpp FILE — load rdnacompat's fallback bundle (FILE: a copy of
// rdc_fallback_bundle) with hipModuleLoadData on the current device, look up
// every kernel, ask the runtime's occupancy for each at ggml's thread counts
// (must be >= 1: the fallback exists because ggml's own tile kernels get 0),
// and launch the combine and one tile kernel with ggml-shaped arguments.
// The combine's output is copied back and compared with a CPU reference
// written from its definition (dst = sum_l e^{max_l - M} parts_l /
// sum_l e^{max_l - M} sum_l, in double; tolerance 1e-5, |dst| <= 2): "max err:
// rdnacompat_fb_fattn_combine ...", simulated card (executed).  The tile
// launch has zeroed sizes and returns at once: only its dispatch is checked
// here (its numerics: 83-exec-fallback.sh, 85-exec-fallback-direct.sh).
// Prints one line per check; exit 0 when all pass.
#include "../libs/ref_check.h"
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
	// combine: (parts, meta, dst, parallel_blocks), grid (ne01, ne02, ne03) =
	// (3, 8, 1): 24 rows, block (D) = 128, P = 4 splits, P*8 dynamic LDS.
	// parts small integers, meta (max, sum) = (-1..1, 1..3), dst starts as 7777.
	const int R = 3 * 8, D = 128, P = 4;
	std::vector<float> parts = rc_fill((size_t)R * P * D, 31), meta((size_t)R * P * 2), dst((size_t)R * D, 7777.0f),
		want((size_t)R * D);
	for (int i = 0; i < R * P; i++) {
		meta[2 * i] = 0.5f * rc_val(i, 32);
		meta[2 * i + 1] = 1.0f + std::fabs(rc_val(i, 33));
	}
	float *dparts = buf, *dmeta = buf + R * P * D, *ddst = dmeta + R * P * 2;
	HIPCHK(rc_up(dparts, parts));
	HIPCHK(rc_up(dmeta, meta));
	HIPCHK(rc_up(ddst, dst));
	struct __attribute__((packed)) {
		void *parts, *meta, *dst;
		int P;
	} ca = {dparts, dmeta, ddst, P};
	size_t cs = sizeof ca;
	void *ccfg[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &ca, HIP_LAUNCH_PARAM_BUFFER_SIZE, &cs, HIP_LAUNCH_PARAM_END};
	e = hipModuleLaunchKernel(comb, 3, 8, 1, D, 1, 1, P * 8, 0, NULL, ccfg);
	CHECK(e == hipSuccess, "launch combine: %s", hipGetErrorString(e));
	// tile: ggml's 208-byte explicit argument block, zeroed sizes (the kernel
	// returns early) but valid pointers, past the combine's; grid (1, 2, 8),
	// block (32, 8)
	unsigned char ta[208];
	memset(ta, 0, sizeof ta);
	for (int i = 0; i < 8; i++) {
		void *p = buf + 65536 + 1024 * i;
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
	HIPCHK(rc_down(dst, ddst));
	for (int r = 0; r < R; r++) {
		const float *mr = &meta[(size_t)r * P * 2];
		double M = mr[0];
		for (int l = 1; l < P; l++)
			M = mr[2 * l] > M ? mr[2 * l] : M;
		for (int d = 0; d < D; d++) {
			double num = 0, den = 0;
			for (int l = 0; l < P; l++) {
				double w = std::exp((double)mr[2 * l] - M);
				num += w * parts[((size_t)r * P + l) * D + d];
				den += w * mr[2 * l + 1];
			}
			want[(size_t)r * D + d] = (float)(num / den);
		}
	}
	CHECK(rc_check("rdnacompat_fb_fattn_combine", dst.data(), want.data(), dst.size(), 1e-5),
	      "combine: output differs from the CPU reference");
	printf("%s\n", bad ? "fbload: failed" : "fbload: ok");
	hipFree(buf);
	hipModuleUnload(m);
	return bad ? 1 : 0;
}
