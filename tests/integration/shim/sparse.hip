// SPDX-License-Identifier: MIT
// sparse.hip — Debian's librocsparse (111 fat binaries, no gfx1031 code):
// a handle and one operation (saxpyi), then the process's memory figures.
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>
#include <stdio.h>
#include <string.h>

static long status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, key, strlen(key)) == 0)
			sscanf(line + strlen(key), "%ld", &v);
	if (f)
		fclose(f);
	return v;
}

int main()
{
	rocsparse_handle h;
	if (rocsparse_create_handle(&h) != rocsparse_status_success) {
		printf("create_handle failed\n");
		return 1;
	}
	const int n = 64, nnz = 8;
	float *y, *xv;
	int *xi;
	hipMalloc(&y, n * sizeof(float));
	hipMalloc(&xv, nnz * sizeof(float));
	hipMalloc(&xi, nnz * sizeof(int));
	float alpha = 2.0f;
	rocsparse_status st = rocsparse_saxpyi(h, nnz, &alpha, xv, xi, y, rocsparse_index_base_zero);
	hipError_t e = hipDeviceSynchronize();
	printf("saxpyi %d sync %s\n", (int)st, hipGetErrorString(e));
	printf("VmRSS %ld RssAnon %ld RssFile %ld\n", status_kb("VmRSS:"), status_kb("RssAnon:"),
	       status_kb("RssFile:"));
	rocsparse_destroy_handle(h);
	return st == rocsparse_status_success && e == hipSuccess ? 0 : 1;
}
