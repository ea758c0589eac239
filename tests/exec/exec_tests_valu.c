/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_valu.c — single-instruction tests of the engine's 32- and
 * 64-bit vector ALU (sem_valu.c): fused multiply-add, carries, 64-bit
 * multiply-add, byte permute, bit-field extract, the gfx11 maxmin/minmax
 * pairs and the M0-relative moves.  References are written from the ISA
 * guides' definitions with plain C arithmetic (fmal in long double for the
 * fused product: one rounding of the exact value).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "exec_harness.h"

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void ref_fma(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	/* a*b is exact in double for two floats; one rounding of a*b+c to float */
	double p = (double)u2f(in[0]) * (double)u2f(in[1]);
	long double s = (long double)p + (long double)u2f(in[2]);
	out[0] = f2u((float)s);
	out[1] = f2u(u2f(in[0]) * u2f(in[1])); /* v_mul_f32 */
}

static void ref_carry(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint64_t lo = (uint64_t)in[0] + in[2], hi = (uint64_t)in[1] + in[3] + (lo >> 32);
	out[0] = (uint32_t)lo;
	out[1] = (uint32_t)hi;
}

/* The ISA guides' borrow: VCC = the unsigned subtraction's borrow out. 64-bit
 * (in1:in0) - (in3:in2) by sub_co + sub_co_ci; subrev_co computes in2 - in0,
 * and its borrow is kept with v_cndmask (1 where set). */
static void ref_borrow(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint64_t a = (uint64_t)in[1] << 32 | in[0], b = (uint64_t)in[3] << 32 | in[2], r = a - b;
	out[0] = (uint32_t)r;
	out[1] = (uint32_t)(r >> 32);
	out[2] = in[2] - in[0];
	out[3] = in[0] > in[2];
	out[4] = a < b;
}

static void ref_mad64(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint64_t acc = (uint64_t)in[3] << 32 | in[2];
	uint64_t r = (uint64_t)in[0] * in[1] + acc;
	out[0] = (uint32_t)r;
	out[1] = (uint32_t)(r >> 32);
}

static void ref_bits(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	/* v_perm_b32 with selector 0x0c050400: bytes {s1.b0, s1.b1? ...} as the guide:
	 * byte i of D = byte sel_i of {S0, S1} (S1 is bytes 0-3), 0x0c -> 0x00 */
	uint8_t b[8];
	memcpy(b, &in[1], 4);
	memcpy(b + 4, &in[0], 4);
	uint32_t sel = 0x0c050400u, d = 0;
	for (int i = 0; i < 4; i++) {
		unsigned s = (sel >> (8 * i)) & 0xff;
		d |= (uint32_t)(s < 8 ? b[s] : 0) << (8 * i);
	}
	out[0] = d;
	/* v_bfe_i32 v, v, 5, 9: bits 5..13 sign-extended */
	int32_t f = (int32_t)((in[0] >> 5) & 0x1ff);
	out[1] = (uint32_t)(f & 0x100 ? f - 0x200 : f);
	/* v_alignbit_b32 v, s0, s1, 7: ({s0,s1} >> 7) low 32 bits */
	out[2] = (uint32_t)((((uint64_t)in[0] << 32) | in[1]) >> 7);
	/* v_bfe_i32 v, v, 28, 8: the field reaches past bit 31; the pseudocode's
	 * S0.i32 >> 28 is arithmetic, so bits 4..7 of the field are the sign */
	int32_t g = (int32_t)in[0] >> 28;
	out[3] = (uint32_t)g; /* 4 sign-extended bits, already sign-extended from bit 7 */
}

static void ref_minmax(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	float a = u2f(in[0]), b = u2f(in[1]), d = u2f(in[2]);
	out[0] = f2u(fminf(fmaxf(a, b), d));
	out[1] = f2u(fmaxf(fminf(a, b), d));
	int32_t x = (int32_t)in[0], y = (int32_t)in[1], z = (int32_t)in[2];
	int32_t mx = x > y ? x : y, mn = x < y ? x : y;
	out[2] = (uint32_t)(mx < z ? mx : z);
	out[3] = (uint32_t)(mn > z ? mn : z);
}

static void ref_movrel(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	out[0] = in[2];   /* v_movrels_b32 v40, v1 with M0 = 2: v3 */
	out[2] = in[0];   /* v_movreld_b32 v40, v1 with M0 = 2: writes v42 */
}

