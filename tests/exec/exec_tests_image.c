/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_image.c — single-instruction tests of the image instructions
 * (tools/simgpu/exec/sem_image.c): image_load, image_store, image_sample_lz
 * with point and bilinear filtering under several address modes,
 * image_gather4_lz, image_get_resinfo, NSA addresses, d16 data, DST_SEL
 * swizzles, the 256-byte tiled layout, and 1D, 2D-array and 3D images
 * (image_load_mip, trilinear image_sample_l, a16 addresses), on gfx1030 and
 * gfx1100.
 *
 * The image is the harness's input buffer (32 lanes x 32 dwords, 256-byte
 * aligned): a 32x32 image of 4-byte texels, texel (x, y) = lane y's input
 * dword x.  The snippets build the descriptors in SGPRs from its address
 * (s[4:5]): T# in s[8:15], S# in s[16:19], with the field positions of
 * ROCR's resource_nv.h / resource_gfx11.h (see sem_image.c) and the format
 * numbers of LLVM's unified format tables (gfx10: 32_FLOAT 22, 16_16_FLOAT
 * 29, 8_8_8_8_UNORM 56; gfx11: 22, 29, 42).
 *
 * References are written here from the definitions, not from the engine:
 * texel fetch by the linear layout (pitch 32) or by addrlib's 256B_D
 * pattern for 4-byte elements (GFX10_SW_PATTERN_NIBBLE01 row 2: x0 x1 y0 y1
 * y2 x2 in element-address bits 0-5; GFX11 row 2: x0 y0 x1 y1 x2 y2; 8x8
 * elements a block), the address modes' definitions (wrap: modulo; mirror:
 * reflect every size; clamp: last texel; border: the S# border colour),
 * point sampling floor(u * size), bilinear x = u * size - 0.5 with an
 * 8-bit weight fraction (floor(f * 256) / 256: the engine's stated rule,
 * sem_image.c), the four-texel footprint in gather4's documented order,
 * and UNORM8 = byte / 255.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "exec_harness.h"

#define S10(a, b) a
#define S11(a, b) b

/* T# in s[8:15] over the input buffer: 32x32, format F, DST_SEL word SEL,
 * type 2D (9), swizzle mode SW. */
#define TDESC(F, SEL, SW) \
	"s_lshr_b64 s[20:21], s[4:5], 8\n" \
	"s_mov_b32 s8, s20\n" \
	"s_and_b32 s9, s21, 0xff\n" \
	"s_or_b32 s9, s9, (" F " << 20) | (3 << 30)\n" /* WIDTH-1 = 31: bits 1:0 here */ \
	"s_mov_b32 s10, 7 | (31 << 14)\n"              /* WIDTH-1 bits 13:2, HEIGHT-1 */ \
	"s_mov_b32 s11, " SEL " | (" SW " << 20) | (9 << 28)\n" \
	"s_mov_b32 s12, 31\n"                          /* PITCH-1 */ \
	"s_mov_b32 s13, 0\ns_mov_b32 s14, 0\ns_mov_b32 s15, 0\n"
#define SEL_XYZW "(4 | 5 << 3 | 6 << 6 | 7 << 9)"
#define SEL_ZYXW "(6 | 5 << 3 | 4 << 6 | 7 << 9)"
#define SEL_X001 "(4 | 0 << 3 | 0 << 6 | 1 << 9)"
/* S# in s[16:19]: address mode AM on x and y, FORCE_UNNORMALIZED UN, mag/min filter FI, border colour type BC. */
#define SDESC(AM, UN, FI, BC) \
	"s_mov_b32 s16, " AM " | (" AM " << 3) | (" AM " << 6) | (" UN " << 15)\n" \
	"s_mov_b32 s17, 4095 << 12\n" \
	"s_mov_b32 s18, (" FI " << 20) | (" FI " << 22)\n" \
	"s_mov_b32 s19, " BC " << 30\n"

/* The input buffer as init_img wrote it (the harness hands the reference
 * the buffer after the kernel ran, and the store tests write into it). */
static uint32_t orig(unsigned lane, unsigned k)
{
	return xt_f2u((float)((int)(xt_rand(lane, k, 71) % 2001) - 1000) / 8.0f);
}

