/* SPDX-License-Identifier: MIT */
/*
 * sem_v16.c — 16-bit and packed vector operations: f16/i16/u16 arithmetic
 * and conversions, packed (VOP3P) f16/i16 math, fma_mix, dot products and
 * gfx11's WMMA.
 *
 * Operands.  A 16-bit source is the low half of its 32-bit operand, or the
 * high half when op_sel[k] (VOP3) / the true16 .h bit (gfx11 e32, mapped to
 * op_sel by the decoder, shim/core/isa_decode.c) says so; SDWA's word select has already moved it.  A
 * 16-bit result goes to the low half (or the high half: op_sel[3]) and the
 * other half is kept (operand.c, rdc_vdst16).  Packed (VOP3P) sources: the
 * low result's element k is half op_sel[k] of source k, the high result's
 * half op_sel_hi[k]; neg / neg_hi negate those halves of float operands.
 * fma_mix: op_sel_hi[k] = 1 reads source k as f16 (half op_sel[k]), 0 as
 * f32; neg_hi is its abs.  Inline constants of packed and 16-bit operands
 * follow the hardware as LLVM's AMDGPUBaseInfo.cpp (getInlineEncodingV216)
 * describes it: integers are 32-bit sign-extended values, floats are the
 * f16 value in the low half for f16 operations and the f32 value for
 * integer ones.
 *
 * Numerics.  f16 results are computed in double (every f16 product, sum
 * and fma of f16 values is exact there or rounds once) and rounded to f16
 * once, to nearest even; f16 transcendentals use libm in float (hardware
 * is within about 1 f16 ulp).  Dot products follow the ISA guides'
 * pseudocode: f32 accumulation in the order S2 + p0 + p1 with f32
 * rounding per step (f16 products are exact in f32); integer dot products
 * in 64 bits, clamp saturating.  WMMA (gfx11, wave32) sums each
 * element's 16 products and C in double and rounds once.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "wave.h"

#define LANES for (unsigned l = 0; l < w->n; l++)

/* ---- element conversions -------------------------------------------------- */
static inline double h2d(uint16_t h)
{
	_Float16 f;
	memcpy(&f, &h, 2);
	return (double)f;
}
static inline uint16_t d2h(double d)
{
	_Float16 f = (_Float16)d;
	uint16_t h;
	memcpy(&h, &f, 2);
	return h;
}
static inline float bf2f(uint16_t b) { return rdc_u2f((uint32_t)b << 16); }
static inline uint16_t f2bf(float f)
{
	uint32_t u = rdc_f2u(f);
	if (isnan(f))
		return (uint16_t)((u >> 16) | 0x40);
	return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}
/* double -> bf16, rounded once: 8 significant bits, ties to even. */
static inline uint16_t d2bf(double d)
{
	if (isnan(d) || isinf(d) || d == 0.0)
		return f2bf((float)d);
	int e;
	double m = frexp(d, &e);
	double r = ldexp(nearbyint(ldexp(m, 8)), e - 8);
	return (uint16_t)(rdc_f2u((float)r) >> 16);
}

/* f32 -> f16 rounding toward zero (v_cvt_pk_rtz_f16_f32): the nearest f16,
 * stepped one down in magnitude when it lies above; finite values beyond
 * the largest f16 give the largest f16. */
static uint16_t f2h_rtz(float f)
{
	uint16_t sign = (uint16_t)((rdc_f2u(f) >> 16) & 0x8000);
	if (isnan(f))
		return (uint16_t)(sign | 0x7e00 | ((rdc_f2u(f) >> 13) & 0x3ff));
	if (isinf(f))
		return (uint16_t)(sign | 0x7c00);
	double a = fabs((double)f);
	if (a >= 65504.0)
		return (uint16_t)(sign | 0x7bff);
	uint16_t h = d2h(a);
	if (h2d(h) > a)
		h--;
	return (uint16_t)(sign | h);
}

static inline double omod_clamp(const struct rdc_inst *in, double v)
{
	switch (in->omod) {
	case 1: v *= 2.0; break;
	case 2: v *= 4.0; break;
	case 3: v *= 0.5; break;
	default: break;
	}
	if (in->clamp)
		v = isnan(v) ? 0.0 : v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
	return v;
}

/* ---- 16-bit operands ------------------------------------------------------------ */
/* Source k's 16 bits: ty decides what an inline float constant is (f16 for
 * float operations, f32 bits for integer ones). */
static void src16(const struct rdc_wave *w, const struct rdc_inst *in, int k, enum rdc_ty ty, uint16_t *out)
{
	uint32_t t[RDC_LANES];
	rdc_vsrc32(w, in, k, ty, t);
	bool hi = ((in->opsel >> k) & 1) && in->enc != RDC_ENC_SDWA;
	LANES out[l] = (uint16_t)(hi ? t[l] >> 16 : t[l]);
}

/* An f16 source with abs/neg, as double. */
static void srch(const struct rdc_wave *w, const struct rdc_inst *in, int k, double *out)
{
	uint16_t h[RDC_LANES];
	src16(w, in, k, RDC_TY_F16, h);
	uint16_t clr = (in->abs >> k) & 1 ? 0x7fff : 0xffff, flip = (in->neg >> k) & 1 ? 0x8000 : 0;
	LANES out[l] = h2d((uint16_t)((h[l] & clr) ^ flip));
}

/* The destination's current 16 bits (fmac's accumulator). */
static void dst16_old(const struct rdc_wave *w, const struct rdc_inst *in, uint16_t *out)
{
	const uint32_t *d = rdc_vreg(w, in->dst);
	bool hi = (in->opsel >> 3) & 1;
	LANES out[l] = (uint16_t)(hi ? d[l] >> 16 : d[l]);
}

/* An f16 result (omod, clamp, one rounding). */
static void dsth(struct rdc_wave *w, const struct rdc_inst *in, const double *v)
{
	uint16_t h[RDC_LANES];
	LANES h[l] = d2h(omod_clamp(in, v[l]));
	rdc_vdst16(w, in, h);
}

/* ---- f16 arithmetic ------------------------------------------------------------- */
#define H1(NAME, EXPR)                                                           \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)          \
	{                                                                        \
		double a[RDC_LANES], d[RDC_LANES];                               \
		srch(w, in, 0, a);                                               \
		LANES d[l] = (EXPR);                                             \
		dsth(w, in, d);                                                  \
	}
#define H2(NAME, EXPR)                                                           \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)          \
	{                                                                        \
		double a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];                 \
		srch(w, in, 0, a);                                               \
		srch(w, in, 1, b);                                               \
		LANES d[l] = (EXPR);                                             \
		dsth(w, in, d);                                                  \
	}
#define H3(NAME, EXPR)                                                           \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)          \
	{                                                                        \
		double a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];   \
		srch(w, in, 0, a);                                               \
		srch(w, in, 1, b);                                               \
		srch(w, in, 2, c);                                               \
		LANES d[l] = (EXPR);                                             \
		dsth(w, in, d);                                                  \
	}

static inline double med3d(double a, double b, double c)
{
	if (isnan(a) || isnan(b) || isnan(c))
		return fmin(fmin(a, b), c);
	return fmax(fmin(a, b), fmin(fmax(a, b), c));
}
static inline double fracth(double a)
{
	if (isinf(a))
		return NAN;
	double f = a - floor(a);
	return f < 0x1.ffcp-1 ? f : 0x1.ffcp-1; /* the largest f16 below 1 */
}
static inline double frexp_mant(double a)
{
	if (isnan(a) || isinf(a))
		return a;
	int e;
	return frexp(a, &e);
}
static inline double div_fixup(double q, double den, double num)
{
	bool neg = signbit(den) != signbit(num);
	if (isnan(num))
		return num;
	if (isnan(den))
		return den;
	if ((den == 0.0 && num == 0.0) || (isinf(den) && isinf(num)))
		return NAN;
	if (den == 0.0 || isinf(num))
		return neg ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0.0)
		return neg ? -0.0 : 0.0;
	if (isnan(q))
		return neg ? -INFINITY : INFINITY;
	return neg ? -fabs(q) : fabs(q);
}

