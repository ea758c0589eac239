/* SPDX-License-Identifier: MIT */
/*
 * sem_sfloat.c — the scalar float instructions of gfx1150/gfx1151 (RDNA
 * 3.5; LLVM's feature salu-float): SOP2 s_add/sub/min/max/mul/fmac/fmaak/
 * fmamk_f32, SOP1 s_ceil/floor/trunc/rndne_f32 and the conversions between
 * f32 and i32/u32/f16, SOPC s_cmp_*_f32 and s_cmp_*_f16.  gfx1100..1103 do
 * not have them (their opcodes are free there, so the one gfx11 table holds
 * them; gen_optab.py).
 *
 * Arithmetic is the host's IEEE f32 arithmetic, as for the vector ALU
 * (round to nearest even, denormals kept); fmac/fmaak/fmamk are fused;
 * min/max return the other operand for a NaN (as v_min/v_max_f32).
 * Conversions to integers saturate and give 0 for NaN (as v_cvt_*_f32).
 * Compares follow the vector compares: the ordered ones (lt eq le gt lg ge
 * o) are false for a NaN operand, their negations (nge nlg ngt nle neq nlt)
 * and u true.  f16 sources are the low half of the operand (inline
 * constants as f16).  The operations that write an f16 result (s_add_f16
 * ..., s_cvt_f16_f32, s_ceil_f16 ..., s_cvt_pk_rtz_f16_f32) are not
 * implemented: what they leave in the destination's upper half is not
 * pinned down here, so they fail the dispatch loudly instead of guessing.
 */
#include <math.h>
#include <string.h>

#include "wave.h"

static float sf(const struct rdc_wave *w, const struct rdc_inst *in, int k)
{
	return rdc_u2f(rdc_sread(w, in, in->src[k]));
}

/* An f16 source as float (exact): the low half, inline constants as f16. */
static float sh(const struct rdc_wave *w, const struct rdc_inst *in, int k)
{
	uint32_t t[RDC_LANES];
	rdc_vsrc32(w, in, k, RDC_TY_F16, t);
	uint16_t h = (uint16_t)t[0];
	_Float16 f;
	memcpy(&f, &h, 2);
	return (float)f;
}

static void sop2_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a = sf(w, in, 0), b = sf(w, in, 1), k = rdc_u2f(in->lit), d;
	switch (in->op) {
	case RDC_OP_S_ADD_F32: d = a + b; break;
	case RDC_OP_S_SUB_F32: d = a - b; break;
	case RDC_OP_S_MUL_F32: d = a * b; break;
	case RDC_OP_S_MIN_F32: d = fminf(a, b); break;
	case RDC_OP_S_MAX_F32: d = fmaxf(a, b); break;
	case RDC_OP_S_FMAC_F32: d = fmaf(a, b, rdc_u2f(rdc_sread(w, in, in->dst))); break;
	case RDC_OP_S_FMAAK_F32: d = fmaf(a, b, k); break;
	case RDC_OP_S_FMAMK_F32: d = fmaf(a, k, b); break;
	default: return;
	}
	rdc_swrite(w, in->dst, rdc_f2u(d));
}

static void sop1_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t u = rdc_sread(w, in, in->src[0]), d;
	float a = rdc_u2f(u);
	switch (in->op) {
	case RDC_OP_S_CEIL_F32: d = rdc_f2u(ceilf(a)); break;
	case RDC_OP_S_FLOOR_F32: d = rdc_f2u(floorf(a)); break;
	case RDC_OP_S_TRUNC_F32: d = rdc_f2u(truncf(a)); break;
	case RDC_OP_S_RNDNE_F32: d = rdc_f2u(rintf(a)); break;
	case RDC_OP_S_CVT_F32_I32: d = rdc_f2u((float)(int32_t)u); break;
	case RDC_OP_S_CVT_F32_U32: d = rdc_f2u((float)u); break;
	case RDC_OP_S_CVT_I32_F32: d = (uint32_t)rdc_cvt_i32_f32(a); break;
	case RDC_OP_S_CVT_U32_F32: d = rdc_cvt_u32_f32(a); break;
	case RDC_OP_S_CVT_F32_F16: d = rdc_f2u(sh(w, in, 0)); break;
	case RDC_OP_S_CVT_HI_F32_F16: {
		uint16_t h = (uint16_t)(u >> 16);
		_Float16 f;
		memcpy(&f, &h, 2);
		d = rdc_f2u((float)f);
		break;
	}
	default: return;
	}
	rdc_swrite(w, in->dst, d);
}

