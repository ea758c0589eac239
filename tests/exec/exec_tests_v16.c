/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_v16.c — single-instruction tests of the 16-bit, packed, dot
 * product and WMMA operations (tools/simgpu/exec/sem_v16.c).
 *
 * Every expected value is computed here from the instruction's definition
 * in AMD's RDNA2/RDNA3 ISA guides, with the reference f16/bf16
 * conversions of exec_harness.c (IEEE 754 binary16, ties to even) — never
 * with the engine's helpers.  Inputs are v1..v[nin], outputs v40.. (their
 * initial values are loaded first, so a half an instruction must keep is
 * checked too).  Where llvm-mc 19 does not accept an operand selection
 * the hardware has (op_sel on e64 forms of VOP1/VOP2 16-bit operations),
 * the snippet spells the word with .long: the VOP3 encoding llvm-mc gives
 * for the plain form, with OPSEL (word 0 bits 11-14: src0, src1, src2,
 * dst) set as the ISA guides' VOP3 format describes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec_harness.h"

#define IN(k) (c->in[lane * c->nin + (k)])
#define INL(l, k) (c->in[(l) * c->nin + (k)])
#define REF(name) static void name(const struct xt_ctx *c __attribute__((unused)), unsigned lane, uint32_t *o)
#define H(x) xt_h2d(x)
#define D2H(x) xt_d2h(x)
#define LO(x) xt_lo(x)
#define HI(x) xt_hi(x)

static float f32(uint32_t u) { return xt_u2f(u); }
static uint32_t u32(float f) { return xt_f2u(f); }

/* ---- init helpers ------------------------------------------------------------------ */
/* outputs that are f16 pairs too (accumulators) */
static void init_hh(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_h(lane, in, out, nin, nout);
	uint32_t tmp[8];
	xt_init_h(lane + 64, tmp, out, nout < 8 ? nout : 8, 0);
	for (unsigned j = 0; j < nout && j < 8; j++)
		out[j] = tmp[j];
}

/* ---- conversions --------------------------------------------------------------------- */
REF(ref_cvt_f32_f16)
{
	o[0] = u32((float)H(LO(IN(0))));
	o[1] = u32((float)H(HI(IN(0))));
}

static const float cvt_cases[16] = {
	1.0f + 0x1p-11f,        /* tie: to even 1.0 */
	1.0f + 3 * 0x1p-11f,    /* tie: up to 1+2^-9 */
	65519.0f,               /* largest f16 */
	65520.0f,               /* tie beyond: infinity */
	0x1p-25f,               /* tie with 0: zero */
	3 * 0x1p-26f,           /* rounds up to the smallest denormal */
	0x1p-14f - 0x1p-25f,    /* denormal tie to even: 2^-14 */
	-0.0f, -1.5f, 1e-10f, -1e10f, 0.333333343f, 2.71828175f, -65504.0f, 0x1.ffep-15f, 100.0f,
};
static void init_cvt_f16(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	if (lane < 16)
		in[0] = u32(cvt_cases[lane]);
}
REF(ref_cvt_f16_f32)
{
	o[0] = xt_setlo(o[0], D2H(f32(IN(0))));
	o[1] = xt_sethi(o[1], D2H(f32(IN(0))));
}

static void init_cvt_int(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_h(lane, in, out, nin, nout);
	in[0] = xt_rand(lane, 9, 9);
	static const uint16_t sp[6] = { 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x3e00, 0xbe00 }; /* 65504, -65504, inf, -inf, 1.5, -1.5 */
	if (lane < 6)
		in[1] = sp[lane] | (uint32_t)0x5a5a << 16;
}
static uint16_t sat_i16(double t)
{
	if (isnan(t))
		return 0;
	t = trunc(t);
	return t >= 32767 ? 0x7fff : t <= -32768 ? 0x8000 : (uint16_t)(int16_t)t;
}
static uint16_t sat_u16(double t)
{
	if (isnan(t) || t <= 0)
		return 0;
	t = trunc(t);
	return t >= 65535 ? 0xffff : (uint16_t)t;
}
REF(ref_cvt_int)
{
	o[0] = xt_setlo(o[0], D2H((int16_t)LO(IN(0))));
	o[1] = xt_setlo(o[1], D2H(LO(IN(0))));
	o[2] = xt_setlo(o[2], sat_i16(H(LO(IN(1)))));
	o[3] = xt_setlo(o[3], sat_u16(H(LO(IN(1)))));
}

/* f32 -> f16 toward zero, by truncating the f32's bits */
static uint16_t rtz_h(uint32_t u)
{
	uint16_t s = (uint16_t)((u >> 16) & 0x8000);
	int e = (int)((u >> 23) & 0xff) - 127;
	uint32_t m = u & 0x7fffff;
	if (e == 128)
		return (uint16_t)(s | (m ? 0x7e00 : 0x7c00));
	if (e > 15)
		return (uint16_t)(s | 0x7bff);
	if (e >= -14)
		return (uint16_t)(s | (uint16_t)((e + 15) << 10) | (uint16_t)(m >> 13));
	if (e < -25)
		return s;
	/* denormal: (1.m * 2^e) / 2^-24, truncated */
	uint64_t sig = (uint64_t)(m | 0x800000); /* 1.m in units of 2^-23 */
	return (uint16_t)(s | (uint16_t)(sig >> (-1 - e)));
}
static void init_rtz(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	static const float sp[8] = { 70000.0f, 1.0f + 0x1p-11f + 0x1p-20f, -1.00146484375f, 1e-10f,
				     INFINITY, -0x1.ffcp-15f, 3e-6f, -65535.0f };
	if (lane < 8)
		in[0] = u32(sp[lane]);
}
REF(ref_cvt_pk_rtz) { o[0] = rtz_h(IN(0)) | (uint32_t)rtz_h(IN(1)) << 16; }

REF(ref_pack)
{
	o[0] = LO(IN(0)) | (uint32_t)LO(IN(1)) << 16;
	o[1] = HI(IN(0)) | (uint32_t)(HI(IN(1)) ^ 0x8000) << 16;
}

/* ---- f16 arithmetic --------------------------------------------------------------------- */
REF(ref_add_f16)
{
	double a = H(LO(IN(0))), b = H(LO(IN(1)));
	o[0] = xt_setlo(o[0], D2H(a + b));
	o[1] = xt_setlo(o[1], D2H(-H(HI(IN(0))) + fabs(b)));
	o[2] = xt_sethi(o[2], D2H(a + H(HI(IN(1)))));
}