H2(v_add_f16, a[l] + b[l])
H2(v_sub_f16, a[l] - b[l])
H2(v_subrev_f16, b[l] - a[l])
H2(v_mul_f16, a[l] * b[l])
H2(v_min_f16, fmin(a[l], b[l]))
H2(v_max_f16, fmax(a[l], b[l]))
H3(v_fma_f16, fma(a[l], b[l], c[l]))
H3(v_min3_f16, fmin(fmin(a[l], b[l]), c[l]))
H3(v_max3_f16, fmax(fmax(a[l], b[l]), c[l]))
H3(v_med3_f16, med3d(a[l], b[l], c[l]))
H3(v_maxmin_f16, fmin(fmax(a[l], b[l]), c[l]))
H3(v_minmax_f16, fmax(fmin(a[l], b[l]), c[l]))
H3(v_div_fixup_f16, div_fixup(a[l], b[l], c[l]))
H1(v_rcp_f16, 1.0f / (float)a[l])
H1(v_sqrt_f16, sqrtf((float)a[l]))
H1(v_rsq_f16, 1.0f / sqrtf((float)a[l]))
H1(v_log_f16, log2f((float)a[l]))
H1(v_exp_f16, exp2f((float)a[l]))
H1(v_sin_f16, sinf((float)a[l] * 6.2831853071795864f))
H1(v_cos_f16, cosf((float)a[l] * 6.2831853071795864f))
H1(v_floor_f16, floor(a[l]))
H1(v_ceil_f16, ceil(a[l]))
H1(v_trunc_f16, trunc(a[l]))
H1(v_rndne_f16, rint(a[l]))
H1(v_fract_f16, fracth(a[l]))
H1(v_frexp_mant_f16, frexp_mant(a[l]))

/* fmac: D = S0 * S1 + D (the destination half it writes). */
static void v_fmac_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	uint16_t acc[RDC_LANES];
	srch(w, in, 0, a);
	srch(w, in, 1, b);
	dst16_old(w, in, acc);
	LANES d[l] = fma(a[l], b[l], h2d(acc[l]));
	dsth(w, in, d);
}
/* fmamk: S0 * K + S1; fmaak: S0 * S1 + K (K: the literal's low half). */
static void v_fmamk_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], b[RDC_LANES], d[RDC_LANES], k = h2d((uint16_t)in->lit);
	srch(w, in, 0, a);
	srch(w, in, 1, b);
	LANES d[l] = fma(a[l], k, b[l]);
	dsth(w, in, d);
}
static void v_fmaak_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], b[RDC_LANES], d[RDC_LANES], k = h2d((uint16_t)in->lit);
	srch(w, in, 0, a);
	srch(w, in, 1, b);
	LANES d[l] = fma(a[l], b[l], k);
	dsth(w, in, d);
}

static void v_ldexp_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], d[RDC_LANES];
	uint16_t e[RDC_LANES];
	srch(w, in, 0, a);
	src16(w, in, 1, RDC_TY_B32, e);
	LANES d[l] = ldexp(a[l], (int16_t)e[l]);
	dsth(w, in, d);
}

static void v_frexp_exp_i16_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	uint16_t d[RDC_LANES];
	srch(w, in, 0, a);
	LANES {
		int e = 0;
		if (!isnan(a[l]) && !isinf(a[l]))
			frexp(a[l], &e);
		d[l] = (uint16_t)e;
	}
	rdc_vdst16(w, in, d);
}

/* ---- conversions ----------------------------------------------------------------- */
static void v_cvt_f32_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	float d[RDC_LANES];
	srch(w, in, 0, a);
	LANES d[l] = (float)a[l];
	rdc_vdstf(w, in, d);
}
static void v_cvt_f16_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES];
	double d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	LANES d[l] = a[l];
	dsth(w, in, d);
}
static void v_cvt_f16_i16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t a[RDC_LANES];
	double d[RDC_LANES];
	src16(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = (int16_t)a[l];
	dsth(w, in, d);
}
static void v_cvt_f16_u16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t a[RDC_LANES];
	double d[RDC_LANES];
	src16(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = a[l];
	dsth(w, in, d);
}
static void v_cvt_i16_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	uint16_t d[RDC_LANES];
	srch(w, in, 0, a);
	LANES {
		double t = trunc(a[l]);
		d[l] = isnan(t) ? 0 : t >= 32767.0 ? 0x7fff : t <= -32768.0 ? 0x8000 : (uint16_t)(int16_t)t;
	}
	rdc_vdst16(w, in, d);
}
static void v_cvt_u16_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	uint16_t d[RDC_LANES];
	srch(w, in, 0, a);
	LANES {
		double t = trunc(a[l]);
		d[l] = isnan(t) || t <= 0.0 ? 0 : t >= 65535.0 ? 0xffff : (uint16_t)t;
	}
	rdc_vdst16(w, in, d);
}
static void v_cvt_i32_i16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t a[RDC_LANES];
	uint32_t d[RDC_LANES];
	src16(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = (uint32_t)(int32_t)(int16_t)a[l];
	rdc_vdst32(w, in, d);
}
static void v_cvt_u32_u16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t a[RDC_LANES];
	uint32_t d[RDC_LANES];
	src16(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = a[l];
	rdc_vdst32(w, in, d);
}
static void v_cvt_pk_rtz_f16_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES], b[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	rdc_vsrcf(w, in, 1, b);
	LANES d[l] = f2h_rtz(a[l]) | (uint32_t)f2h_rtz(b[l]) << 16;
	rdc_vdst32(w, in, d);
}
/* pack_b32_f16: {S1.f16, S0.f16}, halves by op_sel, abs/neg on each. */
static void v_pack_b32_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t a[RDC_LANES], b[RDC_LANES];
	uint32_t d[RDC_LANES];
	src16(w, in, 0, RDC_TY_F16, a);
	src16(w, in, 1, RDC_TY_F16, b);
	uint16_t c0 = in->abs & 1 ? 0x7fff : 0xffff, c1 = in->abs & 2 ? 0x7fff : 0xffff;
	uint16_t n0 = in->neg & 1 ? 0x8000 : 0, n1 = in->neg & 2 ? 0x8000 : 0;
	LANES d[l] = (uint32_t)((a[l] & c0) ^ n0) | (uint32_t)((b[l] & c1) ^ n1) << 16;
	rdc_vdst32(w, in, d);
}
static inline uint32_t sat_u8(int16_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v; }
/* sat_pk_u8_i16: the two i16 halves of S0, saturated to u8, into 16 bits. */
static void v_sat_pk_u8_i16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES];
	uint16_t d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	LANES d[l] = (uint16_t)(sat_u8((int16_t)a[l]) | sat_u8((int16_t)(a[l] >> 16)) << 8);
	rdc_vdst16(w, in, d);
}
/* Normalized conversions (the ISA guides' f16/f32_to_snorm/unorm: clamp to
 * [-1, 1] or [0, 1], scale by 32767 or 65535, "0.5 ULP, supports
 * rounding": rounded to nearest even here). */
