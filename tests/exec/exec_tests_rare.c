/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_rare.c — single-instruction tests of rarely emitted
 * instructions: the SGPR-base-only global_load/store_addtid_b32, the
 * media instructions (v_sad_u8, v_sad_hi_u8, v_msad_u8, v_qsad_pk_u16_u8,
 * v_mqsad_pk_u16_u8, v_mqsad_u32_u8, v_lerp_u8, v_cvt_pk_u8_f32, the cube
 * helpers, v_mullit_f32), gfx11's v_swap_b16, the integer clamp of the 32-bit
 * adds and subtracts.  References follow the ISA guides' pseudocode,
 * written here in plain C.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "exec_harness.h"

static uint32_t absd(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }
static uint32_t sad(uint32_t a, uint32_t b, uint32_t acc, int masked)
{
	for (int i = 0; i < 4; i++) {
		uint32_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
		if (!masked || y)
			acc += absd(x, y);
	}
	return acc;
}

/* addtid: out dword `lane` of the output buffer is written with in + 0x11
 * and read back (v41); v40 is the input loaded by lane id. */
static void ref_addtid(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	out[0] = c->in[lane];
	out[1] = c->in[lane] + 0x11;
}

static void init_media(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	if (lane == 0)
		in[1] = 0; /* v_msad_u8: a zero reference byte counts nothing */
	if (lane == 1)
		in[1] = 0x00ff00ffu;
	if (lane == 2)
		in[2] = 0xffffffffu; /* accumulators wrap */
}
static void ref_media(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint32_t a = in[0], b = in[1], acc = in[2];
	out[0] = sad(a, b, acc, 0);
	out[1] = (sad(a, b, 0, 0) << 16) + acc;
	out[2] = sad(a, b, acc, 1);
	uint32_t l = 0;
	for (int i = 0; i < 4; i++)
		l |= ((((a >> (8 * i)) & 0xff) + ((b >> (8 * i)) & 0xff) + ((acc >> (8 * i)) & 1)) >> 1) << (8 * i);
	out[3] = l;
	/* qsad/mqsad: S0 = in[0..1] (64 bits), S1 = in[1], S2 = in[3..6] */
	uint64_t s0 = (uint64_t)in[1] << 32 | in[0];
	uint32_t q[2] = { 0, 0 }, mq[2] = { 0, 0 }, m32[4];
	for (int i = 0; i < 4; i++) {
		uint32_t win = (uint32_t)(s0 >> (8 * i));
		uint32_t a16 = (in[3 + i / 2] >> (16 * (i & 1))) & 0xffff;
		uint32_t r = sad(win, b, a16, 0) & 0xffff, mr = sad(win, b, a16, 1) & 0xffff;
		q[i / 2] |= r << (16 * (i & 1));
		mq[i / 2] |= mr << (16 * (i & 1));
		m32[i] = sad(win, b, in[3 + i], 1);
	}
	out[4] = q[0];
	out[5] = q[1];
	out[6] = mq[0];
	out[7] = mq[1];
	for (int i = 0; i < 4; i++)
		out[8 + i] = m32[i];
}

