// SPDX-License-Identifier: MIT
//
// fattn_tile.hip — rdnacompat's fallback for ggml's flash_attn_tile<DKQ, DV,
// ncols1, ncols2, softcap> kernels: the same 37-argument `fattn_kernel_t` ABI
// (ggml src/ggml-cuda/fattn-common.cuh, kernarg segment 464 bytes on code
// object v5), the same grid/block contract and the same output format, with
// a plain, small-LDS implementation of our own.
//
// Semantics (what ggml's kernel computes; docs/FALLBACKS.md):
//   s_k   = (scale*Q) . K_k            (scale already divided by the softcap)
//   s_k   = softcap * tanh(s_k)        when logit_softcap != 0
//   s_k  += slope(head) * mask[row, k] (f16 mask; slope from ALiBi when
//                                       max_bias > 0 and ncols2 == 1)
//   out   = sum_k e^{s_k - M} V_k / (sum_k e^{s_k - M} [+ e^{sink - M}])
// f32 accumulation with a running maximum M; K, V and the mask are f16.
// ggml's own tile kernel on AMD (FAST_FP16_AVAILABLE) keeps Q/K products,
// KQ and the V accumulators in f16/half2: this one is more accurate, not
// bit-identical (docs/FALLBACKS.md).
// Keys at or beyond KV_max[sequence*gridDim.x + blockIdx.x] are not read.
// gridDim.y > 1 (split KV): block y writes its unnormalised partial and
// (M, sum) to dst/dst_meta at row ((seq*ne01 + row)*ne02 + head)*gridDim.y + y,
// which ggml's flash_attn_combine_results (or rdnacompat_fb_fattn_combine)
// reduces.  Sinks count once, in block y == 0.
//
// What the ABI does not carry is resolved so:
//   DKQ      = ne00 (at most DKQ_MAX(DV); beyond that the block writes NaN);
//   any tiling it cannot recover (gridDim.z not dividing ne02*ne03, ncols2
//            not dividing ne02, ne12 not dividing ne02, ...): the launch writes
//            NaN to every output it owns (poison_launch), not stale memory;
//   DV       = one kernel per value: rdnacompat_fb_fattn_tile_dv<DV>;
//   softcap  = on when logit_softcap != 0 (ggml picks the template so);
//   ncols2   = ne02*ne03/gridDim.z (ggml: gridDim.z = ne02/ncols2 * ne03);
//   ncols1   = the smallest power of two >= ceil(ne01/gridDim.x): ggml's
//              ncols1 are powers of two, and for those this recovers its
//              row tiling exactly, which KV_max is indexed by.
// Threads: any block of whole 32-thread groups up to 512 (ggml launches
// (32, nwarps)); each group of 32 works on one Q column at a time, lane l
// on key k0+l.  LDS: G*(DKQ_MAX+64)*4 bytes, at most 20 KiB (G <= 16,
// 8 for DV >= 256).

#include "fb_port.h"

#define RDC_FB_LANES 32
#define RDC_FB_MAXTHREADS 512

template <int DV> struct fb_cfg;
#define RDC_FB_CFG(dv, dkqmax, groups)                                \
	template <> struct fb_cfg<dv> {                               \
		static constexpr int dkq_max = dkqmax;                \
		static constexpr int gmax = groups;                   \
	};
// DV -> the largest DKQ ggml pairs with it (192/128, 320/256, 576/512) and
// the most 32-thread groups that fit ~20 KiB of LDS.
RDC_FB_CFG(40, 40, 16)
RDC_FB_CFG(64, 64, 16)
RDC_FB_CFG(72, 72, 16)
RDC_FB_CFG(80, 80, 16)
RDC_FB_CFG(96, 96, 16)
RDC_FB_CFG(112, 112, 16)
RDC_FB_CFG(128, 192, 16)
RDC_FB_CFG(256, 320, 8)
RDC_FB_CFG(512, 576, 8)

RDC_DEV unsigned short ld_u16(const char *p)
{
	return *(const unsigned short *)p;
}

// 16-byte aligned load of 8 halves
struct __attribute__((aligned(16))) fb_u4 {
	unsigned a, b, c, d;
};

RDC_DEV float dot2(unsigned u, const float *q)
{
	return rdc_fma(rdc_h2f((unsigned short)(u & 0xffffu)), q[0],
		       rdc_h2f((unsigned short)(u >> 16)) * q[1]);
}