static inline uint16_t snorm(double f)
{
	if (isnan(f))
		return 0;
	f = f < -1.0 ? -1.0 : f > 1.0 ? 1.0 : f;
	return (uint16_t)(int16_t)nearbyint(f * 32767.0);
}
static inline uint16_t unorm(double f)
{
	if (isnan(f))
		return 0;
	f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
	return (uint16_t)nearbyint(f * 65535.0);
}
static void v_cvt_norm_i16_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	uint16_t d[RDC_LANES];
	srch(w, in, 0, a);
	LANES d[l] = snorm(a[l]);
	rdc_vdst16(w, in, d);
}
static void v_cvt_norm_u16_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES];
	uint16_t d[RDC_LANES];
	srch(w, in, 0, a);
	LANES d[l] = unorm(a[l]);
	rdc_vdst16(w, in, d);
}
/* pk_norm_*: {norm(S1), norm(S0)}; f16 sources by op_sel halves. */
static void pk_norm(struct rdc_wave *w, const struct rdc_inst *in, bool f16src, bool sign)
{
	double a[RDC_LANES], b[RDC_LANES];
	uint32_t d[RDC_LANES];
	if (f16src) {
		srch(w, in, 0, a);
		srch(w, in, 1, b);
	} else {
		float x[RDC_LANES], y[RDC_LANES];
		rdc_vsrcf(w, in, 0, x);
		rdc_vsrcf(w, in, 1, y);
		LANES {
			a[l] = x[l];
			b[l] = y[l];
		}
	}
	LANES d[l] = sign ? snorm(a[l]) | (uint32_t)snorm(b[l]) << 16 : unorm(a[l]) | (uint32_t)unorm(b[l]) << 16;
	rdc_vdst32(w, in, d);
}
static void v_cvt_pk_norm_i16_f16(struct rdc_wave *w, const struct rdc_inst *in) { pk_norm(w, in, true, true); }
static void v_cvt_pk_norm_u16_f16(struct rdc_wave *w, const struct rdc_inst *in) { pk_norm(w, in, true, false); }
static void v_cvt_pk_norm_i16_f32(struct rdc_wave *w, const struct rdc_inst *in) { pk_norm(w, in, false, true); }
static void v_cvt_pk_norm_u16_f32(struct rdc_wave *w, const struct rdc_inst *in) { pk_norm(w, in, false, false); }
/* gfx11 cvt_pk_i16_f32 / u16_f32: each f32 truncated and saturated. */
static inline uint16_t f2i16(float f)
{
	return isnan(f) ? 0 : f >= 32767.0f ? 0x7fff : f <= -32768.0f ? 0x8000 : (uint16_t)(int16_t)f;
}
static inline uint16_t f2u16(float f)
{
	return isnan(f) || f <= 0.0f ? 0 : f >= 65535.0f ? 0xffff : (uint16_t)f;
}
static void v_cvt_pk_i16_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES], b[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	rdc_vsrcf(w, in, 1, b);
	LANES d[l] = f2i16(a[l]) | (uint32_t)f2i16(b[l]) << 16;
	rdc_vdst32(w, in, d);
}
static void v_cvt_pk_u16_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES], b[RDC_LANES];
	uint32_t d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	rdc_vsrcf(w, in, 1, b);
	LANES d[l] = f2u16(a[l]) | (uint32_t)f2u16(b[l]) << 16;
	rdc_vdst32(w, in, d);
}
static inline uint32_t sat_u16_u32(uint32_t v) { return v > 0xffff ? 0xffff : v; }
static inline uint32_t sat_i16_i32(int32_t v) { return (uint16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v); }
static void v_cvt_pk_u16_u32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	LANES d[l] = sat_u16_u32(a[l]) | sat_u16_u32(b[l]) << 16;
	rdc_vdst32(w, in, d);
}
static void v_cvt_pk_i16_i32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	LANES d[l] = sat_i16_i32((int32_t)a[l]) | sat_i16_i32((int32_t)b[l]) << 16;
	rdc_vdst32(w, in, d);
}

/* ---- i16 / u16 / b16 ------------------------------------------------------------- */
/* Integer results are computed in 32 bits (a, b, c: the sources zero- or
 * sign-extended) and clamp saturates to the type's range. */
static inline uint16_t sat16(int64_t v, bool sign, bool clamp)
{
	if (clamp) {
		int64_t lo = sign ? -32768 : 0, hi = sign ? 32767 : 65535;
		v = v < lo ? lo : v > hi ? hi : v;
	}
	return (uint16_t)v;
}
#define I2(NAME, SIGN, EXPR)                                                     \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)          \
	{                                                                        \
		uint16_t x[RDC_LANES], y[RDC_LANES], d[RDC_LANES];               \
		src16(w, in, 0, RDC_TY_B32, x);                                  \
		src16(w, in, 1, RDC_TY_B32, y);                                  \
		LANES {                                                          \
			int64_t a = SIGN ? (int16_t)x[l] : (int64_t)x[l];        \
			int64_t b = SIGN ? (int16_t)y[l] : (int64_t)y[l];        \
			(void)a; (void)b;                                        \
			d[l] = sat16((EXPR), SIGN, in->clamp);                   \
		}                                                                \
		rdc_vdst16(w, in, d);                                            \
	}
#define I3(NAME, SIGN, EXPR)                                                     \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)          \
	{                                                                        \
		uint16_t x[RDC_LANES], y[RDC_LANES], z[RDC_LANES], d[RDC_LANES]; \
		src16(w, in, 0, RDC_TY_B32, x);                                  \
		src16(w, in, 1, RDC_TY_B32, y);                                  \
		src16(w, in, 2, RDC_TY_B32, z);                                  \
		LANES {                                                          \
			int64_t a = SIGN ? (int16_t)x[l] : (int64_t)x[l];        \
			int64_t b = SIGN ? (int16_t)y[l] : (int64_t)y[l];        \
			int64_t c = SIGN ? (int16_t)z[l] : (int64_t)z[l];        \
			d[l] = sat16((EXPR), SIGN, in->clamp);                   \
		}                                                                \
		rdc_vdst16(w, in, d);                                            \
	}
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t med64(int64_t a, int64_t b, int64_t c)
{
	return max64(min64(a, b), min64(max64(a, b), c));
}

I2(v_add_nc_u16, 0, a + b)
I2(v_add_nc_i16, 1, a + b)
I2(v_sub_nc_u16, 0, a - b)
I2(v_sub_nc_i16, 1, a - b)
I2(v_mul_lo_u16, 0, (int64_t)(uint16_t)(a * b))
I2(v_lshlrev_b16, 0, (int64_t)(uint16_t)(b << (a & 15)))
I2(v_lshrrev_b16, 0, b >> (a & 15))
I2(v_ashrrev_i16, 1, b >> (a & 15))
I2(v_min_u16, 0, min64(a, b))
I2(v_max_u16, 0, max64(a, b))
I2(v_min_i16, 1, min64(a, b))
I2(v_max_i16, 1, max64(a, b))
I2(v_and_b16, 0, a & b)
I2(v_or_b16, 0, a | b)
I2(v_xor_b16, 0, a ^ b)
I3(v_mad_u16, 0, a * b + c)
I3(v_mad_i16, 1, a * b + c)
I3(v_min3_u16, 0, min64(min64(a, b), c))
I3(v_max3_u16, 0, max64(max64(a, b), c))
I3(v_med3_u16, 0, med64(a, b, c))
I3(v_min3_i16, 1, min64(min64(a, b), c))
I3(v_max3_i16, 1, max64(max64(a, b), c))
I3(v_med3_i16, 1, med64(a, b, c))

