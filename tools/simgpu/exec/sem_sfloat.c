/* SPDX-License-Identifier: MIT */
/*
 * sem_sfloat.c — the scalar float instructions of gfx1150/gfx1151 (RDNA
 * 3.5; LLVM's feature salu-float): SOP2 s_add/sub/min/max/mul/fmac/fmaak/
 * fmamk_f32, SOP1 s_ceil/floor/trunc/rndne_f32 and the conversions between
 * f32 and i32/u32/f16, SOPC s_cmp_*_f32 and s_cmp_*_f16, and the f16
 * arithmetic (SOP2 s_add/sub/mul/fmac/min/max_f16, s_cvt_pk_rtz_f16_f32;
 * SOP1 s_ceil/floor/trunc/rndne_f16, s_cvt_f16_f32).  gfx1100..1103 do
 * not have them (their opcodes are free there, so the one gfx11 table holds
 * them; gen_optab.py).
 *
 * Arithmetic is the host's IEEE arithmetic, as for the vector ALU (round
 * to nearest even, denormals kept: MODE's round and denorm fields are not
 * consulted); fmac/fmaak/fmamk are fused.  f16 results are computed in
 * double (sums and products of f16 values are exact there; an f16 fma's
 * sum is too unless one term is below the other's last double bit, where
 * it cannot move the f16 result) and rounded to f16 once.  min/max follow
 * the pseudocode for
 * IEEE mode: a signaling NaN gives that NaN quieted (S0 first), a quiet
 * NaN the other operand, and -0 is less than +0.  Conversions to integers
 * saturate and give 0 for NaN (as v_cvt_*_f32).  Compares follow the
 * vector compares: the ordered ones (lt eq le gt lg ge o) are false for a
 * NaN operand, their negations (nge nlg ngt nle neq nlt) and u true.  f16
 * sources are the low half of the operand (inline constants as f16).  An
 * f16 result ("D0.f16 = ...") is written zero-extended: the guide does not
 * say what the upper half gets, and the scalar ALU writes whole SGPRs.
 */
#include <math.h>
#include <string.h>

#include "wave.h"

static float sf(const struct rdc_wave *w, const struct rdc_inst *in, int k)
{
	return rdc_u2f(rdc_sread(w, in, in->src[k]));
}

/* An f16 source's bits: the low half, inline constants as f16. */
static uint16_t shbits(const struct rdc_wave *w, const struct rdc_inst *in, int k)
{
	uint32_t t[RDC_LANES];
	rdc_vsrc32(w, in, k, RDC_TY_F16, t);
	return (uint16_t)t[0];
}

static float h2f(uint16_t h)
{
	_Float16 f;
	memcpy(&f, &h, 2);
	return (float)f;
}

/* An f16 source as float (exact). */
static float sh(const struct rdc_wave *w, const struct rdc_inst *in, int k)
{
	return h2f(shbits(w, in, k));
}

/* Rounds once, to nearest even. */
static uint16_t d2h(double d)
{
	_Float16 f = (_Float16)d;
	uint16_t h;
	memcpy(&h, &f, 2);
	return h;
}

/* f32 to f16 rounding toward zero (s_cvt_pk_rtz_f16_f32): the nearest-even
 * result, stepped back toward zero when it lies farther from zero than the
 * input; an infinity from a finite input becomes the largest finite f16. */
static uint16_t f2h_rtz(float a)
{
	uint16_t h = d2h(a);
	if (isnan(a) || isinf(a))
		return h;
	if (fabs((double)h2f(h)) > fabs((double)a))
		h--; /* the magnitude's next value toward zero (the sign bit is untouched) */
	return h;
}

static bool snan16(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) && !(h & 0x200); }
static bool nan16(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

/* s_min_f16 / s_max_f16 on the bits (IEEE mode, -0 < +0). */
static uint16_t minmax16(uint16_t a, uint16_t b, bool max)
{
	if (snan16(a))
		return a | 0x200;
	if (snan16(b))
		return b | 0x200;
	if (nan16(b))
		return a;
	if (nan16(a))
		return b;
	float x = h2f(a), y = h2f(b);
	bool sa = a >> 15, sb = b >> 15;
	bool first = max ? x > y || (x == y && !sa && sb) : x < y || (x == y && sa && !sb);
	return first ? a : b;
}

static void sop2_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t ha = shbits(w, in, 0), hb = shbits(w, in, 1), d;
	double a = h2f(ha), b = h2f(hb);
	switch (in->op) {
	case RDC_OP_S_ADD_F16: d = d2h(a + b); break;
	case RDC_OP_S_SUB_F16: d = d2h(a - b); break;
	case RDC_OP_S_MUL_F16: d = d2h(a * b); break;
	case RDC_OP_S_FMAC_F16: d = d2h(fma(a, b, h2f((uint16_t)rdc_sread(w, in, in->dst)))); break;
	case RDC_OP_S_MIN_F16: d = minmax16(ha, hb, false); break;
	case RDC_OP_S_MAX_F16: d = minmax16(ha, hb, true); break;
	case RDC_OP_S_CVT_PK_RTZ_F16_F32:
		rdc_swrite(w, in->dst, f2h_rtz(sf(w, in, 0)) | (uint32_t)f2h_rtz(sf(w, in, 1)) << 16);
		return;
	default: return;
	}
	rdc_swrite(w, in->dst, d);
}

static void sop1_f16(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint16_t d;
	if (in->op == RDC_OP_S_CVT_F16_F32) {
		d = d2h(sf(w, in, 0));
	} else {
		uint16_t h = shbits(w, in, 0);
		double a = h2f(h);
		switch (in->op) {
		case RDC_OP_S_CEIL_F16: d = d2h(ceil(a)); break;
		case RDC_OP_S_FLOOR_F16: d = d2h(floor(a)); break;
		case RDC_OP_S_TRUNC_F16: d = d2h(trunc(a)); break;
		case RDC_OP_S_RNDNE_F16: d = d2h(nearbyint(a)); break;
		default: return;
		}
	}
	rdc_swrite(w, in->dst, d);
}

static void sop2_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a = sf(w, in, 0), b = sf(w, in, 1), k = rdc_u2f(in->lit), d;
	switch (in->op) {
	case RDC_OP_S_ADD_F32: d = a + b; break;
	case RDC_OP_S_SUB_F32: d = a - b; break;
	case RDC_OP_S_MUL_F32: d = a * b; break;
	case RDC_OP_S_MIN_F32: d = rdc_minf(a, b); break;
	case RDC_OP_S_MAX_F32: d = rdc_maxf(a, b); break;
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
	case RDC_OP_S_ADD_F16: case RDC_OP_S_SUB_F16: case RDC_OP_S_MUL_F16: case RDC_OP_S_FMAC_F16:
	case RDC_OP_S_MIN_F16: case RDC_OP_S_MAX_F16: case RDC_OP_S_CVT_PK_RTZ_F16_F32:
		return sop2_f16;
	case RDC_OP_S_CVT_F16_F32: case RDC_OP_S_CEIL_F16: case RDC_OP_S_FLOOR_F16: case RDC_OP_S_TRUNC_F16:
	case RDC_OP_S_RNDNE_F16:
		return sop1_f16;
	default:
		return cmp(op, 0.0f, 0.0f) >= 0 ? sopc_f : NULL;
	}
}