// dot(q[0..n), K row) with K f16; vec: row and n allow 16-byte loads.
RDC_DEV float dot_row(const float *q, const char *krow, int n, bool vec)
{
	float acc = 0.0f;
	if (vec) {
		const fb_u4 *k4 = (const fb_u4 *)krow;
		for (int i = 0; i < n; i += 8) {
			const fb_u4 u = k4[i / 8];
			acc += dot2(u.a, q + i) + dot2(u.b, q + i + 2);
			acc += dot2(u.c, q + i + 4) + dot2(u.d, q + i + 6);
		}
	} else {
		for (int i = 0; i < n; ++i)
			acc = rdc_fma(rdc_h2f(ld_u16(krow + 2 * i)), q[i], acc);
	}
	return acc;
}

RDC_DEV float alibi_slope(float max_bias, unsigned h, unsigned n_head_log2, float m0, float m1)
{
	if (!(max_bias > 0.0f))
		return 1.0f;
	const float base = h < n_head_log2 ? m0 : m1;
	const int e = h < n_head_log2 ? (int)h + 1 : 2 * (int)(h - n_head_log2) + 1;
	float r = 1.0f;
	for (int i = 0; i < e; ++i)
		r *= base;
	return r;
}

// NaN into every element of dst (and dst_meta when gridDim.y > 1) that a
// launch with these sizes owns: rows ne03*ne01*ne02, each gridDim.y partials
// of DV floats (ggml's layout, see the output index below).  Each thread of
// the grid writes a strided share.  Sizes that are not positive own nothing.
RDC_DEV void poison_launch(float *dst, rdc_fb_f2 *dst_meta, int n01, int ne02, int ne03, unsigned gy, int DV)
{
	if (n01 <= 0 || ne02 <= 0 || ne03 <= 0 || gy == 0 || !dst)
		return;
	const unsigned long long nth = (unsigned long long)rdc_bdim_x() * rdc_bdim_y() * rdc_bdim_z();
	const unsigned long long nblk = (unsigned long long)rdc_nblk_x() * rdc_nblk_y() * rdc_nblk_z();
	const unsigned long long blk =
		rdc_bid_x() + (unsigned long long)rdc_nblk_x() * (rdc_bid_y() + (unsigned long long)rdc_nblk_y() * rdc_bid_z());
	const unsigned long long tid =
		rdc_tid_x() + (unsigned long long)rdc_bdim_x() * (rdc_tid_y() + (unsigned long long)rdc_bdim_y() * rdc_tid_z());
	const unsigned long long parts = (unsigned long long)ne03 * n01 * ne02 * gy;
	const unsigned long long step = nth * nblk;
	for (unsigned long long i = blk * nth + tid; i < parts * (unsigned long long)DV; i += step)
		dst[i] = rdc_nan();
	if (gy != 1 && dst_meta)
		for (unsigned long long i = blk * nth + tid; i < parts; i += step) {
			rdc_fb_f2 m;
			m.x = rdc_nan();
			m.y = rdc_nan();
			dst_meta[i] = m;
		}
}

