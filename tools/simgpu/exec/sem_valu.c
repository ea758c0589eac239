/* SPDX-License-Identifier: MIT */
/*
 * sem_valu.c — vector ALU, 32- and 64-bit: integer, f32 and f64 arithmetic,
 * conversions, bit operations, carries, lane operations (readlane,
 * writelane, mbcnt, permlane16) and the division and transcendental helpers.
 * 16-bit and packed operations are in sem_v16.c, compares in sem_vcmp.c.
 *
 * Numeric model: f32/f64 arithmetic is the host's IEEE arithmetic in round-
 * to-nearest-even with denormals kept (what HIP's kernels ask for: rsrc1
 * FLOAT_MODE 0xF0); fma is fused (fmaf); min/max follow IEEE mode (a NaN
 * operand yields the other).  Transcendentals use libm (exp2f, log2f,
 * sqrtf; sin/cos of the angle in revolutions, reduced exactly) with the
 * f32 unit's denormal flushing: hardware is within 1 ulp of those (the ISA
 * guides' bound), so results can differ in the last bit.  Every handler loops over the lanes
 * and writes through rdc_vdst*, which applies EXEC.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "wave.h"

#define LANES for (unsigned l = 0; l < w->n; l++)

/* d = a * b + c over n lanes, fused (one rounding).  Without FMA in the
 * baseline x86-64 ISA, fmaf() is a libm call per lane; where the CPU has
 * FMA the loop below compiles to vfmadd and is chosen once at start-up.
 * Either way the result is the correctly rounded fused product. */
typedef void (*fma_lanes_fn)(float *d, const float *a, const float *b, const float *c, unsigned n);
static void fma_lanes_libm(float *d, const float *a, const float *b, const float *c, unsigned n)
{
	for (unsigned l = 0; l < n; l++)
		d[l] = fmaf(a[l], b[l], c[l]);
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static void fma_lanes_hw(float *d, const float *a, const float *b, const float *c,
						       unsigned n)
{
	for (unsigned l = 0; l < n; l++)
		d[l] = __builtin_fmaf(a[l], b[l], c[l]);
}
static fma_lanes_fn pick_fma(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("fma") ? fma_lanes_hw : fma_lanes_libm;
}
#else
static fma_lanes_fn pick_fma(void) { return fma_lanes_libm; }
#endif
static fma_lanes_fn fma_lanes;
__attribute__((constructor)) static void fma_init(void) { fma_lanes = pick_fma(); }

/* f32 = f(a, b): sources read in place and the result written in place
 * when no modifier, DPP or partial EXEC needs a copy (operand.c). */
#define F2(NAME, EXPR)                                                          \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		float ta[RDC_LANES], tb[RDC_LANES], td[RDC_LANES];              \
		const float *a = rdc_vsrcf_p(w, in, 0, ta);                     \
		const float *b = rdc_vsrcf_p(w, in, 1, tb);                     \
		float *d = rdc_vdstf_begin(w, in, td);                          \
		LANES d[l] = (EXPR);                                            \
		rdc_vdstf_end(w, in, d, td);                                    \
	}
#define F1(NAME, EXPR)                                                          \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		float ta[RDC_LANES], td[RDC_LANES];                             \
		const float *a = rdc_vsrcf_p(w, in, 0, ta);                     \
		float *d = rdc_vdstf_begin(w, in, td);                          \
		LANES d[l] = (EXPR);                                            \
		rdc_vdstf_end(w, in, d, td);                                    \
	}
#define F3(NAME, EXPR)                                                          \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		float ta[RDC_LANES], tb[RDC_LANES], tc[RDC_LANES], td[RDC_LANES]; \
		const float *a = rdc_vsrcf_p(w, in, 0, ta);                     \
		const float *b = rdc_vsrcf_p(w, in, 1, tb);                     \
		const float *c = rdc_vsrcf_p(w, in, 2, tc);                     \
		float *d = rdc_vdstf_begin(w, in, td);                          \
		LANES d[l] = (EXPR);                                            \
		rdc_vdstf_end(w, in, d, td);                                    \
	}
/* u32 = f(a, b) */
#define U2(NAME, EXPR)                                                          \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		uint32_t ta[RDC_LANES], tb[RDC_LANES], td[RDC_LANES];           \
		const uint32_t *a = rdc_vsrc32_p(w, in, 0, RDC_TY_B32, ta);     \
		const uint32_t *b = rdc_vsrc32_p(w, in, 1, RDC_TY_B32, tb);     \
		uint32_t *d = rdc_vdst32_begin(w, in, td);                      \
		LANES d[l] = (EXPR);                                            \
		rdc_vdst32_end(w, in, d, td);                                   \
	}
#define U1(NAME, EXPR)                                                          \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		uint32_t ta[RDC_LANES], td[RDC_LANES];                          \
		const uint32_t *a = rdc_vsrc32_p(w, in, 0, RDC_TY_B32, ta);     \
		uint32_t *d = rdc_vdst32_begin(w, in, td);                      \
		LANES d[l] = (EXPR);                                            \
		rdc_vdst32_end(w, in, d, td);                                   \
	}
#define U3(NAME, EXPR)                                                          \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		uint32_t ta[RDC_LANES], tb[RDC_LANES], tc[RDC_LANES], td[RDC_LANES]; \
		const uint32_t *a = rdc_vsrc32_p(w, in, 0, RDC_TY_B32, ta);     \
		const uint32_t *b = rdc_vsrc32_p(w, in, 1, RDC_TY_B32, tb);     \
		const uint32_t *c = rdc_vsrc32_p(w, in, 2, RDC_TY_B32, tc);     \
		uint32_t *d = rdc_vdst32_begin(w, in, td);                      \
		LANES d[l] = (EXPR);                                            \
		rdc_vdst32_end(w, in, d, td);                                   \
	}
/* f64 = f(a, b[, c]) */
#define D2(NAME, EXPR)                                                          \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		double a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];                \
		rdc_vsrcd(w, in, 0, a);                                         \
		rdc_vsrcd(w, in, 1, b);                                         \
		LANES d[l] = (EXPR);                                            \
		rdc_vdstd(w, in, d);                                            \
	}
#define D1(NAME, EXPR)                                                          \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		double a[RDC_LANES], d[RDC_LANES];                              \
		rdc_vsrcd(w, in, 0, a);                                         \
		LANES d[l] = (EXPR);                                            \
		rdc_vdstd(w, in, d);                                            \
	}

/* The guides' v_med3_f32: a NaN operand gives min3; else the max of the two
 * operands that are not the max3 (so (+0, -0, +0) gives +0). */
