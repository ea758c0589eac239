/* SPDX-License-Identifier: MIT */
/*
 * sem_image.c — image instructions, one semantic core for gfx10.3 and
 * gfx11: image_load(_mip), image_store(_mip), image_sample with _l, _lz and
 * _b, image_gather4 (_l, _lz) and image_get_resinfo, over 1D, 2D, 3D,
 * 1D-array and 2D-array images in the linear layout.
 *
 * Sections: the resource descriptor (T#) and sampler (S#) fields; texel
 * addressing; address modes and filtering; the instruction handlers.
 *
 * Descriptors, as ROCR's image manager writes them (ROCR-Runtime
 * src/image/resource_nv.h for gfx10, resource_gfx11.h for gfx11, commit
 * 7378d73; image_manager_gfx11.cpp PopulateImageSrd/PopulateSamplerSrd):
 *   T# w0 BASE_ADDRESS (address >> 8), w1[7:0] its bits 39:32;
 *      FORMAT w1[28:20] (gfx10, 9 bits) / w1[27:20] (gfx11, 8 bits) — the
 *      same combined format numbers as a buffer's FORMAT (ROCR's
 *      GetCombinedFormat fills both), so buffmt.c converts them;
 *      WIDTH-1 = w1[31:30] | w2[11:0] << 2; HEIGHT-1 = w2[27:14];
 *      w3: DST_SEL_X/Y/Z/W [2:0] [5:3] [8:6] [11:9] (0: 0, 1: 1, 4-7: X-W),
 *      BASE_LEVEL [15:12], LAST_LEVEL [19:16], SW_MODE [24:20],
 *      BC_SWIZZLE [27:25], TYPE [31:28] (8 1D, 9 2D, 10 3D, 12 1D array,
 *      13 2D array); w4: DEPTH-1 (3D) or last slice (arrays) [12:0],
 *      PITCH-1 [13:0] for 1D/2D, BASE_ARRAY [28:16].  A 128-bit T# (r128)
 *      is the first four words.
 *   S# w0 CLAMP_X/Y/Z [2:0] [5:3] [8:6], DEPTH_COMPARE_FUNC [14:12],
 *      FORCE_UNNORMALIZED 15; w2 XY_MAG_FILTER [21:20], XY_MIN_FILTER
 *      [23:22] (0 point, 1 bilinear), Z_FILTER [25:24], MIP_FILTER [27:26];
 *      w3 BORDER_COLOR_TYPE [31:30] (0 transparent black, 1 opaque black,
 *      2 opaque white, 3 a palette register).  Address modes SQ_TEX_CLAMP:
 *      0 wrap, 1 mirror, 2 clamp to last texel, 3 mirror once then clamp,
 *      4/6 clamp to (half) border, 5/7 mirror once then border.
 *
 * Layout: SW_MODE 0 (linear): element (x, y, s) at base + ((s * H + y) * P
 * + x) * bytes, P the T#'s pitch for 1D/2D and, for arrays and 3D (whose T#
 * carries no pitch), the width rounded up to 256 bytes (addrlib
 * Gfx10Lib::ComputeSurfaceInfoLinear: pitchAlign = 256 / elementBytes);
 * and the 256B/4KB swizzle modes ROCR gives hipMallocArray images (the
 * "tiled layouts" section).  Other swizzle modes, images with mip levels
 * and MSAA/cube images fail the dispatch with a message that names them.
 *
 * Filtering: point takes floor(u * size); bilinear takes x = u * size - 0.5
 * and weights from its fraction kept to 8 bits (floor(f * 256) / 256): the
 * hardware filters with fixed-point weights (D3D11's functional spec asks
 * at least 8 bits of sub-texel precision; CUDA's programming guide
 * documents 9-bit weights with 8 fractional bits); AMD does not publish
 * its rounding, so tests hold results to the 8-bit rule within one step
 * (1/256 of the texel difference).  Array slices round to nearest and
 * clamp; 3D images filter z like x and y.  Values are converted to float
 * first (buffmt.c), filtered in double and rounded once to f32.
 *
 * Data: dmask picks the components (after DST_SEL) written to consecutive
 * VGPRs (gather4: four texels' one component, in the order (i0,j1),
 * (i1,j1), (i1,j0), (i0,j0)); d16 packs two 16-bit values a VGPR; tfe/lwe
 * add one VGPR, written 0 (every texel is resident).  Stores take dmask's
 * components in X..W order (DST_SEL does not apply) and keep the others.
 * Loads outside the image return 0 in every component before DST_SEL;
 * stores outside it are dropped.  a16 addresses: 16-bit coordinates and
 * lod/mip, two a VGPR (bias stays 32-bit).
 */
