// SPDX-License-Identifier: MIT
// fattn.hip — test stand-in for ggml's HIP flash-attention tile kernel (built
// as libggml-hip.so by tests/integration/60-rules-occupancy.sh): a template
// with the exact parameter list of ggml's fattn_kernel_t, so the instance
// <256,256,4,8,false> mangles to ggml's name, and 37888 bytes of static LDS
// as ggml's (fallbacks.md §2.1).  rdc_fa_run() does what ggml's launch_fattn
// does: ask the occupancy API, GGML_ASSERT(max_blocks_per_sm > 0), launch.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

template <int DKQ, int DV, int ncols1, int ncols2, bool use_logit_softcap>
__launch_bounds__(256, 1) static __global__ void flash_attn_tile(
    const char *Q, const char *K, const char *V, const char *mask, const char *sinks,
    const int *KV_max, float *dst, HIP_vector_type<float, 2> *dst_meta, float scale,
    float max_bias, float m0, float m1, uint32_t n_head_log2, float logit_softcap, int32_t ne00,
    HIP_vector_type<uint32_t, 3> ne01, int32_t ne02, int32_t ne03, int32_t nb01, int32_t nb02,
    int32_t nb03, int32_t ne10, int32_t ne11, int32_t ne12, int32_t ne13, int32_t nb11,
    int32_t nb12, int64_t nb13, int32_t nb21, int32_t nb22, int64_t nb23, int32_t ne31,
    int32_t ne32, int32_t ne33, int32_t nb31, int32_t nb32, int64_t nb33)
{
	__shared__ float tile[37888 / sizeof(float)];
	unsigned t = threadIdx.x + blockDim.x * threadIdx.y;
	for (unsigned i = t; i < 37888 / sizeof(float); i += blockDim.x * blockDim.y)
		tile[i] = scale * (float)i + (float)ne00;
	__syncthreads();
	if (t == 0 && blockIdx.x == 0 && blockIdx.y == 0)
		dst[0] = tile[(ne01.x + (uint32_t)nb13) % (37888 / sizeof(float))] + (float)DKQ + (float)DV +
			 (float)(ncols1 * ncols2) + (use_logit_softcap ? logit_softcap : 0.0f);
}

extern "C" int rdc_fa_run(void)
{
	auto *k = flash_attn_tile<256, 256, 4, 8, false>;
	int max_blocks_per_sm = -1;
	hipError_t e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&max_blocks_per_sm, k, 256, 0);
	printf("occupancy=%d err=%d\n", max_blocks_per_sm, (int)e);
	int grid = -1, block = -1, mps = -1, dev = 0;
	hipError_t pe = hipOccupancyMaxPotentialBlockSize(&grid, &block, k, 0, 0);
	hipGetDevice(&dev);
	hipDeviceGetAttribute(&mps, hipDeviceAttributeMultiprocessorCount, dev);
	printf("potential grid=%d block=%d err=%d mps=%d\n", grid, block, (int)pe, mps);
	fflush(stdout);
	/* RDC_FA_NO_ASSERT: go on to the launch whatever the query said (a
	 * denied kernel's <<<>>> launch, test 61) */
	if ((e != hipSuccess || max_blocks_per_sm <= 0) && !getenv("RDC_FA_NO_ASSERT")) {
		fprintf(stderr, "GGML_ASSERT(max_blocks_per_sm > 0) failed\n");
		abort();
	}
	float *dst = nullptr;
	if (hipMalloc(&dst, 64 * sizeof(float)) != hipSuccess)
		return 2;
	HIP_vector_type<uint32_t, 3> ne01(17, 3, 5);
	/* tests comparing two runs' kernarg bytes pin the grid (RDC_FA_GRID_Y) */
	const char *gy = getenv("RDC_FA_GRID_Y");
	unsigned grid_y = gy ? (unsigned)atoi(gy) : max_blocks_per_sm > 0 ? (unsigned)max_blocks_per_sm : 1u;
	k<<<dim3(2, grid_y, 1), dim3(32, 8, 1)>>>(
	    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, dst, nullptr, 0.125f, 0.0f, 1.0f, 1.0f,
	    3u, 0.0f, 256, ne01, 4, 1, 1024, 2048, 4096, 256, 64, 4, 1, 512, 1024, 0x1122334455667788ll,
	    512, 1024, 0x55667788ll, 64, 1, 1, 128, 256, 0x99aabbccll);
	printf("launch err=%d\n", (int)hipGetLastError());
	printf("dst=%p\n", (void *)dst);
	e = hipDeviceSynchronize();
	hipFree(dst);
	printf("launched err=%d\n", (int)e);
	return e == hipSuccess ? 0 : 3;
}