static inline float med3f(float a, float b, float c)
{
	if (isnan(a) || isnan(b) || isnan(c))
		return rdc_minf(rdc_minf(a, b), c);
	float m = rdc_maxf(rdc_maxf(a, b), c);
	return m == a ? rdc_maxf(b, c) : m == b ? rdc_maxf(a, c) : rdc_maxf(a, b);
}
static inline float dx9_mul(float a, float b) { return (a == 0.0f || b == 0.0f) ? 0.0f : a * b; }
static inline float fractf(float a)
{
	if (isinf(a))
		return NAN;
	float f = a - floorf(a);
	return f > 0x1.fffffep-1f ? 0x1.fffffep-1f : f; /* NaN stays NaN */
}
static inline int32_t cvt_i32d(double a)
{
	if (isnan(a))
		return 0;
	if (a >= 2147483647.0)
		return INT32_MAX;
	if (a <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)a;
}
static inline uint32_t cvt_u32d(double a)
{
	if (isnan(a) || a <= 0.0)
		return 0;
	if (a >= 4294967295.0)
		return UINT32_MAX;
	return (uint32_t)a;
}
static inline float frexp_mant(float a)
{
	if (isnan(a) || isinf(a))
		return a;
	int e;
	return frexpf(a, &e);
}
static inline uint32_t frexp_exp(float a)
{
	if (isnan(a) || isinf(a))
		return 0;
	int e;
	frexpf(a, &e);
	return (uint32_t)e;
}
static inline double frexp_mant_d(double a)
{
	if (isnan(a) || isinf(a))
		return a;
	int e;
	return frexp(a, &e);
}
static inline uint32_t frexp_exp_d(double a)
{
	if (isnan(a) || isinf(a))
		return 0;
	int e;
	frexp(a, &e);
	return (uint32_t)e;
}
static inline uint32_t bfe_u(uint32_t v, uint32_t off, uint32_t wd)
{
	off &= 31;
	wd &= 31;
	if (!wd)
		return 0;
	return (v >> off) & ((1u << wd) - 1);
}
static inline uint32_t bfe_i(uint32_t v, uint32_t off, uint32_t wd)
{
	off &= 31;
	wd &= 31;
	if (!wd)
		return 0;
	uint32_t x = (uint32_t)((int32_t)v >> off); /* S0.i32 >> offset: arithmetic */
	return (uint32_t)((int32_t)(x << (32 - wd)) >> (32 - wd));
}
static inline uint32_t umin3(uint32_t a, uint32_t b, uint32_t c) { uint32_t m = a < b ? a : b; return m < c ? m : c; }
static inline uint32_t umax3(uint32_t a, uint32_t b, uint32_t c) { uint32_t m = a > b ? a : b; return m > c ? m : c; }
static inline int32_t imin(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t imax(int32_t a, int32_t b) { return a > b ? a : b; }
static inline uint32_t umed3(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
	return c < lo ? lo : c > hi ? hi : c;
}
static inline int32_t imed3(int32_t a, int32_t b, int32_t c)
{
	int32_t lo = imin(a, b), hi = imax(a, b);
	return c < lo ? lo : c > hi ? hi : c;
}
static inline uint32_t perm_byte(uint64_t v, unsigned sel)
{
	if (sel < 8)
		return (uint32_t)(v >> (sel * 8)) & 0xff;
	switch (sel) {
	case 8: return (v >> 15) & 1 ? 0xff : 0;
	case 9: return (v >> 31) & 1 ? 0xff : 0;
	case 10: return (v >> 47) & 1 ? 0xff : 0;
	case 11: return (v >> 63) & 1 ? 0xff : 0;
	case 12: return 0;
	default: return 0xff;
	}
}
static inline uint32_t perm(uint32_t s0, uint32_t s1, uint32_t sel)
{
	uint64_t v = (uint64_t)s0 << 32 | s1;
	uint32_t d = 0;
	for (int i = 0; i < 4; i++)
		d |= perm_byte(v, (sel >> (i * 8)) & 0xff) << (i * 8);
	return d;
}

/* ---- f32 ---------------------------------------------------------------- */
F2(v_add_f32, a[l] + b[l])
F2(v_sub_f32, a[l] - b[l])
F2(v_subrev_f32, b[l] - a[l])
F2(v_mul_f32, a[l] * b[l])
F2(v_mul_dx9_zero_f32, dx9_mul(a[l], b[l]))
F2(v_min_f32, rdc_minf(a[l], b[l]))
F2(v_max_f32, rdc_maxf(a[l], b[l]))
static void v_fma_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float ta[RDC_LANES], tb[RDC_LANES], tc[RDC_LANES], td[RDC_LANES];
	const float *a = rdc_vsrcf_p(w, in, 0, ta), *b = rdc_vsrcf_p(w, in, 1, tb), *c = rdc_vsrcf_p(w, in, 2, tc);
	float *d = rdc_vdstf_begin(w, in, td);
	fma_lanes(d, a, b, c, w->n);
	rdc_vdstf_end(w, in, d, td);
}
F3(v_fma_dx9_zero_f32, (a[l] == 0.0f || b[l] == 0.0f) ? c[l] : fmaf(a[l], b[l], c[l]))
F3(v_min3_f32, rdc_minf(rdc_minf(a[l], b[l]), c[l]))
F3(v_max3_f32, rdc_maxf(rdc_maxf(a[l], b[l]), c[l]))
F3(v_med3_f32, med3f(a[l], b[l], c[l]))
F3(v_maxmin_f32, rdc_minf(rdc_maxf(a[l], b[l]), c[l]))
F3(v_minmax_f32, rdc_maxf(rdc_minf(a[l], b[l]), c[l]))
/* The f32 transcendental unit flushes denormals whatever the mode (the ISA
 * guides' notes on v_exp/v_log/v_rcp/v_rsq/v_sqrt_f32: "denormals are
 * flushed"): a denormal source reads as a zero of its sign and a denormal
 * result is written as one (LLVM scales sources around it when the kernel
 * keeps denormals). */
static inline float ftz(float x) { return fabsf(x) < 0x1p-126f ? copysignf(0.0f, x) : x; }
F1(v_rcp_f32, ftz(1.0f / ftz(a[l])))
F1(v_rsq_f32, ftz(1.0f / sqrtf(ftz(a[l]))))
F1(v_sqrt_f32, ftz(sqrtf(ftz(a[l]))))
F1(v_exp_f32, ftz(exp2f(ftz(a[l]))))
F1(v_log_f32, log2f(ftz(a[l])))
/* sin/cos take the angle in revolutions over the full float range (the
 * guides: "full range input is supported"; sin(-MaxFloat) = +0 and
 * cos(-MaxFloat) = 1): the fraction of a revolution is exact in float, its
 * quadrant is taken out exactly, and the rest goes through libm in double.
 * A signed zero keeps its sign through sin (sin(-0) = -0). */
static float sin_rev(float x, bool cosine)
{
	if (isnan(x) || isinf(x))
		return isnan(x) ? x : NAN;
	float r = x - truncf(x);                /* exact: (-1, 1) */
	float q = rintf(r * 4.0f);              /* exact: a quadrant in [-4, 4] */
	double f = (double)r - (double)q * 0.25; /* exact: [-1/8, 1/8] */
	int k = ((int)q + (cosine ? 1 : 0)) & 3;
	double s = k == 0 ? sin(f * 6.283185307179586) : k == 1 ? cos(f * 6.283185307179586)
		 : k == 2 ? -sin(f * 6.283185307179586) : -cos(f * 6.283185307179586);
	if (!cosine && x == 0.0f)
		return x;
	return s == 0.0 ? 0.0f : (float)s;
}
F1(v_sin_f32, sin_rev(a[l], false))
F1(v_cos_f32, sin_rev(a[l], true))
F1(v_floor_f32, floorf(a[l]))
F1(v_ceil_f32, ceilf(a[l]))
F1(v_trunc_f32, truncf(a[l]))
F1(v_rndne_f32, rintf(a[l]))
F1(v_fract_f32, fractf(a[l]))
F1(v_frexp_mant_f32, frexp_mant(a[l]))

static void v_fmac_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float ta[RDC_LANES], tb[RDC_LANES], td[RDC_LANES];
	const float *a = rdc_vsrcf_p(w, in, 0, ta), *b = rdc_vsrcf_p(w, in, 1, tb);
	const float *acc = (const float *)rdc_vreg(w, in->dst);
	float *d = rdc_vdstf_begin(w, in, td);
	fma_lanes(d, a, b, acc, w->n);
	rdc_vdstf_end(w, in, d, td);
}

static void v_fmac_dx9_zero_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	rdc_vsrcf(w, in, 1, b);
	const uint32_t *acc = rdc_vreg(w, in->dst);
	LANES d[l] = (a[l] == 0.0f || b[l] == 0.0f) ? rdc_u2f(acc[l]) : fmaf(a[l], b[l], rdc_u2f(acc[l]));
	rdc_vdstf(w, in, d);
}

/* fmamk: src0 * K + src1; fmaak: src0 * src1 + K (K is the literal). */
static void v_fmamk_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float ta[RDC_LANES], tb[RDC_LANES], td[RDC_LANES], k = rdc_u2f(in->lit);
	const float *a = rdc_vsrcf_p(w, in, 0, ta), *b = rdc_vsrcf_p(w, in, 1, tb);
	float kk[RDC_LANES];
	LANES kk[l] = k;
	float *d = rdc_vdstf_begin(w, in, td);
	fma_lanes(d, a, kk, b, w->n);
	rdc_vdstf_end(w, in, d, td);
}