#include <math.h>
#include <string.h>

#include "wave.h"

/* ---- tiled layouts ----
 *
 * The 256-byte and 4 KiB "standard" (S) and "display" (D) swizzle modes,
 * which ROCR's image manager lets addrlib pick for 1D/2D images and arrays
 * (GetAddrlibSurfaceInfoNv in image_manager_nv.cpp / image_manager_gfx11.cpp
 * forbids the 64 KiB blocks; 3D images get pipe-XOR modes, refused here:
 * docs/SIMGPU.md says which).  Within a block, byte-address bit i comes from
 * one coordinate bit, no XOR (the non-_X modes do not depend on pipes or
 * banks); blocks follow each other along the row, rows of blocks along
 * the pitch.  Patterns: addrlib's GFX10_SW_PATTERN_NIBBLE01 rows 0-7 and
 * GFX11_SW_PATTERN_NIBBLE01 rows 0-4 (address bits 0-7), NIBBLE2 rows 1-5
 * (bits 8-11, the same on both), chosen per element size by
 * GFX10_SW_256_S/256_D/4K_S/4K_D_PATINFO and GFX11_SW_256_D/4K_D_PATINFO
 * (ROCR-Runtime runtime/hsa-runtime/image/addrlib/src/gfx10/
 * gfx10SwizzlePattern.h and gfx11/gfx11SwizzlePattern.h, commit c7785a6).
 * Encoding here: +n is X bit n-1, -n is Y bit n-1, 0 a bit inside the
 * element.  Swizzle mode numbers: addrlib's AddrSwizzleMode (1 256B_S,
 * 2 256B_D, 5 4KB_S, 6 4KB_D), which ROCR writes into SW_MODE. */
static const int8_t nib01_g10[8][8] = {
	{ 1, 2, 3, 4, -1, -2, -3, -4 },   /* 0 */
	{ 0, 1, 2, 3, -1, -2, -3, 4 },    /* 1 */
	{ 0, 0, 1, 2, -1, -2, -3, 3 },    /* 2 */
	{ 0, 0, 0, 1, -1, -2, 2, 3 },     /* 3 */
	{ 0, 0, 0, 0, -1, -2, 1, 2 },     /* 4 */
	{ 1, 2, 3, -2, -1, -3, 4, -4 },   /* 5 */
	{ 0, 0, 0, 1, -1, 2, 3, -2 },     /* 6 */
	{ 0, 0, 0, 0, 1, -1, 2, -2 },     /* 7 */
};
static const int8_t nib01_g11[5][8] = {
	{ 1, 2, -1, 3, -2, -3, 4, -4 },   /* 0 */
	{ 0, 1, -1, 2, -2, 3, -3, 4 },    /* 1 */
	{ 0, 0, 1, -1, 2, -2, 3, -3 },    /* 2 */
	{ 0, 0, 0, 1, -1, 2, 3, -2 },     /* 3 */
	{ 0, 0, 0, 0, 1, -1, 2, -2 },     /* 4 */
};
static const int8_t nib2[6][4] = {
	{ 0, 0, 0, 0 },
	{ -5, 5, -6, 6 },                 /* 1: Y4 X4 Y5 X5 */
	{ -4, 5, -5, 6 },                 /* 2: Y3 X4 Y4 X5 */
	{ -4, 4, -5, 5 },                 /* 3: Y3 X3 Y4 X4 */
	{ -3, 4, -4, 5 },                 /* 4: Y2 X3 Y3 X4 */
	{ -3, 3, -4, 4 },                 /* 5: Y2 X2 Y3 X3 */
};

struct tiling {
	int8_t bit[12];          /* address bits 0..11 of a block */
	unsigned block_log2, bw, bh; /* block bytes, width and height in elements */
};