static void init_cube(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	static const float f[][3] = { { 1, 2, 3 }, { -1, 2, -3 }, { 3, -2, 1 }, { -3, 2, 1 }, { 1, -3, 2 }, { 2, 2, 2 },
				      { -2, 2, 1 }, { 0, 0, 0 }, { 300.5f, -0.25f, 1e-3f } };
	if (lane < 9)
		for (int k = 0; k < 3; k++)
			in[k] = xt_f2u(f[lane][k]);
	if (lane == 9)
		in[1] = xt_f2u(-INFINITY); /* v_mullit: S1 = -inf */
	if (lane == 10)
		in[2] = xt_f2u(-0.0f);
	in[3] = lane == 11 ? xt_f2u(-1.0f) : lane == 12 ? xt_f2u(1e10f) : lane == 13 ? 0x7fc00000u : xt_f2u((float)lane * 9.75f);
}
static void ref_cube(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	float x = xt_u2f(in[0]), y = xt_u2f(in[1]), z = xt_u2f(in[2]);
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
	float id, sc, tc, ma;
	if (az >= ax && az >= ay) {
		id = z < 0 ? 5.0f : 4.0f;
		sc = z < 0 ? -x : x;
		tc = -y;
		ma = 2.0f * z;
	} else if (ay >= ax) {
		id = y < 0 ? 3.0f : 2.0f;
		sc = x;
		tc = y < 0 ? -z : z;
		ma = 2.0f * y;
	} else {
		id = x < 0 ? 1.0f : 0.0f;
		sc = x < 0 ? z : -z;
		tc = -y;
		ma = 2.0f * x;
	}
	out[0] = xt_f2u(id);
	out[1] = xt_f2u(sc);
	out[2] = xt_f2u(tc);
	out[3] = xt_f2u(ma);
	bool lim = y == -0x1.fffffep127f || y == -INFINITY || isnan(y) || z <= 0 || isnan(z);
	out[4] = xt_f2u(lim ? -0x1.fffffep127f : x * y);
	/* v_cvt_pk_u8_f32 of in[3] into byte 2 of in[1] */
	float v = xt_u2f(in[3]);
	uint32_t u = isnan(v) || v <= 0 ? 0 : v >= 255.0f ? 255 : (uint32_t)v;
	out[5] = (in[1] & ~0x00ff0000u) | u << 16;
}

/* v_swap_b16 (gfx11; llvm-mc 19 neither assembles nor disassembles it, so
 * the words are spelled out, checked with LLVM 21):
 *   7E50CDA9  v_swap_b16 v40.l, v41.h
 *   7F54CD2B  v_swap_b16 v42.h, v43.l */
static void ref_swap16(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	(void)lane;
	uint16_t a = xt_lo(out[0]), b = xt_hi(out[1]);
	out[0] = xt_setlo(out[0], b);
	out[1] = xt_sethi(out[1], a);
	uint16_t x = xt_hi(out[2]), y = xt_lo(out[3]);
	out[2] = xt_sethi(out[2], y);
	out[3] = xt_setlo(out[3], x);
}

/* v_fmaak/v_fmamk_f32 with a literal src0: the constant K and src0 share
 * the instruction's one literal dword (8 bytes; the decoder once read a
 * second literal and lost the instruction boundary: rocRAND's gfx1030 code). */
static void ref_fmak_lit(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	out[0] = xt_f2u(fmaf(3.0f, xt_u2f(in[0]), 3.0f));
	out[1] = xt_f2u(fmaf(0.5f, 0.5f, xt_u2f(in[1]))); /* fmamk: S0 * K + S1 */
	out[2] = xt_f2u(xt_u2f(in[1]) + 1.0f);
}

/* s_sendmsg_rtn_b64/b32 MSG_RTN_GET_REALTIME: a running clock.  The
 * kernel checks it: v40 = the first reading is not 0, v41 = the second
 * 64-bit reading is not below the first, v42 = the 32-bit reading is
 * within 2^30 ticks after the first's low half (wrap-safe). */
static void ref_realtime(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	(void)lane;
	out[0] = out[1] = out[2] = 1;
}

/* ds_swizzle_b32 (the source is the ADDR field): rocPRIM's wave32 reduce
 * (DPP quad_perm and row_ror inside rows of 16, then BROADCAST,32,15 and a
 * ds_bpermute of lane 31: the sum of the 32 lanes), and the quad-perm,
 * swap and reverse modes read from the ISA guide's bit-mask rule
 * (lane = ((lane & and) | or) ^ xor within 32) and quad rule. */
static void init_swz(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	in[0] = (in[0] & 0xffffff) + lane; /* no overflow */
}
static void ref_swz(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	uint32_t sum = 0;
	for (unsigned l = 0; l < 32; l++)
		sum += c->in[l * c->nin];
	out[0] = sum;
	out[1] = c->in[((lane & ~3u) | (3 - (lane & 3))) * c->nin];
	out[2] = c->in[(lane ^ 16) * c->nin];
	out[3] = c->in[(lane ^ 7) * c->nin];
}

/* Integer clamp: the no-carry adds/subtracts and the carry forms saturate
 * (u32 to [0, 2^32-1], i32 to its range) instead of wrapping.  Lanes 0-3
 * hold the edges: u32 overflow, u32 borrow, i32 overflow, i32 underflow. */