static void v_fmaak_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float ta[RDC_LANES], tb[RDC_LANES], td[RDC_LANES], k = rdc_u2f(in->lit);
	const float *a = rdc_vsrcf_p(w, in, 0, ta), *b = rdc_vsrcf_p(w, in, 1, tb);
	float kk[RDC_LANES];
	LANES kk[l] = k;
	float *d = rdc_vdstf_begin(w, in, td);
	fma_lanes(d, a, b, kk, w->n);
	rdc_vdstf_end(w, in, d, td);
}

static void v_ldexp_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES], d[RDC_LANES];
	uint32_t b[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	LANES {
		int32_t e = (int32_t)b[l];
		e = e > 1000 ? 1000 : e < -1000 ? -1000 : e;
		d[l] = ldexpf(a[l], e);
	}
	rdc_vdstf(w, in, d);
}

/* Float -> integer and back. */
static void v_cvt_i32_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	LANES d[l] = (uint32_t)rdc_cvt_i32_f32(a[l]);
	rdc_vdst32(w, in, d);
}
static void v_cvt_u32_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	LANES d[l] = rdc_cvt_u32_f32(a[l]);
	rdc_vdst32(w, in, d);
}
static void v_cvt_floor_i32_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	LANES d[l] = (uint32_t)rdc_cvt_i32_f32(floorf(a[l]));
	rdc_vdst32(w, in, d);
}
static void v_cvt_nearest_i32_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	LANES d[l] = (uint32_t)rdc_cvt_i32_f32(floorf(a[l] + 0.5f));
	rdc_vdst32(w, in, d);
}
static void v_frexp_exp_i32_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	LANES d[l] = frexp_exp(a[l]);
	rdc_vdst32(w, in, d);
}
static void v_cvt_f32_i32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES];
	float d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = (float)(int32_t)a[l];
	rdc_vdstf(w, in, d);
}
static void v_cvt_f32_u32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES];
	float d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = (float)a[l];
	rdc_vdstf(w, in, d);
}
#define CVT_UBYTE(N)                                                             \
	static void v_cvt_f32_ubyte##N(struct rdc_wave *w, const struct rdc_inst *in) \
	{                                                                        \
		uint32_t a[RDC_LANES];                                           \
		float d[RDC_LANES];                                              \
		rdc_vsrc32(w, in, 0, RDC_TY_B32, a);                             \
		LANES d[l] = (float)((a[l] >> (8 * N)) & 0xff);                  \
		rdc_vdstf(w, in, d);                                             \
	}
CVT_UBYTE(0)
CVT_UBYTE(1)
CVT_UBYTE(2)
CVT_UBYTE(3)

/* v_cvt_off_f32_i4: S0[3:0] as a signed 4-bit integer in sixteenths
 * (the guides' CVT_OFF_TABLE: 0 .. +0.4375, then -0.5 .. -0.0625). */
static void v_cvt_off_f32_i4(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES];
	float d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = (float)((int32_t)(a[l] << 28) >> 28) * 0.0625f;
	rdc_vdstf(w, in, d);
}

/* ---- division helpers (ISA pseudocode, with the hardware's VCC use) ---- */
static int exp_f32(float f) { return (int)((rdc_f2u(f) >> 23) & 0xff); }
static int exp_f64(double f) { return (int)((rdc_d2u(f) >> 52) & 0x7ff); }

/* v_div_scale/fmas: the ISA guides' pseudocode with three corrections
 * that make LLVM's division sequence give the IEEE quotient, which is what
 * the hardware computes (and what tinygrad's hardware-checked emulator
 * found for the first): div_fmas undoes div_scale's factor (2^64 for f32,
 * 2^128 for f64, the guides print 2^32 and 2^64), up when the quotient's
 * exponent says it was scaled down and down otherwise; when both 1/den and
 * num/den are denormal the denominator is scaled down (2^-64 / 2^-128;
 * the guides print up, which overflows it); f32's 1/den test is made in
 * f64, as the guide writes it (64'F(S1.f32)). */
static void v_div_scale_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float s0[RDC_LANES], s1[RDC_LANES], s2[RDC_LANES], d[RDC_LANES];
	rdc_vsrcf(w, in, 0, s0);
	rdc_vsrcf(w, in, 1, s1);
	rdc_vsrcf(w, in, 2, s2);
	uint64_t vcc = 0, m = rdc_exec_mask(w);
	LANES {
		float a = s0[l], den = s1[l], num = s2[l];
		bool flag = false;
		d[l] = a;
		if (num == 0.0f || den == 0.0f) {
			d[l] = NAN;
		} else if (exp_f32(num) - exp_f32(den) >= 96) {
			flag = true;
			if (a == den)
				d[l] = ldexpf(a, 64);
		} else if (fpclassify(den) == FP_SUBNORMAL) {
			d[l] = ldexpf(a, 64);
		} else if (fpclassify(1.0 / (double)den) == FP_SUBNORMAL && fpclassify(num / den) == FP_SUBNORMAL) {
			flag = true;
			if (a == den)
				d[l] = ldexpf(a, -64);
		} else if (fpclassify(1.0 / (double)den) == FP_SUBNORMAL) {
			d[l] = ldexpf(a, -64);
		} else if (fpclassify(num / den) == FP_SUBNORMAL) {
			flag = true;
			if (a == num)
				d[l] = ldexpf(a, 64);
		} else if (exp_f32(num) <= 23) {
			d[l] = ldexpf(a, 64);
		}
		if (flag)
			vcc |= 1ull << l;
	}
	rdc_vdstf(w, in, d);
	uint64_t old = rdc_sread_mask(w, in, in->sdst);
	rdc_swrite_mask(w, in->sdst, (old & ~m) | (vcc & m));
}

static void v_div_fmas_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	rdc_vsrcf(w, in, 1, b);
	rdc_vsrcf(w, in, 2, c);
	uint64_t vcc = rdc_sread_mask(w, in, RDC_OPD_VCC);
	LANES {
		d[l] = fmaf(a[l], b[l], c[l]);
		if ((vcc >> l) & 1)
			d[l] = ldexpf(d[l], exp_f32(c[l]) > 127 ? 64 : -64);
	}
	rdc_vdstf(w, in, d);
}

/* The guides' V_DIV_FIXUP_F32: NaN sources come back quieted, 0/0 and
 * inf/inf give 0xffc00000, and otherwise the quotient takes the sign of
 * num/den (a NaN quotient too: the guides have no special case for it). */
static float div_fixup(float q, float den, float num)
{
	bool neg = signbit(den) != signbit(num);
	if (isnan(num))
		return rdc_u2f(rdc_f2u(num) | 0x400000u);
	if (isnan(den))
		return rdc_u2f(rdc_f2u(den) | 0x400000u);
	if ((den == 0.0f && num == 0.0f) || (isinf(den) && isinf(num)))
		return rdc_u2f(0xffc00000u);
	if (den == 0.0f || isinf(num))
		return neg ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0.0f)
		return neg ? -0.0f : 0.0f;
	return neg ? -fabsf(q) : fabsf(q);
}
F3(v_div_fixup_f32, div_fixup(a[l], b[l], c[l]))

/* ---- f64 ---------------------------------------------------------------- */
D2(v_add_f64, a[l] + b[l])
D2(v_mul_f64, a[l] * b[l])
D2(v_min_f64, rdc_mind(a[l], b[l]))
D2(v_max_f64, rdc_maxd(a[l], b[l]))
D1(v_rcp_f64, 1.0 / a[l])
D1(v_rsq_f64, 1.0 / sqrt(a[l]))
D1(v_sqrt_f64, sqrt(a[l]))
D1(v_floor_f64, floor(a[l]))
D1(v_ceil_f64, ceil(a[l]))
D1(v_trunc_f64, trunc(a[l]))
D1(v_rndne_f64, rint(a[l]))
/* S0 - floor(S0), kept below 1.0 (a tiny negative S0 would round to 1.0);
 * NaN stays NaN, infinities give NaN. */
D1(v_fract_f64, isnan(a[l]) ? a[l] : isinf(a[l]) ? NAN : fmin(a[l] - floor(a[l]), 0x1.fffffffffffffp-1))
D1(v_frexp_mant_f64, frexp_mant_d(a[l]))

static void v_frexp_exp_i32_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcd(w, in, 0, a);
	LANES d[l] = frexp_exp_d(a[l]);
	rdc_vdst32(w, in, d);
}