/* The pattern of swizzle mode m for elements of 2^le bytes; false: a mode
 * the engine does not lay out. */
static bool tiling_of(unsigned gfx, unsigned m, unsigned le, struct tiling *t)
{
	static const uint8_t d10[5] = { 5, 1, 2, 6, 7 };
	memset(t, 0, sizeof *t);
	if (le > 4)
		return false;
	const int8_t *n01;
	if (gfx == 11) {
		if (m != 2 && m != 6)
			return false;
		n01 = nib01_g11[le];
	} else {
		if (m != 1 && m != 2 && m != 5 && m != 6)
			return false;
		n01 = m == 1 || m == 5 ? nib01_g10[le] : nib01_g10[d10[le]];
	}
	memcpy(t->bit, n01, 8);
	t->block_log2 = 8;
	if (m >= 5) {
		memcpy(t->bit + 8, nib2[le + 1], 4);
		t->block_log2 = 12;
	}
	unsigned e = t->block_log2 - le; /* elements a block, log2 */
	t->bw = 1u << ((e + 1) / 2);
	t->bh = 1u << (e / 2);
	return true;
}

/* ---- descriptors ---- */

struct tdesc {
	uint64_t base;
	const struct rdc_buffmt *fmt;
	unsigned fmtv;
	unsigned width, height, depth, first_slice, pitch; /* depth: slices or 3D depth */
	unsigned sel[4], bcsw, base_level, last_level, sw_mode, type;
	uint64_t slice_bytes;
	struct tiling tile;      /* sw_mode != 0 */
};

struct sdesc {
	unsigned clamp[3], cmp, unnorm, mag, min, border;
};

static bool read_t(struct rdc_wave *w, const struct rdc_inst *in, struct tdesc *t)
{
	uint32_t d[8] = { 0 };
	unsigned nw = in->mimg.r128 ? 4 : 8;
	for (unsigned i = 0; i < nw; i++)
		d[i] = w->s[(in->srsrc + i) % RDC_NSGPR];
	memset(t, 0, sizeof *t);
	t->base = ((uint64_t)(d[1] & 0xff) << 32 | d[0]) << 8;
	t->fmtv = w->gfx == 11 ? (d[1] >> 20) & 0xff : (d[1] >> 20) & 0x1ff;
	t->width = ((d[1] >> 30) | (d[2] & 0xfff) << 2) + 1;
	t->height = ((d[2] >> 14) & 0x3fff) + 1;
	for (unsigned c = 0; c < 4; c++)
		t->sel[c] = (d[3] >> (3 * c)) & 7;
	t->base_level = (d[3] >> 12) & 0xf;
	t->last_level = (d[3] >> 16) & 0xf;
	t->sw_mode = (d[3] >> 20) & 0x1f;
	t->bcsw = (d[3] >> 25) & 7;
	t->type = d[3] >> 28;
	t->fmt = rdc_buffmt(w->gfx, t->fmtv);
	if (!t->fmt) {
		rdc_fail(w, RDC_EXEC_BAD, in, "T# format %u is not one the engine converts (T# %08x %08x %08x %08x)",
			 t->fmtv, d[0], d[1], d[2], d[3]);
		return false;
	}
	unsigned le = t->fmt->bytes == 1 ? 0 : t->fmt->bytes == 2 ? 1 : t->fmt->bytes == 4 ? 2 : t->fmt->bytes == 8 ? 3 : 4;
	if (t->sw_mode != 0 && (!tiling_of(w->gfx, t->sw_mode, le, &t->tile) || (1u << le) != t->fmt->bytes)) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in,
			 "image layout SW_MODE %u is outside the engine's scope: it lays out linear images and the "
			 "256B/4KB S and D swizzle modes (T# %08x %08x %08x %08x %08x)",
			 t->sw_mode, d[0], d[1], d[2], d[3], d[4]);
		return false;
	}
	if (t->type < 8 || t->type == 11 || t->type >= 14) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "T# type %u (cube or MSAA) is outside the engine's scope", t->type);
		return false;
	}
	bool arr = t->type == 12 || t->type == 13, d3 = t->type == 10;
	unsigned bytes = t->fmt->bytes;
	if (nw == 8 && (arr || d3)) {
		t->depth = (d[4] & 0x1fff) + 1;
		t->first_slice = arr ? (d[4] >> 16) & 0x1fff : 0;
		unsigned align = t->sw_mode ? t->tile.bw : 256 / bytes ? 256 / bytes : 1;
		t->pitch = (t->width + align - 1) / align * align;
	} else {
		t->depth = 1;
		t->pitch = nw == 8 ? (d[4] & 0x3fff) + 1 : t->width;
		if (t->pitch < t->width)
			t->pitch = t->width;
	}
	if (t->type == 8 || t->type == 12)
		t->height = 1; /* 1D: the height field is unused */
	unsigned hal = t->height;
	if (t->sw_mode) { /* whole blocks */
		hal = (t->height + t->tile.bh - 1) / t->tile.bh * t->tile.bh;
		t->pitch = (t->pitch + t->tile.bw - 1) / t->tile.bw * t->tile.bw;
	}
	t->slice_bytes = (uint64_t)t->pitch * hal * bytes;
	return true;
}

