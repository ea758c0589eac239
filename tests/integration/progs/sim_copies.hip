// SPDX-License-Identifier: MIT
// sim_copies.hip — test program for tests/integration/20-sim-roots.sh: every
// kind of copy and fill HIP makes, checked byte for byte on the simulated
// GPU: these bytes move where the simulator applies SDMA packets or the
// runtimes' own blit kernels (recognised and applied; RDNACOMPAT_SIM_BLITS=
// execute runs them on the engine instead).
// Prints one "ok: WHAT" line per check, "FAIL: WHAT" and exit 1 otherwise.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define HIPOK(x)                                                                   \
	do {                                                                       \
		hipError_t e_ = (x);                                               \
		if (e_ != hipSuccess) {                                            \
			printf("FAIL: %s: %s\n", #x, hipGetErrorString(e_));       \
			exit(1);                                                   \
		}                                                                  \
	} while (0)

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 131u + seed * 7u + (i >> 12)) & 0xff);
}

static void check(const char *what, const void *a, const void *b, size_t n)
{
	if (memcmp(a, b, n)) {
		printf("FAIL: %s\n", what);
		failures++;
	} else {
		printf("ok: %s\n", what);
	}
}

static void round_trip(const char *what, size_t n, int pinned)
{
	unsigned char *h, *back, *d, *d2;
	if (pinned) {
		HIPOK(hipHostMalloc((void **)&h, n, 0));
		HIPOK(hipHostMalloc((void **)&back, n, 0));
	} else {
		h = (unsigned char *)malloc(n);
		back = (unsigned char *)malloc(n);
	}
	fill(h, n, (unsigned)n);
	memset(back, 0, n);
	HIPOK(hipMalloc((void **)&d, n));
	HIPOK(hipMalloc((void **)&d2, n));
	HIPOK(hipMemcpy(d, h, n, hipMemcpyHostToDevice));
	HIPOK(hipMemcpy(d2, d, n, hipMemcpyDeviceToDevice));
	HIPOK(hipMemcpy(back, d2, n, hipMemcpyDeviceToHost));
	char buf[128];
	snprintf(buf, sizeof buf, "%s %zu bytes H2D, D2D, D2H", what, n);
	check(buf, h, back, n);
	HIPOK(hipFree(d));
	HIPOK(hipFree(d2));
	if (pinned) {
		HIPOK(hipHostFree(h));
		HIPOK(hipHostFree(back));
	} else {
		free(h);
		free(back);
	}
}

int main(void)
{
	hipDeviceProp_t p;
	HIPOK(hipGetDeviceProperties(&p, 0));
	printf("device 0: %s gcnArchName=%s\n", p.name, p.gcnArchName);
	round_trip("pageable", 4096, 0);
	round_trip("pageable", 1000, 0);
	round_trip("pinned", 65536, 1);
	round_trip("pageable", 64u << 20, 0);
	round_trip("pinned", 64u << 20, 1);

	/* hipMemset: byte and 32-bit patterns, odd sizes and offsets. */
	size_t n = 1 << 20;
	unsigned char *d, *h = (unsigned char *)malloc(n), *want = (unsigned char *)malloc(n);
	HIPOK(hipMalloc((void **)&d, n));
	HIPOK(hipMemset(d, 0x5a, n));
	HIPOK(hipMemset(d + 3, 0xc3, 1001));
	HIPOK(hipMemcpy(h, d, n, hipMemcpyDeviceToHost));
	memset(want, 0x5a, n);
	memset(want + 3, 0xc3, 1001);
	check("hipMemset 1 MB and 1001 bytes at +3", h, want, n);
	HIPOK(hipMemsetD32((hipDeviceptr_t)d, 0x01020304, n / 4));
	HIPOK(hipMemcpy(h, d, n, hipMemcpyDeviceToHost));
	const unsigned pat = 0x01020304;
	for (size_t i = 0; i < n / 4; i++)
		memcpy(want + 4 * i, &pat, 4);
	check("hipMemsetD32 1 MB", h, want, n);

	/* 2D copies: a 300 x 77 window of a 512-byte pitched host array. */
	size_t w = 300, rows = 77, hp = 512;
	unsigned char *src = (unsigned char *)malloc(hp * rows), *dst = (unsigned char *)calloc(hp, rows);
	fill(src, hp * rows, 99);
	void *dd;
	size_t dp;
	HIPOK(hipMallocPitch(&dd, &dp, w, rows));
	HIPOK(hipMemcpy2D(dd, dp, src, hp, w, rows, hipMemcpyHostToDevice));
	HIPOK(hipMemcpy2D(dst, hp, dd, dp, w, rows, hipMemcpyDeviceToHost));
	int ok2d = 1;
	for (size_t r = 0; r < rows; r++)
		ok2d &= !memcmp(src + r * hp, dst + r * hp, w);
	printf("%s: hipMemcpy2D 300x77 H2D, D2H\n", ok2d ? "ok" : "FAIL");
	failures += !ok2d;
	HIPOK(hipFree(dd));
	HIPOK(hipFree(d));
	printf("done: %d failures\n", failures);
	return failures ? 1 : 0;
}
