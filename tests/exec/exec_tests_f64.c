/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_f64.c — single-instruction tests of the engine's f64 vector
 * instructions: add/mul/fma/min/max, the division sequence LLVM emits
 * (v_div_scale/rcp/fma/div_fmas/div_fixup) and the fixup's special cases,
 * frexp/ldexp/fract/rounding, rcp/rsq/sqrt, the conversions, every f64
 * compare and v_cmp_class_f64, and v_trig_preop_f64.  Lanes 0-15 hold the
 * edge values (signed zeros, infinities, quiet and signaling NaNs,
 * denormals, the largest double, 2^-1022); the others random finite
 * values over a wide exponent range.  References are written from the ISA
 * guides' pseudocode with plain C double arithmetic (IEEE, round to
 * nearest even); NaN results are compared as "a NaN" (XT_F64NAN) where the
 * pseudocode leaves the payload open.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "exec_harness.h"

static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double in_d(const struct xt_ctx *c, unsigned lane, unsigned k)
{
	const uint32_t *in = c->in + lane * c->nin;
	return u2d((uint64_t)in[2 * k + 1] << 32 | in[2 * k]);
}
static void out_d(uint32_t *out, unsigned j, double v)
{
	uint64_t u = d2u(v);
	out[2 * j] = (uint32_t)u;
	out[2 * j + 1] = (uint32_t)(u >> 32);
}

#define D_QNAN 0x7ff8000000000000ull
#define D_SNAN 0x7ff0000000000001ull
static const uint64_t special[16] = {
	0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
	0x7ff0000000000000ull, 0xfff0000000000000ull, D_QNAN, D_SNAN,
	0x0000000000000001ull, 0x800000000000000bull, 0x7fefffffffffffffull, 0x7fe0000000000000ull,
	0x3fb999999999999aull, 0x4008000000000000ull, 0x0010000000000000ull, 0xc35fffffffffffffull,
};

/* A finite double with a random exponent in about [2^-40, 2^40) of either sign. */
static uint64_t rand_d(unsigned lane, unsigned k)
{
	uint64_t r = (uint64_t)xt_rand(lane, k, 21) << 32 | xt_rand(lane, k, 22);
	uint64_t e = 1023 - 40 + (r >> 52) % 80;
	return (r & 0x800fffffffffffffull) | e << 52;
}

/* nin/2 doubles: lanes 0-15 combine the specials, the rest random. */
static void init_d(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	for (unsigned k = 0; k < nin / 2; k++) {
		uint64_t v = lane < 16 ? special[(lane * (2 * k + 1) + 5 * k) % 16] : rand_d(lane, k);
		if (lane >= 16 && lane < 20 && k == 1)
			v = special[lane - 8]; /* random against denormals and huge values */
		in[2 * k] = (uint32_t)v;
		in[2 * k + 1] = (uint32_t)(v >> 32);
	}
	for (unsigned k = nin & ~1u; k < nin; k++)
		in[k] = xt_rand(lane, k, 23);
	for (unsigned j = 0; j < nout; j++)
		out[j] = xt_rand(lane, 100 + j, 24);
}

/* ---- add, mul, fma, min, max ------------------------------------------------ */
static bool snan(double a) { uint64_t u = d2u(a); return isnan(a) && !(u & 0x8000000000000ull); }
static double quiet(double a) { return u2d(d2u(a) | 0x8000000000000ull); }

/* V_MIN_F64/V_MAX_F64, IEEE mode: sNaN -> quieted (S0 first), a quiet NaN
 * gives the other operand, -0 < +0. */
static double ref_min(double a, double b, bool max)
{
	if (snan(a))
		return quiet(a);
	if (snan(b))
		return quiet(b);
	if (isnan(b))
		return a;
	if (isnan(a))
		return b;
	bool lt = a < b || (a == 0 && b == 0 && signbit(a) && !signbit(b));
	bool gt = a > b || (a == 0 && b == 0 && !signbit(a) && signbit(b));
	return max ? (gt ? a : b) : (lt ? a : b);
}

