/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_vop.c — single-instruction tests of the VOP1/VOP2/VOP3 vector instructions not covered by the other files (integer, bit, f32, lane and move forms).
 * References follow the ISA guides' pseudocode, written here in plain C.
 *
 * Most tests are families of one shape: a table of {mnemonic, operands,
 * reference} whose snippet (one line per entry, entry i writing v[40+i]) is
 * built once at start-up and whose reference applies entry i's function to
 * the lane's inputs.  gfx1030 spells a few operations differently (LLVM's
 * gfx10 names: v_ffbh_u32 for v_clz_i32_u32, v_cvt_flr_i32_f32, the
 * *_legacy_f32 forms of the *_dx9_zero_f32 ones): an entry names both.
 * The lane operations, moves and 64-bit forms are written out by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_harness.h"

/* ---- families ---------------------------------------------------------------------------- */
struct vcase {
	const char *mn10, *mn11; /* gfx1030 / gfx1100 spelling (NULL mn11: the same) */
	const char *ops;         /* the operands after the destination */
	uint32_t (*f)(const uint32_t *s, uint32_t d); /* s: the lane's inputs, d: the destination's old value */
};
struct vfam {
	const struct vcase *c;
	unsigned n;
	char body[2][3072]; /* [0] gfx1030, [1] gfx1100: built by build_bodies() */
};

static void fam_build(struct vfam *f)
{
	for (unsigned g = 0; g < 2; g++) {
		size_t n = 0;
		for (unsigned i = 0; i < f->n; i++) {
			const struct vcase *c = &f->c[i];
			const char *mn = g && c->mn11 ? c->mn11 : c->mn10;
			n += (size_t)snprintf(f->body[g] + n, sizeof f->body[g] - n, "%s v%u, %s\n", mn, 40 + i, c->ops);
			if (n >= sizeof f->body[g]) {
				fprintf(stderr, "exec_tests_vop: a family's snippet is too long\n");
				abort();
			}
		}
	}
}

static void fam_ref(const struct vfam *f, const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	for (unsigned i = 0; i < f->n; i++)
		out[i] = f->c[i].f(in, out[i]);
}

#define NCASES(a) (sizeof a / sizeof a[0])

/* ---- inputs ------------------------------------------------------------------------------ */
/* Integers: lanes 0-19 hold edge values (zero, all ones, the sign bit, the
 * 24-bit limits, shift counts 31-33, ...) in rotating combinations; the rest
 * random.  v4 (in[3]), when there is one, holds the lane number. */
static const uint32_t edge_u[] = {
	0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x00ffffffu, 0x00800000u, 0xff800000u, 31, 32,
	33, 0x12345678u, 0xfffffffeu, 0x007fffffu, 0x01000000u, 0xffff0000u, 0x0000ffffu, 5, 24, 0xdeadbeefu,
};
#define NEDGE_U (sizeof edge_u / sizeof edge_u[0])

static void init_int(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	for (unsigned k = 0; k < nin && k < 3 && lane < NEDGE_U; k++)
		in[k] = edge_u[(lane + 7 * k) % NEDGE_U];
	if (nin > 3)
		in[3] = lane;
}

/* Floats: signed zeros, ones, halves and ties, infinities, a quiet NaN,
 * denormals, the largest and smallest normal, values at the integer
 * conversions' limits; lanes 27-30 pair the zeros and the NaN on purpose;
 * lane 31 random.  v4 (in[3]) holds ldexp's exponents. */
static const uint32_t edge_f[] = {
	0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0xbf000000u, 0x3fc00000u,
	0xc0200000u, 0x40200000u, 0x40600000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u,
	0x807fffffu, 0x7f7fffffu, 0xff7fffffu, 0x00800000u, 0x3effffffu, 0xbeffffffu, 0x4b000001u,
	0xcf000000u, 0x4f800000u, 0x4effffffu, 0x3e800000u, 0x3f400000u, 0xc2f6e979u,
};
#define NEDGE_F (sizeof edge_f / sizeof edge_f[0])
static const int32_t edge_e[] = { 0, 1, -1, 127, -126, -149, 200, -200, 0x7fffffff, INT32_MIN, 3, -3, 64, -64, 24, -24 };

static void init_flt(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	for (unsigned k = 0; k < nin && k < 3 && lane < NEDGE_F; k++)
		in[k] = edge_f[(lane + 5 * k) % NEDGE_F];
	static const uint32_t pairs[4][3] = {
		{ 0x00000000u, 0x80000000u, 0x00000000u },
		{ 0x80000000u, 0x00000000u, 0x80000000u },
		{ 0x7fc00000u, 0x3f800000u, 0xbf800000u },
		{ 0x40000000u, 0x7fc00000u, 0x7fc00000u },
	};
	for (unsigned k = 0; k < nin && k < 3 && lane >= 27 && lane < 31; k++)
		in[k] = pairs[lane - 27][k];
	if (nin > 3)
		in[3] = lane < 16 ? (uint32_t)edge_e[lane] : (xt_rand(lane, 9, 7) % 61) - 30;
	for (unsigned j = 0; j < nout; j++) /* v_fmac's accumulators: floats too */
		out[j] = edge_f[(lane + 3 * j) % NEDGE_F];
}