static void init_clamp(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	static const uint32_t edge[4][2] = {
		{ 0xfffffff0u, 0x20u }, { 5u, 10u }, { 0x7fffffffu, 1u }, { 0x80000000u, 1u },
	};
	if (lane < 4) {
		in[0] = edge[lane][0];
		in[1] = edge[lane][1];
	}
}
static uint32_t sat_i(int64_t v)
{
	return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}
static void ref_clamp(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	uint32_t a = c->in[lane * c->nin], b = c->in[lane * c->nin + 1];
	uint64_t sum = (uint64_t)a + b;
	out[0] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
	out[1] = a < b ? 0 : a - b;
	out[2] = b < a ? 0 : b - a;
	out[3] = sat_i((int64_t)(int32_t)a + (int32_t)b);
	out[4] = sat_i((int64_t)(int32_t)a - (int32_t)b);
	out[5] = out[0];
	out[6] = out[1];
	out[7] = a + b;   /* no clamp: wraps */
}

/* DPP row_ror:n — rotate right within each row of 16: lane i reads lane
 * (i - n) mod 16 of its row (row_shr's direction, wrapping; rocWMMA's
 * DppRotateR16 test checks the same on its CPU reference). */
static void ref_row_ror(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	static const unsigned n[3] = { 1, 3, 15 };
	for (unsigned k = 0; k < 3; k++) {
		unsigned from = (lane & ~15u) | ((lane - n[k]) & 15u);
		out[k] = c->in[from * c->nin];
	}
}