static void read_s(const struct rdc_wave *w, const struct rdc_inst *in, struct sdesc *s)
{
	uint32_t d[4];
	for (unsigned i = 0; i < 4; i++)
		d[i] = w->s[(in->saddr + i) % RDC_NSGPR];
	for (unsigned c = 0; c < 3; c++)
		s->clamp[c] = (d[0] >> (3 * c)) & 7;
	s->cmp = (d[0] >> 12) & 7;
	s->unnorm = (d[0] >> 15) & 1;
	s->mag = (d[2] >> 20) & 3;
	s->min = (d[2] >> 22) & 3;
	s->border = d[3] >> 30;
}

/* ---- instruction forms ---- */

enum kind { K_LOAD, K_STORE, K_SAMPLE, K_GATHER, K_RESINFO };
struct form {
	enum kind kind;
	bool mip, lod, bias; /* a mip/lod address after the coordinates; a bias before them */
};

static bool form_of(uint16_t op, struct form *f)
{
	memset(f, 0, sizeof *f);
	switch (op) {
	case RDC_OP_IMAGE_LOAD: f->kind = K_LOAD; return true;
	case RDC_OP_IMAGE_LOAD_MIP: f->kind = K_LOAD; f->mip = true; return true;
	case RDC_OP_IMAGE_STORE: f->kind = K_STORE; return true;
	case RDC_OP_IMAGE_STORE_MIP: f->kind = K_STORE; f->mip = true; return true;
	case RDC_OP_IMAGE_SAMPLE: case RDC_OP_IMAGE_SAMPLE_LZ: f->kind = K_SAMPLE; return true;
	case RDC_OP_IMAGE_SAMPLE_L: f->kind = K_SAMPLE; f->lod = true; return true;
	case RDC_OP_IMAGE_SAMPLE_B: f->kind = K_SAMPLE; f->bias = true; return true;
	case RDC_OP_IMAGE_GATHER4: case RDC_OP_IMAGE_GATHER4_LZ: f->kind = K_GATHER; return true;
	case RDC_OP_IMAGE_GATHER4_L: f->kind = K_GATHER; f->lod = true; return true;
	case RDC_OP_IMAGE_GET_RESINFO: f->kind = K_RESINFO; return true;
	default: return false;
	}
}

/* Coordinates a dimension takes (MIMG dim field: 0 1D, 1 2D, 2 3D, 3 cube,
 * 4 1D array, 5 2D array, 6 MSAA, 7 MSAA array). */
static unsigned ncoords(unsigned dim)
{
	static const uint8_t n[8] = { 1, 2, 3, 3, 2, 3, 3, 4 };
	return n[dim & 7];
}

/* The address VGPR holding 32-bit address dword k of lane l. */
static uint32_t addr_dw(const struct rdc_wave *w, const struct rdc_inst *in, unsigned k, unsigned l)
{
	uint16_t r;
	if (in->mimg.naddr)
		r = (uint16_t)(RDC_OPD_VGPR + in->mimg.vaddr[k < in->mimg.naddr ? k : (unsigned)in->mimg.naddr - 1]);
	else
		r = (uint16_t)(in->addr + k);
	return rdc_vreg(w, r)[l];
}

