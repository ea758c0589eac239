// SPDX-License-Identifier: MIT
//
// fattn_combine.hip — rdnacompat's fallback for ggml's
// flash_attn_combine_results<D>(const float *VKQ_parts, const float2 *VKQ_meta,
// float *dst, int parallel_blocks) (ggml src/ggml-cuda/fattn-common.cuh): the
// same 4-argument ABI, launched by ggml with grid (ne01, ne02, ne03) and block
// (D, 1, 1).  One kernel serves every D: D is blockDim.x.
//
// For output row r = (z*gridDim.x + x)*gridDim.y + y and split l, meta[r*P+l]
// is (max, sum) and parts[(r*P+l)*D + d] the unnormalised partial, P =
// parallel_blocks.  dst[r*D + d] = sum_l e^{max_l - M} parts_l[d] /
// sum_l e^{max_l - M} sum_l with M = max_l max_l.  f32 throughout; no LDS (the
// dynamic LDS ggml passes, P*8 bytes, is allocated and left unused).

#include "fb_port.h"

RDC_KERNEL(1024) rdnacompat_fb_fattn_combine(const float *VKQ_parts, const rdc_fb_f2 *VKQ_meta,
					     float *dst, const int parallel_blocks)
{
	const int D = (int)rdc_bdim_x();
	const int tid = (int)rdc_tid_x();
	const long long row =
		((long long)rdc_bid_z() * rdc_nblk_x() + rdc_bid_x()) * rdc_nblk_y() + rdc_bid_y();
	const int P = parallel_blocks;
	if (P <= 0 || tid >= D)
		return;
	const rdc_fb_f2 *meta = VKQ_meta + row * P;
	const float *parts = VKQ_parts + row * P * D;

	float m = meta[0].x;
	for (int l = 1; l < P; ++l)
		m = rdc_fmax(m, meta[l].x);
	float num = 0.0f, den = 0.0f;
	for (int l = 0; l < P; ++l) {
		const float w = rdc_fb_expf(meta[l].x - m);
		num = rdc_fma(w, parts[(long long)l * D + tid], num);
		den = rdc_fma(w, meta[l].y, den);
	}
	dst[row * D + tid] = num / den;
}