static void v_mov_b16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t a[RDC_LANES];
	src16(w, in, 0, RDC_TY_B32, a);
	rdc_vdst16(w, in, a);
}
static void v_not_b16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t a[RDC_LANES];
	src16(w, in, 0, RDC_TY_B32, a);
	LANES a[l] = (uint16_t)~a[l];
	rdc_vdst16(w, in, a);
}
/* cndmask_b16 (gfx11 VOP3): the mask is src2; abs/neg act on the bits. */
static void v_cndmask_b16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	src16(w, in, 0, RDC_TY_F16, a);
	src16(w, in, 1, RDC_TY_F16, b);
	uint16_t c0 = in->abs & 1 ? 0x7fff : 0xffff, c1 = in->abs & 2 ? 0x7fff : 0xffff;
	uint16_t n0 = in->neg & 1 ? 0x8000 : 0, n1 = in->neg & 2 ? 0x8000 : 0;
	uint64_t m = rdc_sread_mask(w, in, in->src[2]);
	LANES d[l] = (m >> l) & 1 ? (uint16_t)((b[l] & c1) ^ n1) : (uint16_t)((a[l] & c0) ^ n0);
	rdc_vdst16(w, in, d);
}

/* mad_u32_u16 / mad_i32_i16: 16-bit S0 * S1 (op_sel halves) + 32-bit S2. */
static void mad32_16(struct rdc_wave *w, const struct rdc_inst *in, bool sign)
{
	uint16_t x[RDC_LANES], y[RDC_LANES];
	uint32_t c[RDC_LANES], d[RDC_LANES];
	src16(w, in, 0, RDC_TY_B32, x);
	src16(w, in, 1, RDC_TY_B32, y);
	rdc_vsrc32(w, in, 2, RDC_TY_B32, c);
	LANES {
		int64_t v = sign ? (int64_t)(int16_t)x[l] * (int16_t)y[l] + (int32_t)c[l]
				 : (int64_t)x[l] * y[l] + c[l];
		if (in->clamp)
			v = sign ? (v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v)
				 : (v > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : v);
		d[l] = (uint32_t)v;
	}
	rdc_vdst32(w, in, d);
}
/* sad_u16: |S0.u16 - S1.u16| + S2.u32 (clamp saturates to u32). */
static void v_sad_u16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t x[RDC_LANES], y[RDC_LANES];
	uint32_t c[RDC_LANES], d[RDC_LANES];
	src16(w, in, 0, RDC_TY_B32, x);
	src16(w, in, 1, RDC_TY_B32, y);
	rdc_vsrc32(w, in, 2, RDC_TY_B32, c);
	LANES {
		uint64_t v = (uint64_t)(x[l] > y[l] ? x[l] - y[l] : y[l] - x[l]) + c[l];
		d[l] = in->clamp && v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
	rdc_vdst32(w, in, d);
}
static void v_mad_u32_u16(struct rdc_wave *w, const struct rdc_inst *in) { mad32_16(w, in, false); }
static void v_mad_i32_i16(struct rdc_wave *w, const struct rdc_inst *in) { mad32_16(w, in, true); }

/* ---- packed (VOP3P) ---------------------------------------------------------------- */
/* Source k's low- and high-result elements (raw 16 bits, neg applied to
 * float operands). */
static void pk_src(const struct rdc_wave *w, const struct rdc_inst *in, int k, bool fl, uint16_t *lo, uint16_t *hi)
{
	uint32_t t[RDC_LANES];
	rdc_vsrc32(w, in, k, fl ? RDC_TY_F16 : RDC_TY_B32, t);
	bool sl = (in->opsel >> k) & 1, sh = (in->opsel_hi >> k) & 1;
	uint16_t nl = fl && ((in->neg >> k) & 1) ? 0x8000 : 0, nh = fl && ((in->neg_hi >> k) & 1) ? 0x8000 : 0;
	LANES {
		lo[l] = (uint16_t)((sl ? t[l] >> 16 : t[l]) ^ nl);
		hi[l] = (uint16_t)((sh ? t[l] >> 16 : t[l]) ^ nh);
	}
}

enum pkop { PK_ADD, PK_SUB, PK_MUL, PK_FMA, PK_MIN, PK_MAX, PK_MAD, PK_SHL, PK_SHR, PK_ASHR };

static uint16_t pk_f16(enum pkop op, const struct rdc_inst *in, uint16_t a, uint16_t b, uint16_t c)
{
	double x = h2d(a), y = h2d(b), z = h2d(c), r;
	switch (op) {
	case PK_ADD: r = x + y; break;
	case PK_MUL: r = x * y; break;
	case PK_FMA: r = fma(x, y, z); break;
	case PK_MIN: r = fmin(x, y); break;
	default: r = fmax(x, y); break;
	}
	if (in->clamp)
		r = isnan(r) ? 0.0 : r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
	return d2h(r);
}

static uint16_t pk_int(enum pkop op, bool sign, const struct rdc_inst *in, uint16_t a, uint16_t b, uint16_t c)
{
	int64_t x = sign ? (int16_t)a : (int64_t)a, y = sign ? (int16_t)b : (int64_t)b;
	int64_t z = sign ? (int16_t)c : (int64_t)c, r;
	switch (op) {
	case PK_ADD: r = x + y; break;
	case PK_SUB: r = x - y; break;
	case PK_MUL: r = (uint16_t)((uint32_t)a * b); break;
	case PK_MAD: r = x * y + z; break;
	case PK_MIN: r = min64(x, y); break;
	case PK_MAX: r = max64(x, y); break;
	case PK_SHL: r = (uint16_t)((uint32_t)b << (a & 15)); break;
	case PK_SHR: r = b >> (a & 15); break;
	default: r = (int16_t)b >> (a & 15); break;
	}
	return sat16(r, sign, in->clamp && op != PK_MUL && op < PK_SHL);
}

static void pk_run(struct rdc_wave *w, const struct rdc_inst *in, enum pkop op, int fl, bool sign, int nsrc)
{
	uint16_t lo[3][RDC_LANES], hi[3][RDC_LANES];
	uint32_t d[RDC_LANES];
	memset(lo, 0, sizeof lo);
	memset(hi, 0, sizeof hi);
	for (int k = 0; k < nsrc; k++)
		pk_src(w, in, k, fl, lo[k], hi[k]);
	LANES {
		uint16_t rl, rh;
		if (fl) {
			rl = pk_f16(op, in, lo[0][l], lo[1][l], lo[2][l]);
			rh = pk_f16(op, in, hi[0][l], hi[1][l], hi[2][l]);
		} else {
			rl = pk_int(op, sign, in, lo[0][l], lo[1][l], lo[2][l]);
			rh = pk_int(op, sign, in, hi[0][l], hi[1][l], hi[2][l]);
		}
		d[l] = rl | (uint32_t)rh << 16;
	}
	rdc_vdst32(w, in, d);
}
#define PK(NAME, OP, FL, SIGN, NSRC) \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in) { pk_run(w, in, OP, FL, SIGN, NSRC); }
PK(v_pk_add_f16, PK_ADD, 1, 0, 2)
PK(v_pk_mul_f16, PK_MUL, 1, 0, 2)
PK(v_pk_fma_f16, PK_FMA, 1, 0, 3)
PK(v_pk_min_f16, PK_MIN, 1, 0, 2)
PK(v_pk_max_f16, PK_MAX, 1, 0, 2)
PK(v_pk_add_i16, PK_ADD, 0, 1, 2)
PK(v_pk_add_u16, PK_ADD, 0, 0, 2)
PK(v_pk_sub_i16, PK_SUB, 0, 1, 2)
PK(v_pk_sub_u16, PK_SUB, 0, 0, 2)
PK(v_pk_mul_lo_u16, PK_MUL, 0, 0, 2)
PK(v_pk_lshlrev_b16, PK_SHL, 0, 0, 2)
PK(v_pk_lshrrev_b16, PK_SHR, 0, 0, 2)
PK(v_pk_ashrrev_i16, PK_ASHR, 0, 1, 2)
PK(v_pk_max_i16, PK_MAX, 0, 1, 2)
PK(v_pk_min_i16, PK_MIN, 0, 1, 2)
PK(v_pk_max_u16, PK_MAX, 0, 0, 2)
PK(v_pk_min_u16, PK_MIN, 0, 0, 2)
PK(v_pk_mad_i16, PK_MAD, 0, 1, 3)
PK(v_pk_mad_u16, PK_MAD, 0, 0, 3)