/* Address component i (after the extra dwords ne) as 32 bits; a16 packs
 * the coordinates and lod/mip two a dword, low half first. */
static uint32_t addr_c(const struct rdc_wave *w, const struct rdc_inst *in, unsigned ne, unsigned i, unsigned l,
		       bool isf)
{
	if (!in->mimg.a16)
		return addr_dw(w, in, ne + i, l);
	uint32_t d = addr_dw(w, in, ne + i / 2, l);
	uint16_t h = (uint16_t)(i & 1 ? d >> 16 : d);
	return isf ? rdc_f2u((float)rdc_buffmt_h2d(h)) : h;
}

/* ---- texels ---- */

static uint8_t *texel_ptr(struct rdc_wave *w, const struct tdesc *t, unsigned x, unsigned y, unsigned s, bool wr)
{
	uint64_t off = (uint64_t)s * t->slice_bytes;
	if (!t->sw_mode) {
		off += ((uint64_t)y * t->pitch + x) * t->fmt->bytes;
	} else {
		const struct tiling *g = &t->tile;
		uint64_t blk = (uint64_t)(y / g->bh) * (t->pitch / g->bw) + x / g->bw;
		uint32_t in = 0;
		for (unsigned i = 0; i < g->block_log2; i++) {
			int b = g->bit[i];
			if (b)
				in |= ((b > 0 ? x >> (b - 1) : y >> (-b - 1)) & 1u) << i;
		}
		off += (blk << g->block_log2) + in;
	}
	return rdc_gptr(w, t->base + off, t->fmt->bytes, wr);
}

/* Raw components of a texel (before DST_SEL); outside the image: zeros. */
static bool fetch(struct rdc_wave *w, const struct tdesc *t, int x, int y, int s, struct rdc_bfval v[4])
{
	if (x < 0 || y < 0 || s < (int)t->first_slice || (unsigned)x >= t->width || (unsigned)y >= t->height ||
	    (unsigned)s >= t->depth) {
		memset(v, 0, 4 * sizeof *v);
		for (unsigned c = 0; c < 4; c++)
			v[c].isf = rdc_buffmt_isfloat(t->fmt);
		return true;
	}
	uint8_t *p = texel_ptr(w, t, (unsigned)x, (unsigned)y, (unsigned)s, false);
	if (!p)
		return false;
	rdc_buffmt_unpack(t->fmt, p, v);
	return true;
}

/* DST_SEL: raw components -> (X, Y, Z, W). */
static void swizzle(const struct tdesc *t, const struct rdc_bfval raw[4], struct rdc_bfval out[4])
{
	bool isf = rdc_buffmt_isfloat(t->fmt);
	for (unsigned c = 0; c < 4; c++) {
		unsigned s = t->sel[c];
		if (s >= 4) {
			out[c] = raw[s - 4];
		} else {
			out[c].isf = isf;
			out[c].raw = false;
			out[c].f = s == 1 ? 1.0 : 0.0;
			out[c].u = s == 1;
		}
	}
}

/* ---- address modes and filtering ---- */

/* The texel index i on an axis of n texels under mode m; -1: the border. */
static int address(int i, int n, unsigned m)
{
	switch (m) {
	case 0: { /* wrap */
		int r = i % n;
		return r < 0 ? r + n : r;
	}
	case 1: { /* mirror */
		int p = i % (2 * n);
		if (p < 0)
			p += 2 * n;
		return p < n ? p : 2 * n - 1 - p;
	}
	case 2: /* clamp to the last texel */
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	case 3: /* mirror once, then clamp */
		i = i < 0 ? -i - 1 : i;
		return i >= n ? n - 1 : i;
	case 5: case 7: /* mirror once, then the border */
		i = i < 0 ? -i - 1 : i;
		return i >= n ? -1 : i;
	default: /* 4, 6: the border */
		return i < 0 || i >= n ? -1 : i;
	}
}

/* The border colour in raw components: the S# type's (X, Y, Z, W) put where
 * DST_SEL reads them, so that the swizzle gives it back. */
