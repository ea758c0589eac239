/* SPDX-License-Identifier: MIT */
/*
 * sem_vmedia.c — the vector "media" instructions: sums of absolute byte
 * differences (v_sad_u8, v_sad_hi_u8, v_msad_u8 and their packed
 * v_qsad/v_mqsad forms over a sliding 4-byte window), v_lerp_u8, byte
 * packing of a float (v_cvt_pk_u8_f32), the cube-map helpers
 * (v_cubeid/sc/tc/ma_f32) and v_mullit_f32.  Each follows the RDNA2/RDNA3
 * ISA guides' pseudocode; sums wrap modulo 2^32 (or 2^16 in the packed
 * u16 results) as the pseudocode's typed assignments do.
 */
#include "wave.h"

#define LANES for (unsigned l = 0; l < w->n; l++)

static uint32_t absdiff(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }

/* SAD of the four bytes of a and b, added to acc; masked: a zero byte of b
 * (the reference) contributes nothing (v_msad_u8). */
static uint32_t sad4(uint32_t a, uint32_t b, uint32_t acc, bool masked)
{
	for (int i = 0; i < 32; i += 8) {
		uint32_t x = (a >> i) & 0xff, y = (b >> i) & 0xff;
		if (!masked || y)
			acc += absdiff(x, y);
	}
	return acc;
}

static void sad3(struct rdc_wave *w, const struct rdc_inst *in, int kind)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	rdc_vsrc32(w, in, 2, RDC_TY_B32, c);
	LANES {
		if (kind == 0)
			d[l] = sad4(a[l], b[l], c[l], false);
		else if (kind == 1)
			d[l] = (sad4(a[l], b[l], 0, false) << 16) + c[l];
		else
			d[l] = sad4(a[l], b[l], c[l], true);
	}
	rdc_vdst32(w, in, d);
}
static void v_sad_u8(struct rdc_wave *w, const struct rdc_inst *in) { sad3(w, in, 0); }
static void v_sad_hi_u8(struct rdc_wave *w, const struct rdc_inst *in) { sad3(w, in, 1); }
static void v_msad_u8(struct rdc_wave *w, const struct rdc_inst *in) { sad3(w, in, 2); }

/* Source k as 32-bit words w[0..nw): consecutive VGPRs, or a scalar or
 * constant in the low word (the rest zero). */
static void wide_src(const struct rdc_wave *w, const struct rdc_inst *in, int k, unsigned nw,
		     uint32_t (*out)[RDC_LANES])
{
	if (in->src[k] >= RDC_OPD_VGPR) {
		for (unsigned i = 0; i < nw; i++)
			memcpy(out[i], rdc_vreg(w, (uint16_t)(in->src[k] + i)), sizeof out[i]);
		return;
	}
	uint64_t v[RDC_LANES];
	rdc_vsrc64(w, in, k, false, v);
	LANES {
		out[0][l] = (uint32_t)v[l];
		for (unsigned i = 1; i < nw; i++)
			out[i][l] = i == 1 ? (uint32_t)(v[l] >> 32) : 0;
	}
}

/* v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8 (four 16-bit sums in 64 bits) and
 * v_mqsad_u32_u8 (four 32-bit sums in 128 bits): sum i compares the 4
 * bytes of S0[63:0] starting at byte i with S1, accumulating onto field i
 * of S2. */
static void qsad(struct rdc_wave *w, const struct rdc_inst *in, bool masked, bool wide)
{
	uint32_t s0[2][RDC_LANES], s2[4][RDC_LANES], d[4][RDC_LANES], b[RDC_LANES];
	wide_src(w, in, 0, 2, s0);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	wide_src(w, in, 2, wide ? 4 : 2, s2);
	LANES {
		uint64_t src = (uint64_t)s0[1][l] << 32 | s0[0][l];
		for (unsigned i = 0; i < 4; i++) {
			uint32_t win = (uint32_t)(src >> (8 * i));
			uint32_t acc = wide ? s2[i][l] : (s2[i / 2][l] >> (16 * (i & 1))) & 0xffff;
			uint32_t r = sad4(win, b[l], acc, masked);
			if (wide) {
				d[i][l] = r;
			} else {
				uint32_t *f = &d[i / 2][l];
				*f = (i & 1) ? (*f & 0xffff) | (r << 16) : (r & 0xffff);
			}
		}
	}
	uint64_t m = rdc_exec_mask(w);
	for (unsigned i = 0; i < (wide ? 4u : 2u); i++) {
		uint32_t *r = rdc_vreg(w, (uint16_t)(in->dst + i));
		LANES if ((m >> l) & 1) r[l] = d[i][l];
	}
}
static void v_qsad_pk_u16_u8(struct rdc_wave *w, const struct rdc_inst *in) { qsad(w, in, false, false); }
static void v_mqsad_pk_u16_u8(struct rdc_wave *w, const struct rdc_inst *in) { qsad(w, in, true, false); }
static void v_mqsad_u32_u8(struct rdc_wave *w, const struct rdc_inst *in) { qsad(w, in, true, true); }

