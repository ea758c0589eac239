/* SPDX-License-Identifier: MIT */
/*
 * operand.c — reading sources and writing destinations, for every family.
 *
 * Scalar operands: SGPRs, VCC, M0, NULL (reads 0, writes dropped), EXEC,
 * inline integer and float constants (their bit patterns depend on the
 * operand's type: f32, f16 or f64), the literal, VCCZ/EXECZ/SCC and the
 * aperture registers.  Vector sources add DPP16/DPP8 lane selection (lanes
 * a DPP source cannot read are not written, or read 0 with bound_ctrl),
 * SDWA byte/word selects (gfx10), op_sel halves of 16-bit operands and the
 * float abs/neg modifiers.  Vector destinations honour EXEC, VOP3
 * omod/clamp and SDWA's dst_sel/dst_unused.
 */
#include <math.h>
#include <string.h>

#include "wave.h"

static const float f32c[9] = { 0.5f, -0.5f, 1.0f, -1.0f, 2.0f, -2.0f, 4.0f, -4.0f, 0.15915494f };
static const uint16_t f16c[9] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118 };
static const double f64c[9] = { 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 0.15915494309189532 };

/* A constant operand (not an SGPR, not a VGPR) as 32 bits of type ty. */
static uint32_t const32(const struct rdc_wave *w, const struct rdc_inst *in, uint16_t c, enum rdc_ty ty)
{
	if (c >= 128 && c <= 192)
		return c - 128u;
	if (c >= 193 && c <= 208)
		return (uint32_t)(192 - (int)c);
	if (c >= 240 && c <= 248) {
		if (ty == RDC_TY_F16 || ty == RDC_TY_B16)
			return f16c[c - 240];
		uint32_t u;
		memcpy(&u, &f32c[c - 240], 4);
		return u;
	}
	switch (c) {
	case RDC_OPD_LIT: return in->lit;
	case 235: return (uint32_t)(w->mem->lds_aperture >> 32);     /* src_shared_base */
	case 236: return (uint32_t)(w->mem->lds_aperture >> 32);     /* src_shared_limit */
	case 237: return (uint32_t)(w->mem->scratch_aperture >> 32); /* src_private_base */
	case 238: return (uint32_t)(w->mem->scratch_aperture >> 32); /* src_private_limit */
	case 251: return w->s[RDC_OPD_VCC] == 0 && (w->n == 32 || w->s[RDC_OPD_VCC + 1] == 0);
	case 252: return rdc_exec_mask(w) == 0;
	case 253: return w->scc;
	default: return 0;
	}
}

uint32_t rdc_sread(const struct rdc_wave *w, const struct rdc_inst *in, uint16_t opd)
{
	if (opd < RDC_NSGPR)
		return opd == RDC_OPD_NULL ? 0 : w->s[opd];
	if (opd >= RDC_OPD_VGPR)
		return rdc_vreg(w, opd)[0];
	return const32(w, in, opd, RDC_TY_B32);
}

uint64_t rdc_sread64(const struct rdc_wave *w, const struct rdc_inst *in, uint16_t opd, bool f64)
{
	if (opd < RDC_NSGPR - 1)
		return opd == RDC_OPD_NULL ? 0 : ((uint64_t)w->s[opd + 1] << 32 | w->s[opd]);
	if (opd >= 128 && opd <= 192)
		return opd - 128u;
	if (opd >= 193 && opd <= 208)
		return (uint64_t)(int64_t)(192 - (int)opd);
	if (opd >= 240 && opd <= 248) {
		if (f64) {
			uint64_t u;
			memcpy(&u, &f64c[opd - 240], 8);
			return u;
		}
		return const32(w, in, opd, RDC_TY_F32);
	}
	if (opd == RDC_OPD_LIT)
		return f64 ? (uint64_t)in->lit << 32 : in->lit;
	if (opd >= 235 && opd <= 238)
		return opd <= 236 ? w->mem->lds_aperture : w->mem->scratch_aperture;
	return const32(w, in, opd, RDC_TY_B32);
}

void rdc_swrite(struct rdc_wave *w, uint16_t opd, uint32_t v)
{
	if (opd < RDC_NSGPR && opd != RDC_OPD_NULL)
		w->s[opd] = v;
	if (opd == 127 && w->n == 32)
		w->s[127] = 0;
}

