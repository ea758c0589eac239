// SPDX-License-Identifier: MIT
// sparse.hip — Debian's librocsparse (111 fat binaries, no gfx1031 code):
// a handle and one operation (saxpyi: y[xi[k]] += alpha * xv[k]), its result
// compared with the CPU's ("result ok" or "result wrong: N of 64"; the
// simulator executes the kernel), then the process's memory figures.  Exit 0
// only when the call, the synchronisation and the result are right.
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
	float hy[n], hxv[nnz], want[n];
	int hxi[nnz];
	for (int i = 0; i < n; i++)
		want[i] = hy[i] = (float)(i % 7) - 3.0f;
	float alpha = 2.0f;
	for (int k = 0; k < nnz; k++) {
		hxi[k] = 3 + 7 * k;          /* distinct, sorted, inside y */
		hxv[k] = (float)k - 2.5f;
		want[hxi[k]] += alpha * hxv[k];
	}
	hipMalloc(&y, n * sizeof(float));
	hipMalloc(&xv, nnz * sizeof(float));
	hipMalloc(&xi, nnz * sizeof(int));
	hipMemcpy(y, hy, sizeof hy, hipMemcpyHostToDevice);
	hipMemcpy(xv, hxv, sizeof hxv, hipMemcpyHostToDevice);
	hipMemcpy(xi, hxi, sizeof hxi, hipMemcpyHostToDevice);
	rocsparse_status st = rocsparse_saxpyi(h, nnz, &alpha, xv, xi, y, rocsparse_index_base_zero);
	hipError_t e = hipDeviceSynchronize();
	printf("saxpyi %d sync %s\n", (int)st, hipGetErrorString(e));
	int wrong = n;
	if (hipMemcpy(hy, y, sizeof hy, hipMemcpyDeviceToHost) == hipSuccess)
		for (int i = wrong = 0; i < n; i++)
			wrong += hy[i] != want[i];   /* exact: small multiples of 0.5 */
	if (wrong)
		printf("result wrong: %d of %d\n", wrong, n);
	else
		printf("result ok\n");
	printf("VmRSS %ld RssAnon %ld RssFile %ld\n", status_kb("VmRSS:"), status_kb("RssAnon:"),
	       status_kb("RssFile:"));
	rocsparse_destroy_handle(h);
	return st == rocsparse_status_success && e == hipSuccess && !wrong ? 0 : 1;
}