/* ---- integer references (the guides' pseudocode) ----------------------------------------- */
static int32_t i24(uint32_t v) { return (int32_t)(v << 8) >> 8; }
static uint32_t smin(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b ? a : b; }
static uint32_t smax(uint32_t a, uint32_t b) { return (int32_t)a > (int32_t)b ? a : b; }
static uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }
static uint32_t umax(uint32_t a, uint32_t b) { return a > b ? a : b; }
static uint32_t popc(uint32_t v)
{
	uint32_t n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static uint32_t r_and(const uint32_t *s, uint32_t d) { (void)d; return s[0] & s[1]; }
static uint32_t r_or(const uint32_t *s, uint32_t d) { (void)d; return s[0] | s[1]; }
static uint32_t r_xor(const uint32_t *s, uint32_t d) { (void)d; return s[0] ^ s[1]; }
static uint32_t r_xnor(const uint32_t *s, uint32_t d) { (void)d; return ~(s[0] ^ s[1]); }
static uint32_t r_min_i32(const uint32_t *s, uint32_t d) { (void)d; return smin(s[0], s[1]); }
static uint32_t r_max_i32(const uint32_t *s, uint32_t d) { (void)d; return smax(s[0], s[1]); }
static uint32_t r_min_u32(const uint32_t *s, uint32_t d) { (void)d; return umin(s[0], s[1]); }
static uint32_t r_max_u32(const uint32_t *s, uint32_t d) { (void)d; return umax(s[0], s[1]); }
/* D = S0.u24 * S1.u24 (low 32 bits), the high 32 bits of the 48-bit product, and signed */
static uint32_t r_mul_u24(const uint32_t *s, uint32_t d) { (void)d; return (s[0] & 0xffffff) * (s[1] & 0xffffff); }
static uint32_t r_mul_hi_u24(const uint32_t *s, uint32_t d)
{
	(void)d;
	return (uint32_t)((uint64_t)(s[0] & 0xffffff) * (s[1] & 0xffffff) >> 32);
}
static uint32_t r_mul_i24(const uint32_t *s, uint32_t d) { (void)d; return (uint32_t)((int64_t)i24(s[0]) * i24(s[1])); }
static uint32_t r_mul_hi_i24(const uint32_t *s, uint32_t d)
{
	(void)d;
	return (uint32_t)((uint64_t)((int64_t)i24(s[0]) * i24(s[1])) >> 32);
}
static uint32_t r_mul_lo(const uint32_t *s, uint32_t d) { (void)d; return (uint32_t)((uint64_t)s[0] * s[1]); }
static uint32_t r_mul_hi_u(const uint32_t *s, uint32_t d) { (void)d; return (uint32_t)((uint64_t)s[0] * s[1] >> 32); }
static uint32_t r_mul_hi_i(const uint32_t *s, uint32_t d)
{
	(void)d;
	return (uint32_t)((uint64_t)((int64_t)(int32_t)s[0] * (int32_t)s[1]) >> 32);
}
/* v_bfm_b32: ((1 << S0[4:0]) - 1) << S1[4:0] */
static uint32_t r_bfm(const uint32_t *s, uint32_t d) { (void)d; return ((1u << (s[0] & 31)) - 1) << (s[1] & 31); }
static uint32_t r_bcnt(const uint32_t *s, uint32_t d) { (void)d; return popc(s[0]) + s[1]; }
static uint32_t r_add3(const uint32_t *s, uint32_t d) { (void)d; return s[0] + s[1] + s[2]; }
static uint32_t r_lshl_add(const uint32_t *s, uint32_t d) { (void)d; return (s[0] << (s[1] & 31)) + s[2]; }
static uint32_t r_add_lshl(const uint32_t *s, uint32_t d) { (void)d; return (s[0] + s[1]) << (s[2] & 31); }
static uint32_t r_lshl_or(const uint32_t *s, uint32_t d) { (void)d; return (s[0] << (s[1] & 31)) | s[2]; }
static uint32_t r_and_or(const uint32_t *s, uint32_t d) { (void)d; return (s[0] & s[1]) | s[2]; }
static uint32_t r_or3(const uint32_t *s, uint32_t d) { (void)d; return s[0] | s[1] | s[2]; }
static uint32_t r_xor3(const uint32_t *s, uint32_t d) { (void)d; return s[0] ^ s[1] ^ s[2]; }
static uint32_t r_xad(const uint32_t *s, uint32_t d) { (void)d; return (s[0] ^ s[1]) + s[2]; }
/* v_bfe_u32: (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1) */
static uint32_t r_bfe_u(const uint32_t *s, uint32_t d) { (void)d; return (s[0] >> (s[1] & 31)) & ((1u << (s[2] & 31)) - 1); }
static uint32_t r_bfi(const uint32_t *s, uint32_t d) { (void)d; return (s[0] & s[1]) | (~s[0] & s[2]); }
/* v_alignbyte_b32: ({S0, S1} >> (8 * S2[1:0]))[31:0] */
static uint32_t r_alignbyte(const uint32_t *s, uint32_t d)
{
	(void)d;
	return (uint32_t)(((uint64_t)s[0] << 32 | s[1]) >> (8 * (s[2] & 3)));
}
static uint32_t r_min3_i(const uint32_t *s, uint32_t d) { (void)d; return smin(smin(s[0], s[1]), s[2]); }
static uint32_t r_max3_i(const uint32_t *s, uint32_t d) { (void)d; return smax(smax(s[0], s[1]), s[2]); }
static uint32_t r_min3_u(const uint32_t *s, uint32_t d) { (void)d; return umin(umin(s[0], s[1]), s[2]); }
static uint32_t r_max3_u(const uint32_t *s, uint32_t d) { (void)d; return umax(umax(s[0], s[1]), s[2]); }
/* med3: if max3 == S0 then max(S1, S2) elsif max3 == S1 then max(S0, S2) else max(S0, S1) */
static uint32_t r_med3_i(const uint32_t *s, uint32_t d)
{
	(void)d;
	uint32_t m = r_max3_i(s, 0);
	return m == s[0] ? smax(s[1], s[2]) : m == s[1] ? smax(s[0], s[2]) : smax(s[0], s[1]);
}
static uint32_t r_med3_u(const uint32_t *s, uint32_t d)
{
	(void)d;
	uint32_t m = r_max3_u(s, 0);
	return m == s[0] ? umax(s[1], s[2]) : m == s[1] ? umax(s[0], s[2]) : umax(s[0], s[1]);
}
static uint32_t r_mad_u24(const uint32_t *s, uint32_t d) { (void)d; return r_mul_u24(s, 0) + s[2]; }
static uint32_t r_mad_i24(const uint32_t *s, uint32_t d) { (void)d; return r_mul_i24(s, 0) + s[2]; }
static uint32_t r_sad(const uint32_t *s, uint32_t d) { (void)d; return (s[0] > s[1] ? s[0] - s[1] : s[1] - s[0]) + s[2]; }
static uint32_t r_maxmin_u(const uint32_t *s, uint32_t d) { (void)d; return umin(umax(s[0], s[1]), s[2]); }
static uint32_t r_minmax_u(const uint32_t *s, uint32_t d) { (void)d; return umax(umin(s[0], s[1]), s[2]); }
static uint32_t r_not(const uint32_t *s, uint32_t d) { (void)d; return ~s[0]; }
static uint32_t r_bfrev(const uint32_t *s, uint32_t d)
{
	(void)d;
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((s[0] >> i) & 1) << (31 - i);
	return r;
}
/* clz/ctz/cls: the loops of the guide; -1 when no bit qualifies */
static uint32_t r_clz(const uint32_t *s, uint32_t d)
{
	(void)d;
	for (int i = 0; i < 32; i++)
		if ((s[0] >> (31 - i)) & 1)
			return (uint32_t)i;
	return ~0u;
}
static uint32_t r_ctz(const uint32_t *s, uint32_t d)
{
	(void)d;
	for (int i = 0; i < 32; i++)
		if ((s[0] >> i) & 1)
			return (uint32_t)i;
	return ~0u;
}
static uint32_t r_cls(const uint32_t *s, uint32_t d)
{
	(void)d;
	for (int i = 1; i < 32; i++)
		if (((s[0] >> (31 - i)) & 1) != s[0] >> 31)
			return (uint32_t)i;
	return ~0u;
}
/* conversions to f32: the host's int -> float conversion rounds to nearest even */
static uint32_t r_cvt_f32_i32(const uint32_t *s, uint32_t d) { (void)d; return xt_f2u((float)(int32_t)s[0]); }
static uint32_t r_cvt_f32_u32(const uint32_t *s, uint32_t d) { (void)d; return xt_f2u((float)s[0]); }
static uint32_t r_ubyte0(const uint32_t *s, uint32_t d) { (void)d; return xt_f2u((float)(s[0] & 0xff)); }
static uint32_t r_ubyte1(const uint32_t *s, uint32_t d) { (void)d; return xt_f2u((float)((s[0] >> 8) & 0xff)); }
static uint32_t r_ubyte2(const uint32_t *s, uint32_t d) { (void)d; return xt_f2u((float)((s[0] >> 16) & 0xff)); }
static uint32_t r_ubyte3(const uint32_t *s, uint32_t d) { (void)d; return xt_f2u((float)(s[0] >> 24)); }
/* v_cvt_off_f32_i4: the guide's table on S0[3:0] */
static uint32_t r_cvt_off(const uint32_t *s, uint32_t d)
{
	(void)d;
	static const float table[16] = { 0.0f,     0.0625f,  0.125f,   0.1875f, 0.25f,    0.3125f,  0.375f,   0.4375f,
					 -0.5f,    -0.4375f, -0.375f,  -0.3125f, -0.25f,  -0.1875f, -0.125f,  -0.0625f };
	return xt_f2u(table[s[0] & 15]);
}
static uint32_t r_cvt_off4(const uint32_t *s, uint32_t d) { return r_cvt_off(s + 3, d); }

static const struct vcase c_int2[] = {
	{ "v_and_b32", NULL, "v1, v2", r_and },
	{ "v_or_b32", NULL, "v1, v2", r_or },
	{ "v_xor_b32", NULL, "v1, v2", r_xor },
	{ "v_xnor_b32", NULL, "v1, v2", r_xnor },
	{ "v_min_i32", NULL, "v1, v2", r_min_i32 },
	{ "v_max_i32", NULL, "v1, v2", r_max_i32 },
	{ "v_min_u32", NULL, "v1, v2", r_min_u32 },
	{ "v_max_u32", NULL, "v1, v2", r_max_u32 },
	{ "v_mul_u32_u24", NULL, "v1, v2", r_mul_u24 },
	{ "v_mul_hi_u32_u24", NULL, "v1, v2", r_mul_hi_u24 },
	{ "v_mul_i32_i24", NULL, "v1, v2", r_mul_i24 },
	{ "v_mul_hi_i32_i24", NULL, "v1, v2", r_mul_hi_i24 },
	{ "v_mul_lo_u32", NULL, "v1, v2", r_mul_lo },
	{ "v_mul_hi_u32", NULL, "v1, v2", r_mul_hi_u },
	{ "v_mul_hi_i32", NULL, "v1, v2", r_mul_hi_i },
	{ "v_bfm_b32", NULL, "v1, v2", r_bfm },
	{ "v_bcnt_u32_b32", NULL, "v1, v2", r_bcnt },
};

static const struct vcase c_int3[] = {
	{ "v_add3_u32", NULL, "v1, v2, v3", r_add3 },
	{ "v_lshl_add_u32", NULL, "v1, v2, v3", r_lshl_add },
	{ "v_add_lshl_u32", NULL, "v1, v2, v3", r_add_lshl },
	{ "v_lshl_or_b32", NULL, "v1, v2, v3", r_lshl_or },
	{ "v_and_or_b32", NULL, "v1, v2, v3", r_and_or },
	{ "v_or3_b32", NULL, "v1, v2, v3", r_or3 },
	{ "v_xor3_b32", NULL, "v1, v2, v3", r_xor3 },
	{ "v_xad_u32", NULL, "v1, v2, v3", r_xad },
	{ "v_bfe_u32", NULL, "v1, v2, v3", r_bfe_u },
	{ "v_bfi_b32", NULL, "v1, v2, v3", r_bfi },
	{ "v_alignbyte_b32", NULL, "v1, v2, v3", r_alignbyte },
	{ "v_min3_i32", NULL, "v1, v2, v3", r_min3_i },
	{ "v_max3_i32", NULL, "v1, v2, v3", r_max3_i },
	{ "v_med3_i32", NULL, "v1, v2, v3", r_med3_i },
	{ "v_min3_u32", NULL, "v1, v2, v3", r_min3_u },
	{ "v_max3_u32", NULL, "v1, v2, v3", r_max3_u },
	{ "v_med3_u32", NULL, "v1, v2, v3", r_med3_u },
	{ "v_mad_u32_u24", NULL, "v1, v2, v3", r_mad_u24 },
	{ "v_mad_i32_i24", NULL, "v1, v2, v3", r_mad_i24 },
	{ "v_sad_u32", NULL, "v1, v2, v3", r_sad },
};

static const struct vcase c_int3_g11[] = {
	{ "v_maxmin_u32", NULL, "v1, v2, v3", r_maxmin_u },
	{ "v_minmax_u32", NULL, "v1, v2, v3", r_minmax_u },
};

static const struct vcase c_int1[] = {
	{ "v_not_b32", NULL, "v1", r_not },
	{ "v_bfrev_b32", NULL, "v1", r_bfrev },
	{ "v_ffbh_u32", "v_clz_i32_u32", "v1", r_clz },
	{ "v_ffbl_b32", "v_ctz_i32_b32", "v1", r_ctz },
	{ "v_ffbh_i32", "v_cls_i32", "v1", r_cls },
	{ "v_cvt_f32_i32", NULL, "v1", r_cvt_f32_i32 },
	{ "v_cvt_f32_u32", NULL, "v1", r_cvt_f32_u32 },
	{ "v_cvt_f32_ubyte0", NULL, "v1", r_ubyte0 },
	{ "v_cvt_f32_ubyte1", NULL, "v1", r_ubyte1 },
	{ "v_cvt_f32_ubyte2", NULL, "v1", r_ubyte2 },
	{ "v_cvt_f32_ubyte3", NULL, "v1", r_ubyte3 },
	{ "v_cvt_off_f32_i4", NULL, "v1", r_cvt_off },
	/* every nibble: v4 holds the lane number */
	{ "v_cvt_off_f32_i4", NULL, "v4", r_cvt_off4 },
};

/* ---- f32 references ----------------------------------------------------------------------- */
static float F(uint32_t u) { return xt_u2f(u); }
static uint32_t U(float f) { return xt_f2u(f); }
static bool is_snan(float f) { return isnan(f) && !(U(f) & 0x400000u); }

/* v_min_f32 / v_max_f32 in IEEE mode: a signalling NaN is returned quieted,
 * a quiet NaN yields the other operand, -0 is below +0. */
static float fmin_ieee(float a, float b)
{
	if (is_snan(a) || is_snan(b))
		return F(U(is_snan(a) ? a : b) | 0x400000u);
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	if (a == 0 && b == 0)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}
static float fmax_ieee(float a, float b)
{
	if (is_snan(a) || is_snan(b))
		return F(U(is_snan(a) ? a : b) | 0x400000u);
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	if (a == 0 && b == 0)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static uint32_t r_sub_f(const uint32_t *s, uint32_t d) { (void)d; return U(F(s[0]) - F(s[1])); }
static uint32_t r_subrev_f(const uint32_t *s, uint32_t d) { (void)d; return U(F(s[1]) - F(s[0])); }
static uint32_t r_min_f(const uint32_t *s, uint32_t d) { (void)d; return U(fmin_ieee(F(s[0]), F(s[1]))); }
static uint32_t r_max_f(const uint32_t *s, uint32_t d) { (void)d; return U(fmax_ieee(F(s[0]), F(s[1]))); }
/* DX9 rules: 0 * anything (infinity and NaN too) is +0 */
static uint32_t r_mul_dx9(const uint32_t *s, uint32_t d)
{
	(void)d;
	return F(s[0]) == 0 || F(s[1]) == 0 ? 0 : U(F(s[0]) * F(s[1]));
}
/* v_ldexp_f32: S0 * 2^S1.i32, one rounding (denormals kept) */
static uint32_t r_ldexp(const uint32_t *s, uint32_t d) { (void)d; return U(ldexpf(F(s[0]), (int32_t)s[3])); }
static uint32_t r_min3_f(const uint32_t *s, uint32_t d)
{
	(void)d;
	return U(fmin_ieee(fmin_ieee(F(s[0]), F(s[1])), F(s[2])));
}
static uint32_t r_max3_f(const uint32_t *s, uint32_t d)
{
	(void)d;
	return U(fmax_ieee(fmax_ieee(F(s[0]), F(s[1])), F(s[2])));
}
/* v_med3_f32: a NaN operand gives min3; else max3 == S0 ? max(S1, S2) : max3 == S1 ? max(S0, S2) : max(S0, S1) */
static uint32_t r_med3_f(const uint32_t *s, uint32_t d)
{
	float a = F(s[0]), b = F(s[1]), c = F(s[2]);
	if (isnan(a) || isnan(b) || isnan(c))
		return r_min3_f(s, d);
	float m = fmax_ieee(fmax_ieee(a, b), c);
	return U(m == a ? fmax_ieee(b, c) : m == b ? fmax_ieee(a, c) : fmax_ieee(a, b));
}
/* fused: one rounding (fmaf) */
static uint32_t r_fma_dx9(const uint32_t *s, uint32_t d)
{
	(void)d;
	return F(s[0]) == 0 || F(s[1]) == 0 ? s[2] : U(fmaf(F(s[0]), F(s[1]), F(s[2])));
}
static uint32_t r_fmac(const uint32_t *s, uint32_t d) { return U(fmaf(F(s[0]), F(s[1]), F(d))); }
static uint32_t r_fmac_dx9(const uint32_t *s, uint32_t d)
{
	return F(s[0]) == 0 || F(s[1]) == 0 ? d : U(fmaf(F(s[0]), F(s[1]), F(d)));
}

static const struct vcase c_f2[] = {
	{ "v_sub_f32", NULL, "v1, v2", r_sub_f },
	{ "v_subrev_f32", NULL, "v1, v2", r_subrev_f },
	{ "v_min_f32", NULL, "v1, v2", r_min_f },
	{ "v_max_f32", NULL, "v1, v2", r_max_f },
	{ "v_mul_legacy_f32", "v_mul_dx9_zero_f32", "v1, v2", r_mul_dx9 },
	{ "v_ldexp_f32", NULL, "v1, v4", r_ldexp },
	{ "v_min3_f32", NULL, "v1, v2, v3", r_min3_f },
	{ "v_max3_f32", NULL, "v1, v2, v3", r_max3_f },
	{ "v_med3_f32", NULL, "v1, v2, v3", r_med3_f },
	{ "v_fma_legacy_f32", "v_fma_dx9_zero_f32", "v1, v2, v3", r_fma_dx9 },
	{ "v_fmac_f32", NULL, "v1, v2", r_fmac },
	{ "v_fmac_legacy_f32", "v_fmac_dx9_zero_f32", "v1, v2", r_fmac_dx9 },
};

/* Rounding and conversions (the guides' pseudocode). */
static float ref_trunc(float a) { return truncf(a); }
static uint32_t r_trunc(const uint32_t *s, uint32_t d) { (void)d; return U(ref_trunc(F(s[0]))); }
/* ceil: trunc, plus 1 when S0 > 0 and not integral; floor: minus 1 when S0 < 0 and not integral */
static uint32_t r_ceil(const uint32_t *s, uint32_t d)
{
	(void)d;
	float a = F(s[0]), t = ref_trunc(a);
	return U(a > 0 && a != t ? t + 1.0f : t);
}
static float ref_floor(float a)
{
	float t = ref_trunc(a);
	return a < 0 && a != t ? t - 1.0f : t;
}
static uint32_t r_floor(const uint32_t *s, uint32_t d) { (void)d; return U(ref_floor(F(s[0]))); }
/* rndne: to the nearest integer, ties to the even one; the sign of a zero
 * result is the source's (IEEE roundToIntegralTiesToEven, which the guide's
 * floor(S0 + 0.5) formula describes for the magnitudes) */
static uint32_t r_rndne(const uint32_t *s, uint32_t d)
{
	(void)d;
	float a = F(s[0]);
	if (isnan(a) || isinf(a) || fabsf(a) >= 8388608.0f)
		return s[0];
	float f = ref_floor(a), r = a - f; /* exact below 2^23 */
	float n = r > 0.5f ? f + 1.0f : r < 0.5f ? f : fmodf(f, 2.0f) == 0 ? f : f + 1.0f;
	return U(copysignf(n, a));
}
/* fract: S0 + -floor(S0), at most 0x3f7fffff */
static uint32_t r_fract(const uint32_t *s, uint32_t d)
{
	(void)d;
	float a = F(s[0]), r = a + -ref_floor(a);
	return r > 0x1.fffffep-1f ? 0x3f7fffffu : U(r);
}
/* f32 -> i32/u32: NaN gives 0, out-of-range values (infinities too) saturate, the rest truncate */
static uint32_t cvt_i32(float a)
{
	if (isnan(a))
		return 0;
	if (a >= 2147483648.0f)
		return 0x7fffffffu;
	if (a < -2147483648.0f)
		return 0x80000000u;
	return (uint32_t)(int32_t)a;
}
static uint32_t r_cvt_i32(const uint32_t *s, uint32_t d) { (void)d; return cvt_i32(F(s[0])); }
static uint32_t r_cvt_u32(const uint32_t *s, uint32_t d)
{
	(void)d;
	float a = F(s[0]);
	return isnan(a) || a <= -1.0f ? 0 : a >= 4294967296.0f ? 0xffffffffu : (uint32_t)a;
}
static uint32_t r_cvt_i32_neg(const uint32_t *s, uint32_t d) { (void)d; return cvt_i32(-F(s[0])); }
static uint32_t r_cvt_floor(const uint32_t *s, uint32_t d) { (void)d; return cvt_i32(ref_floor(F(s[0]))); }
/* f32_to_i32(floor(S0 + 0.5F)): the addition rounds in f32 */
static uint32_t r_cvt_nearest(const uint32_t *s, uint32_t d) { (void)d; return cvt_i32(ref_floor(F(s[0]) + 0.5f)); }

static const struct vcase c_f1[] = {
	{ "v_trunc_f32", NULL, "v1", r_trunc },
	{ "v_ceil_f32", NULL, "v1", r_ceil },
	{ "v_floor_f32", NULL, "v1", r_floor },
	{ "v_rndne_f32", NULL, "v1", r_rndne },
	{ "v_fract_f32", NULL, "v1", r_fract },
	{ "v_cvt_i32_f32", NULL, "v1", r_cvt_i32 },
	{ "v_cvt_u32_f32", NULL, "v1", r_cvt_u32 },
	{ "v_cvt_flr_i32_f32", "v_cvt_floor_i32_f32", "v1", r_cvt_floor },
	{ "v_cvt_rpi_i32_f32", "v_cvt_nearest_i32_f32", "v1", r_cvt_nearest },
	/* the same through the VOP3 encoding with an input modifier */
	{ "v_cvt_i32_f32_e64", NULL, "-v1", r_cvt_i32_neg },
};

/* frexp: infinities and NaNs give S0 (mantissa) and 0 (exponent); else
 * S0 = mantissa * 2^exponent with |mantissa| in [0.5, 1).  Normal inputs
 * only (the guides' exponent() is the biased field, which says nothing
 * useful for zeros and denormals). */
static uint32_t r_frexp_mant(const uint32_t *s, uint32_t d)
{
	(void)d;
	float a = F(s[0]);
	if (isnan(a) || isinf(a))
		return s[0];
	int e = (int)((s[0] >> 23) & 0xff) - 126;
	return U(ldexpf(a, -e));
}
static uint32_t r_frexp_exp(const uint32_t *s, uint32_t d)
{
	(void)d;
	float a = F(s[0]);
	return isnan(a) || isinf(a) ? 0 : ((s[0] >> 23) & 0xff) - 127 + 1;
}
static const struct vcase c_frexp[] = {
	{ "v_frexp_mant_f32", NULL, "v1", r_frexp_mant },
	{ "v_frexp_exp_i32_f32", NULL, "v1", r_frexp_exp },
};
static void init_norm(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	static const uint32_t sp[] = { 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x3f800000u, 0x7f7fffffu, 0x00800000u,
				       0xbf400000u, 0x80800000u };
	if (lane < sizeof sp / sizeof sp[0])
		in[0] = sp[lane];
}

/* ---- transcendentals (tolerance XT_F1) ------------------------------------------------------ */
/* The guides: v_rcp/v_rsq/v_sqrt/v_exp/v_log_f32 are within 1 ULP and flush
 * denormals (a denormal source reads as a zero of its sign, a denormal result
 * is written as one), whatever the mode; v_sin/v_cos_f32 take the angle in
 * revolutions (S0 * 2 PI) over the full range and keep denormals.  The
 * references compute in long double and round once; the exact values the
 * guides list (zeros, infinities, NaNs, rcp(-2) = -0.5, rsq(4) = 0.5,
 * sqrt(4) = 2, log(1) = 0, sin(0.25) = 1, cos(0.25) = 0, sin(-MaxFloat) = 0,
 * cos(-MaxFloat) = 1) are among the inputs. */
static long double ftz_l(long double x) { return fabsl(x) < 0x1p-126L ? copysignl(0.0L, x) : x; }
static uint32_t out_ftz(long double x) { return U((float)ftz_l(x)); }
static uint32_t r_rcp(const uint32_t *s, uint32_t d) { (void)d; return out_ftz(1.0L / ftz_l(F(s[0]))); }
static uint32_t r_rsq(const uint32_t *s, uint32_t d) { (void)d; return out_ftz(1.0L / sqrtl(ftz_l(F(s[0])))); }
static uint32_t r_sqrt(const uint32_t *s, uint32_t d) { (void)d; return out_ftz(sqrtl(ftz_l(F(s[0])))); }
static uint32_t r_exp(const uint32_t *s, uint32_t d) { (void)d; return out_ftz(exp2l(ftz_l(F(s[0])))); }
static uint32_t r_log(const uint32_t *s, uint32_t d) { (void)d; return out_ftz(log2l(ftz_l(F(s[0])))); }
/* sin(2 PI x): x's fraction of a revolution is exact; at quarter revolutions
 * the exact values 0 and +-1 */
static uint32_t sin_rev(float x, bool cosine)
{
	if (isnan(x) || isinf(x))
		return 0x7fc00000u;
	long double r = fmodl(x, 1.0L) + (cosine ? 0.25L : 0.0L), q = r * 4.0L;
	if (q == floorl(q) && x != 0) {
		long k = ((long)q % 4 + 4) % 4;
		return U(k == 1 ? 1.0f : k == 3 ? -1.0f : 0.0f);
	}
	return U((float)sinl(r * 6.283185307179586476925286766559L));
}
static uint32_t r_sin(const uint32_t *s, uint32_t d) { (void)d; return sin_rev(F(s[0]), false); }
static uint32_t r_cos(const uint32_t *s, uint32_t d) { (void)d; return sin_rev(F(s[0]), true); }
static const struct vcase c_trans[] = {
	{ "v_rcp_f32", NULL, "v1", r_rcp },
	{ "v_rcp_iflag_f32", NULL, "v1", r_rcp },
	{ "v_rsq_f32", NULL, "v1", r_rsq },
	{ "v_sqrt_f32", NULL, "v1", r_sqrt },
	{ "v_exp_f32", NULL, "v1", r_exp },
	{ "v_log_f32", NULL, "v1", r_log },
	{ "v_sin_f32", NULL, "v1", r_sin },
	{ "v_cos_f32", NULL, "v1", r_cos },
};
static void init_trans(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	static const uint32_t sp[] = {
		0xff800000u, 0x80000000u, 0x7f800000u, 0xbf800000u, 0x00000000u, 0x3f800000u, 0xc0000000u,
		0x40800000u, 0xff7fffffu, 0x3e800000u, 0x7fc00000u, 0x00000005u, 0x80400000u, 0x7f7fffffu,
		0xc3020000u /* -130: exp's result is denormal */, 0x00800000u, 0x3f000000u, 0x42c80000u,
		0xbe800000u, 0x3f400000u,
	};
	if (lane < sizeof sp / sizeof sp[0])
		in[0] = sp[lane];
}

/* ---- division: LLVM's f32 sequence, and div_fixup alone --------------------------------------- */
/* The guides leave UNDERFLOW_F32 (div_fixup when exponent(num) -
 * exponent(den) < -150) undefined: such pairs get the numerator 1.0. */
static void init_div(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	init_flt(lane, in, out, nin, nout);
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
	init_int(lane, in, out, nin, nout);
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
 * written; in place (D = S0) with all lanes on.  In wave32 it does nothing. */
static uint32_t h64(unsigned l) { return l * 0x9e3779b1u + 7; }
static void ref_pl64(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	out[0] = h64(lane + 32);
	out[1] = lane & 1 ? out[1] : h64(lane + 32);
	out[2] = h64(lane + 32);
	out[3] = h64(40); /* v_readlane_b32 of lane 40: S1[5:0] in wave64 */
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
	init_int(lane, in, out, nin, nout);
	in[3] = edge_f[(lane + 3) % NEDGE_F];
	in[4] = edge_f[(lane * 2 + 1) % NEDGE_F];
}
static float clamp01(float x) { return isnan(x) || x <= 0 ? 0.0f : x >= 1 ? 1.0f : x; }
static void ref_mask(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	if (!((mask_exec >> lane) & 1))
		return;
	uint32_t fa[1] = { U(fabsf(F(in[3]))) };
	out[0] = (in[0] ^ in[1]) + in[2];
	out[1] = U(clamp01(F(in[3]) - F(in[4])));
	out[2] = U(ldexpf(-F(in[3]), (int32_t)in[0]));
	out[3] = r_fract(fa, 0);
	if (!isnan(F(out[3])))
		out[3] = U(F(out[3]) * 2.0f);
	out[4] = U((float)((in[0] >> 8) & 0xff) * 0.5f);
	out[5] = (uint32_t)((uint64_t)0x123456u * (in[0] & 0xffffff) >> 32);
	out[6] = in[0] & 63;
	out[7] = (in[0] >> 4) & 0xff;
}

/* ---- the table ----------------------------------------------------------------------------- */
#define FAM(name, cases) static struct vfam name = { cases, NCASES(cases), { "", "" } };
FAM(f_int2, c_int2)
FAM(f_int3, c_int3)
FAM(f_int3_g11, c_int3_g11)
FAM(f_int1, c_int1)
FAM(f_f2, c_f2)
FAM(f_f1, c_f1)
FAM(f_frexp, c_frexp)
FAM(f_trans, c_trans)
#define FAMREF(name) \
	static void ref_##name(const struct xt_ctx *c, unsigned lane, uint32_t *out) { fam_ref(&name, c, lane, out); }
FAMREF(f_int2)
FAMREF(f_int3)
FAMREF(f_int3_g11)
FAMREF(f_int1)
FAMREF(f_f2)
FAMREF(f_f1)
FAMREF(f_frexp)
FAMREF(f_trans)

__attribute__((constructor)) static void build_bodies(void)
{
	struct vfam *all[] = { &f_int2, &f_int3, &f_int3_g11, &f_int1, &f_f2, &f_f1, &f_frexp, &f_trans };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		fam_build(all[i]);
}

#define FAMTEST(label, gens, fam, cases, nin, init, tol) \
	{ label, gens, fam.body[0], fam.body[1], NULL, nin, NCASES(cases), init, ref_##fam, tol }

const struct xt_test xt_tests_vop[] = {
	FAMTEST("vop_int2", XT_BOTH, f_int2, c_int2, 2, init_int, XT_EXACT),
	FAMTEST("vop_int3", XT_BOTH, f_int3, c_int3, 3, init_int, XT_EXACT),
	FAMTEST("vop_int3_maxmin_u32", XT_G11, f_int3_g11, c_int3_g11, 3, init_int, XT_EXACT),
	FAMTEST("vop_int1_cvt_to_f32", XT_BOTH, f_int1, c_int1, 4, init_int, XT_EXACT),
	FAMTEST("vop_f32_arith", XT_BOTH, f_f2, c_f2, 4, init_flt, XT_EXACT),
	FAMTEST("vop_f32_round_cvt", XT_BOTH, f_f1, c_f1, 1, init_flt, XT_FNAN),
	FAMTEST("vop_f32_frexp", XT_BOTH, f_frexp, c_frexp, 1, init_norm, XT_EXACT),
	FAMTEST("vop_f32_transcendental", XT_BOTH, f_trans, c_trans, 1, init_trans, XT_F1),
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
	  "v_cndmask_b32 v49, 0, 1, vcc_lo",
	  NULL, NULL, 4, 10, init_64, ref_64, XT_EXACT },
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
	  "v_mov_b32 v46, v51",
	  NULL, NULL, 4, 7, xt_init_u, ref_rel, XT_EXACT },
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
	  "s_mov_b32 exec_lo, s20\n"
	  "s_mov_b32 exec_hi, s21\n"
	  "v_permlane64_b32 v40, v11\n"
	  "s_mov_b32 exec_lo, 0x55555555\n"
	  "v_permlane64_b32 v41, v11\n"
	  "s_mov_b32 exec_lo, s20",
	  NULL, NULL, 1, 4, xt_init_u, ref_pl64, XT_EXACT },
	{ "vop_permlane64_wave32_nop", XT_G11, "v_permlane64_b32 v40, v1", NULL, NULL, 1, 1, xt_init_u, ref_pl64_w32,
	  XT_EXACT },
};
const unsigned xt_ntests_vop = sizeof xt_tests_vop / sizeof xt_tests_vop[0];