static void ref_arith(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	double a = in_d(c, lane, 0), b = in_d(c, lane, 1), d = in_d(c, lane, 2);
	out_d(out, 0, a + b);
	out_d(out, 1, a * b);
	out_d(out, 2, fma(a, b, d));
	out_d(out, 3, ref_min(a, b, false));
	out_d(out, 4, ref_min(a, b, true));
	out_d(out, 5, -a + fabs(b)); /* v_add_f64 with neg and abs modifiers */
}

/* ---- division: LLVM's sequence, then the fixup's special cases ------------------------ */
static void init_div(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	init_d(lane, in, out, nin, nout);
	uint64_t n = 0, dd = 0;
	switch (lane) { /* numerator, denominator */
	case 20: n = 0x7fe0000000000000ull; dd = 0x0010000000000000ull; break; /* overflow: inf */
	case 21: n = 0x0010000000000000ull; dd = 0x7fe0000000000000ull; break; /* underflow: denormal */
	case 22: n = 0x0000000000000003ull; dd = 0x4000000000000000ull; break; /* denormal / 2 */
	case 23: n = 0x3ff0000000000000ull; dd = 0x0000000000000001ull; break; /* 1 / min denormal: inf */
	case 24: n = 0x4024000000000000ull; dd = 0x4008000000000000ull; break; /* 10/3 */
	default: return;
	}
	in[0] = (uint32_t)n;
	in[1] = (uint32_t)(n >> 32);
	in[2] = (uint32_t)dd;
	in[3] = (uint32_t)(dd >> 32);
}

/* V_DIV_FIXUP_F64 (S0 = quotient, S1 = denominator, S2 = numerator). */
static double ref_fixup(double q, double den, double num)
{
	bool neg = signbit(den) != signbit(num);
	if (isnan(num))
		return quiet(num);
	if (isnan(den))
		return quiet(den);
	if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
		return u2d(0xfff8000000000000ull);
	if (den == 0 || isinf(num))
		return neg ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0)
		return neg ? -0.0 : 0.0;
	if (isnan(q))
		return neg ? -INFINITY : INFINITY;
	return neg ? -fabs(q) : fabs(q);
}

static void ref_div(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	double a = in_d(c, lane, 0), b = in_d(c, lane, 1), q = in_d(c, lane, 2);
	out_d(out, 0, a / b);            /* the whole sequence: IEEE division */
	out_d(out, 1, ref_fixup(q, b, a)); /* v_div_fixup_f64 alone */
}

/* ---- frexp, ldexp, fract, rounding, rcp, rsq, sqrt ------------------------------------ */
static void ref_misc(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	double a = in_d(c, lane, 0);
	const uint32_t *in = c->in + lane * c->nin;
	int32_t e = (int32_t)in[2] >> 20; /* about +-2048: out-of-range exponents too */
	if (isnan(a) || isinf(a)) { /* V_FREXP_MANT/EXP: S0, 0 */
		out_d(out, 0, a);
		out[2] = 0;
	} else {
		int fe;
		out_d(out, 0, frexp(a, &fe));
		out[2] = (uint32_t)fe;
	}
	out[3] = 0;
	out_d(out, 2, ldexp(a, e));
	double fr = a - floor(a);
	out_d(out, 3, isnan(a) ? a : isinf(a) ? NAN : fr < 1.0 ? fr : 0x1.fffffffffffffp-1);
	out_d(out, 4, floor(a));
	out_d(out, 5, ceil(a));
	out_d(out, 6, trunc(a));
	out_d(out, 7, nearbyint(a));
	out_d(out, 8, 1.0 / a);
	out_d(out, 9, sqrt(a));
	out_d(out, 10, 1.0 / sqrt(a));
}

