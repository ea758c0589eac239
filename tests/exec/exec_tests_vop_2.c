/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_vop_2.c — the hand-written half of exec_tests_vop.c's tests:
 * LLVM's f32 division sequence and its steps, 64-bit shifts and
 * mad_i64_i32, subrev_co_ci, the lane operations (readlane, readfirstlane,
 * writelane, mbcnt, permlane16/x16/64, swap), the M0-relative moves, the
 * no-ops, EXEC-masked lanes with VOP3 modifiers.  References follow the ISA
 * guides' pseudocode, written here in plain C.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "exec_harness.h"

static float F(uint32_t u) { return xt_u2f(u); }
static uint32_t U(float f) { return xt_f2u(f); }
static uint32_t popc(uint32_t v)
{
	uint32_t n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* ---- division: LLVM's f32 sequence, and div_fixup alone --------------------------------------- */
/* The guides leave UNDERFLOW_F32 (div_fixup when exponent(num) -
 * exponent(den) < -150) undefined: such pairs get the numerator 1.0. */
static void init_div(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_vop_flt(lane, in, out, nin, nout);
	if ((int)((in[0] >> 23) & 0xff) - (int)((in[1] >> 23) & 0xff) < -150)
		in[0] = 0x3f800000u;
}
/* V_DIV_FIXUP_F32 (S0 quotient, S1 denominator, S2 numerator), the guides' pseudocode */
static uint32_t fixup(float q, float den, float num)
{
	bool neg = signbit(den) != signbit(num);
	if (isnan(num))
		return U(num) | 0x400000u;
	if (isnan(den))
		return U(den) | 0x400000u;
	if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
		return 0xffc00000u;
	if (den == 0 || isinf(num))
		return neg ? 0xff800000u : 0x7f800000u;
	if (isinf(den) || num == 0)
		return neg ? 0x80000000u : 0;
	return (U(q) & 0x7fffffffu) | (neg ? 0x80000000u : 0);
}
static void ref_div(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	float a = F(in[0]), b = F(in[1]);
	out[0] = U(a / b); /* the whole sequence: the IEEE quotient */
	if (isnan(a / b))
		out[0] = fixup(0, b, a); /* which NaN: the fixup's */
	out[1] = fixup(F(in[2]), b, a);
}

/* ---- 64-bit shifts, mad_i64_i32, subrev_co_ci ----------------------------------------------- */
static void init_64(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_vop_int(lane, in, out, nin, nout);
	in[0] = lane * 3 + (lane & 1 ? 64 : 0); /* shift counts 0-93 and 64 up: only S0[5:0] counts */
}
static void ref_64(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint64_t v = (uint64_t)in[2] << 32 | in[1], r[3];
	unsigned sh = in[0] & 63;
	r[0] = v << sh;
	r[1] = v >> sh;
	r[2] = (uint64_t)((int64_t)v >> sh);
	for (int i = 0; i < 3; i++) {
		out[2 * i] = (uint32_t)r[i];
		out[2 * i + 1] = (uint32_t)(r[i] >> 32);
	}
	/* v_mad_i64_i32: S0.i32 * S1.i32 + S2.i64 (low 64 bits) */
	uint64_t m = (uint64_t)((int64_t)(int32_t)in[1] * (int32_t)in[2]) + ((uint64_t)in[3] << 32 | in[0]);
	out[6] = (uint32_t)m;
	out[7] = (uint32_t)(m >> 32);
	/* v_subrev_co_ci_u32: S1 - S0 - VCC[lane]; VCC = the borrow (S0 + carry > S1) */
	unsigned ci = (0x5a5ac3c3u >> lane) & 1;
	out[8] = in[2] - in[1] - ci;
	out[9] = (uint64_t)in[1] + ci > in[2];
	/* the VOP3 form: carry in and out in SGPRs, operands the other way round */
	ci = (0xc3c35a5au >> lane) & 1;
	out[10] = in[1] - in[2] - ci;
	out[11] = (uint64_t)in[2] + ci > in[1];
}

/* ---- lane operations ----------------------------------------------------------------------- */
/* v_readlane (constant and SGPR lane: only the low 5 bits count in wave32),
 * v_readfirstlane under a partial EXEC and under none (lane 0), v_writelane
 * (EXEC does not apply), mbcnt, permlane16 and
 * permlanex16 (lane selects from s14:s15; under a partial EXEC plain, with
 * FI (op_sel[0]: read inactive lanes) and with BOUND_CTRL (op_sel[1]: 0 for
 * an inactive source)), v_swap. */
static const uint32_t pl_sel_lo = 0x3210fedcu, pl_sel_hi = 0x89ab4567u, pl_exec = 0x0ff0f00fu;
static unsigned pl_src(unsigned lane, bool x)
{
	unsigned i = lane & 15, sel = (i < 8 ? pl_sel_lo >> (4 * i) : pl_sel_hi >> (4 * (i - 8))) & 15;
	return ((lane & 16) ^ (x ? 16u : 0u)) + sel;
}
static void ref_lanes(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
#define IN(l, k) (c->in[(l) * c->nin + (k)])
	out[0] = IN(5, 0);
	out[1] = IN(37 & 31, 1);
	out[2] = IN(4, 0); /* the lowest lane of 0xfff0 */
	out[3] = lane == 7 ? IN(5, 0) : in[1];
	uint32_t below = (uint32_t)((1ull << lane) - 1);
	out[4] = popc(in[0] & below) + in[1];
	out[5] = in[1]; /* mbcnt_hi: lanes 32-63 lie above every wave32 lane */
	out[6] = IN(pl_src(lane, false), 0);
	out[7] = IN(pl_src(lane, true), 0);
	bool act = (pl_exec >> lane) & 1;
	unsigned s = pl_src(lane, false);
	bool sact = (pl_exec >> s) & 1;
	if (act) {
		out[8] = sact ? IN(s, 0) : out[8];   /* plain: an inactive source leaves the lane */
		out[9] = IN(s, 0);                    /* FI */
		out[10] = sact ? IN(s, 0) : 0;        /* BOUND_CTRL */
	}
	out[11] = in[1];
	out[12] = in[0];
	/* v_swap_b32 under the same partial EXEC */
	out[13] = act ? in[1] : in[0];
	out[14] = act ? in[0] : in[1];
	/* with EXEC = 0: readfirstlane reads lane 0, writelane writes anyway */
	out[15] = IN(0, 0);
	out[16] = lane == 9 ? IN(5, 0) : in[1];
#undef IN
}

/* ---- M0-relative moves -------------------------------------------------------------------- */
static void ref_rel(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint32_t init5 = out[5];
	out[0] = in[2];  /* v_movrels_b32 v40, v1, M0 = 2: v3 */
	out[2] = in[0];  /* v_movreld_b32 v40, v1, M0 = 2: v42 = v1 */
	out[1] = in[1];  /* v_movrelsd_b32 v40, v1, M0 = 1: v41 = v2 */
	out[3] = in[1];  /* v_movrelsd_2_b32 v40, v1, M0 = 3 << 16 | 1: v43 = v2 */
	out[5] = in[3];  /* v_swaprel_b32 v44, v50, M0 = 1 << 16 | 1: v45 <-> v51 (= v4) */
	out[6] = init5;  /* v51 afterwards, copied to v46 */
	if (lane < 16)   /* v_movrelsd_2_b32 v44, v2 under EXEC = 0xffff: v47 = v3 */
		out[7] = in[2];
}

/* ---- v_nop, v_pipeflush, v_clrexcp: nothing changes ---------------------------------------- */
static void ref_nop(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	out[0] = c->in[lane * c->nin];
}

/* ---- v_permlane64_b32 ---------------------------------------------------------------------- */
/* In wave64 (lanes 32-63 hold no work-item): v10 = lane * 0x9e3779b1 + 7
 * is built in all 64 lanes, then permlane64 under EXEC = lanes 0-31 reads
 * the inactive upper half; with EXEC 0x5555... only the even lanes are
 * written; in place (D = S0) with all lanes on.  Also readlane,
 * readfirstlane and writelane on upper lanes.  In wave32 it does nothing. */
static uint32_t h64(unsigned l) { return l * 0x9e3779b1u + 7; }
static void ref_pl64(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	out[0] = h64(lane + 32);
	out[1] = lane & 1 ? out[1] : h64(lane + 32);
	out[2] = h64(lane + 32);
	out[3] = h64(40); /* v_readlane_b32 of lane 40: S1[5:0] in wave64 */
	out[4] = h64(36); /* v_readfirstlane_b32 with EXEC = lane 36 alone */
	out[5] = lane == 18 ? h64(40) : 0; /* v_writelane_b32 to lane 50, brought down */
}
static void ref_pl64_w32(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	(void)out;
	(void)lane;
}

/* ---- V_DIV_SCALE_F32 and V_DIV_FMAS_F32 alone ---------------------------------------------- */
/* Lanes 0-7 steer div_scale through each branch of the guides' pseudocode
 * (num, den): 0/x and x/0; exponent(num) - exponent(den) >= 96; a denormal
 * den; num/den denormal; a tiny num (exponent <= 23); an ordinary pair; an
 * infinite den.  Its 1/den test is made in f64 as the guides write it
 * (64'F(S1)), so it never holds for an f32 den.  div_fmas runs with VCC
 * clear (a plain fused multiply-add); with VCC set the guides print a 2^32
 * factor that LLVM's division sequence contradicts (the engine scales by
 * 2^+-64): that path is checked through the sequence above. */
static void init_dscale(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	static const uint32_t pairs[8][2] = {
		{ 0x00000000u, 0x40400000u }, { 0x3f800000u, 0x80000000u }, { 0x71800000u, 0x3a800000u },
		{ 0x2b800000u, 0x00000100u }, { 0x03800000u, 0x44800000u }, { 0x08800000u, 0x0d800000u },
		{ 0x3f800000u, 0x40400000u }, { 0x40000000u, 0xff800000u },
	};
	if (lane < 8) {
		in[0] = pairs[lane][0];
		in[1] = pairs[lane][1];
	}
}
static int expo(float f) { return (int)((U(f) >> 23) & 0xff); }
static bool denorm(float f) { return fpclassify(f) == FP_SUBNORMAL; }
/* D0 and VCC of v_div_scale_f32 D0, VCC, S0, S1 (den), S2 (num) */
static uint32_t div_scale(float s0, float den, float num, uint32_t *vcc)
{
	*vcc = 0;
	if (num == 0 || den == 0)
		return 0x7fc00000u;
	if (expo(num) - expo(den) >= 96) {
		*vcc = 1;
		return s0 == den ? U(ldexpf(s0, 64)) : U(s0);
	}
	if (denorm(den))
		return U(ldexpf(s0, 64));
	if (denorm(num / den)) {
		*vcc = 1;
		return s0 == num ? U(ldexpf(s0, 64)) : U(s0);
	}
	if (expo(num) <= 23)
		return U(ldexpf(s0, 64));
	return U(s0);
}
static void ref_dscale(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	float num = F(in[0]), den = F(in[1]);
	out[0] = div_scale(den, den, num, &out[1]);
	out[2] = div_scale(num, den, num, &out[3]);
	out[4] = U(fmaf(num, den, F(in[2])));
}

/* ---- EXEC-masked lanes, VOP3 modifiers, scalar and constant sources ---------------------- */
/* Under EXEC = 0x5a5a0ff0: xad; sub with clamp (DX10 clamp mode: NaN gives
 * 0); ldexp of a negated source; fract of |S0| with omod *2; ubyte1 with
 * omod /2; an SGPR, an inline constant and two inline offsets as sources.
 * v1 is an integer, v4 and v5 floats. */
static const uint32_t mask_exec = 0x5a5a0ff0u;
static void init_mask(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_vop_int(lane, in, out, nin, nout);
	in[3] = xt_vop_edge_f(lane + 3);
	in[4] = xt_vop_edge_f(lane * 2 + 1);
}
static float clamp01(float x) { return isnan(x) || x <= 0 ? 0.0f : x >= 1 ? 1.0f : x; }
static void ref_mask(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	if (!((mask_exec >> lane) & 1))
		return;
	out[0] = (in[0] ^ in[1]) + in[2];
	out[1] = U(clamp01(F(in[3]) - F(in[4])));
	out[2] = U(ldexpf(-F(in[3]), (int32_t)in[0]));
	float x = fabsf(F(in[3])), fr = x + -floorf(x); /* fract: S0 + -floor(S0), at most 0x3f7fffff */
	out[3] = U((fr > 0x1.fffffep-1f ? 0x1.fffffep-1f : fr) * 2.0f);
	out[4] = U((float)((in[0] >> 8) & 0xff) * 0.5f);
	out[5] = (uint32_t)((uint64_t)0x123456u * (in[0] & 0xffffff) >> 32);
	out[6] = in[0] & 63;
	out[7] = (in[0] >> 4) & 0xff;
}

const struct xt_test xt_tests_vop_2[] = {
	{ "vop_f32_div_sequence_fixup", XT_BOTH,
	  "v_div_scale_f32 v7, s10, v2, v2, v1\n"
	  "v_div_scale_f32 v8, vcc_lo, v1, v2, v1\n"
	  "v_rcp_f32 v9, v7\n"
	  "v_fma_f32 v10, -v7, v9, 1.0\n"
	  "v_fmac_f32 v9, v10, v9\n"
	  "v_mul_f32 v10, v8, v9\n"
	  "v_fma_f32 v11, -v7, v10, v8\n"
	  "v_fmac_f32 v10, v11, v9\n"
	  "v_fma_f32 v11, -v7, v10, v8\n"
	  "v_div_fmas_f32 v11, v11, v9, v10\n"
	  "v_div_fixup_f32 v40, v11, v2, v1\n"
	  "v_div_fixup_f32 v41, v3, v2, v1",
	  NULL, NULL, 3, 2, init_div, ref_div, XT_EXACT },
	{ "vop_f32_div_scale_fmas", XT_BOTH,
	  "v_div_scale_f32 v40, vcc_lo, v2, v2, v1\n"
	  "v_cndmask_b32 v41, 0, 1, vcc_lo\n"
	  "v_div_scale_f32 v42, s10, v1, v2, v1\n"
	  "v_cndmask_b32 v43, 0, 1, s10\n"
	  "s_mov_b32 vcc_lo, 0\n"
	  "v_div_fmas_f32 v44, v1, v2, v3",
	  NULL, NULL, 3, 5, init_dscale, ref_dscale, XT_EXACT },
	{ "vop_exec_mask_modifiers", XT_BOTH,
	  "s_mov_b32 s20, 0x123456\n"
	  "s_mov_b32 exec_lo, 0x5a5a0ff0\n"
	  "v_xad_u32 v40, v1, v2, v3\n"
	  "v_sub_f32_e64 v41, v4, v5 clamp\n"
	  "v_ldexp_f32 v42, -v4, v1\n"
	  "v_fract_f32_e64 v43, |v4| mul:2\n"
	  "v_cvt_f32_ubyte1_e64 v44, v1 div:2\n"
	  "v_mul_hi_u32_u24 v45, s20, v1\n"
	  "v_and_b32 v46, 63, v1\n"
	  "v_bfe_u32 v47, v1, 4, 8\n"
	  "s_mov_b32 exec_lo, -1",
	  NULL, NULL, 5, 8, init_mask, ref_mask, XT_FNAN },
	{ "vop_b64_shift_mad_i64_subrev_co_ci", XT_BOTH,
	  "v_lshlrev_b64 v[40:41], v1, v[2:3]\n"
	  "v_lshrrev_b64 v[42:43], v1, v[2:3]\n"
	  "v_ashrrev_i64 v[44:45], v1, v[2:3]\n"
	  "v_mov_b32 v8, v1\n"
	  "v_mov_b32 v9, v4\n"
	  "v_mad_i64_i32 v[46:47], s10, v2, v3, v[8:9]\n"
	  "s_mov_b32 vcc_lo, 0x5a5ac3c3\n"
	  "v_subrev_co_ci_u32 v48, vcc_lo, v2, v3, vcc_lo\n"
	  "v_cndmask_b32 v49, 0, 1, vcc_lo\n"
	  "s_mov_b32 s13, 0xc3c35a5a\n"
	  "v_subrev_co_ci_u32_e64 v50, s12, v3, v2, s13\n"
	  "v_cndmask_b32_e64 v51, 0, 1, s12",
	  NULL, NULL, 4, 12, init_64, ref_64, XT_EXACT },
	{ "vop_lanes", XT_BOTH,
	  "v_readlane_b32 s10, v1, 5\n"
	  "v_mov_b32 v40, s10\n"
	  "s_mov_b32 s11, 37\n"
	  "v_readlane_b32 s12, v2, s11\n"
	  "v_mov_b32 v41, s12\n"
	  "s_mov_b32 exec_lo, 0xfff0\n"
	  "v_readfirstlane_b32 s13, v1\n"
	  "s_mov_b32 exec_lo, -1\n"
	  "v_mov_b32 v42, s13\n"
	  "v_mov_b32 v43, v2\n"
	  "v_writelane_b32 v43, s10, 7\n"
	  "v_mbcnt_lo_u32_b32 v44, v1, v2\n"
	  "v_mbcnt_hi_u32_b32 v45, v1, v2\n"
	  "s_mov_b32 s14, 0x3210fedc\n"
	  "s_mov_b32 s15, 0x89ab4567\n"
	  "v_permlane16_b32 v46, v1, s14, s15\n"
	  "v_permlanex16_b32 v47, v1, s14, s15\n"
	  "s_mov_b32 exec_lo, 0x0ff0f00f\n"
	  "v_permlane16_b32 v48, v1, s14, s15\n"
	  "v_permlane16_b32 v49, v1, s14, s15 op_sel:[1,0]\n"
	  "v_permlane16_b32 v50, v1, s14, s15 op_sel:[0,1]\n"
	  "s_mov_b32 exec_lo, -1\n"
	  "v_mov_b32 v51, v1\n"
	  "v_mov_b32 v52, v2\n"
	  "v_swap_b32 v51, v52\n"
	  "v_mov_b32 v53, v1\n"
	  "v_mov_b32 v54, v2\n"
	  "s_mov_b32 exec_lo, 0x0ff0f00f\n"
	  "v_swap_b32 v53, v54\n"
	  "s_mov_b32 exec_lo, -1\n"
	  "v_mov_b32 v56, v2\n"
	  "s_mov_b32 exec_lo, 0\n"
	  "v_readfirstlane_b32 s16, v1\n"
	  "v_writelane_b32 v56, s10, 9\n"
	  "s_mov_b32 exec_lo, -1\n"
	  "v_mov_b32 v55, s16",
	  NULL, NULL, 2, 17, xt_init_u, ref_lanes, XT_EXACT },
	{ "vop_movrel", XT_BOTH,
	  "s_mov_b32 m0, 2\n"
	  "v_movrels_b32 v40, v1\n"
	  "v_movreld_b32 v40, v1\n"
	  "s_mov_b32 m0, 1\n"
	  "v_movrelsd_b32 v40, v1\n"
	  "s_mov_b32 m0, 0x30001\n"
	  "v_movrelsd_2_b32 v40, v1\n"
	  "v_mov_b32 v51, v4\n"
	  "s_mov_b32 m0, 0x10001\n"
	  "v_swaprel_b32 v44, v50\n"
	  "v_mov_b32 v46, v51\n"
	  "s_mov_b32 exec_lo, 0xffff\n"
	  "s_mov_b32 m0, 0x30001\n"
	  "v_movrelsd_2_b32 v44, v2\n"
	  "s_mov_b32 exec_lo, -1",
	  NULL, NULL, 4, 8, xt_init_u, ref_rel, XT_EXACT },
	{ "vop_nop_pipeflush_clrexcp", XT_BOTH, "v_nop\nv_pipeflush\nv_clrexcp\nv_mov_b32 v40, v1",
	  "v_nop\nv_pipeflush\nv_mov_b32 v40, v1", NULL, 1, 1, xt_init_u, ref_nop, XT_EXACT },
	{ "vop_permlane64_wave64", XT_G11 | XT_W64,
	  "s_mov_b32 s20, exec_lo\n"
	  "s_mov_b32 s21, exec_hi\n"
	  "s_mov_b32 exec_lo, -1\n"
	  "s_mov_b32 exec_hi, -1\n"
	  "v_mbcnt_lo_u32_b32 v10, -1, 0\n"
	  "v_mbcnt_hi_u32_b32 v10, -1, v10\n"
	  "v_mul_lo_u32 v11, v10, 0x9e3779b1\n"
	  "v_add_nc_u32 v11, 7, v11\n"
	  "v_mov_b32 v12, v11\n"
	  "v_permlane64_b32 v12, v12\n"
	  "v_mov_b32 v42, v12\n"
	  "v_readlane_b32 s22, v11, 40\n"
	  "v_mov_b32 v43, s22\n"
	  "v_mov_b32 v13, 0\n"
	  "v_writelane_b32 v13, s22, 50\n"
	  "s_mov_b32 exec_lo, 0\n"
	  "s_mov_b32 exec_hi, 0x10\n"
	  "v_readfirstlane_b32 s23, v11\n"
	  "s_mov_b32 exec_lo, -1\n"
	  "s_mov_b32 exec_hi, -1\n"
	  "v_mov_b32 v44, s23\n"
	  "s_mov_b32 exec_lo, s20\n"
	  "s_mov_b32 exec_hi, s21\n"
	  "v_permlane64_b32 v40, v11\n"
	  "s_mov_b32 exec_lo, 0x55555555\n"
	  "v_permlane64_b32 v41, v11\n"
	  "s_mov_b32 exec_lo, s20\n"
	  "v_permlane64_b32 v45, v13",
	  NULL, NULL, 1, 6, xt_init_u, ref_pl64, XT_EXACT },
	{ "vop_permlane64_wave32_nop", XT_G11, "v_permlane64_b32 v40, v1", NULL, NULL, 1, 1, xt_init_u, ref_pl64_w32,
	  XT_EXACT },
};
const unsigned xt_ntests_vop_2 = sizeof xt_tests_vop_2 / sizeof xt_tests_vop_2[0];