template <int DV>
RDC_DEV void fb_fattn_tile(const char *Q, const char *K, const char *V, const char *mask,
			   const char *sinks, const int *KV_max, float *dst, rdc_fb_f2 *dst_meta,
			   float scale, float max_bias, float m0, float m1, uint32_t n_head_log2,
			   float logit_softcap, int32_t ne00, rdc_fb_u3 ne01, int32_t ne02,
			   int32_t ne03, int32_t nb01, int32_t nb02, int32_t nb03, int32_t ne11,
			   int32_t ne12, int32_t nb11, int32_t nb12, int64_t nb13, int32_t nb21,
			   int32_t nb22, int64_t nb23, int32_t ne32, int32_t ne33, int32_t nb31,
			   int32_t nb32, int64_t nb33)
{
	(void)ne32;
	(void)nb32;
	constexpr int DKQM = fb_cfg<DV>::dkq_max;
	constexpr int GMAX = fb_cfg<DV>::gmax;
	constexpr int NACC = (DV + RDC_FB_LANES - 1) / RDC_FB_LANES;
	RDC_SHARED float sh_q[GMAX][DKQM];
	RDC_SHARED float sh_s[GMAX][RDC_FB_LANES];
	RDC_SHARED float sh_p[GMAX][RDC_FB_LANES];

	const unsigned bdx = rdc_bdim_x(), bdy = rdc_bdim_y(), bdz = rdc_bdim_z();
	const unsigned nthreads = bdx * bdy * bdz;
	const unsigned tid = rdc_tid_x() + bdx * (rdc_tid_y() + bdy * rdc_tid_z());
	const unsigned ngroups_all = nthreads / RDC_FB_LANES;
	const int G = ngroups_all < (unsigned)GMAX ? (int)ngroups_all : GMAX;
	const int g = (int)(tid / RDC_FB_LANES);
	const int lane = (int)(tid % RDC_FB_LANES);
	const bool in_group = g < G;

	const int n01 = (int)ne01.z; // ggml's fast-division triple keeps n in .z
	const unsigned gx = rdc_nblk_x(), gy = rdc_nblk_y(), gz = rdc_nblk_z();
	const unsigned bx = rdc_bid_x(), by = rdc_bid_y(), bz = rdc_bid_z();

	// Column tiling (see the head of the file).  Any inconsistency: every
	// output the launch owns gets NaN (the whole grid shares the writing),
	// never stale memory and never a guess.
	if (G == 0 || n01 <= 0 || ne02 <= 0 || ne03 <= 0 || ne12 <= 0 || ne02 % ne12 != 0 || gz == 0) {
		poison_launch(dst, dst_meta, n01, ne02, ne03, gy, DV);
		return;
	}
	const long long nz = (long long)ne02 * ne03;
	const int ncols2 = nz % gz == 0 ? (int)(nz / gz) : 0;
	if (ncols2 <= 0 || ne02 % ncols2 != 0) {
		poison_launch(dst, dst_meta, n01, ne02, ne03, gy, DV);
		return;
	}
	const int zper = ne02 / ncols2;
	const int sequence = (int)bz / zper;
	const int head0 = ((int)bz % zper) * ncols2;
	const int per_x = (n01 + (int)gx - 1) / (int)gx;
	int ncols1 = 1;
	while (ncols1 < per_x)
		ncols1 *= 2;
	const int ncols = ncols1 * ncols2;
	const int gqa = ne02 / ne12;
	const int DKQ = ne00;

	// KV range of this block: [kv0, kv1) of [0, KV_max or ne11), in
	// contiguous 32-key-aligned slices, one per gridDim.y.
	const int kvmax = KV_max ? KV_max[sequence * (int)gx + (int)bx] : ne11;
	const int kvlim = kvmax < ne11 ? kvmax : ne11;
	const int nsteps = (kvlim + RDC_FB_LANES - 1) / RDC_FB_LANES;
	const int spb = (nsteps + (int)gy - 1) / (int)gy;
	int kv0 = (int)by * spb * RDC_FB_LANES, kv1 = kv0 + spb * RDC_FB_LANES;
	if (kv1 > kvlim)
		kv1 = kvlim;
	if (kv0 > kv1)
		kv0 = kv1;

	const bool kvec = (((uintptr_t)K | (uintptr_t)nb11 | (uintptr_t)nb12 | (uintptr_t)nb13) & 15) == 0 &&
			  DKQ % 8 == 0;
	const bool bad_d = DKQ <= 0 || DKQ > DKQM;
	const float softcap = logit_softcap;

	for (int c0 = 0; c0 < ncols; c0 += G) {
		const int c = c0 + g;
		const int j = c / ncols2, h = c % ncols2;
		const int row = (int)bx * ncols1 + j;
		const int head = head0 + h;
		const bool act = in_group && c < ncols && row < n01;

		const char *Kh = K + nb13 * sequence + (long long)nb12 * (head / gqa);
		const char *Vh = V + nb23 * sequence + (long long)nb22 * (head / gqa);
		const char *mrow = 0;
		if (mask && act) {
			// As ggml's tile kernel: the mask has no head term
			// (maskh = mask + nb33*(sequence % ne33)); ne32/nb32 unused.
			mrow = mask + nb33 * (ne33 > 0 ? sequence % ne33 : 0) + (long long)nb31 * row;
		}
		const float slope = ncols2 == 1 ? alibi_slope(max_bias, (unsigned)head, n_head_log2, m0, m1) : 1.0f;

		if (act && !bad_d) {
			const float *qr = (const float *)(Q + (long long)nb03 * sequence + (long long)nb02 * head +
							  (long long)nb01 * row);
			for (int i = lane; i < DKQ; i += RDC_FB_LANES)
				sh_q[g][i] = qr[i] * scale;
		}
		rdc_barrier();

		float M = -3.402823466e+38f / 2.0f, S = 0.0f;
		float acc[NACC];
		for (int i = 0; i < NACC; ++i)
			acc[i] = 0.0f;

		for (int k0 = kv0; k0 < kv1; k0 += RDC_FB_LANES) {
			const int key = k0 + lane;
			float s = rdc_bits2f(0xff800000u); // -inf
			if (act && !bad_d && key < kv1) {
				s = dot_row(sh_q[g], Kh + (long long)nb11 * key, DKQ, kvec);
				if (softcap != 0.0f)
					s = softcap * rdc_fb_tanhf(s);
				if (mrow)
					s += slope * rdc_h2f(ld_u16(mrow + 2 * (long long)key));
			}
			if (in_group)
				sh_s[g][lane] = s;
			rdc_barrier();
			float mt = M;
			if (in_group)
				for (int l = 0; l < RDC_FB_LANES; ++l)
					mt = rdc_fmax(mt, sh_s[g][l]);
			const float alpha = rdc_fb_expf(M - mt);
			M = mt;
			if (in_group)
				sh_p[g][lane] = rdc_fb_expf(s - M);
			rdc_barrier();
			if (act) {
				S *= alpha;
				for (int i = 0; i < NACC; ++i)
					acc[i] *= alpha;
				const int nl = kv1 - k0 < RDC_FB_LANES ? kv1 - k0 : RDC_FB_LANES;
				for (int l = 0; l < nl; ++l) {
					const float p = sh_p[g][l];
					if (p == 0.0f)
						continue;
					S += p;
					const char *vr = Vh + (long long)nb21 * (k0 + l);
					for (int i = 0; i < NACC; ++i) {
						const int d = lane + RDC_FB_LANES * i;
						if (d < DV)
							acc[i] = rdc_fma(p, rdc_h2f(ld_u16(vr + 2 * d)), acc[i]);
					}
				}
			}
		}

		if (act) {
			if (sinks && by == 0) {
				const float sink = ((const float *)sinks)[head];
				const float mn = rdc_fmax(M, sink);
				const float alpha = rdc_fb_expf(M - mn);
				S = S * alpha + rdc_fb_expf(sink - mn);
				for (int i = 0; i < NACC; ++i)
					acc[i] *= alpha;
				M = mn;
			}
			const long long jd = (((long long)sequence * n01 + row) * ne02 + head) * gy + by;
			const float inv = gy == 1 ? 1.0f / S : 1.0f;
			for (int i = 0; i < NACC; ++i) {
				const int d = lane + RDC_FB_LANES * i;
				if (d < DV)
					dst[jd * DV + d] = bad_d ? rdc_nan() : acc[i] * inv;
			}
			if (gy != 1 && lane == 0) {
				rdc_fb_f2 m;
				m.x = bad_d ? rdc_nan() : M;
				m.y = bad_d ? rdc_nan() : S;
				dst_meta[jd] = m;
			}
		}
		rdc_barrier();
	}
}