static uint32_t texel_lin(const struct xt_ctx *c, unsigned x, unsigned y)
{
	(void)c;
	return orig(y, x);
}

/* addrlib's 256B_D pattern for 4-byte elements: the element index inside an
 * 8x8 block, then blocks along the row (pitch 32: 4 blocks a row). */
static uint32_t texel_256d(const struct xt_ctx *c, unsigned x, unsigned y)
{
	unsigned e;
	if (c->gfx == 10)
		e = (x & 1) | (x >> 1 & 1) << 1 | (y & 1) << 2 | (y >> 1 & 1) << 3 | (y >> 2 & 1) << 4 | (x >> 2 & 1) << 5;
	else
		e = (x & 1) | (y & 1) << 1 | (x >> 1 & 1) << 2 | (y >> 1 & 1) << 3 | (x >> 2 & 1) << 4 | (y >> 2 & 1) << 5;
	unsigned blk = (y / 8) * 4 + x / 8;
	unsigned dw = blk * 64 + e;
	return orig(dw / 32, dw % 32);
}

static void init_img(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	for (unsigned k = 0; k < nin; k++) /* multiples of 1/8 in [-125, 125] */
		in[k] = xt_f2u((float)((int)(xt_rand(lane, k, 71) % 2001) - 1000) / 8.0f);
	for (unsigned j = 0; j < nout; j++)
		out[j] = 0xdeadbeefu;
}

/* ---- image_load: float and UNORM8 views, OOB, NSA, DST_SEL, d16 ---------------------- */
/* v35 = x = lane, v36 = y = (7 lane + 3) & 31, v37 = x + 10 (out of range from lane 22). */
#define COORDS "v_mov_b32 v35, v0\nv_mul_u32_u24 v36, 7, v0\nv_add_nc_u32 v36, 3, v36\nv_and_b32 v36, 31, v36\n" \
	"v_add_nc_u32 v37, 10, v0\nv_mov_b32 v38, v36\n"
#define LOADS(S) TDESC("22", SEL_XYZW, "0") COORDS \
	"image_load v40, v[35:36], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	"image_load v41, v[37:38], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	"image_load v42, [v36, v35], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	TDESC(S("56", "42"), SEL_ZYXW, "0") \
	"image_load v[43:46], v[35:36], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n" \
	"image_load v47, v[35:36], s[8:15] dmask:0x5 dim:SQ_RSRC_IMG_2D unorm d16\n" \
	TDESC(S("56", "42"), SEL_X001, "0") \
	"image_load v[48:51], v[35:36], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n" \
	"image_load v[52:54], v[37:38], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm tfe\n" \
	"s_waitcnt vmcnt(0)"
static const char loads10[] = LOADS(S10), loads11[] = LOADS(S11);

static double un8d(uint32_t v, unsigned c) { return (double)(v >> (8 * c) & 0xff) / 255.0; }
static float un8(uint32_t v, unsigned c) { return (float)un8d(v, c); }

static void ref_loads(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	unsigned x = lane, y = (7 * lane + 3) & 31;
	uint32_t t = texel_lin(c, x, y);
	out[0] = t;
	out[1] = x + 10 < 32 ? texel_lin(c, x + 10, y) : 0;        /* outside: 0 */
	out[2] = texel_lin(c, y, x);                              /* NSA: [v36, v35] = (y, x) */
	for (unsigned k = 0; k < 4; k++)                          /* ZYXW */
		out[3 + k] = xt_f2u(un8(t, k == 3 ? 3 : 2 - k));
	out[7] = (uint32_t)xt_d2h(un8d(t, 2)) | (uint32_t)xt_d2h(un8d(t, 0)) << 16; /* dmask X, Z of ZYXW */
	out[8] = xt_f2u(un8(t, 0));                               /* X001 */
	out[9] = 0;
	out[10] = 0;
	out[11] = xt_f2u(1.0f);
	if (x + 10 < 32) {                                        /* dmask 0x3 of X001, then tfe's 0 */
		out[12] = xt_f2u(un8(texel_lin(c, x + 10, y), 0));
		out[13] = 0;
	} else {
		out[12] = 0;
		out[13] = 0;
	}
	out[14] = 0;
}