/* Per byte: (S0 + S1 + S2's byte's bit 0) >> 1. */
static void v_lerp_u8(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];
	rdc_vsrc32(w, in, 0, RDC_TY_B32, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	rdc_vsrc32(w, in, 2, RDC_TY_B32, c);
	LANES {
		uint32_t r = 0;
		for (int i = 0; i < 32; i += 8)
			r |= ((((a[l] >> i) & 0xff) + ((b[l] >> i) & 0xff) + ((c[l] >> i) & 1)) >> 1) << i;
		d[l] = r;
	}
	rdc_vdst32(w, in, d);
}

/* f32 -> u8 as f32 -> u32 converts (NaN 0, truncation), saturated at 255,
 * into byte S1[1:0] of S2. */
static void v_cvt_pk_u8_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES];
	uint32_t b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	rdc_vsrc32(w, in, 1, RDC_TY_B32, b);
	rdc_vsrc32(w, in, 2, RDC_TY_B32, c);
	LANES {
		uint32_t v = rdc_cvt_u32_f32(a[l]), sh = (b[l] & 3) * 8;
		v = v > 255 ? 255 : v;
		d[l] = (c[l] & ~(0xffu << sh)) | (v << sh);
	}
	rdc_vdst32(w, in, d);
}

/* Cube maps: (S0, S1, S2) = (x, y, z); the major axis is z when |z| is the
 * largest (ties to z, then y), y when |y| >= |x|, else x. */
enum { CUBE_ID, CUBE_SC, CUBE_TC, CUBE_MA };
static float cube(int what, float x, float y, float z)
{
	int axis = (fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y)) ? 2 : fabsf(y) >= fabsf(x) ? 1 : 0;
	switch (what) {
	case CUBE_ID:
		return axis == 2 ? (z < 0.0f ? 5.0f : 4.0f) : axis == 1 ? (y < 0.0f ? 3.0f : 2.0f)
									  : (x < 0.0f ? 1.0f : 0.0f);
	case CUBE_SC:
		return axis == 2 ? (z < 0.0f ? -x : x) : axis == 1 ? x : (x < 0.0f ? z : -z);
	case CUBE_TC:
		return axis == 2 ? -y : axis == 1 ? (y < 0.0f ? -z : z) : -y;
	default:
		return 2.0f * (axis == 2 ? z : axis == 1 ? y : x);
	}
}
#define CUBE(NAME, WHAT)                                                        \
	static void NAME(struct rdc_wave *w, const struct rdc_inst *in)         \
	{                                                                       \
		float a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];   \
		rdc_vsrcf(w, in, 0, a);                                         \
		rdc_vsrcf(w, in, 1, b);                                         \
		rdc_vsrcf(w, in, 2, c);                                         \
		LANES d[l] = cube(WHAT, a[l], b[l], c[l]);                      \
		rdc_vdstf(w, in, d);                                            \
	}
CUBE(v_cubeid_f32, CUBE_ID)
CUBE(v_cubesc_f32, CUBE_SC)
CUBE(v_cubetc_f32, CUBE_TC)
CUBE(v_cubema_f32, CUBE_MA)

/* -FLT_MAX when S1 is -FLT_MAX, -inf or NaN, or S2 <= 0 or NaN; else S0*S1. */
static void v_mullit_f32(struct rdc_wave *w, const struct rdc_inst *in)
{
	float a[RDC_LANES], b[RDC_LANES], c[RDC_LANES], d[RDC_LANES];
	rdc_vsrcf(w, in, 0, a);
	rdc_vsrcf(w, in, 1, b);
	rdc_vsrcf(w, in, 2, c);
	LANES {
		bool lim = b[l] == -0x1.fffffep127f || b[l] == -INFINITY || isnan(b[l]) || c[l] <= 0.0f || isnan(c[l]);
		d[l] = lim ? -0x1.fffffep127f : a[l] * b[l];
	}
	rdc_vdstf(w, in, d);
}

rdc_sem_fn rdc_sem_vmedia(uint16_t op)
{
	switch (op) {
	case RDC_OP_V_SAD_U8: return v_sad_u8;
	case RDC_OP_V_SAD_HI_U8: return v_sad_hi_u8;
	case RDC_OP_V_MSAD_U8: return v_msad_u8;
	case RDC_OP_V_QSAD_PK_U16_U8: return v_qsad_pk_u16_u8;
	case RDC_OP_V_MQSAD_PK_U16_U8: return v_mqsad_pk_u16_u8;
	case RDC_OP_V_MQSAD_U32_U8: return v_mqsad_u32_u8;
	case RDC_OP_V_LERP_U8: return v_lerp_u8;
	case RDC_OP_V_CVT_PK_U8_F32: return v_cvt_pk_u8_f32;
	case RDC_OP_V_CUBEID_F32: return v_cubeid_f32;
	case RDC_OP_V_CUBESC_F32: return v_cubesc_f32;
	case RDC_OP_V_CUBETC_F32: return v_cubetc_f32;
	case RDC_OP_V_CUBEMA_F32: return v_cubema_f32;
	case RDC_OP_V_MULLIT_F32: return v_mullit_f32;
	default: return NULL;
	}
}