/* ---- conversions ------------------------------------------------------------------ */
static void init_cvt(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	init_d(lane, in, out, nin, nout);
	static const uint64_t big[] = { 0x41dfffffffc00000ull /* 2^31-1 */, 0x41e0000000000000ull /* 2^31 */,
					0xc1e0000000200000ull /* -2^31-1 */, 0x41efffffffe00000ull /* 2^32-1 */,
					0x41f0000000000000ull /* 2^32 */, 0xbfefffffffffffffull /* -0.99.. */,
					0x3fe0000000000000ull /* 0.5 */, 0x7ff4000000000000ull /* sNaN */ };
	if (lane >= 20 && lane < 28) {
		in[0] = (uint32_t)big[lane - 20];
		in[1] = (uint32_t)(big[lane - 20] >> 32);
	}
	if (lane == 28)
		in[2] = 0x7f800001u; /* f32 sNaN */
	if (lane == 29)
		in[2] = 0x00000001u; /* f32 denormal */
}
static int32_t ref_i32(double a)
{
	return isnan(a) ? 0 : a >= 2147483647.0 ? INT32_MAX : a <= -2147483648.0 ? INT32_MIN : (int32_t)a;
}
static uint32_t ref_u32(double a)
{
	return isnan(a) || a <= 0 ? 0 : a >= 4294967295.0 ? UINT32_MAX : (uint32_t)a;
}
static void ref_cvt(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	double a = in_d(c, lane, 0);
	float f = xt_u2f(in[2]);
	out_d(out, 0, (double)f);              /* v_cvt_f64_f32 */
	out_d(out, 1, (double)(int32_t)in[3]); /* v_cvt_f64_i32 */
	out_d(out, 2, (double)in[3]);          /* v_cvt_f64_u32 */
	out[6] = xt_f2u((float)a);             /* v_cvt_f32_f64 */
	out[7] = (uint32_t)ref_i32(a);         /* v_cvt_i32_f64 */
	out[8] = ref_u32(a);                   /* v_cvt_u32_f64 */
}

/* ---- compares ---------------------------------------------------------------------- */
static void ref_cmp(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	double a = in_d(c, lane, 0), b = in_d(c, lane, 1);
	bool un = isnan(a) || isnan(b);
	bool r[16] = { false, a < b, a == b, a <= b, a > b, !un && a != b, a >= b, !un,
		       un, !(a >= b), !(a != b) || un, !(a > b), !(a <= b), a != b, !(a < b), true };
	/* v_cmp_lg is ordered not-equal; v_cmp_nlg is its negation */
	r[10] = !r[5];
	for (unsigned j = 0; j < 16; j++)
		out[j] = r[j];
	/* v_cmp_class_f64 with the mask in the third input dword: bit 0 sNaN,
	 * 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
	 * 8 +normal, 9 +inf */
	uint32_t mask = c->in[lane * c->nin + 4];
	unsigned bit;
	uint64_t u = d2u(a);
	unsigned ex = (unsigned)(u >> 52) & 0x7ff;
	bool neg = signbit(a);
	if (isnan(a))
		bit = snan(a) ? 0 : 1;
	else if (ex == 0x7ff)
		bit = neg ? 2 : 9;
	else if (ex)
		bit = neg ? 3 : 8;
	else if (u << 1)
		bit = neg ? 4 : 7;
	else
		bit = neg ? 5 : 6;
	out[16] = (mask >> bit) & 1;
}

/* ---- v_trig_preop_f64 ---------------------------------------------------------------- */
/* 2/PI's first 1184 fraction bits, hexadecimal (most significant first). */
static const char two_over_pi_hex[] =
	"a2f9836e4e441529fc2757d1f534ddc0db6295993c439041fe5163abdebbc561b7246e3a424dd2e006492eea09d1921c"
	"fe1deb1cb129a73ee88235f52ebb4484e99c7026b45f7e413991d639835339f49c845f8bbdf9283b1ff897ffde05980f"
	"ef2f118b5a0a6d1f6d367ecf27cb09b74f463f669e5fea2d7527bac7ebe5f17b3d0739f78a5292ea6bfb5fb11f8d5d08"
	"56033046";