static void border(const struct tdesc *t, const struct sdesc *s, struct rdc_bfval raw[4])
{
	static const double bc[3][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 1 } };
	const double *b = bc[s->border < 3 ? s->border : 0];
	bool isf = rdc_buffmt_isfloat(t->fmt);
	memset(raw, 0, 4 * sizeof *raw);
	for (unsigned c = 0; c < 4; c++)
		raw[c].isf = isf;
	for (int k = 3; k >= 0; k--) {
		if (t->sel[k] >= 4) {
			raw[t->sel[k] - 4].f = b[k];
			raw[t->sel[k] - 4].u = (uint32_t)b[k];
		}
	}
}

/* Fetch texel (x, y, z) through the address modes. */
static bool fetch_am(struct rdc_wave *w, const struct tdesc *t, const struct sdesc *s, int x, int y, int z, bool d3,
		     struct rdc_bfval v[4])
{
	int ax = address(x, (int)t->width, s->clamp[0]);
	int ay = t->height > 1 || t->type == 9 || t->type == 13 || d3 ? address(y, (int)t->height, s->clamp[1]) : 0;
	int az = d3 ? address(z, (int)t->depth, s->clamp[2]) : z;
	if (ax < 0 || ay < 0 || az < 0) {
		border(t, s, v);
		return true;
	}
	return fetch(w, t, ax, ay, az, v);
}

/* One axis: the first texel and the 8-bit weight fraction (0 for point). */
static void axis(double c, unsigned size, bool norm, bool linear, int *i0, double *frac)
{
	double x = norm ? c * size : c;
	if (!(x > -1e9)) /* NaN and far outside: a texel far outside, no overflow */
		x = -1e9;
	else if (x > 1e9)
		x = 1e9;
	if (!linear) {
		*i0 = (int)floor(x);
		*frac = 0;
		return;
	}
	x -= 0.5;
	double f = floor(x);
	*i0 = (int)f;
	*frac = floor((x - f) * 256.0) / 256.0;
}

static unsigned slice_of(double s, const struct tdesc *t)
{
	double r = s == s ? nearbyint(s) : 0; /* NaN: slice 0 */
	double lo = t->first_slice, hi = t->depth ? t->depth - 1 : 0;
	return (unsigned)(r < lo ? lo : r > hi ? hi : r);
}

/* ---- results ---- */

/* Write the dmask-selected components of v (X..W) to vdata of lane l. */
static void put(struct rdc_wave *w, const struct rdc_inst *in, unsigned l, const struct rdc_bfval v[4], unsigned n)
{
	unsigned k = 0;
	uint32_t out[5] = { 0 };
	for (unsigned c = 0; c < 4; c++) {
		if (n == 4 ? !(in->mimg.dmask >> c & 1) : c >= n)
			continue;
		uint32_t x;
		if (in->mimg.d16)
			x = v[c].isf ? rdc_buffmt_d2h(v[c].f) : (v[c].u & 0xffff);
		else
			x = !v[c].isf ? v[c].u : v[c].raw ? v[c].u : rdc_f2u((float)v[c].f);
		if (in->mimg.d16)
			out[k / 2] |= x << (16 * (k & 1));
		else
			out[k] = x;
		k++;
	}
	unsigned nd = in->mimg.d16 ? (k + 1) / 2 : k;
	if (in->mimg.tfe || in->mimg.lwe)
		out[nd++] = 0; /* texel fail: every texel is resident */
	for (unsigned i = 0; i < nd; i++)
		rdc_vreg(w, (uint16_t)(in->dst + i))[l] = out[i];
}

static void put4(struct rdc_wave *w, const struct rdc_inst *in, unsigned l, const struct rdc_bfval v[4])
{
	put(w, in, l, v, 4);
}

/* ---- handlers ---- */

/* Images with mip levels: where addrlib puts each level (level 0 included)
 * is not modelled here, and a view's BASE_LEVEL names another level: the
 * engine lays out single-level images only.  A mip address past the one
 * level reads 0 and drops stores. */
static bool single_level(struct rdc_wave *w, const struct rdc_inst *in, const struct tdesc *t)
{
	if (t->base_level == 0 && t->last_level == 0)
		return true;
	rdc_fail(w, RDC_EXEC_UNSUPPORTED, in,
		 "an image with mip levels %u-%u is outside the engine's scope: it lays out single-level images only",
		 t->base_level, t->last_level);
	return false;
}