void rdc_swrite64(struct rdc_wave *w, uint16_t opd, uint64_t v)
{
	rdc_swrite(w, opd, (uint32_t)v);
	if (opd != RDC_OPD_NULL)
		rdc_swrite(w, (uint16_t)(opd + 1), (uint32_t)(v >> 32));
}

uint64_t rdc_sread_mask(const struct rdc_wave *w, const struct rdc_inst *in, uint16_t opd)
{
	if (w->n == 64)
		return rdc_sread64(w, in, opd, false);
	return rdc_sread(w, in, opd);
}

void rdc_swrite_mask(struct rdc_wave *w, uint16_t opd, uint64_t m)
{
	if (w->n == 64)
		rdc_swrite64(w, opd, m);
	else
		rdc_swrite(w, opd, (uint32_t)m);
}

/* DPP16: the lane each lane reads, or -1 when the row has none. */
static int dpp16_lane(unsigned ctrl, int lane)
{
	int row = lane & ~15, in = lane & 15, q = lane & ~3;
	if (ctrl <= 0xff)
		return q + (int)((ctrl >> ((lane & 3) * 2)) & 3);
	if (ctrl >= 0x101 && ctrl <= 0x10f) {
		int s = in + (int)(ctrl & 15);
		return s < 16 ? row + s : -1;
	}
	if (ctrl >= 0x111 && ctrl <= 0x11f) {
		int s = in - (int)(ctrl & 15);
		return s >= 0 ? row + s : -1;
	}
	if (ctrl >= 0x121 && ctrl <= 0x12f) /* row_ror: row_shr's direction, wrapping */
		return row + ((in - (int)(ctrl & 15)) & 15);
	if (ctrl == 0x140)
		return row + 15 - in;
	if (ctrl == 0x141)
		return (lane & ~7) + 7 - (lane & 7);
	if (ctrl >= 0x150 && ctrl <= 0x15f)
		return row + (int)(ctrl & 15);
	if (ctrl >= 0x160 && ctrl <= 0x16f)
		return row + (in ^ (int)(ctrl & 15));
	return -2; /* reserved / gfx9 wave shifts: not on RDNA */
}

/* Source 0 through DPP: values, and the lanes that must not be written. */
static void dpp_read(struct rdc_wave *w, const struct rdc_inst *in, const uint32_t *src, uint32_t *out)
{
	uint64_t exec = rdc_exec_mask(w), off = 0;
	for (unsigned l = 0; l < w->n; l++) {
		int s;
		if (in->enc == RDC_ENC_DPP8) {
			s = (int)(l & ~7u) + (int)((in->dpp8 >> ((l & 7) * 3)) & 7);
		} else {
			s = dpp16_lane(in->dpp_ctrl, (int)l);
			if (s == -2) {
				rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "DPP control 0x%x is not an RDNA control",
					 in->dpp_ctrl);
				return;
			}
			if (!((in->row_mask >> (l >> 4)) & 1) || !((in->bank_mask >> ((l & 15) >> 2)) & 1)) {
				off |= 1ull << l;
				out[l] = 0;
				continue;
			}
		}
		bool valid = s >= 0 && (unsigned)s < w->n && (in->fi || ((exec >> s) & 1));
		if (valid) {
			out[l] = src[s];
		} else if (in->enc == RDC_ENC_DPP16 && in->bound_ctrl) {
			out[l] = 0;
		} else {
			out[l] = 0;
			off |= 1ull << l;
		}
	}
	w->dpp_off |= off;
}

/* SDWA source select: byte/word/dword, zero or sign extended. */
static uint32_t sdwa_sel(uint32_t v, unsigned sel, bool sext)
{
	switch (sel) {
	case 0: case 1: case 2: case 3: {
		uint32_t b = (v >> (sel * 8)) & 0xff;
		return sext ? (uint32_t)(int32_t)(int8_t)b : b;
	}
	case 4: case 5: {
		uint32_t h = (v >> ((sel - 4) * 16)) & 0xffff;
		return sext ? (uint32_t)(int32_t)(int16_t)h : h;
	}
	default:
		return v;
	}
}