static double fmin_ieee(double a, double b) { return a < b || (a == b && signbit(a)) ? a : b; }
static double fmax_ieee(double a, double b) { return a > b || (a == b && !signbit(a)) ? a : b; }
REF(ref_f16_binops)
{
	double a = H(LO(IN(0))), b = H(LO(IN(1)));
	o[0] = xt_setlo(o[0], D2H(a - b));
	o[1] = xt_setlo(o[1], D2H(b - a));
	o[2] = xt_setlo(o[2], D2H(a * b));
	o[3] = xt_setlo(o[3], D2H(fmin_ieee(a, b)));
	o[4] = xt_setlo(o[4], D2H(fmax_ieee(a, b)));
}

/* a * b + c with one rounding: the product of two f16 is exact in double
 * and its sum with an f16 of these ranges (at most 50 significant bits)
 * is exact in long double; xt_d2h rounds that once. */
static uint16_t fma_h(double a, double b, double cc)
{
	return xt_d2h((long double)a * b + cc);
}
REF(ref_fma_f16)
{
	double a = H(LO(IN(0))), b = H(LO(IN(1))), cc = H(LO(IN(2)));
	o[0] = xt_setlo(o[0], fma_h(a, b, cc));
	o[1] = xt_setlo(o[1], fma_h(a, b, H(LO(o[1]))));
	o[2] = xt_sethi(o[2], fma_h(H(HI(IN(0))), -H(HI(IN(1))), H(HI(IN(2)))));
}
REF(ref_fmak_f16)
{
	double a = H(LO(IN(0))), b = H(LO(IN(1)));
	o[0] = xt_setlo(o[0], fma_h(a, 3.0, b));
	o[1] = xt_setlo(o[1], fma_h(a, b, 3.0));
}

static double med3(double a, double b, double c) { return fmax(fmin(a, b), fmin(fmax(a, b), c)); }
REF(ref_minmax3_f16)
{
	double a = H(LO(IN(0))), b = H(LO(IN(1))), cc = H(LO(IN(2)));
	o[0] = xt_setlo(o[0], D2H(fmin(fmin(a, b), cc)));
	o[1] = xt_setlo(o[1], D2H(fmax(fmax(a, b), cc)));
	o[2] = xt_setlo(o[2], D2H(med3(a, b, cc)));
}

REF(ref_f16_unary)
{
	double a = H(LO(IN(0)));
	int e = 0;
	double m = a == 0 ? a : frexp(a, &e);
	double fr = a - floor(a);
	if (fr > 0x1.ffcp-1)
		fr = 0x1.ffcp-1;
	o[0] = xt_setlo(o[0], D2H(floor(a)));
	o[1] = xt_setlo(o[1], D2H(ceil(a)));
	o[2] = xt_setlo(o[2], D2H(trunc(a)));
	o[3] = xt_setlo(o[3], D2H(nearbyint(a)));
	o[4] = xt_setlo(o[4], D2H(fr));
	o[5] = xt_setlo(o[5], D2H(m));
	o[6] = xt_setlo(o[6], (uint16_t)e);
}

static void init_pos(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_h(lane, in, out, nin, nout);
	uint32_t r = xt_rand(lane, 0, 11);
	in[0] = (0x2000u + r % 0x2800u) | (r & 0xffff0000u); /* positive f16 in [2^-7, 2^3) */
}
REF(ref_f16_transc)
{
	long double a = H(LO(IN(0))), pi2 = 6.283185307179586476925286766559L;
	o[0] = xt_setlo(o[0], D2H((double)(1.0L / a)));
	o[1] = xt_setlo(o[1], D2H((double)sqrtl(a)));
	o[2] = xt_setlo(o[2], D2H((double)(1.0L / sqrtl(a))));
	o[3] = xt_setlo(o[3], D2H((double)log2l(a)));
	o[4] = xt_setlo(o[4], D2H((double)exp2l(a)));
	o[5] = xt_setlo(o[5], D2H((double)sinl(pi2 * a)));
	o[6] = xt_setlo(o[6], D2H((double)cosl(pi2 * a)));
}

static void init_ldexp(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_h(lane, in, out, nin, nout);
	in[1] = (uint16_t)(int16_t)((int)(xt_rand(lane, 1, 12) % 41) - 20) | 0x12340000u;
}
REF(ref_ldexp) { o[0] = xt_setlo(o[0], D2H(ldexp(H(LO(IN(0))), (int16_t)LO(IN(1))))); }