static void img_mem(struct rdc_wave *w, const struct rdc_inst *in, const struct form *f, const struct tdesc *t)
{
	unsigned nc = ncoords(in->mimg.dim), dim = in->mimg.dim;
	uint64_t exec = rdc_exec_mask(w);
	bool store = f->kind == K_STORE;
	for (unsigned l = 0; l < w->n; l++) {
		if (!(exec >> l & 1))
			continue;
		uint32_t c[4] = { 0, 0, 0, 0 };
		for (unsigned i = 0; i < nc; i++)
			c[i] = addr_c(w, in, 0, i, l, false);
		unsigned mip = f->mip ? addr_c(w, in, 0, nc, l, false) : 0;
		bool past = mip != 0;
		int x = (int)c[0], y = 0, s = 0;
		if (dim == 1) y = (int)c[1];
		else if (dim == 2 || dim == 5) { y = (int)c[1]; s = (int)c[2]; }
		else if (dim == 4) s = (int)c[1];
		if (!store) {
			struct rdc_bfval raw[4], v[4];
			if (past)
				fetch(w, t, -1, 0, 0, raw);
			else if (!fetch(w, t, x, y, s, raw))
				return;
			swizzle(t, raw, v);
			put4(w, in, l, v);
			continue;
		}
		if (past || x < 0 || y < 0 || s < (int)t->first_slice || (unsigned)x >= t->width ||
		    (unsigned)y >= t->height || (unsigned)s >= t->depth)
			continue; /* dropped */
		uint8_t *p = texel_ptr(w, t, (unsigned)x, (unsigned)y, (unsigned)s, true);
		if (!p)
			return;
		struct rdc_bfval v[4];
		rdc_buffmt_unpack(t->fmt, p, v);
		bool isf = rdc_buffmt_isfloat(t->fmt);
		unsigned k = 0;
		for (unsigned ch = 0; ch < 4; ch++) {
			if (!(in->mimg.dmask >> ch & 1))
				continue;
			uint32_t d = rdc_vreg(w, (uint16_t)(in->dst + (in->mimg.d16 ? k / 2 : k)))[l];
			if (in->mimg.d16)
				d = (d >> (16 * (k & 1))) & 0xffff;
			v[ch].isf = isf;
			v[ch].raw = false;
			if (isf)
				v[ch].f = in->mimg.d16 ? rdc_buffmt_h2d((uint16_t)d) : (double)rdc_u2f(d);
			if (isf && !in->mimg.d16 && t->fmt->type == RDC_BF_FLOAT && t->fmt->bits[ch] == 32) {
				v[ch].raw = true;
			}
			v[ch].u = d;
			k++;
		}
		rdc_buffmt_pack(t->fmt, v, p);
	}
}