/* pk_fmac_f16 (VOP2): each half of D = S0 * S1 + D. */
static void v_pk_fmac_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_F16, a);
	rdc_vsrc32(w, in, 1, RDC_TY_F16, b);
	const uint32_t *acc = rdc_vreg(w, in->dst);
	LANES {
		uint16_t lo = d2h(fma(h2d((uint16_t)a[l]), h2d((uint16_t)b[l]), h2d((uint16_t)acc[l])));
		uint16_t hi = d2h(fma(h2d((uint16_t)(a[l] >> 16)), h2d((uint16_t)(b[l] >> 16)),
				      h2d((uint16_t)(acc[l] >> 16))));
		d[l] = lo | (uint32_t)hi << 16;
	}
	rdc_vdst32(w, in, d);
}

/* ---- fma_mix ------------------------------------------------------------------------- */
/* Source k of a mix op: f16 (half op_sel[k]) when op_sel_hi[k], else f32;
 * neg_hi[k] is abs, neg[k] negates. */
static void mix_src(const struct rdc_wave *w, const struct rdc_inst *in, int k, double *out)
{
	uint32_t t[RDC_LANES];
	bool h = (in->opsel_hi >> k) & 1, sel = (in->opsel >> k) & 1;
	bool ab = (in->neg_hi >> k) & 1, ng = (in->neg >> k) & 1;
	rdc_vsrc32(w, in, k, h ? RDC_TY_F16 : RDC_TY_F32, t);
	LANES {
		double v = h ? h2d((uint16_t)(sel ? t[l] >> 16 : t[l])) : (double)rdc_u2f(t[l]);
		if (ab)
			v = fabs(v);
		out[l] = ng ? -v : v;
	}
}

static void v_fma_mix_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	double a[RDC_LANES], b[RDC_LANES], c[RDC_LANES];
	uint32_t d[RDC_LANES];
	mix_src(w, in, 0, a);
	mix_src(w, in, 1, b);
	mix_src(w, in, 2, c);
	LANES {
		/* the operands are f32 values (f16 widens exactly): fused, rounded once */
		float v = fmaf((float)a[l], (float)b[l], (float)c[l]);
		if (in->clamp)
			v = isnan(v) ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
		d[l] = rdc_f2u(v);
	}
	rdc_vdst32(w, in, d);
}

/* mixlo / mixhi: the f16 result into one half, the other half kept. */
static void mix16(struct rdc_wave *w, const struct rdc_inst *in, bool high)
{
	double a[RDC_LANES], b[RDC_LANES], c[RDC_LANES];
	uint16_t h[RDC_LANES];
	mix_src(w, in, 0, a);
	mix_src(w, in, 1, b);
	mix_src(w, in, 2, c);
	LANES {
		/* the ISA guides: f32_to_f16(fma(in0, in1, in2)) with an f32 fma */
		float v = fmaf((float)a[l], (float)b[l], (float)c[l]);
		if (in->clamp)
			v = isnan(v) ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
		h[l] = d2h(v);
	}
	uint32_t *d = rdc_vreg(w, in->dst);
	uint64_t m = rdc_exec_mask(w) & ~w->dpp_off;
	LANES {
		if ((m >> l) & 1)
			d[l] = high ? (d[l] & 0xffffu) | (uint32_t)h[l] << 16 : (d[l] & 0xffff0000u) | h[l];
	}
}
static void v_fma_mixlo_f16(struct rdc_wave *w, const struct rdc_inst *in) { mix16(w, in, false); }
static void v_fma_mixhi_f16(struct rdc_wave *w, const struct rdc_inst *in) { mix16(w, in, true); }

/* ---- dot products ------------------------------------------------------------------- */
/* An f32 accumulator source of a VOP3P op: neg negates, neg_hi is abs. */
static void acc_f32(const struct rdc_wave *w, const struct rdc_inst *in, int k, float *out)
{
	uint32_t t[RDC_LANES];
	rdc_vsrc32(w, in, k, RDC_TY_F32, t);
	uint32_t clr = (in->neg_hi >> k) & 1 ? 0x7fffffffu : ~0u, flip = (in->neg >> k) & 1 ? 0x80000000u : 0;
	LANES out[l] = rdc_u2f((t[l] & clr) ^ flip);
}

/* dot2_f32_f16 / dot2_f32_bf16: S2 + S0.lo * S1.lo + S0.hi * S1.hi. */
static void dot2_f32(struct rdc_wave *w, const struct rdc_inst *in, bool bf)
{
	uint16_t al[RDC_LANES], ah[RDC_LANES], bl[RDC_LANES], bh[RDC_LANES];
	float c[RDC_LANES];
	uint32_t d[RDC_LANES];
	pk_src(w, in, 0, true, al, ah);
	pk_src(w, in, 1, true, bl, bh);
	acc_f32(w, in, 2, c);
	LANES {
		float x0 = bf ? bf2f(al[l]) : (float)h2d(al[l]), y0 = bf ? bf2f(bl[l]) : (float)h2d(bl[l]);
		float x1 = bf ? bf2f(ah[l]) : (float)h2d(ah[l]), y1 = bf ? bf2f(bh[l]) : (float)h2d(bh[l]);
		float t = c[l];
		t += x0 * y0; /* exact products (11- or 8-bit significands) */
		t += x1 * y1;
		if (in->clamp)
			t = isnan(t) ? 0.0f : t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
		d[l] = rdc_f2u(t);
	}
	rdc_vdst32(w, in, d);
}
static void v_dot2_f32_f16(struct rdc_wave *w, const struct rdc_inst *in) { dot2_f32(w, in, false); }
static void v_dot2_f32_bf16(struct rdc_wave *w, const struct rdc_inst *in) { dot2_f32(w, in, true); }

/* dot2c (gfx10 VOP2) / dot2acc (gfx11 VOP2, VOPD): D = D + S0.lo*S1.lo + S0.hi*S1.hi. */
static void v_dot2acc_f32_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_F16, a);
	rdc_vsrc32(w, in, 1, RDC_TY_F16, b);
	const uint32_t *acc = rdc_vreg(w, in->dst);
	LANES {
		float t = rdc_u2f(acc[l]);
		t += (float)h2d((uint16_t)a[l]) * (float)h2d((uint16_t)b[l]);
		t += (float)h2d((uint16_t)(a[l] >> 16)) * (float)h2d((uint16_t)(b[l] >> 16));
		d[l] = rdc_f2u(t);
	}
	rdc_vdst32(w, in, d);
}

/* dot2_f16_f16 / dot2_bf16_bf16 (gfx11 VOP3): a 16-bit accumulator (src2's
 * half op_sel[2]) and result (op_sel[3]); each step rounds to the type. */