/* ---- 16-bit integers --------------------------------------------------------------------- */
REF(ref_i16_ops)
{
	uint16_t a = LO(IN(0)), b = LO(IN(1));
	o[0] = xt_setlo(o[0], (uint16_t)(a + b));
	o[1] = xt_setlo(o[1], (uint16_t)(a - b));
	o[2] = xt_setlo(o[2], (uint16_t)((uint32_t)a * b));
	o[3] = xt_setlo(o[3], (uint16_t)(b << (a & 15)));
	o[4] = xt_setlo(o[4], (uint16_t)(b >> (a & 15)));
	o[5] = xt_setlo(o[5], (uint16_t)((int16_t)b >> (a & 15)));
	o[6] = xt_setlo(o[6], (int16_t)a < (int16_t)b ? a : b);
	o[7] = xt_setlo(o[7], a > b ? a : b);
}
static uint16_t clamp_i(long v, long lo, long hi) { return (uint16_t)(v < lo ? lo : v > hi ? hi : v); }
REF(ref_i16_ops2)
{
	uint16_t a = LO(IN(0)), b = LO(IN(1));
	o[0] = xt_setlo(o[0], clamp_i((long)(int16_t)a + (int16_t)b, -32768, 32767));
	o[1] = xt_setlo(o[1], clamp_i((long)(int16_t)a - (int16_t)b, -32768, 32767));
	o[2] = xt_setlo(o[2], clamp_i((long)a + b, 0, 65535));
	o[3] = xt_setlo(o[3], clamp_i((long)a - b, 0, 65535));
	o[4] = xt_sethi(o[4], (uint16_t)(HI(IN(0)) + HI(IN(1))));
	o[5] = xt_setlo(o[5], (int16_t)a > (int16_t)b ? a : b);
	o[6] = xt_setlo(o[6], a < b ? a : b);
}
REF(ref_mad16)
{
	uint16_t a = LO(IN(0)), b = LO(IN(1)), cc = LO(IN(2));
	o[0] = xt_setlo(o[0], (uint16_t)((uint32_t)a * b + cc));
	o[1] = xt_setlo(o[1], clamp_i((long)(int16_t)a * (int16_t)b + (int16_t)cc, -32768, 32767));
	o[2] = (uint32_t)HI(IN(0)) * b + IN(2);
	o[3] = (uint32_t)((int32_t)(int16_t)a * (int16_t)b + (int32_t)IN(2));
}
static long imin(long a, long b) { return a < b ? a : b; }
static long imax(long a, long b) { return a > b ? a : b; }
REF(ref_minmax3_i16)
{
	long a = (int16_t)LO(IN(0)), b = (int16_t)LO(IN(1)), cc = (int16_t)LO(IN(2));
	long ua = LO(IN(0)), ub = LO(IN(1)), uc = LO(IN(2));
	o[0] = xt_setlo(o[0], (uint16_t)imin(imin(a, b), cc));
	o[1] = xt_setlo(o[1], (uint16_t)imax(imax(a, b), cc));
	o[2] = xt_setlo(o[2], (uint16_t)imax(imin(a, b), imin(imax(a, b), cc)));
	o[3] = xt_setlo(o[3], (uint16_t)imin(imin(ua, ub), uc));
	o[4] = xt_setlo(o[4], (uint16_t)imax(imax(ua, ub), uc));
	o[5] = xt_setlo(o[5], (uint16_t)imax(imin(ua, ub), imin(imax(ua, ub), uc)));
}
REF(ref_cndmask_b16)
{
	bool sel = (0x5a5a5a5au >> lane) & 1;
	o[0] = xt_setlo(o[0], sel ? LO(IN(1)) : LO(IN(0)));
}
REF(ref_b16_gfx11)
{
	o[0] = (uint32_t)(int32_t)(int16_t)LO(IN(0));
	o[1] = LO(IN(0));
	o[2] = xt_setlo(o[2], (uint16_t)~LO(IN(0)));
	o[3] = xt_setlo(o[3], LO(IN(0)) & LO(IN(1)));
	o[4] = xt_setlo(o[4], LO(IN(0)) | LO(IN(1)));
	o[5] = xt_setlo(o[5], LO(IN(0)) ^ LO(IN(1)));
}
static uint32_t satu8(int16_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v; }
REF(ref_sat_pk)
{
	o[0] = xt_setlo(o[0], (uint16_t)(satu8((int16_t)LO(IN(0))) | satu8((int16_t)HI(IN(0))) << 8));
	uint32_t a = IN(0) >> 14, b = IN(1) >> 15; /* the snippet shifts them into range */
	o[1] = (a > 0xffff ? 0xffff : a) | (b > 0xffff ? 0xffff : b) << 16;
	int32_t x = (int32_t)IN(0) >> 14, y = (int32_t)IN(1) >> 17;
	o[2] = (uint32_t)clamp_i(x, -32768, 32767) | (uint32_t)clamp_i(y, -32768, 32767) << 16;
}

/* ---- packed ----------------------------------------------------------------------------- */
static uint32_t pk(uint16_t lo, uint16_t hi) { return lo | (uint32_t)hi << 16; }
static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }
REF(ref_pk_f16)
{
	uint32_t a = IN(0), b = IN(1), cc = IN(2);
	o[0] = pk(D2H(H(LO(a)) + H(LO(b))), D2H(H(HI(a)) + H(HI(b))));
	/* op_sel:[1,0] op_sel_hi:[0,1]: low = a.hi * b.lo, high = a.lo * b.hi */
	o[1] = pk(D2H(H(HI(a)) * H(LO(b))), D2H(H(LO(a)) * H(HI(b))));
	/* neg_lo:[1,0,0] neg_hi:[0,1,0] */
	o[2] = pk(fma_h(-H(LO(a)), H(LO(b)), H(LO(cc))), fma_h(H(HI(a)), -H(HI(b)), H(HI(cc))));
	o[3] = pk(D2H(fmin_ieee(H(LO(a)), H(LO(b)))), D2H(fmin_ieee(H(HI(a)), H(HI(b)))));
	o[4] = pk(D2H(fmax_ieee(H(LO(a)), H(LO(b)))), D2H(fmax_ieee(H(HI(a)), H(HI(b)))));
	o[5] = pk(D2H(clamp01(H(LO(a)) + H(LO(b)))), D2H(clamp01(H(HI(a)) + H(HI(b)))));
}
REF(ref_pk_fmac)
{
	uint32_t a = IN(0), b = IN(1), d = o[0];
	o[0] = pk(fma_h(H(LO(a)), H(LO(b)), H(LO(d))), fma_h(H(HI(a)), H(HI(b)), H(HI(d))));
}
REF(ref_pk_int)
{
	uint32_t a = IN(0), b = IN(1);
	uint16_t al = LO(a), ah = HI(a), bl = LO(b), bh = HI(b);
	o[0] = pk((uint16_t)(al + bl), (uint16_t)(ah + bh));
	o[1] = pk((uint16_t)(al - bl), (uint16_t)(ah - bh));
	o[2] = pk((uint16_t)((uint32_t)al * bl), (uint16_t)((uint32_t)ah * bh));
	o[3] = pk((uint16_t)(bl << (al & 15)), (uint16_t)(bh << (ah & 15)));
	o[4] = pk((uint16_t)(bl >> (al & 15)), (uint16_t)(bh >> (ah & 15)));
	o[5] = pk((uint16_t)((int16_t)bl >> (al & 15)), (uint16_t)((int16_t)bh >> (ah & 15)));
	o[6] = pk((int16_t)al > (int16_t)bl ? al : bl, (int16_t)ah > (int16_t)bh ? ah : bh);
	o[7] = pk(al < bl ? al : bl, ah < bh ? ah : bh);
}
REF(ref_pk_int2)
{
	uint32_t a = IN(0), b = IN(1), cc = IN(2);
	uint16_t al = LO(a), ah = HI(a), bl = LO(b), bh = HI(b), cl = LO(cc), ch = HI(cc);
	o[0] = pk((uint16_t)((uint32_t)al * bl + cl), (uint16_t)((uint32_t)ah * bh + ch));
	o[1] = pk((uint16_t)((int16_t)al * (int16_t)bl + (int16_t)cl), (uint16_t)((int16_t)ah * (int16_t)bh + (int16_t)ch));
	o[2] = pk(clamp_i((long)(int16_t)al + (int16_t)bl, -32768, 32767),
		  clamp_i((long)(int16_t)ah + (int16_t)bh, -32768, 32767));
	o[3] = pk(clamp_i((long)al - bl, 0, 65535), clamp_i((long)ah - bh, 0, 65535));
	o[4] = pk(al > bl ? al : bl, ah > bh ? ah : bh);
	o[5] = pk((int16_t)al < (int16_t)bl ? al : bl, (int16_t)ah < (int16_t)bh ? ah : bh);
	/* op_sel:[1,1] op_sel_hi:[0,0]: low = a.hi + b.hi, high = a.lo + b.lo */
	o[6] = pk((uint16_t)(ah + bh), (uint16_t)(al + bl));
}