/* SCC for a compare of a and b; -1 when op is not a float compare. */
static int cmp(uint16_t op, float a, float b)
{
	bool un = isnan(a) || isnan(b);
	switch (op) {
	case RDC_OP_S_CMP_LT_F32: case RDC_OP_S_CMP_LT_F16: return a < b;
	case RDC_OP_S_CMP_EQ_F32: case RDC_OP_S_CMP_EQ_F16: return a == b;
	case RDC_OP_S_CMP_LE_F32: case RDC_OP_S_CMP_LE_F16: return a <= b;
	case RDC_OP_S_CMP_GT_F32: case RDC_OP_S_CMP_GT_F16: return a > b;
	case RDC_OP_S_CMP_LG_F32: case RDC_OP_S_CMP_LG_F16: return a < b || a > b;
	case RDC_OP_S_CMP_GE_F32: case RDC_OP_S_CMP_GE_F16: return a >= b;
	case RDC_OP_S_CMP_O_F32: case RDC_OP_S_CMP_O_F16: return !un;
	case RDC_OP_S_CMP_U_F32: case RDC_OP_S_CMP_U_F16: return un;
	case RDC_OP_S_CMP_NGE_F32: case RDC_OP_S_CMP_NGE_F16: return !(a >= b);
	case RDC_OP_S_CMP_NLG_F32: case RDC_OP_S_CMP_NLG_F16: return !(a < b || a > b);
	case RDC_OP_S_CMP_NGT_F32: case RDC_OP_S_CMP_NGT_F16: return !(a > b);
	case RDC_OP_S_CMP_NLE_F32: case RDC_OP_S_CMP_NLE_F16: return !(a <= b);
	case RDC_OP_S_CMP_NEQ_F32: case RDC_OP_S_CMP_NEQ_F16: return !(a == b);
	case RDC_OP_S_CMP_NLT_F32: case RDC_OP_S_CMP_NLT_F16: return !(a < b);
	default: return -1;
	}
}

static bool is_f16_cmp(uint16_t op)
{
	switch (op) {
	case RDC_OP_S_CMP_LT_F16: case RDC_OP_S_CMP_EQ_F16: case RDC_OP_S_CMP_LE_F16: case RDC_OP_S_CMP_GT_F16:
	case RDC_OP_S_CMP_LG_F16: case RDC_OP_S_CMP_GE_F16: case RDC_OP_S_CMP_O_F16: case RDC_OP_S_CMP_U_F16:
	case RDC_OP_S_CMP_NGE_F16: case RDC_OP_S_CMP_NLG_F16: case RDC_OP_S_CMP_NGT_F16: case RDC_OP_S_CMP_NLE_F16:
	case RDC_OP_S_CMP_NEQ_F16: case RDC_OP_S_CMP_NLT_F16:
		return true;
	default:
		return false;
	}
}

static void sopc_f(struct rdc_wave *w, const struct rdc_inst *in)
{
	bool h = is_f16_cmp(in->op);
	float a = h ? sh(w, in, 0) : sf(w, in, 0), b = h ? sh(w, in, 1) : sf(w, in, 1);
	w->scc = cmp(in->op, a, b) == 1;
}

rdc_sem_fn rdc_sem_sfloat(uint16_t op)
{
	switch (op) {
	case RDC_OP_S_ADD_F32: case RDC_OP_S_SUB_F32: case RDC_OP_S_MUL_F32: case RDC_OP_S_MIN_F32:
	case RDC_OP_S_MAX_F32: case RDC_OP_S_FMAC_F32: case RDC_OP_S_FMAAK_F32: case RDC_OP_S_FMAMK_F32:
		return sop2_f32;
	case RDC_OP_S_CEIL_F32: case RDC_OP_S_FLOOR_F32: case RDC_OP_S_TRUNC_F32: case RDC_OP_S_RNDNE_F32:
	case RDC_OP_S_CVT_F32_I32: case RDC_OP_S_CVT_F32_U32: case RDC_OP_S_CVT_I32_F32: case RDC_OP_S_CVT_U32_F32:
	case RDC_OP_S_CVT_F32_F16: case RDC_OP_S_CVT_HI_F32_F16:
		return sop1_f32;
	default:
		return cmp(op, 0.0f, 0.0f) >= 0 ? sopc_f : NULL;
	}
}
