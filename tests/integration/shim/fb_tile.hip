// SPDX-License-Identifier: MIT
// fb_tile.hip — a test fallback for the stand-in flash_attn_tile (fattn.hip):
// rdnacompat_fb_fattn_tile_dv256 with ggml's parameter list, built with the
// same compiler, so its .args layout equals the original's.  With
// -DRDC_DECOY, nb13 is an int instead of int64_t: the layout differs
// (152:8 becomes 148:4) and the shim must refuse to route to it.
#include <hip/hip_runtime.h>
#include <stdint.h>

#ifdef RDC_DECOY
typedef int32_t nb13_t;
#else
typedef int64_t nb13_t;
#endif

extern "C" __launch_bounds__(256) __global__ void rdnacompat_fb_fattn_tile_dv256(
    const char *Q, const char *K, const char *V, const char *mask, const char *sinks,
    const int *KV_max, float *dst, HIP_vector_type<float, 2> *dst_meta, float scale,
    float max_bias, float m0, float m1, uint32_t n_head_log2, float logit_softcap, int32_t ne00,
    HIP_vector_type<uint32_t, 3> ne01, int32_t ne02, int32_t ne03, int32_t nb01, int32_t nb02,
    int32_t nb03, int32_t ne10, int32_t ne11, int32_t ne12, int32_t ne13, int32_t nb11,
    int32_t nb12, nb13_t nb13, int32_t nb21, int32_t nb22, int64_t nb23, int32_t ne31,
    int32_t ne32, int32_t ne33, int32_t nb31, int32_t nb32, int64_t nb33)
{
	if (threadIdx.x == 0 && threadIdx.y == 0 && blockIdx.x == 0 && blockIdx.y == 0)
		dst[1] = scale * (float)(ne00 + ne01.x + gridDim.y + blockDim.y) + (float)nb13 +
			 (float)(nb23 + nb33);
}