/* v_trig_preop_f64: 53 bits of 2/PI from bit `shift` on (the first bit
 * after the binary point is bit 0), as an integer scaled by 2^(-53-shift):
 * shift = S1[4:0] * 53, plus exponent(S0) - 1077 when S0's biased exponent
 * is above 1077; the result is scaled up by 2^128 when that exponent is
 * 1968 or more (ISA guides' pseudocode).  The hardware's table holds 1184
 * bits; a segment starting at bit 1120 or later reads 0, as LLVM's
 * constant folding of llvm.amdgcn.trig.preop does ("hardware behavior").
 * A NaN S0 gives S0 quieted.  The table: floor(2^1184 * 2/PI), computed
 * with Machin's formula in integer arithmetic. */
static const uint32_t two_by_pi[37] = {
	0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
	0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
	0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
	0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
	0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046,
};

static double trig_preop(double a, uint32_t seg)
{
	if (isnan(a))
		return rdc_u2d(rdc_d2u(a) | 0x8000000000000ull);
	int e = exp_f64(a);
	unsigned shift = (seg & 31) * 53 + (e > 1077 ? (unsigned)(e - 1077) : 0);
	if ((shift >> 5) + 2 >= 37)
		return 0.0;
	uint64_t bits = 0;
	for (unsigned i = 0; i < 53; i++) {
		unsigned b = shift + i;
		bits = bits << 1 | ((two_by_pi[b >> 5] >> (31 - (b & 31))) & 1);
	}
	int scale = -53 - (int)shift + (e >= 1968 ? 128 : 0);
	return ldexp((double)bits, scale);
}

static void v_trig_preop_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], d[RDC_LANES];
	uint32_t b[RDC_LANES];
	rdc_vsrcd(w, in, 0, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	LANES d[l] = trig_preop(a[l], b[l]);
	rdc_vdstd(w, in, d);
}

static void v_fma_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];
	rdc_vsrcd(w, in, 0, a);
	rdc_vsrcd(w, in, 1, b);
	rdc_vsrcd(w, in, 2, c);
	LANES d[l] = fma(a[l], b[l], c[l]);
	rdc_vdstd(w, in, d);
}

static void v_ldexp_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], d[RDC_LANES];
	uint32_t b[RDC_LANES];
	rdc_vsrcd(w, in, 0, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	LANES {
		int32_t e = (int32_t)b[l];
		e = e > 5000 ? 5000 : e < -5000 ? -5000 : e;
		d[l] = ldexp(a[l], e);
	}
	rdc_vdstd(w, in, d);
}

static void v_div_scale_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double s0[RDC_LANES], s1[RDC_LANES], s2[RDC_LANES], d[RDC_LANES];
	rdc_vsrcd(w, in, 0, s0);
	rdc_vsrcd(w, in, 1, s1);
	rdc_vsrcd(w, in, 2, s2);
	uint64_t vcc = 0, m = rdc_exec_mask(w);
	LANES {
		double a = s0[l], den = s1[l], num = s2[l];
		bool flag = false;
		d[l] = a;
		if (num == 0.0 || den == 0.0) {
			d[l] = NAN;
		} else if (exp_f64(num) - exp_f64(den) >= 768) {
			flag = true;
			if (a == den)
				d[l] = ldexp(a, 128);
		} else if (fpclassify(den) == FP_SUBNORMAL) {
			d[l] = ldexp(a, 128);
		} else if (fpclassify(1.0 / den) == FP_SUBNORMAL && fpclassify(num / den) == FP_SUBNORMAL) {
			flag = true;
			if (a == den)
				d[l] = ldexp(a, -128);
		} else if (fpclassify(1.0 / den) == FP_SUBNORMAL) {
			d[l] = ldexp(a, -128);
		} else if (fpclassify(num / den) == FP_SUBNORMAL) {
			flag = true;
			if (a == num)
				d[l] = ldexp(a, 128);
		} else if (exp_f64(num) <= 53) {
			d[l] = ldexp(a, 128);
		}
		if (flag)
			vcc |= 1ull << l;
	}
	rdc_vdstd(w, in, d);
	uint64_t old = rdc_sread_mask(w, in, in->sdst);
	rdc_swrite_mask(w, in->sdst, (old & ~m) | (vcc & m));
}

static void v_div_fmas_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];
	rdc_vsrcd(w, in, 0, a);
	rdc_vsrcd(w, in, 1, b);
	rdc_vsrcd(w, in, 2, c);
	uint64_t vcc = rdc_sread_mask(w, in, RDC_OPD_VCC);
	LANES {
		d[l] = fma(a[l], b[l], c[l]);
		if ((vcc >> l) & 1)
			d[l] = ldexp(d[l], exp_f64(c[l]) > 1023 ? 128 : -128);
	}
	rdc_vdstd(w, in, d);
}

static void v_div_fixup_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];
	rdc_vsrcd(w, in, 0, a);
	rdc_vsrcd(w, in, 1, b);
	rdc_vsrcd(w, in, 2, c);
	LANES {
		double q = a[l], den = b[l], num = c[l];
		bool neg = signbit(den) != signbit(num);
		if (isnan(num)) d[l] = rdc_u2d(rdc_d2u(num) | 0x8000000000000ull);
		else if (isnan(den)) d[l] = rdc_u2d(rdc_d2u(den) | 0x8000000000000ull);
		else if ((den == 0.0 && num == 0.0) || (isinf(den) && isinf(num))) d[l] = rdc_u2d(0xfff8000000000000ull);
		else if (den == 0.0 || isinf(num)) d[l] = neg ? -INFINITY : INFINITY;
		else if (isinf(den) || num == 0.0) d[l] = neg ? -0.0 : 0.0;
		else if (isnan(q)) d[l] = neg ? -INFINITY : INFINITY;
		else d[l] = neg ? -fabs(q) : fabs(q);
	}
	rdc_vdstd(w, in, d);
}

static void v_cvt_f64_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES];
	double d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	LANES d[l] = a[l];
	rdc_vdstd(w, in, d);
}
static void v_cvt_f32_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	float d[RDC_LANES];
	rdc_vsrcd(w, in, 0, a);
	LANES d[l] = (float)a[l];
	rdc_vdstf(w, in, d);
}
static void v_cvt_f64_i32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES];
	double d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = (int32_t)a[l];
	rdc_vdstd(w, in, d);
}
static void v_cvt_f64_u32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES];
	double d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = a[l];
	rdc_vdstd(w, in, d);
}
static void v_cvt_i32_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcd(w, in, 0, a);
	LANES d[l] = (uint32_t)cvt_i32d(a[l]);
	rdc_vdst32(w, in, d);
}
static void v_cvt_u32_f64(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcd(w, in, 0, a);
	LANES d[l] = cvt_u32d(a[l]);
	rdc_vdst32(w, in, d);
}

/* ---- integer ------------------------------------------------------------ */
U1(v_mov_b32, a[l])
U1(v_not_b32, ~a[l])
U1(v_bfrev_b32, rdc_brev32(a[l]))
U1(v_clz_i32_u32, a[l] ? (uint32_t)__builtin_clz(a[l]) : ~0u)
U1(v_ctz_i32_b32, a[l] ? (uint32_t)__builtin_ctz(a[l]) : ~0u)
U1(v_cls_i32, (a[l] == 0 || a[l] == ~0u) ? ~0u : (uint32_t)__builtin_clz((a[l] >> 31) ? ~a[l] : a[l]))
/* The no-carry adds and subtracts: with clamp the result saturates, to
 * [0, 2^32-1] for the u32 forms and to the i32 range for the i32 ones
 * (the ISA guides: "clamp ... integer operations saturate"; rocPRIM's merge
 * path computes max(diag - size, 0) with v_sub_nc_u32 clamp). */
static inline uint32_t sat_i32(int64_t v)
{
	return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}