/* ---- image_store then image_load: float and 16_16_FLOAT d16 ------------------------- */
/* Each lane stores 2 * its input dword 0 at (lane, 31), then loads (lane + 1, 31). */
#define STORES(S) TDESC("22", SEL_XYZW, "0") \
	"v_mov_b32 v35, v0\nv_mov_b32 v36, 31\nv_add_f32 v39, v1, v1\n" \
	"image_store v39, v[35:36], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	"s_waitcnt vmcnt(0)\n" \
	"v_add_nc_u32 v37, 1, v0\nv_and_b32 v37, 31, v37\nv_mov_b32 v38, 31\n" \
	"image_load v40, v[37:38], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	"s_waitcnt vmcnt(0)\n" \
	TDESC("29", SEL_XYZW, "0") \
	"v_mov_b32 v36, 30\nv_cvt_f16_f32 v39, v2\nv_cvt_f16_f32 v38, v3\nv_and_b32 v39, 0xffff, v39\nv_lshlrev_b32 v38, 16, v38\nv_or_b32 v39, v39, v38\n" \
	"image_store v39, v[35:36], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm d16\n" \
	"s_waitcnt vmcnt(0)\n" \
	"image_load v[41:42], v[35:36], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm\n" \
	"s_waitcnt vmcnt(0)"
static const char stores10[] = STORES(S10), stores11[] = STORES(S11);

static void ref_stores(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	unsigned n = (lane + 1) & 31;
	out[0] = xt_f2u(xt_u2f(orig(n, 0)) * 2.0f); /* lane n's input dword 0, doubled */
	out[1] = xt_f2u((float)xt_h2d(xt_d2h(xt_u2f(orig(lane, 1)))));
	out[2] = xt_f2u((float)xt_h2d(xt_d2h(xt_u2f(orig(lane, 2)))));
}

/* ---- image_sample_lz: bilinear and point, address modes, gather4, resinfo ----------- */
/* u = lane * 0.0417 - 0.15, v = lane * 0.029 + 0.01 (normalized), both past the edges. */
#define UV "v_cvt_f32_u32 v35, v0\nv_mul_f32 v36, 0x3d2acd9f, v35\nv_add_f32 v36, 0xbe19999a, v36\n" \
	"v_mul_f32 v37, 0x3ced9168, v35\nv_add_f32 v37, 0x3c23d70a, v37\n"
#define SAMPLES(S) TDESC("22", SEL_XYZW, "0") UV \
	SDESC("2", "0", "1", "0") \
	"image_sample_lz v40, v[36:37], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n" \
	SDESC("0", "0", "1", "0") \
	"image_sample_lz v41, v[36:37], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n" \
	SDESC("1", "0", "1", "0") \
	"image_sample_lz v42, v[36:37], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n" \
	SDESC("6", "0", "1", "2") \
	"image_sample_lz v43, v[36:37], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n" \
	SDESC("2", "0", "0", "0") \
	"image_sample_lz v44, v[36:37], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n" \
	SDESC("2", "0", "1", "0") \
	"image_gather4_lz v[45:48], v[36:37], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n" \
	"v_mul_f32 v38, 0x41a00000, v36\nv_mul_f32 v39, 0x41a00000, v37\n" /* x 20: texel coordinates */ \
	SDESC("3", "1", "1", "0") \
	"image_sample_lz v49, [v38, v39], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D\n" \
	"v_mov_b32 v38, 1\n" \
	"image_get_resinfo v[50:53], v38, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n" \
	TDESC(S("56", "42"), SEL_XYZW, "0") SDESC("6", "0", "0", "1") \
	"image_sample_lz v[54:57], v[36:37], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D\n" \
	"s_waitcnt vmcnt(0)"
static const char samples10[] = SAMPLES(S10), samples11[] = SAMPLES(S11);

/* One axis's texel index under address mode m; -1: the border. */
static int am(int i, int n, unsigned m)
{
	if (m == 0)
		return ((i % n) + n) % n;
	if (m == 1) {
		int p = ((i % (2 * n)) + 2 * n) % (2 * n);
		return p < n ? p : 2 * n - 1 - p;
	}
	if (m == 2)
		return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
	if (m == 3) {
		int j = i < 0 ? -i - 1 : i;
		return j > n - 1 ? n - 1 : j;
	}
	return i < 0 || i >= n ? -1 : i;
}