static unsigned pi_bit(unsigned i)
{
	char h = two_over_pi_hex[i / 4];
	unsigned v = (unsigned)(h <= '9' ? h - '0' : h - 'a' + 10);
	return (v >> (3 - i % 4)) & 1;
}
static void init_trig(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	init_d(lane, in, out, nin, nout);
	static const uint64_t x[] = { 0x3ff0000000000000ull, 0x4340000000000000ull /* 2^53, exp 1076 */,
				      0x4350000000000000ull /* exp 1077 */, 0x4360000000000000ull /* exp 1078 */,
				      0x7ae0000000000000ull /* exp 1966 */, 0x7b00000000000000ull /* exp 1968 */,
				      0x7fefffffffffffffull, 0xc1d0000000000000ull };
	uint64_t v = x[lane % 8];
	in[0] = (uint32_t)v;
	in[1] = (uint32_t)(v >> 32);
	in[2] = lane < 8 ? 0 : lane < 16 ? 1 : lane < 24 ? lane - 14 : lane; /* segments 0-31 */
	if (lane == 31) {
		in[0] = 0;
		in[1] = 0x7ff80000u; /* NaN */
	}
}
static void ref_trig(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	double a = in_d(c, lane, 0);
	uint32_t seg = c->in[lane * c->nin + 2] & 31;
	if (isnan(a)) {
		out_d(out, 0, quiet(a));
		return;
	}
	int e = (int)((d2u(a) >> 52) & 0x7ff);
	unsigned shift = seg * 53 + (e > 1077 ? (unsigned)e - 1077 : 0);
	uint64_t m = 0;
	for (unsigned i = 0; i < 53; i++)
		m = m << 1 | (shift + i < 1184 ? pi_bit(shift + i) : 0);
	if (shift >= 1120) /* the hardware's last segment: LLVM folds these to 0 */
		m = 0;
	out_d(out, 0, ldexp((double)m, -53 - (int)shift + (e >= 1968 ? 128 : 0)));
}