#define U2K(NAME, EXPR, SAT)                                                    \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		uint32_t ta[RDC_LANES], tb[RDC_LANES], td[RDC_LANES];           \
		const uint32_t *a = rdc_vsrc32_p(w, in, 0, RDC_TY_B32, ta);     \
		const uint32_t *b = rdc_vsrc32_p(w, in, 1, RDC_TY_B32, tb);     \
		uint32_t *d = rdc_vdst32_begin(w, in, td);                      \
		if (in->clamp)                                                  \
			LANES d[l] = (SAT);                                     \
		else                                                            \
			LANES d[l] = (EXPR);                                    \
		rdc_vdst32_end(w, in, d, td);                                   \
	}
U2K(v_add_nc_u32, a[l] + b[l], (uint32_t)a[l] + b[l] < a[l] ? UINT32_MAX : a[l] + b[l])
U2K(v_sub_nc_u32, a[l] - b[l], a[l] < b[l] ? 0 : a[l] - b[l])
U2K(v_subrev_nc_u32, b[l] - a[l], b[l] < a[l] ? 0 : b[l] - a[l])
U2K(v_add_nc_i32, a[l] + b[l], sat_i32((int64_t)(int32_t)a[l] + (int32_t)b[l]))
U2K(v_sub_nc_i32, a[l] - b[l], sat_i32((int64_t)(int32_t)a[l] - (int32_t)b[l]))
U2(v_and_b32, a[l] & b[l])
U2(v_or_b32, a[l] | b[l])
U2(v_xor_b32, a[l] ^ b[l])
U2(v_xnor_b32, ~(a[l] ^ b[l]))
U2(v_lshlrev_b32, b[l] << (a[l] & 31))
U2(v_lshrrev_b32, b[l] >> (a[l] & 31))
U2(v_ashrrev_i32, (uint32_t)((int32_t)b[l] >> (a[l] & 31)))
U2(v_min_i32, (uint32_t)imin((int32_t)a[l], (int32_t)b[l]))
U2(v_max_i32, (uint32_t)imax((int32_t)a[l], (int32_t)b[l]))
U2(v_min_u32, a[l] < b[l] ? a[l] : b[l])
U2(v_max_u32, a[l] > b[l] ? a[l] : b[l])
U2(v_mul_lo_u32, a[l] * b[l])
U2(v_mul_hi_u32, (uint32_t)(((uint64_t)a[l] * b[l]) >> 32))
U2(v_mul_hi_i32, (uint32_t)(((int64_t)(int32_t)a[l] * (int32_t)b[l]) >> 32))
U2(v_mul_u32_u24, (a[l] & 0xffffff) * (b[l] & 0xffffff))
U2(v_mul_hi_u32_u24, (uint32_t)(((uint64_t)(a[l] & 0xffffff) * (b[l] & 0xffffff)) >> 32))
U2(v_mul_i32_i24, (uint32_t)(((int32_t)(a[l] << 8) >> 8) * ((int32_t)(b[l] << 8) >> 8)))
U2(v_mul_hi_i32_i24, (uint32_t)(((int64_t)((int32_t)(a[l] << 8) >> 8) * ((int32_t)(b[l] << 8) >> 8)) >> 32))
U2(v_bfm_b32, ((1u << (a[l] & 31)) - 1) << (b[l] & 31))
U2(v_bcnt_u32_b32, (uint32_t)__builtin_popcount(a[l]) + b[l])
U3(v_add3_u32, a[l] + b[l] + c[l])
U3(v_lshl_add_u32, (a[l] << (b[l] & 31)) + c[l])
U3(v_add_lshl_u32, (a[l] + b[l]) << (c[l] & 31))
U3(v_lshl_or_b32, (a[l] << (b[l] & 31)) | c[l])
U3(v_and_or_b32, (a[l] & b[l]) | c[l])
U3(v_or3_b32, a[l] | b[l] | c[l])
U3(v_xor3_b32, a[l] ^ b[l] ^ c[l])
U3(v_xad_u32, (a[l] ^ b[l]) + c[l])
U3(v_bfe_u32, bfe_u(a[l], b[l], c[l]))
U3(v_bfe_i32, bfe_i(a[l], b[l], c[l]))
U3(v_bfi_b32, (a[l] & b[l]) | (~a[l] & c[l]))
U3(v_alignbit_b32, (uint32_t)((((uint64_t)a[l] << 32) | b[l]) >> (c[l] & 31)))
U3(v_alignbyte_b32, (uint32_t)((((uint64_t)a[l] << 32) | b[l]) >> ((c[l] & 3) * 8)))
U3(v_perm_b32, perm(a[l], b[l], c[l]))
U3(v_min3_i32, (uint32_t)imin(imin((int32_t)a[l], (int32_t)b[l]), (int32_t)c[l]))
U3(v_max3_i32, (uint32_t)imax(imax((int32_t)a[l], (int32_t)b[l]), (int32_t)c[l]))
U3(v_med3_i32, (uint32_t)imed3((int32_t)a[l], (int32_t)b[l], (int32_t)c[l]))
U3(v_min3_u32, umin3(a[l], b[l], c[l]))
U3(v_max3_u32, umax3(a[l], b[l], c[l]))
U3(v_med3_u32, umed3(a[l], b[l], c[l]))
U3(v_maxmin_i32, (uint32_t)imin(imax((int32_t)a[l], (int32_t)b[l]), (int32_t)c[l]))
U3(v_minmax_i32, (uint32_t)imax(imin((int32_t)a[l], (int32_t)b[l]), (int32_t)c[l]))
U3(v_maxmin_u32, (a[l] > b[l] ? a[l] : b[l]) < c[l] ? (a[l] > b[l] ? a[l] : b[l]) : c[l])
U3(v_minmax_u32, (a[l] < b[l] ? a[l] : b[l]) > c[l] ? (a[l] < b[l] ? a[l] : b[l]) : c[l])
U3(v_mad_u32_u24, (a[l] & 0xffffff) * (b[l] & 0xffffff) + c[l])
U3(v_mad_i32_i24, (uint32_t)(((int32_t)(a[l] << 8) >> 8) * ((int32_t)(b[l] << 8) >> 8)) + c[l])
U3(v_sad_u32, (a[l] > b[l] ? a[l] - b[l] : b[l] - a[l]) + c[l])

static void v_cndmask_b32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	if (in->abs || in->neg) {
		rdc_vsrcf(w, in, 0, (float *)a);
		rdc_vsrcf(w, in, 1, (float *)b);
	} else {
		rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
		rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	}
	uint64_t m = rdc_sread_mask(w, in, in->src[2]);
	LANES d[l] = (m >> l) & 1 ? b[l] : a[l];
	rdc_vdst32(w, in, d);
}

/* Carries: VOP2 reads/writes VCC, VOP3b its sdst and src2. */
/* Inlined into each caller, so that ci and kind are constants and the lane
 * loop vectorises; the carry-out bits are gathered after it. */
static inline __attribute__((always_inline)) void carry_op(struct rdc_wave *w, const struct rdc_inst *in, bool ci,
							    int kind)
{
	uint32_t ta[RDC_LANES], tb[RDC_LANES], td[RDC_LANES];
	uint8_t co[RDC_LANES];
	const uint32_t *a = rdc_vsrc32_p(w, in, 0, RDC_TY_B32, ta), *b = rdc_vsrc32_p(w, in, 1, RDC_TY_B32, tb);
	uint64_t cin = ci ? rdc_sread_mask(w, in, in->src[2]) : 0, cout = 0, m = rdc_exec_mask(w);
	uint32_t *d = rdc_vdst32_begin(w, in, td);
	LANES {
		uint64_t c = (cin >> l) & 1, x = a[l], y = b[l];
		if (kind == 2) { /* subrev */
			uint64_t t = x;
			x = y;
			y = t;
		}
		uint64_t r = kind == 0 ? x + y + c : x - y - c;
		co[l] = kind == 0 ? (r >> 32) != 0 : y + c > x;
		/* clamp: an overflow saturates (the carry is still reported) */
		d[l] = in->clamp && co[l] ? (kind == 0 ? UINT32_MAX : 0) : (uint32_t)r;
	}
	LANES cout |= (uint64_t)co[l] << l;
	rdc_vdst32_end(w, in, d, td);
	uint64_t old = rdc_sread_mask(w, in, in->sdst);
	rdc_swrite_mask(w, in->sdst, (old & ~m) | (cout & m));
}
static void v_add_co_u32(struct rdc_wave *w, const struct rdc_inst *in) { carry_op(w, in, false, 0); }
static void v_sub_co_u32(struct rdc_wave *w, const struct rdc_inst *in) { carry_op(w, in, false, 1); }
static void v_subrev_co_u32(struct rdc_wave *w, const struct rdc_inst *in) { carry_op(w, in, false, 2); }
static void v_add_co_ci_u32(struct rdc_wave *w, const struct rdc_inst *in) { carry_op(w, in, true, 0); }
static void v_sub_co_ci_u32(struct rdc_wave *w, const struct rdc_inst *in) { carry_op(w, in, true, 1); }
static void v_subrev_co_ci_u32(struct rdc_wave *w, const struct rdc_inst *in) { carry_op(w, in, true, 2); }

