/* SPDX-License-Identifier: MIT */
/*
 * sim_rocsparse.c — Debian's real librocsparse on the simulated GPU: create a
 * handle and run one level-1 operation (rocsparse_saxpyi, y += a*x over a
 * sparse x) that launches a kernel, which the simulator traces.  The kernel
 * is NOT executed, so y is not checked; the handle, memory and launch must
 * all succeed.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <rocsparse/rocsparse.h>
#include <stdio.h>

#define CHECK_HIP(x)                                                                    \
	do {                                                                            \
		hipError_t e_ = (x);                                                    \
		if (e_ != hipSuccess) {                                                 \
			fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_));         \
			return 1;                                                       \
		}                                                                       \
	} while (0)
#define CHECK_SP(x)                                                                     \
	do {                                                                            \
		rocsparse_status s_ = (x);                                              \
		if (s_ != rocsparse_status_success) {                                   \
			fprintf(stderr, "%s: rocsparse status %d\n", #x, (int)s_);      \
			return 1;                                                       \
		}                                                                       \
	} while (0)

int main(void)
{
	enum { N = 1024, NNZ = 64 };
	float hx[NNZ];
	int hi[NNZ];
	for (int i = 0; i < NNZ; i++) {
		hx[i] = (float)i;
		hi[i] = i * 16;
	}
	rocsparse_handle h;
	CHECK_SP(rocsparse_create_handle(&h));
	float *dx, *dy;
	int *di;
	CHECK_HIP(hipMalloc((void **)&dx, sizeof hx));
	CHECK_HIP(hipMalloc((void **)&di, sizeof hi));
	CHECK_HIP(hipMalloc((void **)&dy, N * sizeof(float)));
	CHECK_HIP(hipMemcpy(dx, hx, sizeof hx, hipMemcpyHostToDevice));
	CHECK_HIP(hipMemcpy(di, hi, sizeof hi, hipMemcpyHostToDevice));
	CHECK_HIP(hipMemset(dy, 0, N * sizeof(float)));
	float alpha = 2.0f;
	CHECK_SP(rocsparse_saxpyi(h, NNZ, &alpha, dx, di, dy, rocsparse_index_base_zero));
	CHECK_HIP(hipDeviceSynchronize());
	CHECK_HIP(hipFree(dx));
	CHECK_HIP(hipFree(di));
	CHECK_HIP(hipFree(dy));
	CHECK_SP(rocsparse_destroy_handle(h));
	printf("rocsparse_saxpyi: launched\n");
	return 0;
}