const struct xt_test xt_tests_f64[] = {
	{ "f64_add_mul_fma_min_max", XT_BOTH,
	  "v_add_f64 v[40:41], v[1:2], v[3:4]\nv_mul_f64 v[42:43], v[1:2], v[3:4]\n"
	  "v_fma_f64 v[44:45], v[1:2], v[3:4], v[5:6]\nv_min_f64 v[46:47], v[1:2], v[3:4]\n"
	  "v_max_f64 v[48:49], v[1:2], v[3:4]\nv_add_f64 v[50:51], -v[1:2], |v[3:4]|",
	  NULL, NULL, 6, 12, init_d, ref_arith, XT_F64NAN },
	{ "f64_div_sequence_fixup", XT_BOTH,
	  "v_div_scale_f64 v[7:8], s10, v[3:4], v[3:4], v[1:2]\n"
	  "v_div_scale_f64 v[9:10], vcc_lo, v[1:2], v[3:4], v[1:2]\n"
	  "v_rcp_f64 v[11:12], v[7:8]\n"
	  "v_fma_f64 v[13:14], -v[7:8], v[11:12], 1.0\n"
	  "v_fma_f64 v[11:12], v[11:12], v[13:14], v[11:12]\n"
	  "v_fma_f64 v[13:14], -v[7:8], v[11:12], 1.0\n"
	  "v_fma_f64 v[11:12], v[11:12], v[13:14], v[11:12]\n"
	  "v_mul_f64 v[13:14], v[9:10], v[11:12]\n"
	  "v_fma_f64 v[15:16], -v[7:8], v[13:14], v[9:10]\n"
	  "v_div_fmas_f64 v[13:14], v[15:16], v[11:12], v[13:14]\n"
	  "v_div_fixup_f64 v[40:41], v[13:14], v[3:4], v[1:2]\n"
	  "v_div_fixup_f64 v[42:43], v[5:6], v[3:4], v[1:2]",
	  NULL, NULL, 6, 4, init_div, ref_div, XT_F64NAN },
	{ "f64_frexp_ldexp_fract_round_rcp_sqrt", XT_BOTH,
	  "v_frexp_mant_f64 v[40:41], v[1:2]\nv_frexp_exp_i32_f64 v42, v[1:2]\nv_mov_b32 v43, 0\n"
	  "v_ashrrev_i32 v5, 20, v3\nv_ldexp_f64 v[44:45], v[1:2], v5\nv_fract_f64 v[46:47], v[1:2]\n"
	  "v_floor_f64 v[48:49], v[1:2]\nv_ceil_f64 v[50:51], v[1:2]\nv_trunc_f64 v[52:53], v[1:2]\n"
	  "v_rndne_f64 v[54:55], v[1:2]\nv_rcp_f64 v[56:57], v[1:2]\nv_sqrt_f64 v[58:59], v[1:2]\n"
	  "v_rsq_f64 v[60:61], v[1:2]",
	  NULL, NULL, 3, 22, init_d, ref_misc, XT_F64NAN },
	{ "f64_cvt", XT_BOTH,
	  "v_cvt_f64_f32 v[40:41], v3\nv_cvt_f64_i32 v[42:43], v4\nv_cvt_f64_u32 v[44:45], v4\n"
	  "v_cvt_f32_f64 v46, v[1:2]\nv_cvt_i32_f64 v47, v[1:2]\nv_cvt_u32_f64 v48, v[1:2]",
	  NULL, NULL, 4, 9, init_cvt, ref_cvt, XT_F64NAN },
	{ "f64_cmp_class", XT_BOTH,
	  "v_cmp_f_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v40, 0, 1, vcc_lo\n"
	  "v_cmp_lt_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v41, 0, 1, vcc_lo\n"
	  "v_cmp_eq_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v42, 0, 1, vcc_lo\n"
	  "v_cmp_le_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v43, 0, 1, vcc_lo\n"
	  "v_cmp_gt_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v44, 0, 1, vcc_lo\n"
	  "v_cmp_lg_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v45, 0, 1, vcc_lo\n"
	  "v_cmp_ge_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v46, 0, 1, vcc_lo\n"
	  "v_cmp_o_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v47, 0, 1, vcc_lo\n"
	  "v_cmp_u_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v48, 0, 1, vcc_lo\n"
	  "v_cmp_nge_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v49, 0, 1, vcc_lo\n"
	  "v_cmp_nlg_f64 s12, v[1:2], v[3:4]\nv_cndmask_b32 v50, 0, 1, s12\n"
	  "v_cmp_ngt_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v51, 0, 1, vcc_lo\n"
	  "v_cmp_nle_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v52, 0, 1, vcc_lo\n"
	  "v_cmp_neq_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v53, 0, 1, vcc_lo\n"
	  "v_cmp_nlt_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v54, 0, 1, vcc_lo\n"
	  "v_cmp_tru_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v55, 0, 1, vcc_lo\n"
	  "v_cmp_class_f64 vcc_lo, v[1:2], v5\nv_cndmask_b32 v56, 0, 1, vcc_lo",
	  "v_cmp_f_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v40, 0, 1, vcc_lo\n"
	  "v_cmp_lt_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v41, 0, 1, vcc_lo\n"
	  "v_cmp_eq_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v42, 0, 1, vcc_lo\n"
	  "v_cmp_le_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v43, 0, 1, vcc_lo\n"
	  "v_cmp_gt_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v44, 0, 1, vcc_lo\n"
	  "v_cmp_lg_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v45, 0, 1, vcc_lo\n"
	  "v_cmp_ge_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v46, 0, 1, vcc_lo\n"
	  "v_cmp_o_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v47, 0, 1, vcc_lo\n"
	  "v_cmp_u_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v48, 0, 1, vcc_lo\n"
	  "v_cmp_nge_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v49, 0, 1, vcc_lo\n"
	  "v_cmp_nlg_f64 s12, v[1:2], v[3:4]\nv_cndmask_b32 v50, 0, 1, s12\n"
	  "v_cmp_ngt_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v51, 0, 1, vcc_lo\n"
	  "v_cmp_nle_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v52, 0, 1, vcc_lo\n"
	  "v_cmp_neq_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v53, 0, 1, vcc_lo\n"
	  "v_cmp_nlt_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v54, 0, 1, vcc_lo\n"
	  "v_cmp_t_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v55, 0, 1, vcc_lo\n"
	  "v_cmp_class_f64 vcc_lo, v[1:2], v5\nv_cndmask_b32 v56, 0, 1, vcc_lo",
	  NULL, 5, 17, init_d, ref_cmp, XT_EXACT },
	{ "f64_trig_preop", XT_BOTH, "v_trig_preop_f64 v[40:41], v[1:2], v3", NULL, NULL, 3, 2, init_trig, ref_trig,
	  XT_EXACT },
};
const unsigned xt_ntests_f64 = sizeof xt_tests_f64 / sizeof xt_tests_f64[0];