static void mad64(struct rdc_wave *w, const struct rdc_inst *in, bool sign)
{
	uint32_t a[RDC_LANES], b[RDC_LANES];
	uint64_t c[RDC_LANES], d[RDC_LANES], cout = 0, m = rdc_exec_mask(w);
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	rdc_vsrc64(w, in, 2, false, c);
	LANES {
		if (sign) {
			__int128 p = (__int128)(int64_t)(int32_t)a[l] * (int32_t)b[l] + (int64_t)c[l];
			d[l] = (uint64_t)p;
			if (p > INT64_MAX || p < INT64_MIN)
				cout |= 1ull << l;
		} else {
			unsigned __int128 p = (unsigned __int128)a[l] * b[l] + c[l];
			d[l] = (uint64_t)p;
			if (p >> 64)
				cout |= 1ull << l;
		}
	}
	rdc_vdst64(w, in, d);
	uint64_t old = rdc_sread_mask(w, in, in->sdst);
	rdc_swrite_mask(w, in->sdst, (old & ~m) | (cout & m));
}
static void v_mad_u64_u32(struct rdc_wave *w, const struct rdc_inst *in) { mad64(w, in, false); }
static void v_mad_i64_i32(struct rdc_wave *w, const struct rdc_inst *in) { mad64(w, in, true); }

/* 64-bit shifts: src0 is the shift amount, src1 the value. */
static void shift64(struct rdc_wave *w, const struct rdc_inst *in, int kind)
{
	uint32_t s[RDC_LANES];
	uint64_t v[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, s);
	rdc_vsrc64(w, in, 1, false, v);
	LANES {
		unsigned sh = s[l] & 63;
		d[l] = kind == 0 ? v[l] << sh : kind == 1 ? v[l] >> sh : (uint64_t)((int64_t)v[l] >> sh);
	}
	rdc_vdst64(w, in, d);
}
static void v_lshlrev_b64(struct rdc_wave *w, const struct rdc_inst *in) { shift64(w, in, 0); }
static void v_lshrrev_b64(struct rdc_wave *w, const struct rdc_inst *in) { shift64(w, in, 1); }
static void v_ashrrev_i64(struct rdc_wave *w, const struct rdc_inst *in) { shift64(w, in, 2); }

/* ---- lanes -------------------------------------------------------------- */
static void v_readfirstlane_b32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	uint64_t m = rdc_exec_mask(w);
	unsigned l = m ? (unsigned)__builtin_ctzll(m) : 0;
	rdc_swrite(w, in->dst, a[l]);
}

static void v_readlane_b32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	unsigned l = rdc_sread(w, in, in->src[1]) & (w->n - 1);
	rdc_swrite(w, in->dst, a[l]);
}

static void v_writelane_b32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t v = rdc_sread(w, in, in->src[0]);
	unsigned l = rdc_sread(w, in, in->src[1]) & (w->n - 1);
	rdc_vreg(w, in->dst)[l] = v;
}

static void v_mbcnt_lo_u32_b32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	LANES {
		uint32_t below = l >= 32 ? ~0u : (uint32_t)((1ull << l) - 1);
		d[l] = (uint32_t)__builtin_popcount(a[l] & below) + b[l];
	}
	rdc_vdst32(w, in, d);
}

static void v_mbcnt_hi_u32_b32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	LANES {
		uint32_t below = l <= 32 ? 0 : (uint32_t)((1ull << (l - 32)) - 1);
		d[l] = (uint32_t)__builtin_popcount(a[l] & below) + b[l];
	}
	rdc_vdst32(w, in, d);
}

/* permlane16 / permlanex16: each row of 16 lanes reads the lanes that
 * src1 (lanes 0-7) and src2 (lanes 8-15) select, in its own row or the
 * other row of its pair.  op_sel[0] = fetch inactive, op_sel[1] = bound ctrl. */
static void permlane(struct rdc_wave *w, const struct rdc_inst *in, bool x)
{
	const uint32_t *src = rdc_vreg(w, in->src[0]);
	uint32_t s1 = rdc_sread(w, in, in->src[1]), s2 = rdc_sread(w, in, in->src[2]);
	uint32_t d[RDC_LANES];
	uint64_t exec = rdc_exec_mask(w);
	const uint32_t *old = rdc_vreg(w, in->dst);
	LANES {
		unsigned i = l & 15, sel = (i < 8 ? s1 >> (i * 4) : s2 >> ((i - 8) * 4)) & 15;
		unsigned row = (unsigned)(l & ~15u) ^ (x ? 16u : 0u);
		unsigned s = row + sel;
		bool ok = s < w->n && ((in->opsel & 1) || ((exec >> s) & 1));
		d[l] = ok ? src[s] : ((in->opsel & 2) ? 0 : old[l]);
	}
	rdc_vdst32(w, in, d);
}
static void v_permlane16_b32(struct rdc_wave *w, const struct rdc_inst *in) { permlane(w, in, false); }
static void v_permlanex16_b32(struct rdc_wave *w, const struct rdc_inst *in) { permlane(w, in, true); }

/* v_permlane64_b32 (wave64 only; a no-op in wave32): each active lane reads
 * the source of the lane 32 away, active or not. */
static void v_permlane64_b32(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (w->n != 64)
		return;
	const uint32_t *src = rdc_vreg(w, in->src[0]);
	uint32_t d[RDC_LANES];
	LANES d[l] = src[l ^ 32];
	rdc_vdst32(w, in, d);
}

static void v_swap_b32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t *a = rdc_vreg(w, in->dst), *b = rdc_vreg(w, in->src[0]);
	uint64_t m = rdc_exec_mask(w);
	LANES {
		if ((m >> l) & 1) {
			uint32_t t = a[l];
			a[l] = b[l];
			b[l] = t;
		}
	}
}

/* M0-relative VGPR moves: the register index is the operand's plus M0
 * (one index for the whole wave). */
static void movrel(struct rdc_wave *w, const struct rdc_inst *in, bool rel_src, bool rel_dst)
{
	uint32_t m0 = w->s[RDC_OPD_M0];
	struct rdc_inst x = *in;
	if (rel_src) {
		if (in->src[0] < RDC_OPD_VGPR) {
			rdc_fail(w, RDC_EXEC_BAD, in, "M0-relative read of a non-VGPR source");
			return;
		}
		x.src[0] = (uint16_t)(RDC_OPD_VGPR + ((in->src[0] - RDC_OPD_VGPR + m0) & 0xff));
	}
	if (rel_dst)
		x.dst = (uint16_t)(RDC_OPD_VGPR + ((in->dst - RDC_OPD_VGPR + m0) & 0xff));
	uint32_t v[RDC_LANES];
	rdc_vsrc32(w, &x, 0, RDC_TY_B32, v);
	rdc_vdst32(w, &x, v);
}
/* movrelsd_2 and swaprel: the source index is offset by M0[9:0], the
 * destination's by M0[25:16]; swaprel exchanges the two registers in the
 * active lanes. */