void rdc_vsrc32(const struct rdc_wave *cw, const struct rdc_inst *in, int k, enum rdc_ty ty, uint32_t *out)
{
	struct rdc_wave *w = (struct rdc_wave *)cw;
	uint16_t c = in->src[k];
	unsigned n = w->n;
	if (c >= RDC_OPD_VGPR) {
		const uint32_t *r = rdc_vreg(w, c);
		if (k == 0 && (in->enc == RDC_ENC_DPP16 || in->enc == RDC_ENC_DPP8))
			dpp_read(w, in, r, out);
		else
			memcpy(out, r, n * 4);
	} else {
		uint32_t v = c < RDC_NSGPR ? (c == RDC_OPD_NULL ? 0 : w->s[c]) : const32(w, in, c, ty);
		for (unsigned l = 0; l < n; l++)
			out[l] = v;
	}
	if (in->enc == RDC_ENC_SDWA && k < 2) {
		unsigned sel = k == 0 ? in->src0_sel : in->src1_sel;
		bool sx = (in->sext >> k) & 1;
		if (sel != 6)
			for (unsigned l = 0; l < n; l++)
				out[l] = sdwa_sel(out[l], sel, sx);
	}
}

void rdc_vsrc64(const struct rdc_wave *w, const struct rdc_inst *in, int k, bool f64, uint64_t *out)
{
	uint16_t c = in->src[k];
	unsigned n = w->n;
	if (c >= RDC_OPD_VGPR) {
		const uint32_t *lo = rdc_vreg(w, c), *hi = rdc_vreg(w, (uint16_t)(c + 1));
		for (unsigned l = 0; l < n; l++)
			out[l] = (uint64_t)hi[l] << 32 | lo[l];
		return;
	}
	uint64_t v = rdc_sread64(w, in, c, f64);
	for (unsigned l = 0; l < n; l++)
		out[l] = v;
}

void rdc_vsrcf(const struct rdc_wave *w, const struct rdc_inst *in, int k, float *out)
{
	uint32_t *u = (uint32_t *)out;
	rdc_vsrc32(w, in, k, RDC_TY_F32, u);
	uint32_t clr = (in->abs >> k) & 1 ? 0x7fffffffu : 0xffffffffu;
	uint32_t flip = (in->neg >> k) & 1 ? 0x80000000u : 0;
	if (clr != 0xffffffffu || flip)
		for (unsigned l = 0; l < w->n; l++)
			u[l] = (u[l] & clr) ^ flip;
}

void rdc_vsrcd(const struct rdc_wave *w, const struct rdc_inst *in, int k, double *out)
{
	uint64_t *u = (uint64_t *)out;
	rdc_vsrc64(w, in, k, true, u);
	uint64_t clr = (in->abs >> k) & 1 ? 0x7fffffffffffffffull : ~0ull;
	uint64_t flip = (in->neg >> k) & 1 ? 0x8000000000000000ull : 0;
	for (unsigned l = 0; l < w->n; l++)
		u[l] = (u[l] & clr) ^ flip;
}

void rdc_vsrc16(const struct rdc_wave *w, const struct rdc_inst *in, int k, uint16_t *out)
{
	uint32_t tmp[RDC_LANES];
	rdc_vsrc32(w, in, k, RDC_TY_F16, tmp);
	bool hi = (in->opsel >> k) & 1;
	if (in->enc == RDC_ENC_SDWA)
		hi = false; /* the select already moved the word */
	for (unsigned l = 0; l < w->n; l++)
		out[l] = (uint16_t)(hi ? tmp[l] >> 16 : tmp[l]);
}

void rdc_vsrch(const struct rdc_wave *w, const struct rdc_inst *in, int k, float *out)
{
	uint16_t h[RDC_LANES];
	rdc_vsrc16(w, in, k, h);
	uint16_t clr = (in->abs >> k) & 1 ? 0x7fff : 0xffff;
	uint16_t flip = (in->neg >> k) & 1 ? 0x8000 : 0;
	for (unsigned l = 0; l < w->n; l++) {
		uint16_t v = (uint16_t)((h[l] & clr) ^ flip);
		_Float16 f;
		memcpy(&f, &v, 2);
		out[l] = (float)f;
	}
}

static uint64_t write_mask(const struct rdc_wave *w)
{
	return rdc_exec_mask(w) & ~w->dpp_off;
}