// The exact parameter list of ggml's fattn_kernel_t.
#define RDC_FB_TILE_PARAMS                                                                        \
	const char *Q, const char *K, const char *V, const char *mask, const char *sinks,        \
		const int *KV_max, float *dst, rdc_fb_f2 *dst_meta, const float scale,            \
		const float max_bias, const float m0, const float m1, const uint32_t n_head_log2, \
		const float logit_softcap, const int32_t ne00, const rdc_fb_u3 ne01,              \
		const int32_t ne02, const int32_t ne03, const int32_t nb01, const int32_t nb02,   \
		const int32_t nb03, const int32_t ne10, const int32_t ne11, const int32_t ne12,   \
		const int32_t ne13, const int32_t nb11, const int32_t nb12, const int64_t nb13,   \
		const int32_t nb21, const int32_t nb22, const int64_t nb23, const int32_t ne31,   \
		const int32_t ne32, const int32_t ne33, const int32_t nb31, const int32_t nb32,   \
		const int64_t nb33

#define RDC_FB_TILE_INSTANCE(dv)                                                                  \
	RDC_KERNEL(RDC_FB_MAXTHREADS) rdnacompat_fb_fattn_tile_dv##dv(RDC_FB_TILE_PARAMS)         \
	{                                                                                         \
		(void)ne10;                                                                       \
		(void)ne13;                                                                       \
		(void)ne31;                                                                       \
		fb_fattn_tile<dv>(Q, K, V, mask, sinks, KV_max, dst, dst_meta, scale, max_bias,   \
				  m0, m1, n_head_log2, logit_softcap, ne00, ne01, ne02, ne03,     \
				  nb01, nb02, nb03, ne11, ne12, nb11, nb12, nb13, nb21, nb22,     \
				  nb23, ne32, ne33, nb31, nb32, nb33);                            \
	}

RDC_FB_TILE_INSTANCE(40)
RDC_FB_TILE_INSTANCE(64)
RDC_FB_TILE_INSTANCE(72)
RDC_FB_TILE_INSTANCE(80)
RDC_FB_TILE_INSTANCE(96)
RDC_FB_TILE_INSTANCE(112)
RDC_FB_TILE_INSTANCE(128)
RDC_FB_TILE_INSTANCE(256)
RDC_FB_TILE_INSTANCE(512)