static void img_sample(struct rdc_wave *w, const struct rdc_inst *in, const struct form *f, const struct tdesc *t)
{
	struct sdesc s;
	read_s(w, in, &s);
	unsigned dim = in->mimg.dim, nc = ncoords(dim), ne = f->bias ? 1 : 0;
	bool norm = !(in->mimg.unorm || s.unnorm);
	bool d3 = dim == 2, arr = dim == 4 || dim == 5;
	unsigned nsp = arr ? nc - 1 : nc; /* spatial coordinates */
	/* Without mip levels the LOD only picks the magnification or
	 * minification filter; level 0 is magnified (LOD <= 0). */
	bool linear = s.mag & 1;
	if (f->kind == K_GATHER)
		linear = true; /* gather4 reads the bilinear footprint */
	uint64_t exec = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if (!(exec >> l & 1))
			continue;
		double c[4] = { 0, 0, 0, 0 };
		for (unsigned i = 0; i < nc; i++)
			c[i] = rdc_u2f(addr_c(w, in, ne, i, l, true));
		unsigned sl = arr ? slice_of(c[nc - 1], t) : 0;
		int i0[3] = { 0, 0, 0 };
		double fr[3] = { 0, 0, 0 };
		unsigned size[3] = { t->width, t->height, t->depth };
		for (unsigned a = 0; a < nsp; a++)
			axis(c[a], size[a], norm, linear, &i0[a], &fr[a]);
		if (nsp < 2)
			i0[1] = 0;
		if (f->kind == K_GATHER) {
			unsigned comp = 0;
			while (comp < 3 && !(in->mimg.dmask >> comp & 1))
				comp++;
			static const int off[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
			struct rdc_bfval g[4];
			for (unsigned k = 0; k < 4; k++) {
				struct rdc_bfval raw[4], v[4];
				if (!fetch_am(w, t, &s, i0[0] + off[k][0], i0[1] + off[k][1], arr ? (int)sl : 0, false, raw))
					return;
				swizzle(t, raw, v);
				g[k] = v[comp];
			}
			struct rdc_inst one = *in;
			one.mimg.dmask = 0xf;
			put4(w, &one, l, g);
			continue;
		}
		unsigned taps[3] = { 1, 1, 1 };
		for (unsigned a = 0; a < nsp; a++)
			taps[a] = linear ? 2 : 1;
		double acc[4] = { 0, 0, 0, 0 };
		struct rdc_bfval first[4];
		bool isf = rdc_buffmt_isfloat(t->fmt);
		for (unsigned dz = 0; dz < taps[2]; dz++)
			for (unsigned dy = 0; dy < taps[1]; dy++)
				for (unsigned dx = 0; dx < taps[0]; dx++) {
					double wt = (taps[0] == 2 ? (dx ? fr[0] : 1 - fr[0]) : 1) *
						    (taps[1] == 2 ? (dy ? fr[1] : 1 - fr[1]) : 1) *
						    (taps[2] == 2 ? (dz ? fr[2] : 1 - fr[2]) : 1);
					struct rdc_bfval raw[4];
					int z = d3 ? i0[2] + (int)dz : (int)sl;
					if (!fetch_am(w, t, &s, i0[0] + (int)dx, i0[1] + (int)dy, z, d3, raw))
						return;
					if (!dx && !dy && !dz)
						memcpy(first, raw, sizeof first);
					for (unsigned ch = 0; ch < 4; ch++)
						acc[ch] += wt * raw[ch].f;
				}
		struct rdc_bfval raw[4], v[4];
		for (unsigned ch = 0; ch < 4; ch++) {
			raw[ch] = first[ch]; /* integer formats: the point sample */
			if (isf && linear) {
				raw[ch].f = acc[ch];
				raw[ch].raw = false;
			}
		}
		swizzle(t, raw, v);
		put4(w, in, l, v);
	}
}

static void img_resinfo(struct rdc_wave *w, const struct rdc_inst *in, const struct tdesc *t)
{
	uint64_t exec = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if (!(exec >> l & 1))
			continue;
		unsigned mip = addr_c(w, in, 0, 0, l, false);
		if (mip > 31)
			mip = 31;
		unsigned wd = t->width >> mip, ht = t->height >> mip;
		struct rdc_bfval v[4];
		memset(v, 0, sizeof v);
		v[0].u = wd ? wd : 1;
		v[1].u = ht ? ht : 1;
		if (t->type == 12)
			v[1].u = t->depth;
		v[2].u = t->type == 10 ? (t->depth >> mip ? t->depth >> mip : 1) : t->type == 13 ? t->depth : 1;
		v[3].u = t->last_level - t->base_level + 1;
		put4(w, in, l, v);
	}
}

static void sem_image(struct rdc_wave *w, const struct rdc_inst *in)
{
	struct form f;
	struct tdesc t;
	if (!form_of(in->op, &f))
		return;
	if (in->mimg.dim == 3 || in->mimg.dim >= 6) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "cube and MSAA dimensions are outside the engine's scope");
		return;
	}
	if (!read_t(w, in, &t))
		return;
	switch (f.kind) {
	case K_LOAD: case K_STORE:
		if (single_level(w, in, &t))
			img_mem(w, in, &f, &t);
		break;
	case K_SAMPLE: case K_GATHER:
		if (single_level(w, in, &t))
			img_sample(w, in, &f, &t);
		break;
	case K_RESINFO: img_resinfo(w, in, &t); break;
	}
}

rdc_sem_fn rdc_sem_image(uint16_t op)
{
	struct form f;
	return form_of(op, &f) ? sem_image : NULL;
}