/* ---- fma_mix ------------------------------------------------------------------------------ */
static void init_mix(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_h(lane, in, out, nin, nout);
	uint32_t f[1];
	xt_init_f(lane, f, out, 1, 0);
	in[1] = f[0];
}
REF(ref_mix)
{
	float a = (float)H(LO(IN(0))), ah = (float)H(HI(IN(0))), b = f32(IN(1));
	float cl = (float)H(LO(IN(2))), ch = (float)H(HI(IN(2)));
	o[0] = u32(fmaf(a, b, cl));
	o[1] = u32(fmaf(fabsf(ah), -b, ch));
	o[2] = xt_setlo(o[2], D2H(fmaf(a, b, cl)));
	o[3] = xt_sethi(o[3], D2H(fmaf(ah, b, cl)));
}

/* ---- dot products --------------------------------------------------------------------------- */
static float dot2h(uint16_t a0, uint16_t b0, uint16_t a1, uint16_t b1, float acc)
{
	float t = acc;
	t += (float)H(a0) * (float)H(b0);
	t += (float)H(a1) * (float)H(b1);
	return t;
}
static void init_dot2f(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_h(lane, in, out, nin, nout);
	uint32_t f[4];
	xt_init_f(lane, f, out, 4, 0);
	in[2] = f[0];
	for (unsigned j = 0; j < nout; j++)
		out[j] = f[1 + j % 3];
}
REF(ref_dot2_f32_f16)
{
	uint32_t a = IN(0), b = IN(1);
	float cc = f32(IN(2));
	o[0] = u32(dot2h(LO(a), LO(b), HI(a), HI(b), cc));
	/* op_sel:[1,0,0] op_sel_hi:[0,1,1]: element 0 = a.hi * b.lo, element 1 = a.lo * b.hi */
	o[1] = u32(dot2h(HI(a), LO(b), LO(a), HI(b), cc));
	/* neg_lo:[1,0,0] neg_hi:[0,1,0] */
	o[2] = u32(dot2h(LO(a) ^ 0x8000, LO(b), HI(a), HI(b) ^ 0x8000, cc));
}
REF(ref_dot2c)
{
	uint32_t a = IN(0), b = IN(1);
	o[0] = u32(dot2h(LO(a), LO(b), HI(a), HI(b), f32(o[0])));
}
REF(ref_vopd_dot2acc)
{
	uint32_t a = IN(0), b = IN(1);
	o[0] = u32(dot2h(LO(a), LO(b), HI(a), HI(b), f32(o[0])));
	o[1] = IN(2);
}
static int64_t sat32s(int64_t v) { return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v; }
REF(ref_dot2_int)
{
	uint32_t a = IN(0), b = IN(1), cc = IN(2);
	int64_t s = (int64_t)(int16_t)LO(a) * (int16_t)LO(b) + (int64_t)(int16_t)HI(a) * (int16_t)HI(b);
	o[0] = (uint32_t)(s + (int32_t)cc);
	o[1] = (uint32_t)((uint64_t)LO(a) * LO(b) + (uint64_t)HI(a) * HI(b) + cc);
	o[2] = (uint32_t)sat32s(s + (int32_t)cc);
}
static int64_t el(uint32_t v, unsigned bits, unsigned i, bool sign)
{
	int64_t x = (v >> (bits * i)) & ((1u << bits) - 1);
	return sign && x >= (1 << (bits - 1)) ? x - (1 << bits) : x;
}
static int64_t dotn(uint32_t a, uint32_t b, unsigned bits, bool sa, bool sb)
{
	int64_t s = 0;
	for (unsigned i = 0; i < 32 / bits; i++)
		s += el(a, bits, i, sa) * el(b, bits, i, sb);
	return s;
}
REF(ref_dot_gfx10)
{
	uint32_t a = IN(0), b = IN(1), cc = IN(2);
	o[0] = (uint32_t)(dotn(a, b, 8, true, true) + (int32_t)cc);
	o[1] = (uint32_t)(dotn(a, b, 8, false, false) + cc);
	o[2] = (uint32_t)(dotn(a, b, 4, true, true) + (int32_t)cc);
	o[3] = (uint32_t)(dotn(a, b, 4, false, false) + cc);
	o[4] = (uint32_t)(dotn(a, b, 8, true, true) + (int32_t)o[4]);
	o[5] = (uint32_t)sat32s(dotn(a, b, 8, true, true) + (int64_t)(int32_t)(cc | 0x7fff0000u));
}
REF(ref_dot_gfx11)
{
	uint32_t a = IN(0), b = IN(1), cc = IN(2);
	o[0] = (uint32_t)(dotn(a, b, 8, true, true) + (int32_t)cc);
	o[1] = (uint32_t)(dotn(a, b, 8, true, false) + (int32_t)cc);
	o[2] = (uint32_t)(dotn(a, b, 8, false, false) + (int32_t)cc);
	o[3] = (uint32_t)(dotn(a, b, 8, false, false) + cc);
	o[4] = (uint32_t)(dotn(a, b, 4, false, true) + (int32_t)cc);
	o[5] = (uint32_t)(dotn(a, b, 4, false, false) + cc);
}
static void init_bf(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_h(lane, in, out, nin, nout);
	for (unsigned k = 0; k < 3; k++) {
		uint32_t r = xt_rand(lane, k, 21);
		/* bf16 values in [2^-4, 2^4) of either sign, 8-bit significands */
		uint16_t lo = (uint16_t)((r & 0x8000) | (0x3d80 + (r & 0x3ff)));
		uint16_t hi = (uint16_t)((r >> 16 & 0x8000) | (0x3d80 + (r >> 16 & 0x3ff)));
		in[3 + k] = pk(lo, hi);
	}
	uint32_t f[1];
	xt_init_f(lane, f, out, 1, 0);
	in[6] = f[0];
}
REF(ref_dot2_16)
{
	uint32_t a = IN(0), b = IN(1), cc = IN(2);
	/* the ISA guide: tmp = S2; tmp += S0.lo * S1.lo; tmp += S0.hi * S1.hi, in the 16-bit type */
	double t = H(LO(cc));
	t = H(D2H(t + H(LO(a)) * H(LO(b))));
	t = H(D2H(t + H(HI(a)) * H(HI(b))));
	o[0] = xt_setlo(o[0], D2H(t));
	t = H(HI(cc));
	t = H(D2H(t + H(LO(a)) * H(LO(b))));
	t = H(D2H(t + H(HI(a)) * H(HI(b))));
	o[1] = xt_sethi(o[1], D2H(t));
	uint32_t x = IN(3), y = IN(4), z = IN(5);
	double u = xt_bf2d(LO(z));
	u = xt_bf2d(xt_d2bf(u + xt_bf2d(LO(x)) * xt_bf2d(LO(y))));
	u = xt_bf2d(xt_d2bf(u + xt_bf2d(HI(x)) * xt_bf2d(HI(y))));
	o[2] = xt_setlo(o[2], xt_d2bf(u));
	float v = f32(IN(6));
	v += (float)(xt_bf2d(LO(x)) * xt_bf2d(LO(y)));
	v += (float)(xt_bf2d(HI(x)) * xt_bf2d(HI(y)));
	o[3] = u32(v);
}