static void init_f(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
}

/* gfx1150's scalar float instructions (assembled for gfx1100 with
 * +salu-float: the same encodings).  Scalars are read from a few lanes
 * (v_readlane); lane 1 holds NaNs, lane 2 an f32 denormal against +0 whose
 * low f16 halves are -0 and +0. */
static void init_sf(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	if (lane == 1)
		in[0] = 0x7fc07e00u; /* f32 NaN, low half an f16 NaN */
	if (lane == 2) {
		in[0] = 0x00008000u;
		in[1] = 0x00000000u;
	}
	if (lane == 3 && nin > 1)
		in[1] = 0x3c00c500u; /* f16 -5.0 low, 1.0 high */
}
static float sfu(uint32_t u) { return xt_u2f(u); }
static float sfh(uint32_t u) { return (float)xt_h2d((uint16_t)u); }
static void ref_sf_cmp(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	unsigned o = 0;
	for (unsigned i = 0; i < 3; i++) {
		const uint32_t *in = c->in + i * c->nin;
		float a = sfu(in[0]), b = sfu(in[1]), x = sfh(in[0]), y = sfh(in[1]);
		bool un = isnan(a) || isnan(b), uh = isnan(x) || isnan(y);
		out[o++] = a < b;
		out[o++] = a == b;
		out[o++] = !un && a != b;
		out[o++] = un;
		out[o++] = !(a >= b);
		out[o++] = !(a == b);
		out[o++] = x < y;
		out[o++] = x == y;
		out[o++] = uh;
	}
}
static void ref_sf_arith(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	unsigned o = 0;
	for (unsigned i = 0; i < 2; i++) {
		const uint32_t *in = c->in + i * c->nin;
		float a = sfu(in[0]), b = sfu(in[1]), d = sfu(in[2]);
		out[o++] = xt_f2u(a + b);
		out[o++] = xt_f2u(a - b);
		out[o++] = xt_f2u(a * b);
		out[o++] = xt_f2u(isnan(a) ? b : isnan(b) ? a : a < b ? a : b);
		out[o++] = xt_f2u(isnan(a) ? b : isnan(b) ? a : a > b ? a : b);
		out[o++] = xt_f2u(fmaf(a, b, d));
		out[o++] = xt_f2u(fmaf(a, b, 3.0f));
		out[o++] = xt_f2u(fmaf(a, 3.0f, b));
	}
}
static void ref_sf_cvt(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	unsigned o = 0;
	for (unsigned i = 0; i < 4; i += 3) {
		const uint32_t *in = c->in + i * c->nin;
		double a = sfu(in[0]);
		out[o++] = xt_f2u((float)ceil(a));
		out[o++] = xt_f2u((float)floor(a));
		out[o++] = xt_f2u((float)trunc(a));
		out[o++] = xt_f2u((float)nearbyint(a));
		out[o++] = isnan(a) ? 0 : a >= 2147483647.0 ? 0x7fffffffu : a <= -2147483648.0 ? 0x80000000u : (uint32_t)(int32_t)a;
		out[o++] = isnan(a) || a <= 0 ? 0 : a >= 4294967295.0 ? 0xffffffffu : (uint32_t)a;
		out[o++] = xt_f2u((float)(int32_t)in[1]);
		out[o++] = xt_f2u((float)in[1]);
		out[o++] = xt_f2u(sfh(in[1]));
		out[o++] = xt_f2u(sfh(in[1] >> 16));
	}
}