static void rel2(struct rdc_wave *w, const struct rdc_inst *in, bool swap)
{
	uint32_t m0 = w->s[RDC_OPD_M0];
	if (in->src[0] < RDC_OPD_VGPR) {
		rdc_fail(w, RDC_EXEC_BAD, in, "M0-relative read of a non-VGPR source");
		return;
	}
	uint32_t *s = rdc_vreg(w, (uint16_t)(RDC_OPD_VGPR + ((in->src[0] - RDC_OPD_VGPR + (m0 & 0x3ff)) & 0xff)));
	uint32_t *d = rdc_vreg(w, (uint16_t)(RDC_OPD_VGPR + ((in->dst - RDC_OPD_VGPR + ((m0 >> 16) & 0x3ff)) & 0xff)));
	uint64_t m = rdc_exec_mask(w);
	LANES {
		if ((m >> l) & 1) {
			uint32_t t = d[l];
			d[l] = s[l];
			if (swap)
				s[l] = t;
		}
	}
}
static void v_movrelsd_2_b32(struct rdc_wave *w, const struct rdc_inst *in) { rel2(w, in, false); }
static void v_swaprel_b32(struct rdc_wave *w, const struct rdc_inst *in) { rel2(w, in, true); }

static void v_movrels_b32(struct rdc_wave *w, const struct rdc_inst *in) { movrel(w, in, true, false); }
static void v_movreld_b32(struct rdc_wave *w, const struct rdc_inst *in) { movrel(w, in, false, true); }
static void v_movrelsd_b32(struct rdc_wave *w, const struct rdc_inst *in) { movrel(w, in, true, true); }

static void v_nop(struct rdc_wave *w, const struct rdc_inst *in)
{
	(void)w;
	(void)in;
}

/* VOPD: both halves read their sources before either writes (the
 * hardware issues them together).  Y runs first and its result is held
 * aside (Y's destination keeps its old value while X runs), then X runs
 * and Y's result is written: either half may read the other's destination
 * and gets the old value.  LLVM never pairs two writes of one VGPR. */
static void vopd(struct rdc_wave *w, const struct rdc_inst *in)
{
	struct rdc_inst x = *in, y;
	memset(&y, 0, sizeof y);
	y.fn = in->fn_y;
	y.op = in->op_y;
	y.fmt = in->fmt;
	y.enc = RDC_ENC_E32;
	y.mnemonic = in->mnemonic;
	y.src[0] = in->src_y[0];
	y.src[1] = in->src_y[1];
	y.src[2] = RDC_OPD_VCC;
	y.sdst = RDC_OPD_VCC;
	y.dst = in->dst_y;
	y.lit = in->lit;
	x.fn = NULL;
	rdc_sem_fn fx = rdc_sem_lookup(in->op); /* dot2acc's handler is in sem_v16.c */
	if (!fx || !y.fn) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "a VOPD half the engine cannot execute yet (%s :: %s)",
			 rdc_op_name[in->op], rdc_op_name[in->op_y]);
		return;
	}
	if (in->dst == y.dst) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "VOPD halves that write one VGPR");
		return;
	}
	uint32_t *yd = rdc_vreg(w, y.dst), old[RDC_LANES], res[RDC_LANES];
	memcpy(old, yd, sizeof old);
	y.fn(w, &y);
	if (w->failed)
		return;
	memcpy(res, yd, sizeof res);
	memcpy(yd, old, sizeof old);
	fx(w, &x);
	memcpy(yd, res, sizeof res);
}