/* ---- WMMA (gfx11, wave32) ------------------------------------------------------------------ */
/* Small integers, so that every product and sum is exact: A[m][k] and
 * B[k][n] in -3..3, C in -8..8.  Layout (the RDNA3 ISA guide, AMD's WMMA
 * article on GPUOpen): lane m (and m + 16) of A holds row m, element k in
 * VGPR k/2 (half k%2); lane n of B holds column n the same way; C and D:
 * VGPR v of lane l is element (row 2v + l/16, column l%16). */
static int wa(unsigned m, unsigned k) { return (int)(xt_rand(m, k, 31) % 7) - 3; }
static int wb(unsigned k, unsigned n) { return (int)(xt_rand(n, k, 32) % 7) - 3; }
static int wc(unsigned m, unsigned n) { return (int)(xt_rand(m, n, 33) % 17) - 8; }
static void init_wmma_h(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	(void)nin;
	unsigned r = lane % 16;
	for (unsigned v = 0; v < 8; v++) {
		in[v] = pk(D2H(wa(r, 2 * v)), D2H(wa(r, 2 * v + 1)));
		in[8 + v] = pk(D2H(wb(2 * v, r)), D2H(wb(2 * v + 1, r)));
		unsigned m = 2 * v + lane / 16, n = lane % 16;
		in[16 + v] = u32((float)wc(m, n)); /* f32 C */
		in[24 + v] = pk(D2H(wc(m, n)), D2H(-wc(m, n))); /* f16 C: lo, and its negation in hi */
	}
	for (unsigned j = 0; j < nout; j++)
		out[j] = 0xdead0000u | lane;
}
static long wsum(unsigned m, unsigned n, long acc)
{
	for (unsigned k = 0; k < 16; k++)
		acc += (long)wa(m, k) * wb(k, n);
	return acc;
}
REF(ref_wmma_f32)
{
	for (unsigned v = 0; v < 8; v++) {
		unsigned m = 2 * v + lane / 16, n = lane % 16;
		o[v] = u32((float)wsum(m, n, wc(m, n)));
	}
}
REF(ref_wmma_f16)
{
	(void)c;
	for (unsigned v = 0; v < 8; v++) {
		unsigned m = 2 * v + lane / 16, n = lane % 16;
		o[v] = xt_setlo(o[v], D2H((double)wsum(m, n, wc(m, n))));
		o[8 + v] = xt_sethi(o[8 + v], D2H((double)wsum(m, n, -wc(m, n))));
	}
}
static void init_wmma_i8(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	(void)nin;
	unsigned r = lane % 16;
	for (unsigned v = 0; v < 4; v++) {
		uint32_t a = 0, b = 0;
		for (unsigned i = 0; i < 4; i++) {
			a |= (uint32_t)(uint8_t)(int8_t)(wa(r, 4 * v + i) * 40) << (8 * i);
			b |= (uint32_t)(uint8_t)(int8_t)(wb(4 * v + i, r) * 40) << (8 * i);
		}
		in[v] = a;
		in[8 + v] = b;
	}
	for (unsigned v = 0; v < 8; v++)
		in[16 + v] = (uint32_t)(wc(2 * v + lane / 16, lane % 16) * 1000);
	for (unsigned j = 0; j < nout; j++)
		out[j] = 0xdead0000u | lane;
}
REF(ref_wmma_i8)
{
	(void)c;
	for (unsigned v = 0; v < 8; v++) {
		unsigned m = 2 * v + lane / 16, n = lane % 16;
		long s = wc(m, n) * 1000, u = s;
		for (unsigned k = 0; k < 16; k++) {
			long a = wa(m, k) * 40, b = wb(k, n) * 40;
			s += a * b;                           /* signed A and B */
			u += (long)(uint8_t)(int8_t)a * b;    /* unsigned A, signed B */
		}
		o[v] = (uint32_t)s;
		o[8 + v] = (uint32_t)u;
	}
}

static uint16_t bfi(int v) { return (uint16_t)(xt_f2u((float)v) >> 16); } /* small ints are exact */
static void init_wmma_bf(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	(void)nin;
	unsigned r = lane % 16;
	for (unsigned v = 0; v < 8; v++) {
		in[v] = pk(bfi(wa(r, 2 * v)), bfi(wa(r, 2 * v + 1)));
		in[8 + v] = pk(bfi(wb(2 * v, r)), bfi(wb(2 * v + 1, r)));
		unsigned m = 2 * v + lane / 16, n = lane % 16;
		in[16 + v] = u32((float)wc(m, n));
		in[24 + v] = pk(0x7fc0, bfi(wc(m, n))); /* bf16 C in the high half */
	}
	for (unsigned j = 0; j < nout; j++)
		out[j] = 0xdead0000u | lane;
}
REF(ref_wmma_bf)
{
	for (unsigned v = 0; v < 8; v++) {
		unsigned m = 2 * v + lane / 16, n = lane % 16;
		o[v] = u32((float)wsum(m, n, wc(m, n)));
		o[8 + v] = xt_sethi(o[8 + v], xt_d2bf((double)wsum(m, n, wc(m, n))));
	}
}
REF(ref_f16_misc_gfx11)
{
	double a = H(LO(IN(0))), b = H(LO(IN(1))), cc = H(LO(IN(2)));
	o[0] = xt_setlo(o[0], D2H(fmin(fmax(a, b), cc)));
	o[1] = xt_setlo(o[1], D2H(fmax(fmin(a, b), cc)));
}