static void dot2_16(struct rdc_wave *w, const struct rdc_inst *in, bool bf)
{
	uint32_t a[RDC_LANES], b[RDC_LANES];
	uint16_t c[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, bf ? RDC_TY_B32 : RDC_TY_F16, a);
	rdc_vsrc32(w, in, 1, bf ? RDC_TY_B32 : RDC_TY_F16, b);
	src16(w, in, 2, bf ? RDC_TY_B32 : RDC_TY_F16, c);
	uint32_t f[3]; /* abs clears the sign of each half */
	for (int k = 0; k < 3; k++)
		f[k] = (in->abs >> k) & 1 ? 0x7fff7fffu : ~0u;
	LANES {
		uint32_t x = a[l] & f[0], y = b[l] & f[1];
		uint16_t z = (uint16_t)(c[l] & f[2]);
		if (in->neg & 1)
			x ^= 0x80008000u;
		if (in->neg & 2)
			y ^= 0x80008000u;
		if (in->neg & 4)
			z ^= 0x8000;
		if (bf) {
			double t = bf2f(z);
			t = bf2f(d2bf(t + (double)bf2f((uint16_t)x) * bf2f((uint16_t)y)));
			t = bf2f(d2bf(t + (double)bf2f((uint16_t)(x >> 16)) * bf2f((uint16_t)(y >> 16))));
			d[l] = d2bf(t);
		} else {
			double t = h2d(z);
			t = h2d(d2h(t + h2d((uint16_t)x) * h2d((uint16_t)y)));
			t = h2d(d2h(t + h2d((uint16_t)(x >> 16)) * h2d((uint16_t)(y >> 16))));
			if (in->clamp)
				t = isnan(t) ? 0.0 : t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
			d[l] = d2h(t);
		}
	}
	rdc_vdst16(w, in, d);
}
static void v_dot2_f16_f16(struct rdc_wave *w, const struct rdc_inst *in) { dot2_16(w, in, false); }
static void v_dot2_bf16_bf16(struct rdc_wave *w, const struct rdc_inst *in) { dot2_16(w, in, true); }

static inline uint32_t sat32(int64_t v, bool sign, bool clamp)
{
	if (clamp) {
		if (sign)
			v = v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v;
		else
			v = v < 0 ? 0 : v > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : v;
	}
	return (uint32_t)v;
}

/* dot2_i32_i16 / dot2_u32_u16 (gfx10): halves by op_sel / op_sel_hi. */
static void dot2_int(struct rdc_wave *w, const struct rdc_inst *in, bool sign)
{
	uint16_t al[RDC_LANES], ah[RDC_LANES], bl[RDC_LANES], bh[RDC_LANES];
	uint32_t c[RDC_LANES], d[RDC_LANES];
	pk_src(w, in, 0, false, al, ah);
	pk_src(w, in, 1, false, bl, bh);
	rdc_vsrc32(w, in, 2, RDC_TY_B32, c);
	LANES {
		int64_t v = sign ? (int64_t)(int16_t)al[l] * (int16_t)bl[l] + (int64_t)(int16_t)ah[l] * (int16_t)bh[l] +
					   (int32_t)c[l]
				 : (int64_t)al[l] * bl[l] + (int64_t)ah[l] * bh[l] + c[l];
		d[l] = sat32(v, sign, in->clamp);
	}
	rdc_vdst32(w, in, d);
}
static void v_dot2_i32_i16(struct rdc_wave *w, const struct rdc_inst *in) { dot2_int(w, in, true); }
static void v_dot2_u32_u16(struct rdc_wave *w, const struct rdc_inst *in) { dot2_int(w, in, false); }

/* Element i of a packed vector of n-bit integers. */
static inline int64_t elem(uint32_t v, unsigned bits, unsigned i, bool sign)
{
	uint32_t x = (v >> (i * bits)) & ((1u << bits) - 1);
	if (sign && (x >> (bits - 1)))
		return (int64_t)x - (1ll << bits);
	return x;
}

/* dot4 (8-bit) and dot8 (4-bit) with S2; sa/sb: the sources' signedness. */
static void dotn(struct rdc_wave *w, const struct rdc_inst *in, unsigned bits, bool sa, bool sb, bool acc_dst)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	if (acc_dst)
		memcpy(c, rdc_vreg(w, in->dst), w->n * 4);
	else
		rdc_vsrc32(w, in, 2, RDC_TY_B32, c);
	bool sign = sa || sb;
	LANES {
		int64_t v = sign ? (int64_t)(int32_t)c[l] : (int64_t)c[l];
		for (unsigned i = 0; i < 32 / bits; i++)
			v += elem(a[l], bits, i, sa) * elem(b[l], bits, i, sb);
		d[l] = sat32(v, sign, in->clamp && !acc_dst);
	}
	rdc_vdst32(w, in, d);
}
static void v_dot4_i32_i8(struct rdc_wave *w, const struct rdc_inst *in) { dotn(w, in, 8, true, true, false); }
static void v_dot4_u32_u8(struct rdc_wave *w, const struct rdc_inst *in) { dotn(w, in, 8, false, false, false); }
static void v_dot8_i32_i4(struct rdc_wave *w, const struct rdc_inst *in) { dotn(w, in, 4, true, true, false); }
static void v_dot8_u32_u4(struct rdc_wave *w, const struct rdc_inst *in) { dotn(w, in, 4, false, false, false); }
static void v_dot4c_i32_i8(struct rdc_wave *w, const struct rdc_inst *in) { dotn(w, in, 8, true, true, true); }
/* gfx11 iu8 / iu4: neg_lo[0] and neg_lo[1] say that A and B are signed. */
static void v_dot4_i32_iu8(struct rdc_wave *w, const struct rdc_inst *in)
{
	dotn(w, in, 8, in->neg & 1, (in->neg >> 1) & 1, false);
}
static void v_dot8_i32_iu4(struct rdc_wave *w, const struct rdc_inst *in)
{
	dotn(w, in, 4, in->neg & 1, (in->neg >> 1) & 1, false);
}

/* ---- WMMA (gfx11, wave32) ------------------------------------------------------------- */
/* 16x16x16: D = A * B + C.  Lane l (and l + 16, which holds the same
 * data) of A holds row l: 16-bit elements K = 2v, 2v+1 in VGPR v (8-bit:
 * K = 4v..4v+3, 4-bit: 8v..8v+7); lane l of B holds column l the same
 * way.  C and D: VGPR v of lane l is element (row 2v + l/16, column
 * l%16), 32-bit, or 16-bit in the half op_sel[2] picks (AMDGPUUsage /
 * the RDNA3 ISA guide, "Wave Matrix Multiply Accumulate"). */
enum wty { W_F16, W_BF16, W_I8, W_I4 };

static double wmma_a(const struct rdc_wave *w, uint16_t base, enum wty t, unsigned lane, unsigned k, bool sign)
{
	switch (t) {
	case W_F16: case W_BF16: {
		uint32_t v = rdc_vreg(w, (uint16_t)(base + k / 2))[lane];
		uint16_t h = (uint16_t)(k & 1 ? v >> 16 : v);
		return t == W_F16 ? h2d(h) : bf2f(h);
	}
	case W_I8:
		return (double)elem(rdc_vreg(w, (uint16_t)(base + k / 4))[lane], 8, k % 4, sign);
	default:
		return (double)elem(rdc_vreg(w, (uint16_t)(base + k / 8))[lane], 4, k % 8, sign);
	}
}