rdc_sem_fn rdc_sem_valu(uint16_t op)
{
	switch (op) {
	case RDC_OP_V_ADD_F32: return v_add_f32;
	case RDC_OP_V_SUB_F32: return v_sub_f32;
	case RDC_OP_V_SUBREV_F32: return v_subrev_f32;
	case RDC_OP_V_MUL_F32: return v_mul_f32;
	case RDC_OP_V_MUL_DX9_ZERO_F32: return v_mul_dx9_zero_f32;
	case RDC_OP_V_MIN_F32: return v_min_f32;
	case RDC_OP_V_MAX_F32: return v_max_f32;
	case RDC_OP_V_FMA_F32: return v_fma_f32;
	case RDC_OP_V_FMA_DX9_ZERO_F32: return v_fma_dx9_zero_f32;
	case RDC_OP_V_FMAC_F32: return v_fmac_f32;
	case RDC_OP_V_FMAC_DX9_ZERO_F32: return v_fmac_dx9_zero_f32;
	case RDC_OP_V_FMAMK_F32: return v_fmamk_f32;
	case RDC_OP_V_FMAAK_F32: return v_fmaak_f32;
	case RDC_OP_V_MIN3_F32: return v_min3_f32;
	case RDC_OP_V_MAX3_F32: return v_max3_f32;
	case RDC_OP_V_MED3_F32: return v_med3_f32;
	case RDC_OP_V_MAXMIN_F32: return v_maxmin_f32;
	case RDC_OP_V_MINMAX_F32: return v_minmax_f32;
	case RDC_OP_V_MAXMIN_I32: return v_maxmin_i32;
	case RDC_OP_V_MINMAX_I32: return v_minmax_i32;
	case RDC_OP_V_MAXMIN_U32: return v_maxmin_u32;
	case RDC_OP_V_MINMAX_U32: return v_minmax_u32;
	case RDC_OP_V_MOVRELS_B32: return v_movrels_b32;
	case RDC_OP_V_MOVRELD_B32: return v_movreld_b32;
	case RDC_OP_V_MOVRELSD_B32: return v_movrelsd_b32;
	case RDC_OP_V_RCP_F32: case RDC_OP_V_RCP_IFLAG_F32: return v_rcp_f32;
	case RDC_OP_V_RSQ_F32: return v_rsq_f32;
	case RDC_OP_V_SQRT_F32: return v_sqrt_f32;
	case RDC_OP_V_EXP_F32: return v_exp_f32;
	case RDC_OP_V_LOG_F32: return v_log_f32;
	case RDC_OP_V_SIN_F32: return v_sin_f32;
	case RDC_OP_V_COS_F32: return v_cos_f32;
	case RDC_OP_V_FLOOR_F32: return v_floor_f32;
	case RDC_OP_V_CEIL_F32: return v_ceil_f32;
	case RDC_OP_V_TRUNC_F32: return v_trunc_f32;
	case RDC_OP_V_RNDNE_F32: return v_rndne_f32;
	case RDC_OP_V_FRACT_F32: return v_fract_f32;
	case RDC_OP_V_FREXP_MANT_F32: return v_frexp_mant_f32;
	case RDC_OP_V_FREXP_EXP_I32_F32: return v_frexp_exp_i32_f32;
	case RDC_OP_V_LDEXP_F32: return v_ldexp_f32;
	case RDC_OP_V_CVT_I32_F32: return v_cvt_i32_f32;
	case RDC_OP_V_CVT_U32_F32: return v_cvt_u32_f32;
	case RDC_OP_V_CVT_FLOOR_I32_F32: return v_cvt_floor_i32_f32;
	case RDC_OP_V_CVT_NEAREST_I32_F32: return v_cvt_nearest_i32_f32;
	case RDC_OP_V_CVT_F32_I32: return v_cvt_f32_i32;
	case RDC_OP_V_CVT_F32_U32: return v_cvt_f32_u32;
	case RDC_OP_V_CVT_F32_UBYTE0: return v_cvt_f32_ubyte0;
	case RDC_OP_V_CVT_F32_UBYTE1: return v_cvt_f32_ubyte1;
	case RDC_OP_V_CVT_F32_UBYTE2: return v_cvt_f32_ubyte2;
	case RDC_OP_V_CVT_F32_UBYTE3: return v_cvt_f32_ubyte3;
	case RDC_OP_V_DIV_SCALE_F32: return v_div_scale_f32;
	case RDC_OP_V_DIV_FMAS_F32: return v_div_fmas_f32;
	case RDC_OP_V_DIV_FIXUP_F32: return v_div_fixup_f32;
	case RDC_OP_V_ADD_F64: return v_add_f64;
	case RDC_OP_V_MUL_F64: return v_mul_f64;
	case RDC_OP_V_MIN_F64: return v_min_f64;
	case RDC_OP_V_MAX_F64: return v_max_f64;
	case RDC_OP_V_FMA_F64: return v_fma_f64;
	case RDC_OP_V_LDEXP_F64: return v_ldexp_f64;
	case RDC_OP_V_RCP_F64: return v_rcp_f64;
	case RDC_OP_V_RSQ_F64: return v_rsq_f64;
	case RDC_OP_V_SQRT_F64: return v_sqrt_f64;
	case RDC_OP_V_FLOOR_F64: return v_floor_f64;
	case RDC_OP_V_CEIL_F64: return v_ceil_f64;
	case RDC_OP_V_TRUNC_F64: return v_trunc_f64;
	case RDC_OP_V_RNDNE_F64: return v_rndne_f64;
	case RDC_OP_V_FRACT_F64: return v_fract_f64;
	case RDC_OP_V_FREXP_MANT_F64: return v_frexp_mant_f64;
	case RDC_OP_V_FREXP_EXP_I32_F64: return v_frexp_exp_i32_f64;
	case RDC_OP_V_DIV_SCALE_F64: return v_div_scale_f64;
	case RDC_OP_V_DIV_FMAS_F64: return v_div_fmas_f64;
	case RDC_OP_V_DIV_FIXUP_F64: return v_div_fixup_f64;
	case RDC_OP_V_TRIG_PREOP_F64: return v_trig_preop_f64;
	case RDC_OP_V_CVT_F64_F32: return v_cvt_f64_f32;
	case RDC_OP_V_CVT_F32_F64: return v_cvt_f32_f64;
	case RDC_OP_V_CVT_F64_I32: return v_cvt_f64_i32;
	case RDC_OP_V_CVT_F64_U32: return v_cvt_f64_u32;
	case RDC_OP_V_CVT_I32_F64: return v_cvt_i32_f64;
	case RDC_OP_V_CVT_U32_F64: return v_cvt_u32_f64;
	case RDC_OP_V_MOV_B32: return v_mov_b32;
	case RDC_OP_V_NOT_B32: return v_not_b32;
	case RDC_OP_V_BFREV_B32: return v_bfrev_b32;
	case RDC_OP_V_CLZ_I32_U32: return v_clz_i32_u32;
	case RDC_OP_V_CTZ_I32_B32: return v_ctz_i32_b32;
	case RDC_OP_V_CLS_I32: return v_cls_i32;
	case RDC_OP_V_ADD_NC_U32: return v_add_nc_u32;
	case RDC_OP_V_SUB_NC_U32: return v_sub_nc_u32;
	case RDC_OP_V_SUBREV_NC_U32: return v_subrev_nc_u32;
	case RDC_OP_V_ADD_NC_I32: return v_add_nc_i32;
	case RDC_OP_V_SUB_NC_I32: return v_sub_nc_i32;
	case RDC_OP_V_AND_B32: return v_and_b32;
	case RDC_OP_V_OR_B32: return v_or_b32;
	case RDC_OP_V_XOR_B32: return v_xor_b32;
	case RDC_OP_V_XNOR_B32: return v_xnor_b32;
	case RDC_OP_V_LSHLREV_B32: return v_lshlrev_b32;
	case RDC_OP_V_LSHRREV_B32: return v_lshrrev_b32;
	case RDC_OP_V_ASHRREV_I32: return v_ashrrev_i32;
	case RDC_OP_V_MIN_I32: return v_min_i32;
	case RDC_OP_V_MAX_I32: return v_max_i32;
	case RDC_OP_V_MIN_U32: return v_min_u32;
	case RDC_OP_V_MAX_U32: return v_max_u32;
	case RDC_OP_V_MUL_LO_U32: return v_mul_lo_u32;
	case RDC_OP_V_MUL_HI_U32: return v_mul_hi_u32;
	case RDC_OP_V_MUL_HI_I32: return v_mul_hi_i32;
	case RDC_OP_V_MUL_U32_U24: return v_mul_u32_u24;
	case RDC_OP_V_MUL_HI_U32_U24: return v_mul_hi_u32_u24;
	case RDC_OP_V_MUL_I32_I24: return v_mul_i32_i24;
	case RDC_OP_V_MUL_HI_I32_I24: return v_mul_hi_i32_i24;
	case RDC_OP_V_BFM_B32: return v_bfm_b32;
	case RDC_OP_V_BCNT_U32_B32: return v_bcnt_u32_b32;
	case RDC_OP_V_ADD3_U32: return v_add3_u32;
	case RDC_OP_V_LSHL_ADD_U32: return v_lshl_add_u32;
	case RDC_OP_V_ADD_LSHL_U32: return v_add_lshl_u32;
	case RDC_OP_V_LSHL_OR_B32: return v_lshl_or_b32;
	case RDC_OP_V_AND_OR_B32: return v_and_or_b32;
	case RDC_OP_V_OR3_B32: return v_or3_b32;
	case RDC_OP_V_XOR3_B32: return v_xor3_b32;
	case RDC_OP_V_XAD_U32: return v_xad_u32;
	case RDC_OP_V_BFE_U32: return v_bfe_u32;
	case RDC_OP_V_BFE_I32: return v_bfe_i32;
	case RDC_OP_V_BFI_B32: return v_bfi_b32;
	case RDC_OP_V_ALIGNBIT_B32: return v_alignbit_b32;
	case RDC_OP_V_ALIGNBYTE_B32: return v_alignbyte_b32;
	case RDC_OP_V_PERM_B32: return v_perm_b32;
	case RDC_OP_V_MIN3_I32: return v_min3_i32;
	case RDC_OP_V_MAX3_I32: return v_max3_i32;
	case RDC_OP_V_MED3_I32: return v_med3_i32;
	case RDC_OP_V_MIN3_U32: return v_min3_u32;
	case RDC_OP_V_MAX3_U32: return v_max3_u32;
	case RDC_OP_V_MED3_U32: return v_med3_u32;
	case RDC_OP_V_MAD_U32_U24: return v_mad_u32_u24;
	case RDC_OP_V_MAD_I32_I24: return v_mad_i32_i24;
	case RDC_OP_V_SAD_U32: return v_sad_u32;
	case RDC_OP_V_CNDMASK_B32: return v_cndmask_b32;
	case RDC_OP_V_ADD_CO_U32: return v_add_co_u32;
	case RDC_OP_V_SUB_CO_U32: return v_sub_co_u32;
	case RDC_OP_V_SUBREV_CO_U32: return v_subrev_co_u32;
	case RDC_OP_V_ADD_CO_CI_U32: return v_add_co_ci_u32;
	case RDC_OP_V_SUB_CO_CI_U32: return v_sub_co_ci_u32;
	case RDC_OP_V_SUBREV_CO_CI_U32: return v_subrev_co_ci_u32;
	case RDC_OP_V_MAD_U64_U32: return v_mad_u64_u32;
	case RDC_OP_V_MAD_I64_I32: return v_mad_i64_i32;
	case RDC_OP_V_LSHLREV_B64: return v_lshlrev_b64;
	case RDC_OP_V_LSHRREV_B64: return v_lshrrev_b64;
	case RDC_OP_V_ASHRREV_I64: return v_ashrrev_i64;
	case RDC_OP_V_READFIRSTLANE_B32: return v_readfirstlane_b32;
	case RDC_OP_V_READLANE_B32: return v_readlane_b32;
	case RDC_OP_V_WRITELANE_B32: return v_writelane_b32;
	case RDC_OP_V_MBCNT_LO_U32_B32: return v_mbcnt_lo_u32_b32;
	case RDC_OP_V_MBCNT_HI_U32_B32: return v_mbcnt_hi_u32_b32;
	case RDC_OP_V_PERMLANE16_B32: return v_permlane16_b32;
	case RDC_OP_V_PERMLANEX16_B32: return v_permlanex16_b32;
	case RDC_OP_V_SWAP_B32: return v_swap_b32;
	case RDC_OP_V_SWAPREL_B32: return v_swaprel_b32;
	case RDC_OP_V_MOVRELSD_2_B32: return v_movrelsd_2_b32;
	case RDC_OP_V_PERMLANE64_B32: return v_permlane64_b32;
	case RDC_OP_V_CVT_OFF_F32_I4: return v_cvt_off_f32_i4;
	/* v_clrexcp clears the SIMD's exception state, which the engine does
	 * not keep */
	case RDC_OP_V_NOP: case RDC_OP_V_PIPEFLUSH: case RDC_OP_V_CLREXCP: return v_nop;
	default: return NULL;
	}
}

/* The VOPD form of an op is its VOP2/VOP1 semantics. */
rdc_sem_fn rdc_sem_vopd(void) { return vopd; }