REF(ref_vop3p_dpp)
{
	unsigned src = lane ^ 1; /* quad_perm:[1,0,3,2] and dpp8:[1,0,3,2,5,4,7,6] */
	float a = (float)H(LO(INL(src, 0))), b = f32(IN(1)), cl = (float)H(LO(IN(2)));
	o[0] = u32(fmaf(a, b, cl));
	uint32_t x = INL(src, 0), y = IN(2);
	o[1] = u32(dot2h(LO(x), LO(y), HI(x), HI(y), f32(IN(1))));
}

/* ---- encodings: true16, SDWA, DPP, gfx10 halves ------------------------------------------- */
REF(ref_true16)
{
	uint32_t a = IN(0), b = IN(1);
	o[0] = xt_sethi(o[0], D2H(H(LO(a)) + H(HI(b))));
	o[1] = xt_sethi(o[1], LO(a));
	o[2] = xt_setlo(o[2], D2H(H(HI(a)) + H(LO(b))));
	o[3] = u32((float)H(HI(a)));
}
REF(ref_sdwa)
{
	/* src0 WORD_1 + src1 WORD_0 into WORD_1, WORD_0 preserved */
	o[0] = xt_sethi(o[0], D2H(H(HI(IN(0))) + H(LO(IN(1)))));
}
REF(ref_dpp)
{
	unsigned src = lane ^ 1; /* quad_perm:[1,0,3,2] */
	o[0] = xt_setlo(o[0], D2H(H(LO(INL(src, 0))) + H(LO(IN(1)))));
}