static void wmma(struct rdc_wave *w, const struct rdc_inst *in, enum wty t, int out)
{
	/* out: 0 f32, 1 f16, 2 bf16, 3 i32 */
	bool integer = t == W_I8 || t == W_I4;
	if (w->n != 32) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "WMMA in wave64 (the engine models wave32 WMMA only)");
		return;
	}
	if (in->src[0] < RDC_OPD_VGPR || in->src[1] < RDC_OPD_VGPR || (!integer && (in->neg || in->neg_hi)) ||
	    (!integer && in->clamp) || (out != 1 && out != 2 && in->opsel)) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "WMMA operands or modifiers the engine does not model");
		return;
	}
	bool sa = integer && (in->neg & 1), sb = integer && ((in->neg >> 1) & 1);
	bool hi = (in->opsel >> 2) & 1;
	double acc[8][32];
	uint32_t cc[RDC_LANES]; /* C as a constant or SGPR: the same value everywhere */
	if (in->src[2] < RDC_OPD_VGPR)
		rdc_vsrc32(w, in, 2, out == 1 ? RDC_TY_F16 : RDC_TY_B32, cc);
	for (unsigned v = 0; v < 8; v++) {
		const uint32_t *c = in->src[2] < RDC_OPD_VGPR ? cc : rdc_vreg(w, (uint16_t)(in->src[2] + v));
		for (unsigned l = 0; l < 32; l++) {
			uint16_t h = (uint16_t)(hi ? c[l] >> 16 : c[l]);
			acc[v][l] = out == 0 ? (double)rdc_u2f(c[l]) : out == 1 ? h2d(h) : out == 2 ? (double)bf2f(h)
								    : (double)(int32_t)c[l];
		}
	}
	uint32_t res[8][32];
	for (unsigned v = 0; v < 8; v++) {
		for (unsigned l = 0; l < 32; l++) {
			unsigned row = 2 * v + l / 16, col = l % 16;
			if (integer) {
				int64_t s = (int64_t)acc[v][l];
				for (unsigned k = 0; k < 16; k++)
					s += (int64_t)wmma_a(w, in->src[0], t, row, k, sa) *
					     (int64_t)wmma_a(w, in->src[1], t, col, k, sb);
				res[v][l] = sat32(s, true, in->clamp);
			} else {
				double s = acc[v][l];
				for (unsigned k = 0; k < 16; k++)
					s += wmma_a(w, in->src[0], t, row, k, false) * wmma_a(w, in->src[1], t, col, k, false);
				if (out == 0) {
					res[v][l] = rdc_f2u((float)s);
				} else {
					uint16_t h = out == 1 ? d2h(s) : d2bf(s);
					uint32_t old = rdc_vreg(w, (uint16_t)(in->dst + v))[l];
					res[v][l] = hi ? (old & 0xffffu) | (uint32_t)h << 16 : (old & 0xffff0000u) | h;
				}
			}
		}
	}
	uint64_t m = rdc_exec_mask(w);
	for (unsigned v = 0; v < 8; v++) {
		uint32_t *d = rdc_vreg(w, (uint16_t)(in->dst + v));
		for (unsigned l = 0; l < 32; l++)
			if ((m >> l) & 1)
				d[l] = res[v][l];
	}
}
static void v_wmma_f32_16x16x16_f16(struct rdc_wave *w, const struct rdc_inst *in) { wmma(w, in, W_F16, 0); }
static void v_wmma_f32_16x16x16_bf16(struct rdc_wave *w, const struct rdc_inst *in) { wmma(w, in, W_BF16, 0); }
static void v_wmma_f16_16x16x16_f16(struct rdc_wave *w, const struct rdc_inst *in) { wmma(w, in, W_F16, 1); }
static void v_wmma_bf16_16x16x16_bf16(struct rdc_wave *w, const struct rdc_inst *in) { wmma(w, in, W_BF16, 2); }
static void v_wmma_i32_16x16x16_iu8(struct rdc_wave *w, const struct rdc_inst *in) { wmma(w, in, W_I8, 3); }
static void v_wmma_i32_16x16x16_iu4(struct rdc_wave *w, const struct rdc_inst *in) { wmma(w, in, W_I4, 3); }

/* v_swap_b16 (gfx11 VOP1): the 16-bit halves named by vdst and src0
 * (true16 .l/.h) trade places; the other halves stay. */
static void v_swap_b16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t *a = rdc_vreg(w, in->dst), *b = rdc_vreg(w, in->src[0]);
	unsigned sa = in->opsel & 8 ? 16 : 0, sb = in->opsel & 1 ? 16 : 0;
	uint64_t m = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint32_t x = (a[l] >> sa) & 0xffff, y = (b[l] >> sb) & 0xffff;
		a[l] = (a[l] & ~(0xffffu << sa)) | y << sa;
		b[l] = (b[l] & ~(0xffffu << sb)) | x << sb;
	}
}