const struct xt_test xt_tests_rare[] = {
	{ "dpp_row_ror", XT_BOTH,
	  "v_mov_b32_dpp v40, v1 row_ror:1 row_mask:0xf bank_mask:0xf\n"
	  "v_mov_b32_dpp v41, v1 row_ror:3 row_mask:0xf bank_mask:0xf\n"
	  "v_mov_b32_dpp v42, v1 row_ror:15 row_mask:0xf bank_mask:0xf",
	  NULL, NULL, 1, 3, xt_init_u, ref_row_ror, XT_EXACT },
	{ "ds_swizzle_rocprim_reduce", XT_BOTH,
	  "v_mov_b32 v5, v1\n"
	  "v_mov_b32_dpp v3, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\nv_add_nc_u32 v1, v3, v1\n"
	  "v_mov_b32_dpp v3, v1 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf\nv_add_nc_u32 v1, v1, v3\n"
	  "v_mov_b32_dpp v3, v1 row_ror:4 row_mask:0xf bank_mask:0xf\nv_add_nc_u32 v1, v1, v3\n"
	  "v_mov_b32_dpp v3, v1 row_ror:8 row_mask:0xf bank_mask:0xf\nv_add_nc_u32 v1, v1, v3\n"
	  "ds_swizzle_b32 v3, v1 offset:swizzle(BROADCAST,32,15)\ns_waitcnt lgkmcnt(0)\nv_add_nc_u32 v1, v1, v3\n"
	  "v_mov_b32 v2, 0\nds_bpermute_b32 v40, v2, v1 offset:124\n"
	  "ds_swizzle_b32 v41, v5 offset:swizzle(QUAD_PERM,3,2,1,0)\n"
	  "ds_swizzle_b32 v42, v5 offset:swizzle(SWAP,16)\nds_swizzle_b32 v43, v5 offset:swizzle(REVERSE,8)\n"
	  "s_waitcnt lgkmcnt(0)",
	  NULL, NULL, 1, 4, init_swz, ref_swz, XT_EXACT },
	{ "s_sendmsg_rtn_realtime", XT_G11, NULL,
	  "s_sendmsg_rtn_b64 s[10:11], sendmsg(MSG_RTN_GET_REALTIME)\ns_nop 7\n"
	  "s_sendmsg_rtn_b64 s[12:13], sendmsg(MSG_RTN_GET_REALTIME)\n"
	  "s_sendmsg_rtn_b32 s14, sendmsg(MSG_RTN_GET_REALTIME)\n"
	  "s_or_b32 s15, s10, s11\ns_cmp_lg_u32 s15, 0\ns_cselect_b32 s15, 1, 0\nv_mov_b32 v40, s15\n"
	  "s_sub_u32 s16, s12, s10\ns_subb_u32 s17, s13, s11\ns_cselect_b32 s16, 0, 1\nv_mov_b32 v41, s16\n"
	  "s_sub_u32 s18, s14, s10\ns_cmp_lt_u32 s18, 0x40000000\ns_cselect_b32 s18, 1, 0\nv_mov_b32 v42, s18",
	  NULL, 1, 3, xt_init_u, ref_realtime, XT_EXACT },
	{ "v_fmaak_fmamk_literal_src0", XT_BOTH,
	  "v_fmaak_f32 v40, 0x40400000, v1, 0x40400000\nv_fmamk_f32 v41, 0x3f000000, 0x3f000000, v2\n"
	  "v_add_f32 v42, 1.0, v2",
	  NULL, NULL, 2, 3, xt_init_f, ref_fmak_lit, XT_EXACT },
	{ "integer_clamp", XT_BOTH,
	  "v_add_nc_u32_e64 v40, v1, v2 clamp\nv_sub_nc_u32_e64 v41, v1, v2 clamp\n"
	  "v_subrev_nc_u32_e64 v42, v1, v2 clamp\nv_add_nc_i32 v43, v1, v2 clamp\n"
	  "v_sub_nc_i32 v44, v1, v2 clamp\nv_add_co_u32 v45, vcc_lo, v1, v2 clamp\n"
	  "v_sub_co_u32 v46, vcc_lo, v1, v2 clamp\nv_add_nc_u32 v47, v1, v2",
	  NULL, NULL, 2, 8, init_clamp, ref_clamp, XT_EXACT },
	{ "v_swap_b16", XT_G11, ".long 0x7e50cda9\n.long 0x7f54cd2b", NULL, NULL, 1, 4, xt_init_u, ref_swap16, XT_EXACT },
	{ "global_addtid", XT_BOTH,
	  "v_add_nc_u32 v3, 0x11, v1\nglobal_store_dword_addtid v3, s[6:7]\ns_waitcnt vmcnt(0)\n"
	  "global_load_dword_addtid v40, s[4:5]\nv_lshlrev_b32 v35, 2, v0\nglobal_load_dword v41, v35, s[6:7]\n"
	  "s_waitcnt vmcnt(0)",
	  "v_add_nc_u32 v3, 0x11, v1\nglobal_store_addtid_b32 v3, s[6:7]\ns_waitcnt vmcnt(0)\n"
	  "global_load_addtid_b32 v40, s[4:5]\nv_lshlrev_b32 v35, 2, v0\nglobal_load_b32 v41, v35, s[6:7]\n"
	  "s_waitcnt vmcnt(0)",
	  NULL, 1, 2, NULL, ref_addtid, XT_EXACT },
	{ "media_sad_lerp_qsad", XT_BOTH,
	  "v_sad_u8 v40, v1, v2, v3\nv_sad_hi_u8 v41, v1, v2, v3\nv_msad_u8 v42, v1, v2, v3\nv_lerp_u8 v43, v1, v2, v3\n"
	  "v_qsad_pk_u16_u8 v[44:45], v[1:2], v2, v[4:5]\nv_mqsad_pk_u16_u8 v[46:47], v[1:2], v2, v[4:5]\n"
	  "v_mqsad_u32_u8 v[48:51], v[1:2], v2, v[4:7]",
	  NULL, NULL, 7, 12, init_media, ref_media, XT_EXACT },
	{ "media_cube_mullit_cvt_pk_u8", XT_BOTH,
	  "v_cubeid_f32 v40, v1, v2, v3\nv_cubesc_f32 v41, v1, v2, v3\nv_cubetc_f32 v42, v1, v2, v3\n"
	  "v_cubema_f32 v43, v1, v2, v3\nv_mullit_f32 v44, v1, v2, v3\nv_cvt_pk_u8_f32 v45, v4, 2, v2",
	  NULL, NULL, 4, 6, init_cube, ref_cube, XT_EXACT },
};
const unsigned xt_ntests_rare = sizeof xt_tests_rare / sizeof xt_tests_rare[0];