const struct xt_test xt_tests_v16[] = {
	{ "cvt_f32_f16", XT_BOTH,
	  "v_cvt_f32_f16 v40, v1\n"
	  ".long 0xd58b0829, 0x00000101 ; v_cvt_f32_f16_e64 v41, v1 op_sel:[1,0]",
	  NULL, NULL, 1, 2, NULL, ref_cvt_f32_f16, XT_EXACT },
	{ "cvt_f16_f32", XT_BOTH,
	  "v_cvt_f16_f32 v40, v1\n"
	  ".long 0xd58a4029, 0x00000101 ; v_cvt_f16_f32_e64 v41, v1 op_sel:[0,1]",
	  NULL, NULL, 1, 2, init_cvt_f16, ref_cvt_f16_f32, XT_EXACT },
	{ "cvt_f16_int", XT_BOTH,
	  "v_cvt_f16_i16 v40, v1\nv_cvt_f16_u16 v41, v1\nv_cvt_i16_f16 v42, v2\nv_cvt_u16_f16 v43, v2",
	  NULL, NULL, 2, 4, init_cvt_int, ref_cvt_int, XT_EXACT },
	{ "cvt_pk_rtz_f16_f32", XT_BOTH, "v_cvt_pkrtz_f16_f32 v40, v1, v2", "v_cvt_pk_rtz_f16_f32 v40, v1, v2", NULL, 2, 1, init_rtz,
	  ref_cvt_pk_rtz, XT_EXACT },
	{ "pack_b32_f16", XT_BOTH, "v_pack_b32_f16 v40, v1, v2\nv_pack_b32_f16 v41, v1, -v2 op_sel:[1,1,0]", NULL,
	  NULL, 2, 2, NULL, ref_pack, XT_EXACT },
	{ "add_f16", XT_BOTH,
	  "v_add_f16 v40, v1, v2\n"
	  ".long 0xd5320a29, 0x20020501 ; v_add_f16_e64 v41, -v1, |v2| op_sel:[1,0,0]\n"
	  ".long 0xd532502a, 0x00020501 ; v_add_f16_e64 v42, v1, v2 op_sel:[0,1,1]",
	  NULL, NULL, 2, 3, NULL, ref_add_f16, XT_EXACT },
	{ "f16_binops", XT_BOTH,
	  "v_sub_f16 v40, v1, v2\nv_subrev_f16 v41, v1, v2\nv_mul_f16 v42, v1, v2\nv_min_f16 v43, v1, v2\n"
	  "v_max_f16 v44, v1, v2",
	  NULL, NULL, 2, 5, NULL, ref_f16_binops, XT_EXACT },
	{ "fma_f16", XT_BOTH,
	  "v_fma_f16 v40, v1, v2, v3\nv_fmac_f16 v41, v1, v2\nv_fma_f16 v42, v1, -v2, v3 op_sel:[1,1,1,1]", NULL,
	  NULL, 3, 3, init_hh, ref_fma_f16, XT_EXACT },
	{ "fmamk_fmaak_f16", XT_BOTH, "v_fmamk_f16 v40, v1, 0x4200, v2\nv_fmaak_f16 v41, v1, v2, 0x4200", NULL, NULL,
	  2, 2, NULL, ref_fmak_f16, XT_EXACT },
	{ "min3_max3_med3_f16", XT_BOTH, "v_min3_f16 v40, v1, v2, v3\nv_max3_f16 v41, v1, v2, v3\nv_med3_f16 v42, v1, v2, v3",
	  NULL, NULL, 3, 3, NULL, ref_minmax3_f16, XT_EXACT },
	{ "f16_unary", XT_BOTH,
	  "v_floor_f16 v40, v1\nv_ceil_f16 v41, v1\nv_trunc_f16 v42, v1\nv_rndne_f16 v43, v1\nv_fract_f16 v44, v1\n"
	  "v_frexp_mant_f16 v45, v1\nv_frexp_exp_i16_f16 v46, v1",
	  NULL, NULL, 1, 7, NULL, ref_f16_unary, XT_EXACT },
	{ "f16_transcendental", XT_BOTH,
	  "v_rcp_f16 v40, v1\nv_sqrt_f16 v41, v1\nv_rsq_f16 v42, v1\nv_log_f16 v43, v1\nv_exp_f16 v44, v1\n"
	  "v_sin_f16 v45, v1\nv_cos_f16 v46, v1",
	  NULL, NULL, 1, 7, init_pos, ref_f16_transc, XT_H1 },
	{ "ldexp_f16", XT_BOTH, "v_ldexp_f16 v40, v1, v2", NULL, NULL, 2, 1, init_ldexp, ref_ldexp, XT_EXACT },
	{ "i16_ops", XT_BOTH,
	  "v_add_nc_u16 v40, v1, v2\nv_sub_nc_u16 v41, v1, v2\nv_mul_lo_u16 v42, v1, v2\nv_lshlrev_b16 v43, v1, v2\n"
	  "v_lshrrev_b16 v44, v1, v2\nv_ashrrev_i16 v45, v1, v2\nv_min_i16 v46, v1, v2\nv_max_u16 v47, v1, v2",
	  NULL, NULL, 2, 8, xt_init_u, ref_i16_ops, XT_EXACT },
	{ "i16_ops_clamp_opsel", XT_BOTH,
	  "v_add_nc_i16 v40, v1, v2 clamp\nv_sub_nc_i16 v41, v1, v2 clamp\nv_add_nc_u16 v42, v1, v2 clamp\n"
	  "v_sub_nc_u16 v43, v1, v2 clamp\nv_add_nc_u16 v44, v1, v2 op_sel:[1,1,1]\nv_max_i16 v45, v1, v2\n"
	  "v_min_u16 v46, v1, v2",
	  NULL, NULL, 2, 7, xt_init_u, ref_i16_ops2, XT_EXACT },
	{ "mad_16", XT_BOTH,
	  "v_mad_u16 v40, v1, v2, v3\nv_mad_i16 v41, v1, v2, v3 clamp\nv_mad_u32_u16 v42, v1, v2, v3 op_sel:[1,0,0,0]\n"
	  "v_mad_i32_i16 v43, v1, v2, v3",
	  NULL, NULL, 3, 4, xt_init_u, ref_mad16, XT_EXACT },
	{ "min3_max3_med3_i16_u16", XT_BOTH,
	  "v_min3_i16 v40, v1, v2, v3\nv_max3_i16 v41, v1, v2, v3\nv_med3_i16 v42, v1, v2, v3\n"
	  "v_min3_u16 v43, v1, v2, v3\nv_max3_u16 v44, v1, v2, v3\nv_med3_u16 v45, v1, v2, v3",
	  NULL, NULL, 3, 6, xt_init_u, ref_minmax3_i16, XT_EXACT },
	{ "cndmask_b16", XT_G11, "s_mov_b32 vcc_lo, 0x5a5a5a5a\nv_cndmask_b16 v40, v1, v2, vcc_lo", NULL, NULL, 2, 1,
	  xt_init_u, ref_cndmask_b16, XT_EXACT },
	{ "b16_gfx11", XT_G11,
	  "v_cvt_i32_i16 v40, v1\nv_cvt_u32_u16 v41, v1\nv_not_b16 v42, v1\nv_and_b16 v43, v1, v2\n"
	  "v_or_b16 v44, v1, v2\nv_xor_b16 v45, v1, v2",
	  NULL, NULL, 2, 6, xt_init_u, ref_b16_gfx11, XT_EXACT },
	{ "sat_pk_cvt_pk", XT_BOTH,
	  "v_sat_pk_u8_i16 v40, v1\nv_lshrrev_b32 v72, 14, v1\nv_lshrrev_b32 v73, 15, v2\nv_cvt_pk_u16_u32 v41, v72, v73\n"
	  "v_ashrrev_i32 v72, 14, v1\nv_ashrrev_i32 v73, 17, v2\nv_cvt_pk_i16_i32 v42, v72, v73",
	  NULL, NULL, 2, 3, xt_init_u, ref_sat_pk, XT_EXACT },
	{ "pk_f16", XT_BOTH,
	  "v_pk_add_f16 v40, v1, v2\nv_pk_mul_f16 v41, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]\n"
	  "v_pk_fma_f16 v42, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,1,0]\nv_pk_min_f16 v43, v1, v2\n"
	  "v_pk_max_f16 v44, v1, v2\nv_pk_add_f16 v45, v1, v2 clamp",
	  NULL, NULL, 3, 6, NULL, ref_pk_f16, XT_EXACT },
	{ "pk_fmac_f16", XT_BOTH, "v_pk_fmac_f16 v40, v1, v2", NULL, NULL, 2, 1, init_hh, ref_pk_fmac, XT_EXACT },
	{ "pk_int", XT_BOTH,
	  "v_pk_add_u16 v40, v1, v2\nv_pk_sub_i16 v41, v1, v2\nv_pk_mul_lo_u16 v42, v1, v2\n"
	  "v_pk_lshlrev_b16 v43, v1, v2\nv_pk_lshrrev_b16 v44, v1, v2\nv_pk_ashrrev_i16 v45, v1, v2\n"
	  "v_pk_max_i16 v46, v1, v2\nv_pk_min_u16 v47, v1, v2",
	  NULL, NULL, 2, 8, xt_init_u, ref_pk_int, XT_EXACT },
	{ "pk_int_mad_clamp_opsel", XT_BOTH,
	  "v_pk_mad_u16 v40, v1, v2, v3\nv_pk_mad_i16 v41, v1, v2, v3\nv_pk_add_i16 v42, v1, v2 clamp\n"
	  "v_pk_sub_u16 v43, v1, v2 clamp\nv_pk_max_u16 v44, v1, v2\nv_pk_min_i16 v45, v1, v2\n"
	  "v_pk_add_u16 v46, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]",
	  NULL, NULL, 3, 7, xt_init_u, ref_pk_int2, XT_EXACT },
	{ "fma_mix", XT_BOTH,
	  "v_fma_mix_f32 v40, v1, v2, v3 op_sel_hi:[1,0,1]\n"
	  "v_fma_mix_f32 v41, |v1|, -v2, v3 op_sel:[1,0,1] op_sel_hi:[1,0,1]\n"
	  "v_fma_mixlo_f16 v42, v1, v2, v3 op_sel_hi:[1,0,1]\n"
	  "v_fma_mixhi_f16 v43, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[1,0,1]",
	  NULL, NULL, 3, 4, init_mix, ref_mix, XT_EXACT },
	{ "dot2_f32_f16", XT_BOTH,
	  "v_dot2_f32_f16 v40, v1, v2, v3\nv_dot2_f32_f16 v41, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1]\n"
	  "v_dot2_f32_f16 v42, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,1,0]",
	  NULL, NULL, 3, 3, init_dot2f, ref_dot2_f32_f16, XT_EXACT },
	{ "dot2c_dot2acc_f32_f16", XT_BOTH, "v_dot2c_f32_f16 v40, v1, v2", "v_dot2acc_f32_f16 v40, v1, v2", NULL, 3, 1,
	  init_dot2f, ref_dot2c, XT_EXACT },
	{ "dot2acc_v128_gfx11", XT_G11, "v_mov_b32 v130, v2\nv_dot2acc_f32_f16 v40, v1, v130", NULL, NULL, 3, 1,
	  init_dot2f, ref_dot2c, XT_EXACT },
	{ "vopd_dot2acc", XT_G11, "v_dual_dot2acc_f32_f16 v40, v1, v2 :: v_dual_mov_b32 v41, v3", NULL, NULL, 3, 2,
	  init_dot2f, ref_vopd_dot2acc, XT_EXACT },
	{ "dot2_i32_u32_16", XT_G10,
	  "v_dot2_i32_i16 v40, v1, v2, v3\nv_dot2_u32_u16 v41, v1, v2, v3\nv_dot2_i32_i16 v42, v1, v2, v3 clamp", NULL,
	  NULL, 3, 3, xt_init_u, ref_dot2_int, XT_EXACT },
	{ "dot4_dot8_gfx10", XT_G10,
	  "v_dot4_i32_i8 v40, v1, v2, v3\nv_dot4_u32_u8 v41, v1, v2, v3\nv_dot8_i32_i4 v42, v1, v2, v3\n"
	  "v_dot8_u32_u4 v43, v1, v2, v3\nv_dot4c_i32_i8 v44, v1, v2\n"
	  "v_or_b32 v72, 0x7fff0000, v3\nv_dot4_i32_i8 v45, v1, v2, v72 clamp",
	  NULL, NULL, 3, 6, xt_init_u, ref_dot_gfx10, XT_EXACT },
	{ "dot4_dot8_gfx11", XT_G11,
	  "v_dot4_i32_iu8 v40, v1, v2, v3 neg_lo:[1,1,0]\nv_dot4_i32_iu8 v41, v1, v2, v3 neg_lo:[1,0,0]\n"
	  "v_dot4_i32_iu8 v42, v1, v2, v3\nv_dot4_u32_u8 v43, v1, v2, v3\n"
	  "v_dot8_i32_iu4 v44, v1, v2, v3 neg_lo:[0,1,0]\nv_dot8_u32_u4 v45, v1, v2, v3",
	  NULL, NULL, 3, 6, xt_init_u, ref_dot_gfx11, XT_EXACT },
	{ "dot2_16bit_gfx11", XT_G11,
	  "v_dot2_f16_f16 v40, v1, v2, v3\nv_dot2_f16_f16 v41, v1, v2, v3 op_sel:[0,0,1,1]\n"
	  "v_dot2_bf16_bf16 v42, v4, v5, v6\nv_dot2_f32_bf16 v43, v4, v5, v7",
	  NULL, NULL, 7, 4, init_bf, ref_dot2_16, XT_EXACT },
	{ "wmma_f32_f16", XT_G11, "v_wmma_f32_16x16x16_f16 v[40:47], v[1:8], v[9:16], v[17:24]", NULL, NULL, 32, 8,
	  init_wmma_h, ref_wmma_f32, XT_EXACT },
	{ "wmma_f16_f16", XT_G11,
	  "v_wmma_f16_16x16x16_f16 v[40:47], v[1:8], v[9:16], v[25:32]\n"
	  "v_wmma_f16_16x16x16_f16 v[48:55], v[1:8], v[9:16], v[25:32] op_sel:[0,0,1]",
	  NULL, NULL, 32, 16, init_wmma_h, ref_wmma_f16, XT_EXACT },
	{ "wmma_i32_iu8", XT_G11,
	  "v_wmma_i32_16x16x16_iu8 v[40:47], v[1:4], v[9:12], v[17:24] neg_lo:[1,1,0]\n"
	  "v_wmma_i32_16x16x16_iu8 v[48:55], v[1:4], v[9:12], v[17:24] neg_lo:[0,1,0]",
	  NULL, NULL, 24, 16, init_wmma_i8, ref_wmma_i8, XT_EXACT },
	{ "wmma_bf16", XT_G11,
	  "v_wmma_f32_16x16x16_bf16 v[40:47], v[1:8], v[9:16], v[17:24]\n"
	  "v_wmma_bf16_16x16x16_bf16 v[48:55], v[1:8], v[9:16], v[25:32] op_sel:[0,0,1]",
	  NULL, NULL, 32, 16, init_wmma_bf, ref_wmma_bf, XT_EXACT },
	{ "maxmin_minmax_f16", XT_G11, "v_maxmin_f16 v40, v1, v2, v3\nv_minmax_f16 v41, v1, v2, v3", NULL, NULL, 3, 2,
	  NULL, ref_f16_misc_gfx11, XT_EXACT },
	{ "vop3p_dpp_gfx11", XT_G11,
	  "v_fma_mix_f32 v40, v1, v2, v3 op_sel_hi:[1,0,1] quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
	  "v_dot2_f32_f16 v41, v1, v3, v2 dpp8:[1,0,3,2,5,4,7,6]",
	  NULL, NULL, 3, 2, init_mix, ref_vop3p_dpp, XT_EXACT },
	{ "true16_halves_gfx11", XT_G11,
	  "v_add_f16 v40.h, v1.l, v2.h\nv_mov_b16 v41.h, v1.l\nv_add_f16 v42.l, v1.h, v2.l\n"
	  ".long 0x7e561781 ; v_cvt_f32_f16_e32 v43, v1.h (src0 0x181: v1 with bit 7 set)",
	  NULL, "+real-true16", 2, 4, NULL, ref_true16, XT_EXACT },
	{ "sdwa_f16_gfx10", XT_G10,
	  "v_add_f16_sdwa v40, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0", NULL,
	  NULL, 2, 1, NULL, ref_sdwa, XT_EXACT },
	{ "dpp_f16", XT_BOTH, "v_add_f16_dpp v40, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", NULL, NULL, 2,
	  1, NULL, ref_dpp, XT_EXACT },
};
const unsigned xt_ntests_v16 = sizeof xt_tests_v16 / sizeof xt_tests_v16[0];