const struct xt_test xt_tests_valu[] = {
	{ "salu_float_cmp", XT_G11,
	  "v_readlane_b32 s0, v1, 0\n"
	  "v_readlane_b32 s1, v2, 0\n"
	  "s_cmp_lt_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v40, s2\n"
	  "s_cmp_eq_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v41, s2\n"
	  "s_cmp_lg_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v42, s2\n"
	  "s_cmp_u_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v43, s2\n"
	  "s_cmp_nge_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v44, s2\n"
	  "s_cmp_neq_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v45, s2\n"
	  "s_cmp_lt_f16 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v46, s2\n"
	  "s_cmp_eq_f16 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v47, s2\n"
	  "s_cmp_u_f16 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v48, s2\n"
	  "v_readlane_b32 s0, v1, 1\n"
	  "v_readlane_b32 s1, v2, 1\n"
	  "s_cmp_lt_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v49, s2\n"
	  "s_cmp_eq_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v50, s2\n"
	  "s_cmp_lg_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v51, s2\n"
	  "s_cmp_u_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v52, s2\n"
	  "s_cmp_nge_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v53, s2\n"
	  "s_cmp_neq_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v54, s2\n"
	  "s_cmp_lt_f16 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v55, s2\n"
	  "s_cmp_eq_f16 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v56, s2\n"
	  "s_cmp_u_f16 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v57, s2\n"
	  "v_readlane_b32 s0, v1, 2\n"
	  "v_readlane_b32 s1, v2, 2\n"
	  "s_cmp_lt_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v58, s2\n"
	  "s_cmp_eq_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v59, s2\n"
	  "s_cmp_lg_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v60, s2\n"
	  "s_cmp_u_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v61, s2\n"
	  "s_cmp_nge_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v62, s2\n"
	  "s_cmp_neq_f32 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v63, s2\n"
	  "s_cmp_lt_f16 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v64, s2\n"
	  "s_cmp_eq_f16 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v65, s2\n"
	  "s_cmp_u_f16 s0, s1\n"
	  "s_cselect_b32 s2, 1, 0\n"
	  "v_mov_b32 v66, s2\n",
	  NULL, "+salu-float", 2, 27, init_sf, ref_sf_cmp, XT_EXACT },
	{ "salu_float_arith", XT_G11,
	  "v_readlane_b32 s0, v1, 0\n"
	  "v_readlane_b32 s1, v2, 0\n"
	  "v_readlane_b32 s2, v3, 0\n"
	  "s_add_f32 s3, s0, s1\n"
	  "v_mov_b32 v40, s3\n"
	  "s_sub_f32 s3, s0, s1\n"
	  "v_mov_b32 v41, s3\n"
	  "s_mul_f32 s3, s0, s1\n"
	  "v_mov_b32 v42, s3\n"
	  "s_min_f32 s3, s0, s1\n"
	  "v_mov_b32 v43, s3\n"
	  "s_max_f32 s3, s0, s1\n"
	  "v_mov_b32 v44, s3\n"
	  "s_mov_b32 s3, s2\n"
	  "s_fmac_f32 s3, s0, s1\n"
	  "v_mov_b32 v45, s3\n"
	  "s_fmaak_f32 s3, s0, s1, 0x40400000\n"
	  "v_mov_b32 v46, s3\n"
	  "s_fmamk_f32 s3, s0, 0x40400000, s1\n"
	  "v_mov_b32 v47, s3\n"
	  "v_readlane_b32 s0, v1, 1\n"
	  "v_readlane_b32 s1, v2, 1\n"
	  "v_readlane_b32 s2, v3, 1\n"
	  "s_add_f32 s3, s0, s1\n"
	  "v_mov_b32 v48, s3\n"
	  "s_sub_f32 s3, s0, s1\n"
	  "v_mov_b32 v49, s3\n"
	  "s_mul_f32 s3, s0, s1\n"
	  "v_mov_b32 v50, s3\n"
	  "s_min_f32 s3, s0, s1\n"
	  "v_mov_b32 v51, s3\n"
	  "s_max_f32 s3, s0, s1\n"
	  "v_mov_b32 v52, s3\n"
	  "s_mov_b32 s3, s2\n"
	  "s_fmac_f32 s3, s0, s1\n"
	  "v_mov_b32 v53, s3\n"
	  "s_fmaak_f32 s3, s0, s1, 0x40400000\n"
	  "v_mov_b32 v54, s3\n"
	  "s_fmamk_f32 s3, s0, 0x40400000, s1\n"
	  "v_mov_b32 v55, s3\n",
	  NULL, "+salu-float", 3, 16, init_sf, ref_sf_arith, XT_EXACT },
	{ "salu_float_cvt", XT_G11,
	  "v_readlane_b32 s0, v1, 0\n"
	  "v_readlane_b32 s1, v2, 0\n"
	  "s_ceil_f32 s3, s0\n"
	  "v_mov_b32 v40, s3\n"
	  "s_floor_f32 s3, s0\n"
	  "v_mov_b32 v41, s3\n"
	  "s_trunc_f32 s3, s0\n"
	  "v_mov_b32 v42, s3\n"
	  "s_rndne_f32 s3, s0\n"
	  "v_mov_b32 v43, s3\n"
	  "s_cvt_i32_f32 s3, s0\n"
	  "v_mov_b32 v44, s3\n"
	  "s_cvt_u32_f32 s3, s0\n"
	  "v_mov_b32 v45, s3\n"
	  "s_cvt_f32_i32 s3, s1\n"
	  "v_mov_b32 v46, s3\n"
	  "s_cvt_f32_u32 s3, s1\n"
	  "v_mov_b32 v47, s3\n"
	  "s_cvt_f32_f16 s3, s1\n"
	  "v_mov_b32 v48, s3\n"
	  "s_cvt_hi_f32_f16 s3, s1\n"
	  "v_mov_b32 v49, s3\n"
	  "v_readlane_b32 s0, v1, 3\n"
	  "v_readlane_b32 s1, v2, 3\n"
	  "s_ceil_f32 s3, s0\n"
	  "v_mov_b32 v50, s3\n"
	  "s_floor_f32 s3, s0\n"
	  "v_mov_b32 v51, s3\n"
	  "s_trunc_f32 s3, s0\n"
	  "v_mov_b32 v52, s3\n"
	  "s_rndne_f32 s3, s0\n"
	  "v_mov_b32 v53, s3\n"
	  "s_cvt_i32_f32 s3, s0\n"
	  "v_mov_b32 v54, s3\n"
	  "s_cvt_u32_f32 s3, s0\n"
	  "v_mov_b32 v55, s3\n"
	  "s_cvt_f32_i32 s3, s1\n"
	  "v_mov_b32 v56, s3\n"
	  "s_cvt_f32_u32 s3, s1\n"
	  "v_mov_b32 v57, s3\n"
	  "s_cvt_f32_f16 s3, s1\n"
	  "v_mov_b32 v58, s3\n"
	  "s_cvt_hi_f32_f16 s3, s1\n"
	  "v_mov_b32 v59, s3\n",
	  NULL, "+salu-float", 2, 20, init_sf, ref_sf_cvt, XT_EXACT },
	{ "fma_mul_f32", XT_BOTH, "v_fma_f32 v40, v1, v2, v3\nv_mul_f32 v41, v1, v2", NULL, NULL, 3, 2, init_f,
	  ref_fma, XT_EXACT },
	{ "add_co_ci_u32", XT_BOTH,
	  "v_add_co_u32 v40, vcc_lo, v1, v3\nv_add_co_ci_u32 v41, vcc_lo, v2, v4, vcc_lo", NULL, NULL, 4, 2, NULL,
	  ref_carry, XT_EXACT },
	{ "sub_co_ci_subrev_u32", XT_BOTH,
	  "v_sub_co_u32 v40, vcc_lo, v1, v3\nv_sub_co_ci_u32 v41, vcc_lo, v2, v4, vcc_lo\n"
	  "v_cndmask_b32 v44, 0, 1, vcc_lo\n"
	  "v_subrev_co_u32 v42, vcc_lo, v1, v3\nv_cndmask_b32 v43, 0, 1, vcc_lo",
	  NULL, NULL, 4, 5, NULL, ref_borrow, XT_EXACT },
	{ "mad_u64_u32", XT_BOTH, "v_mad_u64_u32 v[40:41], s0, v1, v2, v[3:4]", NULL, NULL, 4, 2, NULL, ref_mad64,
	  XT_EXACT },
	{ "perm_bfe_alignbit", XT_BOTH,
	  "v_mov_b32 v10, 0x0c050400\nv_perm_b32 v40, v1, v2, v10\nv_bfe_i32 v41, v1, 5, 9\nv_alignbit_b32 v42, v1, v2, 7\n"
	  "v_bfe_i32 v43, v1, 28, 8",
	  NULL, NULL, 2, 4, NULL, ref_bits, XT_EXACT },
	{ "maxmin_minmax", XT_G11,
	  "v_maxmin_f32 v40, v1, v2, v3\nv_minmax_f32 v41, v1, v2, v3\nv_maxmin_i32 v42, v1, v2, v3\nv_minmax_i32 v43, v1, v2, v3",
	  NULL, NULL, 3, 4, init_f, ref_minmax, XT_EXACT },
	{ "movrels_movreld", XT_G10,
	  "s_mov_b32 m0, 2\nv_movrels_b32 v40, v1\nv_movreld_b32 v40, v1", NULL, NULL, 3, 3, NULL, ref_movrel,
	  XT_EXACT },
};
const unsigned xt_ntests_valu = sizeof xt_tests_valu / sizeof xt_tests_valu[0];