rdc_sem_fn rdc_sem_v16(uint16_t op)
{
	switch (op) {
	case RDC_OP_V_ADD_F16: return v_add_f16;
	case RDC_OP_V_SUB_F16: return v_sub_f16;
	case RDC_OP_V_SUBREV_F16: return v_subrev_f16;
	case RDC_OP_V_MUL_F16: return v_mul_f16;
	case RDC_OP_V_MIN_F16: return v_min_f16;
	case RDC_OP_V_MAX_F16: return v_max_f16;
	case RDC_OP_V_FMA_F16: return v_fma_f16;
	case RDC_OP_V_FMAC_F16: return v_fmac_f16;
	case RDC_OP_V_FMAMK_F16: return v_fmamk_f16;
	case RDC_OP_V_FMAAK_F16: return v_fmaak_f16;
	case RDC_OP_V_MIN3_F16: return v_min3_f16;
	case RDC_OP_V_MAX3_F16: return v_max3_f16;
	case RDC_OP_V_MED3_F16: return v_med3_f16;
	case RDC_OP_V_MAXMIN_F16: return v_maxmin_f16;
	case RDC_OP_V_MINMAX_F16: return v_minmax_f16;
	case RDC_OP_V_DIV_FIXUP_F16: return v_div_fixup_f16;
	case RDC_OP_V_LDEXP_F16: return v_ldexp_f16;
	case RDC_OP_V_RCP_F16: return v_rcp_f16;
	case RDC_OP_V_SQRT_F16: return v_sqrt_f16;
	case RDC_OP_V_RSQ_F16: return v_rsq_f16;
	case RDC_OP_V_LOG_F16: return v_log_f16;
	case RDC_OP_V_EXP_F16: return v_exp_f16;
	case RDC_OP_V_SIN_F16: return v_sin_f16;
	case RDC_OP_V_COS_F16: return v_cos_f16;
	case RDC_OP_V_FLOOR_F16: return v_floor_f16;
	case RDC_OP_V_CEIL_F16: return v_ceil_f16;
	case RDC_OP_V_TRUNC_F16: return v_trunc_f16;
	case RDC_OP_V_RNDNE_F16: return v_rndne_f16;
	case RDC_OP_V_FRACT_F16: return v_fract_f16;
	case RDC_OP_V_FREXP_MANT_F16: return v_frexp_mant_f16;
	case RDC_OP_V_FREXP_EXP_I16_F16: return v_frexp_exp_i16_f16;
	case RDC_OP_V_CVT_F32_F16: return v_cvt_f32_f16;
	case RDC_OP_V_CVT_F16_F32: return v_cvt_f16_f32;
	case RDC_OP_V_CVT_F16_I16: return v_cvt_f16_i16;
	case RDC_OP_V_CVT_F16_U16: return v_cvt_f16_u16;
	case RDC_OP_V_CVT_I16_F16: return v_cvt_i16_f16;
	case RDC_OP_V_CVT_U16_F16: return v_cvt_u16_f16;
	case RDC_OP_V_CVT_I32_I16: return v_cvt_i32_i16;
	case RDC_OP_V_CVT_U32_U16: return v_cvt_u32_u16;
	case RDC_OP_V_CVT_PK_RTZ_F16_F32: return v_cvt_pk_rtz_f16_f32;
	case RDC_OP_V_PACK_B32_F16: return v_pack_b32_f16;
	case RDC_OP_V_SAT_PK_U8_I16: return v_sat_pk_u8_i16;
	case RDC_OP_V_CVT_PK_U16_U32: return v_cvt_pk_u16_u32;
	case RDC_OP_V_CVT_PK_I16_I32: return v_cvt_pk_i16_i32;
	case RDC_OP_V_CVT_NORM_I16_F16: return v_cvt_norm_i16_f16;
	case RDC_OP_V_CVT_NORM_U16_F16: return v_cvt_norm_u16_f16;
	case RDC_OP_V_CVT_PK_NORM_I16_F16: return v_cvt_pk_norm_i16_f16;
	case RDC_OP_V_CVT_PK_NORM_U16_F16: return v_cvt_pk_norm_u16_f16;
	case RDC_OP_V_CVT_PK_NORM_I16_F32: return v_cvt_pk_norm_i16_f32;
	case RDC_OP_V_CVT_PK_NORM_U16_F32: return v_cvt_pk_norm_u16_f32;
	case RDC_OP_V_CVT_PK_I16_F32: return v_cvt_pk_i16_f32;
	case RDC_OP_V_CVT_PK_U16_F32: return v_cvt_pk_u16_f32;
	case RDC_OP_V_ADD_NC_U16: return v_add_nc_u16;
	case RDC_OP_V_ADD_NC_I16: return v_add_nc_i16;
	case RDC_OP_V_SUB_NC_U16: return v_sub_nc_u16;
	case RDC_OP_V_SUB_NC_I16: return v_sub_nc_i16;
	case RDC_OP_V_MUL_LO_U16: return v_mul_lo_u16;
	case RDC_OP_V_LSHLREV_B16: return v_lshlrev_b16;
	case RDC_OP_V_LSHRREV_B16: return v_lshrrev_b16;
	case RDC_OP_V_ASHRREV_I16: return v_ashrrev_i16;
	case RDC_OP_V_MIN_U16: return v_min_u16;
	case RDC_OP_V_MAX_U16: return v_max_u16;
	case RDC_OP_V_MIN_I16: return v_min_i16;
	case RDC_OP_V_MAX_I16: return v_max_i16;
	case RDC_OP_V_AND_B16: return v_and_b16;
	case RDC_OP_V_OR_B16: return v_or_b16;
	case RDC_OP_V_XOR_B16: return v_xor_b16;
	case RDC_OP_V_NOT_B16: return v_not_b16;
	case RDC_OP_V_MOV_B16: return v_mov_b16;
	case RDC_OP_V_SWAP_B16: return v_swap_b16;
	case RDC_OP_V_CNDMASK_B16: return v_cndmask_b16;
	case RDC_OP_V_MAD_U16: return v_mad_u16;
	case RDC_OP_V_MAD_I16: return v_mad_i16;
	case RDC_OP_V_MAD_U32_U16: return v_mad_u32_u16;
	case RDC_OP_V_SAD_U16: return v_sad_u16;
	case RDC_OP_V_MAD_I32_I16: return v_mad_i32_i16;
	case RDC_OP_V_MIN3_U16: return v_min3_u16;
	case RDC_OP_V_MAX3_U16: return v_max3_u16;
	case RDC_OP_V_MED3_U16: return v_med3_u16;
	case RDC_OP_V_MIN3_I16: return v_min3_i16;
	case RDC_OP_V_MAX3_I16: return v_max3_i16;
	case RDC_OP_V_MED3_I16: return v_med3_i16;
	case RDC_OP_V_PK_ADD_F16: return v_pk_add_f16;
	case RDC_OP_V_PK_MUL_F16: return v_pk_mul_f16;
	case RDC_OP_V_PK_FMA_F16: return v_pk_fma_f16;
	case RDC_OP_V_PK_MIN_F16: return v_pk_min_f16;
	case RDC_OP_V_PK_MAX_F16: return v_pk_max_f16;
	case RDC_OP_V_PK_FMAC_F16: return v_pk_fmac_f16;
	case RDC_OP_V_PK_ADD_I16: return v_pk_add_i16;
	case RDC_OP_V_PK_ADD_U16: return v_pk_add_u16;
	case RDC_OP_V_PK_SUB_I16: return v_pk_sub_i16;
	case RDC_OP_V_PK_SUB_U16: return v_pk_sub_u16;
	case RDC_OP_V_PK_MUL_LO_U16: return v_pk_mul_lo_u16;
	case RDC_OP_V_PK_LSHLREV_B16: return v_pk_lshlrev_b16;
	case RDC_OP_V_PK_LSHRREV_B16: return v_pk_lshrrev_b16;
	case RDC_OP_V_PK_ASHRREV_I16: return v_pk_ashrrev_i16;
	case RDC_OP_V_PK_MAX_I16: return v_pk_max_i16;
	case RDC_OP_V_PK_MIN_I16: return v_pk_min_i16;
	case RDC_OP_V_PK_MAX_U16: return v_pk_max_u16;
	case RDC_OP_V_PK_MIN_U16: return v_pk_min_u16;
	case RDC_OP_V_PK_MAD_I16: return v_pk_mad_i16;
	case RDC_OP_V_PK_MAD_U16: return v_pk_mad_u16;
	case RDC_OP_V_FMA_MIX_F32: return v_fma_mix_f32;
	case RDC_OP_V_FMA_MIXLO_F16: return v_fma_mixlo_f16;
	case RDC_OP_V_FMA_MIXHI_F16: return v_fma_mixhi_f16;
	case RDC_OP_V_DOT2_F32_F16: return v_dot2_f32_f16;
	case RDC_OP_V_DOT2_F32_BF16: return v_dot2_f32_bf16;
	case RDC_OP_V_DOT2ACC_F32_F16: return v_dot2acc_f32_f16;
	case RDC_OP_V_DOT2_F16_F16: return v_dot2_f16_f16;
	case RDC_OP_V_DOT2_BF16_BF16: return v_dot2_bf16_bf16;
	case RDC_OP_V_DOT2_I32_I16: return v_dot2_i32_i16;
	case RDC_OP_V_DOT2_U32_U16: return v_dot2_u32_u16;
	case RDC_OP_V_DOT4_I32_I8: return v_dot4_i32_i8;
	case RDC_OP_V_DOT4_U32_U8: return v_dot4_u32_u8;
	case RDC_OP_V_DOT4_I32_IU8: return v_dot4_i32_iu8;
	case RDC_OP_V_DOT4C_I32_I8: return v_dot4c_i32_i8;
	case RDC_OP_V_DOT8_I32_I4: return v_dot8_i32_i4;
	case RDC_OP_V_DOT8_U32_U4: return v_dot8_u32_u4;
	case RDC_OP_V_DOT8_I32_IU4: return v_dot8_i32_iu4;
	case RDC_OP_V_WMMA_F32_16X16X16_F16: return v_wmma_f32_16x16x16_f16;
	case RDC_OP_V_WMMA_F32_16X16X16_BF16: return v_wmma_f32_16x16x16_bf16;
	case RDC_OP_V_WMMA_F16_16X16X16_F16: return v_wmma_f16_16x16x16_f16;
	case RDC_OP_V_WMMA_BF16_16X16X16_BF16: return v_wmma_bf16_16x16x16_bf16;
	case RDC_OP_V_WMMA_I32_16X16X16_IU8: return v_wmma_i32_16x16x16_iu8;
	case RDC_OP_V_WMMA_I32_16X16X16_IU4: return v_wmma_i32_16x16x16_iu4;
	default: return NULL;
	}
}