void rdc_vdst32(struct rdc_wave *w, const struct rdc_inst *in, const uint32_t *val)
{
	uint32_t *d = rdc_vreg(w, in->dst);
	uint64_t m = write_mask(w);
	if (in->enc == RDC_ENC_SDWA && (in->dst_sel != 6)) {
		unsigned sel = in->dst_sel;
		unsigned sh = sel < 4 ? sel * 8 : (sel - 4) * 16, bits = sel < 4 ? 8 : 16;
		uint32_t fm = (bits == 8 ? 0xffu : 0xffffu) << sh;
		for (unsigned l = 0; l < w->n; l++) {
			if (!((m >> l) & 1))
				continue;
			uint32_t v = (val[l] << sh) & fm;
			if (in->dst_unused == 2)
				v |= d[l] & ~fm;
			else if (in->dst_unused == 1 && (v >> (sh + bits - 1)) & 1)
				v |= ~fm & ~((1u << sh) - 1);
			d[l] = v;
		}
		return;
	}
	if (m == rdc_lanemask(w)) {
		memcpy(d, val, w->n * 4);
		return;
	}
	for (unsigned l = 0; l < w->n; l++)
		if ((m >> l) & 1)
			d[l] = val[l];
}

void rdc_vdst64(struct rdc_wave *w, const struct rdc_inst *in, const uint64_t *val)
{
	uint32_t *lo = rdc_vreg(w, in->dst), *hi = rdc_vreg(w, (uint16_t)(in->dst + 1));
	uint64_t m = write_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if ((m >> l) & 1) {
			lo[l] = (uint32_t)val[l];
			hi[l] = (uint32_t)(val[l] >> 32);
		}
	}
}

static float omod_clamp(const struct rdc_inst *in, float v)
{
	switch (in->omod) {
	case 1: v *= 2.0f; break;
	case 2: v *= 4.0f; break;
	case 3: v *= 0.5f; break;
	default: break;
	}
	if (in->clamp)
		v = isnan(v) ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
	return v;
}

void rdc_vdstf(struct rdc_wave *w, const struct rdc_inst *in, float *val)
{
	if (in->omod || in->clamp)
		for (unsigned l = 0; l < w->n; l++)
			val[l] = omod_clamp(in, val[l]);
	rdc_vdst32(w, in, (const uint32_t *)val);
}

void rdc_vdstd(struct rdc_wave *w, const struct rdc_inst *in, double *val)
{
	for (unsigned l = 0; l < w->n && (in->omod || in->clamp); l++) {
		double v = val[l];
		v = in->omod == 1 ? v * 2 : in->omod == 2 ? v * 4 : in->omod == 3 ? v * 0.5 : v;
		if (in->clamp)
			v = isnan(v) ? 0.0 : v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
		val[l] = v;
	}
	rdc_vdst64(w, in, (const uint64_t *)val);
}

void rdc_vdst16(struct rdc_wave *w, const struct rdc_inst *in, const uint16_t *val)
{
	uint32_t *d = rdc_vreg(w, in->dst);
	uint64_t m = write_mask(w);
	bool hi = (in->opsel >> 3) & 1;
	/* The other half is kept, on gfx10 as on gfx11, e32 as e64: LLVM's
	 * GCNSubtarget::zeroesHigh16BitsOfDest (GCNSubtarget.cpp, "On gfx10,
	 * all 16-bit instructions preserve the high bits"; the list that
	 * zeroes is gfx9's and VI's).  SDWA writes by dst_sel/dst_unused. */
	if (in->enc == RDC_ENC_SDWA) {
		uint32_t tmp[RDC_LANES];
		for (unsigned l = 0; l < w->n; l++)
			tmp[l] = val[l];
		rdc_vdst32(w, in, tmp);
		return;
	}
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		if (hi)
			d[l] = (d[l] & 0xffffu) | (uint32_t)val[l] << 16;
		else
			d[l] = (d[l] & 0xffff0000u) | val[l];
	}
}

void rdc_vdsth(struct rdc_wave *w, const struct rdc_inst *in, const float *val)
{
	uint16_t h[RDC_LANES];
	for (unsigned l = 0; l < w->n; l++) {
		_Float16 f = (_Float16)omod_clamp(in, val[l]);
		memcpy(&h[l], &f, 2);
	}
	rdc_vdst16(w, in, h);
}
