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
 * The lane operations, moves, division steps, 64-bit forms and EXEC-masked
 * forms are written out by hand in exec_tests_vop_2.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

void xt_init_vop_int(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
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
uint32_t xt_vop_edge_f(unsigned i) { return edge_f[i % NEDGE_F]; }
static const int32_t edge_e[] = { 0, 1, -1, 127, -126, -149, 200, -200, 0x7fffffff, INT32_MIN, 3, -3, 64, -64, 24, -24 };

void xt_init_vop_flt(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
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

/* VOP3 forms of VOP2 operations and VOP3 operations with inline constants
 * and literals as sources (shift and field widths out of range too) */
static uint32_t r_and_k(const uint32_t *s, uint32_t d) { (void)d; return s[0] & 0x0f0f0f0fu; }
static uint32_t r_min_i32_k(const uint32_t *s, uint32_t d) { (void)d; return smin((uint32_t)-4, s[0]); }
static uint32_t r_max_u32_k(const uint32_t *s, uint32_t d) { (void)d; return umax(s[0], 64); }
static uint32_t r_mul_i24_k(const uint32_t *s, uint32_t d) { (void)d; return (uint32_t)((int64_t)i24(s[0]) * -7); }
static uint32_t r_xnor_self(const uint32_t *s, uint32_t d) { (void)d; return ~(s[0] ^ s[0]); }
static uint32_t r_add3_k(const uint32_t *s, uint32_t d) { (void)d; return s[0] + 0x12345u + 0xffffffffu; }
static uint32_t r_med3_i_k(const uint32_t *s, uint32_t d)
{
	uint32_t k[3] = { s[0], (uint32_t)-16, 64 };
	return r_med3_i(k, d);
}
static uint32_t r_bfe_k(const uint32_t *s, uint32_t d) { (void)d; return (s[0] >> (s[1] & 31)) & ((1u << (33 & 31)) - 1); }
static uint32_t r_lshl_add_k(const uint32_t *s, uint32_t d) { (void)d; return (s[0] << (35 & 31)) + s[2]; }
static uint32_t r_alignbyte_k(const uint32_t *s, uint32_t d) { (void)d; return (uint32_t)(((uint64_t)s[0] << 32 | s[1]) >> (8 * (7 & 3))); }
static const struct vcase c_intk[] = {
	{ "v_and_b32_e64", NULL, "v1, 0x0f0f0f0f", r_and_k },
	{ "v_min_i32_e64", NULL, "-4, v1", r_min_i32_k },
	{ "v_max_u32_e64", NULL, "v1, 64", r_max_u32_k },
	{ "v_mul_i32_i24_e64", NULL, "v1, -7", r_mul_i24_k },
	{ "v_xnor_b32_e64", NULL, "v1, v1", r_xnor_self },
	{ "v_add3_u32", NULL, "v1, 0x12345, -1", r_add3_k },
	{ "v_med3_i32", NULL, "v1, -16, 64", r_med3_i_k },
	{ "v_bfe_u32", NULL, "v1, v2, 33", r_bfe_k },
	{ "v_lshl_add_u32", NULL, "v1, 35, v3", r_lshl_add_k },
	{ "v_alignbyte_b32", NULL, "v1, v2, 7", r_alignbyte_k },
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

/* ---- the table ----------------------------------------------------------------------------- */
#define FAM(name, cases) static struct vfam name = { cases, NCASES(cases), { "", "" } };
FAM(f_int2, c_int2)
FAM(f_int3, c_int3)
FAM(f_intk, c_intk)
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
FAMREF(f_intk)
FAMREF(f_int3_g11)
FAMREF(f_int1)
FAMREF(f_f2)
FAMREF(f_f1)
FAMREF(f_frexp)
FAMREF(f_trans)

__attribute__((constructor)) static void build_bodies(void)
{
	struct vfam *all[] = { &f_int2, &f_int3, &f_intk, &f_int3_g11, &f_int1, &f_f2, &f_f1, &f_frexp, &f_trans };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		fam_build(all[i]);
}

#define FAMTEST(label, gens, fam, cases, nin, init, tol) \
	{ label, gens, fam.body[0], fam.body[1], NULL, nin, NCASES(cases), init, ref_##fam, tol }

const struct xt_test xt_tests_vop[] = {
	FAMTEST("vop_int2", XT_BOTH, f_int2, c_int2, 2, xt_init_vop_int, XT_EXACT),
	FAMTEST("vop_int3", XT_BOTH, f_int3, c_int3, 3, xt_init_vop_int, XT_EXACT),
	FAMTEST("vop_int_vop3_constants", XT_BOTH, f_intk, c_intk, 3, xt_init_vop_int, XT_EXACT),
	FAMTEST("vop_int3_maxmin_u32", XT_G11, f_int3_g11, c_int3_g11, 3, xt_init_vop_int, XT_EXACT),
	FAMTEST("vop_int1_cvt_to_f32", XT_BOTH, f_int1, c_int1, 4, xt_init_vop_int, XT_EXACT),
	FAMTEST("vop_f32_arith", XT_BOTH, f_f2, c_f2, 4, xt_init_vop_flt, XT_EXACT),
	FAMTEST("vop_f32_round_cvt", XT_BOTH, f_f1, c_f1, 1, xt_init_vop_flt, XT_FNAN),
	FAMTEST("vop_f32_frexp", XT_BOTH, f_frexp, c_frexp, 1, init_norm, XT_EXACT),
	FAMTEST("vop_f32_transcendental", XT_BOTH, f_trans, c_trans, 1, init_trans, XT_F1),
};
const unsigned xt_ntests_vop = sizeof xt_tests_vop / sizeof xt_tests_vop[0];