static double tx(const struct xt_ctx *c, int x, int y, unsigned m, double bc)
{
	int ax = am(x, 32, m), ay = am(y, 32, m);
	return ax < 0 || ay < 0 ? bc : (double)xt_u2f(texel_lin(c, (unsigned)ax, (unsigned)ay));
}

static float bilinear(const struct xt_ctx *c, float u, float v, unsigned m, double bc)
{
	double x = (double)u * 32 - 0.5, y = (double)v * 32 - 0.5;
	double fx = floor(x), fy = floor(y);
	double a = floor((x - fx) * 256) / 256, b = floor((y - fy) * 256) / 256;
	int x0 = (int)fx, y0 = (int)fy;
	double s = 0;
	for (int dy = 0; dy < 2; dy++)
		for (int dx = 0; dx < 2; dx++)
			s += (dx ? a : 1 - a) * (dy ? b : 1 - b) * tx(c, x0 + dx, y0 + dy, m, bc);
	return (float)s;
}

static void ref_samples(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	volatile float fl = (float)lane;
	volatile float u1 = fl * xt_u2f(0x3d2acd9f), v1 = fl * xt_u2f(0x3ced9168);
	float u = u1 + xt_u2f(0xbe19999a), v = v1 + xt_u2f(0x3c23d70a);
	out[0] = xt_f2u(bilinear(c, u, v, 2, 0));   /* clamp */
	out[1] = xt_f2u(bilinear(c, u, v, 0, 0));   /* wrap */
	out[2] = xt_f2u(bilinear(c, u, v, 1, 0));   /* mirror */
	out[3] = xt_f2u(bilinear(c, u, v, 6, 1.0)); /* border, opaque white */
	int px = (int)floor((double)u * 32), py = (int)floor((double)v * 32);
	out[4] = xt_f2u((float)tx(c, px, py, 2, 0)); /* point, clamp */
	double x = (double)u * 32 - 0.5, y = (double)v * 32 - 0.5;
	int x0 = (int)floor(x), y0 = (int)floor(y);
	static const int off[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
	for (unsigned k = 0; k < 4; k++)
		out[5 + k] = xt_f2u((float)tx(c, x0 + off[k][0], y0 + off[k][1], 2, 0));
	/* unnormalized (FORCE_UNNORMALIZED): texel coordinates u*20, v*20, mirror once */
	volatile float tu = u * 20.0f, tv = v * 20.0f;
	double ux = (double)tu - 0.5, uy = (double)tv - 0.5;
	double fx = floor(ux), fy = floor(uy);
	double a = floor((ux - fx) * 256) / 256, b = floor((uy - fy) * 256) / 256;
	double s = 0;
	for (int dy = 0; dy < 2; dy++)
		for (int dx = 0; dx < 2; dx++)
			s += (dx ? a : 1 - a) * (dy ? b : 1 - b) * tx(c, (int)fx + dx, (int)fy + dy, 3, 0);
	out[9] = xt_f2u((float)s);
	out[10] = 16; /* resinfo of mip 1: 32 >> 1 */
	out[11] = 16;
	out[12] = 1;
	out[13] = 1; /* one level */
	/* UNORM8 view, point, border (opaque black) */
	int bx = am(px, 32, 6), by = am(py, 32, 6);
	for (unsigned k = 0; k < 4; k++) {
		float r = bx < 0 || by < 0 ? (k == 3 ? 1.0f : 0.0f) : un8(texel_lin(c, (unsigned)bx, (unsigned)by), k);
		out[14 + k] = xt_f2u(r);
	}
}

/* ---- the 256B_D tiled layout (SW_MODE 2) ---------------------------------------------- */
#define TILED(S) TDESC("22", SEL_XYZW, "2") COORDS \
	"image_load v40, v[35:36], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	"image_load v41, [v36, v35], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	"v_add_f32 v39, v1, v1\n" \
	"image_store v39, v[35:36], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	"s_waitcnt vmcnt(0)\n" \
	"global_load_dword v42, v33, s[4:5]\n" \
	"s_waitcnt vmcnt(0)"
static const char tiled10[] = TILED(S10), tiled11[] = TILED(S11);

static void ref_tiled(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	unsigned x = lane, y = (7 * lane + 3) & 31;
	out[0] = texel_256d(c, x, y);
	out[1] = texel_256d(c, y, x);
	/* then every lane stored 2 * its dword 0 at (lane, y(lane)): which
	 * lane's store, if any, landed on this lane's dword 0? */
	uint32_t v = orig(lane, 0);
	for (unsigned l = 0; l < 32; l++) {
		unsigned lx = l, ly = (7 * l + 3) & 31;
		unsigned e = c->gfx == 10 ? ((lx & 1) | (lx >> 1 & 1) << 1 | (ly & 1) << 2 | (ly >> 1 & 1) << 3 |
					     (ly >> 2 & 1) << 4 | (lx >> 2 & 1) << 5)
					  : ((lx & 1) | (ly & 1) << 1 | (lx >> 1 & 1) << 2 | (ly >> 1 & 1) << 3 |
					     (lx >> 2 & 1) << 4 | (ly >> 2 & 1) << 5);
		unsigned dw = ((ly / 8) * 4 + lx / 8) * 64 + e;
		if (dw == lane * 32)
			v = xt_f2u(xt_u2f(orig(l, 0)) * 2.0f);
	}
	out[2] = v;
}


/* ---- 1D, 2D array, 3D, load_mip, sample_l, a16 ------------------------------------------ */
/* The same 4 KiB as a 1D image of 1024 texels, as a 64x4 2D array of 4
 * slices and as a 64x4x4 3D image (arrays and 3D carry no pitch: 64
 * elements is the linear pitch, 256 bytes).  v35 = x = lane * 2 + 1,
 * v36 = y = lane & 3, v37 = slice = (lane >> 2) & 3. */
#define T1D "s_mov_b32 s9, s21\ns_and_b32 s9, s9, 0xff\ns_or_b32 s9, s9, (22 << 20) | (3 << 30)\n" \
	"s_mov_b32 s10, 255\ns_mov_b32 s11, " SEL_XYZW " | (8 << 28)\ns_mov_b32 s12, 1023\n"
#define T2DA "s_mov_b32 s9, s21\ns_and_b32 s9, s9, 0xff\ns_or_b32 s9, s9, (22 << 20) | (3 << 30)\n" \
	"s_mov_b32 s10, 15 | (3 << 14)\ns_mov_b32 s11, " SEL_XYZW " | (13 << 28)\ns_mov_b32 s12, 3\n"
#define T3D "s_mov_b32 s9, s21\ns_and_b32 s9, s9, 0xff\ns_or_b32 s9, s9, (22 << 20) | (3 << 30)\n" \
	"s_mov_b32 s10, 15 | (3 << 14)\ns_mov_b32 s11, " SEL_XYZW " | (10 << 28)\ns_mov_b32 s12, 3\n"
#define DIMS(S) TDESC("22", SEL_XYZW, "0") \
	"v_lshlrev_b32 v35, 1, v0\nv_add_nc_u32 v35, 1, v35\nv_and_b32 v36, 3, v0\nv_lshrrev_b32 v37, 2, v0\nv_and_b32 v37, 3, v37\n" \
	"v_mov_b32 v38, 0\n" \
	T1D "image_load v40, v35, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm\n" \
	T2DA "image_load v41, v[35:37], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY unorm\n" \
	"image_load_mip v42, v[35:38], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY unorm\n" \
	T3D "image_load v43, v[35:37], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_3D unorm\n" \
	"v_lshlrev_b32 v39, 16, v36\nv_and_b32 v39, 0xffff, v35\nv_lshl_or_b32 v39, v36, 16, v39\n" \
	TDESC("22", SEL_XYZW, "0") "image_load v44, v39, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm a16\n" \
	T3D SDESC("2", "0", "1", "0") \
	"v_cvt_f32_u32 v35, v0\nv_mul_f32 v35, 0x3d0a3d71, v35\nv_add_f32 v35, 0xbdcccccd, v35\n" /* u = lane * 0.03375 - 0.1 */ \
	"v_sub_f32 v36, 1.0, v35\nv_mul_f32 v37, 0.5, v35\nv_add_f32 v37, 0x3e19999a, v37\n" /* v = 1 - u, w = u / 2 + 0.15 */ \
	"image_sample_l v45, v[35:38], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_3D\n" \
	T2DA "v_cvt_f32_u32 v37, v0\nv_mul_f32 v37, 0.5, v37\nv_add_f32 v37, 0x3e99999a, v37\n" /* slice = lane / 2 + 0.3: rounds, clamps to 3 */ \
	"image_sample_lz v46, v[35:37], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY\n" \
	"s_waitcnt vmcnt(0)"
static const char dims10[] = DIMS(S10), dims11[] = DIMS(S11);

static double t64(int x, int y, int z)
{
	x = x < 0 ? 0 : x > 63 ? 63 : x;
	y = y < 0 ? 0 : y > 3 ? 3 : y;
	z = z < 0 ? 0 : z > 3 ? 3 : z;
	unsigned dw = (unsigned)(z * 256 + y * 64 + x);
	return (double)xt_u2f(orig(dw / 32, dw % 32));
}

static void ref_dims(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	unsigned x = lane * 2 + 1, y = lane & 3, s = (lane >> 2) & 3;
	unsigned d2 = s * 256 + y * 64 + x;
	out[0] = orig(x / 32, x % 32);                 /* 1D: texel x */
	out[1] = orig(d2 / 32, d2 % 32);               /* 2D array (x, y, slice) */
	out[2] = out[1];                               /* load_mip, level 0 */
	out[3] = out[1];                               /* 3D (x, y, z) */
	unsigned d = y * 32 + x;                       /* a16: 2D 32x32, (x, y) */
	out[4] = x < 32 ? orig(d / 32, d % 32) : 0;
	volatile float fl = (float)lane;
	volatile float m = fl * xt_u2f(0x3d0a3d71);
	volatile float u = m + xt_u2f(0xbdcccccd);
	volatile float v = 1.0f - u, h = 0.5f * u;
	volatile float w = h + xt_u2f(0x3e19999a);
	double fx = (double)u * 64 - 0.5, fy = (double)v * 4 - 0.5, fz = (double)w * 4 - 0.5;
	double ix = floor(fx), iy = floor(fy), iz = floor(fz);
	double a = floor((fx - ix) * 256) / 256, b = floor((fy - iy) * 256) / 256, g = floor((fz - iz) * 256) / 256;
	double sum = 0;
	for (int dz = 0; dz < 2; dz++)
		for (int dy = 0; dy < 2; dy++)
			for (int dx = 0; dx < 2; dx++)
				sum += (dx ? a : 1 - a) * (dy ? b : 1 - b) * (dz ? g : 1 - g) *
				       t64((int)ix + dx, (int)iy + dy, (int)iz + dz);
	out[5] = xt_f2u((float)sum);                   /* trilinear, clamp */
	volatile float sh = 0.5f * fl;
	volatile float sl = sh + xt_u2f(0x3e99999a);
	int sli = (int)nearbyint((double)sl);
	sli = sli > 3 ? 3 : sli;
	double s2 = 0;
	for (int dy = 0; dy < 2; dy++)
		for (int dx = 0; dx < 2; dx++)
			s2 += (dx ? a : 1 - a) * (dy ? b : 1 - b) * t64((int)ix + dx, (int)iy + dy, sli);
	out[6] = xt_f2u((float)s2);                    /* 2D array: bilinear in the slice */
}

/* ---- more tiled layouts: 4KB_D (4-byte), 256B_D with 1-, 2-, 8- and 16-byte elements ------ */
/* T# of any size: format F, swizzle mode SW, WIDTH-1, HEIGHT-1, PITCH-1. */
#define TD(F, SW, WM1, HM1, PM1) \
	"s_lshr_b64 s[20:21], s[4:5], 8\ns_mov_b32 s8, s20\ns_and_b32 s9, s21, 0xff\n" \
	"s_or_b32 s9, s9, (" F " << 20) | ((" WM1 " & 3) << 30)\n" \
	"s_mov_b32 s10, (" WM1 " >> 2) | (" HM1 " << 14)\n" \
	"s_mov_b32 s11, " SEL_XYZW " | (" SW " << 20) | (9 << 28)\n" \
	"s_mov_b32 s12, " PM1 "\ns_mov_b32 s13, 0\ns_mov_b32 s14, 0\ns_mov_b32 s15, 0\n"
#define TILED2(S) COORDS \
	TD("22", "6", "31", "31", "31") "image_load v40, v[35:36], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	"v_and_b32 v37, 15, v0\nv_mul_u32_u24 v38, 3, v0\nv_and_b32 v38, 31, v38\n" \
	TD(S("64", "50"), "2", "15", "31", "15") "image_load v[41:42], v[37:38], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm\n" \
	"v_mul_u32_u24 v37, 5, v0\nv_and_b32 v37, 63, v37\nv_mul_u32_u24 v38, 7, v0\nv_add_nc_u32 v38, 1, v38\nv_and_b32 v38, 63, v38\n" \
	TD("1", "2", "63", "63", "63") "image_load v43, v[37:38], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	S(TD("1", "1", "63", "63", "63") "image_load v44, v[37:38], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n", \
	  "v_mov_b32 v44, 0\n") \
	"v_and_b32 v37, 15, v0\nv_mul_u32_u24 v38, 5, v0\nv_and_b32 v38, 15, v38\n" \
	TD(S("77", "63"), "2", "15", "15", "15") "image_load v[45:48], v[37:38], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n" \
	"v_mul_u32_u24 v37, 3, v0\nv_and_b32 v37, 63, v37\nv_mul_u32_u24 v38, 11, v0\nv_and_b32 v38, 31, v38\n" \
	TD("13", "2", "63", "31", "63") "image_load v49, v[37:38], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n" \
	"s_waitcnt vmcnt(0)"
static const char tiled2_10[] = TILED2(S10), tiled2_11[] = TILED2(S11);

static uint32_t bit(unsigned v, unsigned b) { return v >> b & 1; }

static void ref_tiled2(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	unsigned x = lane, y = (7 * lane + 3) & 31, e;
	/* 4KB_D, 4-byte elements: NIBBLE01 row 2 then NIBBLE2 row 3 (y3 x3 y4 x4) */
	if (c->gfx == 10)
		e = bit(x, 0) | bit(x, 1) << 1 | bit(y, 0) << 2 | bit(y, 1) << 3 | bit(y, 2) << 4 | bit(x, 2) << 5;
	else
		e = bit(x, 0) | bit(y, 0) << 1 | bit(x, 1) << 2 | bit(y, 1) << 3 | bit(x, 2) << 4 | bit(y, 2) << 5;
	e |= bit(y, 3) << 6 | bit(x, 3) << 7 | bit(y, 4) << 8 | bit(x, 4) << 9;
	out[0] = orig(e / 32, e % 32);
	/* 256B_D, 8-byte elements (NIBBLE01 row 6 on gfx10, row 3 on gfx11: x0 y0 x1 x2 y1 from
	 * address bit 3), 8x4 blocks, 2 a row */
	x = lane & 15;
	y = (3 * lane) & 31;
	e = bit(x, 0) | bit(y, 0) << 1 | bit(x, 1) << 2 | bit(x, 2) << 3 | bit(y, 1) << 4;
	unsigned dw = (((y / 4) * 2 + x / 8) * 32 + e) * 2;
	out[1] = orig(dw / 32, dw % 32);
	out[2] = orig((dw + 1) / 32, (dw + 1) % 32);
	/* 256B_D, 1-byte elements (gfx10 NIBBLE01 row 5: x0 x1 x2 y1 y0 y2 x3 y3; gfx11 row 0:
	 * x0 x1 y0 x2 y1 y2 x3 y3), 16x16 blocks, 4 a row; UNORM8 */
	x = (5 * lane) & 63;
	y = (7 * lane + 1) & 63;
	if (c->gfx == 10)
		e = bit(x, 0) | bit(x, 1) << 1 | bit(x, 2) << 2 | bit(y, 1) << 3 | bit(y, 0) << 4 | bit(y, 2) << 5 |
		    bit(x, 3) << 6 | bit(y, 3) << 7;
	else
		e = bit(x, 0) | bit(x, 1) << 1 | bit(y, 0) << 2 | bit(x, 2) << 3 | bit(y, 1) << 4 | bit(y, 2) << 5 |
		    bit(x, 3) << 6 | bit(y, 3) << 7;
	unsigned by = ((y / 16) * 4 + x / 16) * 256 + e;
	out[3] = xt_f2u(un8(orig(by / 128, (by / 4) % 32), by % 4));
	/* 256B_D, 16-byte elements (gfx10 NIBBLE01 row 7, gfx11 row 4: x0 y0 x1 y1 from
	 * address bit 4), 4x4 blocks, 4 a row */
	{
		unsigned x16 = lane & 15, y16 = (5 * lane) & 15;
		unsigned e16 = bit(x16, 0) | bit(y16, 0) << 1 | bit(x16, 1) << 2 | bit(y16, 1) << 3;
		unsigned d16 = (((y16 / 4) * 4 + x16 / 4) * 16 + e16) * 4;
		for (unsigned k = 0; k < 4; k++)
			out[5 + k] = orig((d16 + k) / 32, (d16 + k) % 32);
		/* 256B_D, 2-byte elements (gfx10 row 1: x0 x1 x2 y0 y1 y2 x3; gfx11 row 1: x0 y0 x1
		 * y1 x2 y2 x3, from address bit 1), 16x8 blocks, 4 a row; 16_FLOAT */
		unsigned x2 = (3 * lane) & 63, y2 = (11 * lane) & 31, e2;
		if (c->gfx == 10)
			e2 = bit(x2, 0) | bit(x2, 1) << 1 | bit(x2, 2) << 2 | bit(y2, 0) << 3 | bit(y2, 1) << 4 |
			     bit(y2, 2) << 5 | bit(x2, 3) << 6;
		else
			e2 = bit(x2, 0) | bit(y2, 0) << 1 | bit(x2, 1) << 2 | bit(y2, 1) << 3 | bit(x2, 2) << 4 |
			     bit(y2, 2) << 5 | bit(x2, 3) << 6;
		unsigned b2 = (((y2 / 8) * 4 + x2 / 16) * 128 + e2) * 2;
		uint32_t wd = orig(b2 / 128, (b2 / 4) % 32);
		out[9] = xt_f2u((float)xt_h2d((uint16_t)(wd >> (8 * (b2 % 4)))));
	}
	/* gfx10 256B_S, 1-byte elements (NIBBLE01 row 0: x0 x1 x2 x3 y0 y1 y2 y3) */
	out[4] = 0;
	if (c->gfx == 10) {
		e = (x & 15) | (y & 15) << 4;
		by = ((y / 16) * 4 + x / 16) * 256 + e;
		out[4] = xt_f2u(un8(orig(by / 128, (by / 4) % 32), by % 4));
	}
}

const struct xt_test xt_tests_image[] = {
	{ "image_load: float, UNORM8, out of range, NSA, DST_SEL, d16, tfe", XT_BOTH, loads10, loads11, NULL, 32, 15,
	  init_img, ref_loads, XT_EXACT },
	{ "image_store: float and d16 16_16_FLOAT, read back", XT_BOTH, stores10, stores11, NULL, 32, 3, init_img,
	  ref_stores, XT_EXACT },
	{ "image_sample_lz/gather4_lz/get_resinfo: bilinear and point, clamp/wrap/mirror/border, unnormalized",
	  XT_BOTH, samples10, samples11, NULL, 32, 18, init_img, ref_samples, XT_EXACT },
	{ "image_load/image_store: 256B_D tiled layout", XT_BOTH, tiled10, tiled11, NULL, 32, 3, init_img, ref_tiled,
	  XT_EXACT },
	{ "image_load: 4KB_D (4-byte), 256B_D (1-, 2-, 8-, 16-byte), gfx10 256B_S (1-byte) tiled layouts", XT_BOTH,
	  tiled2_10, tiled2_11, NULL, 32, 10, init_img, ref_tiled2, XT_EXACT },
	{ "image_load(_mip)/sample_l/sample_lz: 1D, 2D array, 3D, a16", XT_BOTH, dims10, dims11, NULL, 32, 7, init_img,
	  ref_dims, XT_EXACT },
};
const unsigned xt_ntests_image = sizeof xt_tests_image / sizeof xt_tests_image[0];
