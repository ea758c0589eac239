/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_flat.c — single-instruction tests of the flat_* and global_* loads,
 * stores and atomics in every addressing form.
 * References follow the ISA guides' pseudocode, written here in plain C.
 *
 * The lane's input dwords lie at s[4:5] + v33 (the harness).  The bodies
 * address them three ways: global with an SGPR base and a 32-bit VGPR
 * offset (v35 = v33 + 64, so the instruction offsets are negative), global
 * with a 64-bit VGPR address (v[38:39], also 64 bytes on: "off"), and flat
 * with a 64-bit address (v[36:37], flat offsets are unsigned).  One body
 * per form is built from the same macro, so the three share a reference.
 * The accesses under test run with lanes 9, 14, 16 and 31 off in exec:
 * those lanes' registers and memory keep their values.  gfx1100 accepts
 * gfx1030's mnemonics, so most bodies serve both.  Flat addresses in the
 * LDS and private apertures have their own tests at the end.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "exec_harness.h"

#define MASK 0x7ffebdffu
#define MASK_S "0x7ffebdff"
#define EXEC_OFF "s_mov_b32 exec_lo, " MASK_S "\n"
#define EXEC_ON "s_mov_b32 exec_lo, -1\ns_waitcnt vmcnt(0) lgkmcnt(0)\n"
static bool on(unsigned lane) { return (MASK >> lane) & 1; }

#define PRE "v_add_nc_u32 v35, 64, v33\n" \
	"v_add_co_u32 v36, vcc_lo, s4, v33\nv_add_co_ci_u32_e64 v37, s10, s5, 0, vcc_lo\n" \
	"v_add_co_u32 v38, vcc_lo, v36, 64\nv_add_co_ci_u32_e64 v39, s10, v37, 0, vcc_lo\n"

/* The three forms: prefix, address, SGPR base, offset adjustment. */
#define F_SADDR "global_", "v35", ", s[4:5]", "-64"
#define F_OFF "global_", "v[38:39]", ", off", "-64"
#define F_FLAT "flat_", "v[36:37]", "", ""

/* Read `n` dwords at byte `off` of the lane's input into v[reg...]. */
#define READBACK(reg, off, n) ".set i, 0\n.rept " #n "\nglobal_load_dword v[" #reg "+i], v33, s[4:5] offset:" #off \
	"+4*i\n.set i, i+1\n.endr\ns_waitcnt vmcnt(0)"

/* The inputs as init gave them (the body may have overwritten them). */
static void orig_in(void (*init)(unsigned, uint32_t *, uint32_t *, unsigned, unsigned), const struct xt_ctx *c,
		    unsigned lane, uint32_t *in)
{
	uint32_t dummy[XT_MAXOUT];
	init(lane, in, dummy, c->nin, c->nout);
}

static uint32_t bytes_at(const uint8_t *p, unsigned n)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

/* ---- loads: every width, sign and d16 half ------------------------------------------- */
#define LOADS_(P, VA, SA, N) PRE EXEC_OFF \
	P "load_ubyte v40, " VA SA " offset:1" N "\n" \
	P "load_sbyte v41, " VA SA " offset:3" N "\n" \
	P "load_ushort v42, " VA SA " offset:2" N "\n" \
	P "load_sshort v43, " VA SA " offset:6" N "\n" \
	P "load_dword v44, " VA SA " offset:8" N "\n" \
	P "load_dwordx2 v[45:46], " VA SA " offset:8" N "\n" \
	P "load_dwordx3 v[47:49], " VA SA " offset:4" N "\n" \
	P "load_dwordx4 v[50:53], " VA SA " offset:16" N "\n" \
	P "load_short_d16 v54, " VA SA " offset:10" N "\n" \
	P "load_short_d16_hi v55, " VA SA " offset:12" N "\n" \
	P "load_ubyte_d16 v56, " VA SA " offset:5" N "\n" \
	P "load_ubyte_d16_hi v57, " VA SA " offset:7" N "\n" \
	P "load_sbyte_d16 v58, " VA SA " offset:9" N "\n" \
	P "load_sbyte_d16_hi v59, " VA SA " offset:11" N "\n" \
	EXEC_ON
#define LOADS(F) LOADS_(F)

/* Bytes with the sign bit set and clear in every lane; lane 0 the extremes. */
static void init_loads(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	if (lane == 0)
		for (unsigned k = 0; k < nin; k++)
			in[k] = k & 1 ? 0x807fff80u : 0x7f80017fu;
	if (lane == 1)
		for (unsigned k = 0; k < nin; k++)
			in[k] = 0xffffffffu;
}

static void ref_loads(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	if (!on(lane))
		return;
	const uint8_t *p = (const uint8_t *)(c->in + lane * c->nin);
	out[0] = p[1];
	out[1] = (uint32_t)(int32_t)(int8_t)p[3];
	out[2] = bytes_at(p + 2, 2);
	out[3] = (uint32_t)(int32_t)(int16_t)bytes_at(p + 6, 2);
	out[4] = bytes_at(p + 8, 4);
	out[5] = bytes_at(p + 8, 4);
	out[6] = bytes_at(p + 12, 4);
	for (unsigned i = 0; i < 3; i++)
		out[7 + i] = bytes_at(p + 4 + 4 * i, 4);
	for (unsigned i = 0; i < 4; i++)
		out[10 + i] = bytes_at(p + 16 + 4 * i, 4);
	out[14] = xt_setlo(out[14], (uint16_t)bytes_at(p + 10, 2));      /* d16: the high half kept */
	out[15] = xt_sethi(out[15], (uint16_t)bytes_at(p + 12, 2));      /* d16_hi: the low half kept */
	out[16] = xt_setlo(out[16], p[5]);
	out[17] = xt_sethi(out[17], p[7]);
	out[18] = xt_setlo(out[18], (uint16_t)(int16_t)(int8_t)p[9]);  /* sign-extended to 16 bits */
	out[19] = xt_sethi(out[19], (uint16_t)(int16_t)(int8_t)p[11]);
}

/* ---- the offsets' ends ---------------------------------------------------------------- */
/* v40: saddr + (v33 + 2^N) - 2^N, the most negative offset; v41/v42: a 64-bit address
 * (byte 3 - the largest offset) + the largest offset, global then flat. */
#define OFFSETS(BIG, MAXG, MAXF) "v_add_nc_u32 v3, " #BIG ", v33\n" \
	"global_load_dword v40, v3, s[4:5] offset:-" #BIG "\n" \
	"v_add_co_u32 v36, vcc_lo, s4, v33\nv_add_co_ci_u32_e64 v37, s10, s5, 0, vcc_lo\n" \
	"v_sub_co_u32 v4, vcc_lo, v36, " #MAXG "-3\nv_sub_co_ci_u32_e64 v5, s10, v37, 0, vcc_lo\n" \
	"global_load_ubyte v41, v[4:5], off offset:" #MAXG "\n" \
	"v_sub_co_u32 v6, vcc_lo, v36, " #MAXF "-3\nv_sub_co_ci_u32_e64 v7, s10, v37, 0, vcc_lo\n" \
	"flat_load_sbyte v42, v[6:7] offset:" #MAXF "\n" \
	"s_waitcnt vmcnt(0) lgkmcnt(0)"

static void ref_offsets(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	out[0] = in[0];
	out[1] = in[0] >> 24;
	out[2] = (uint32_t)(int32_t)(int8_t)(in[0] >> 24);
}

/* ---- stores: every width and d16_hi half; read back from memory ------------------------ */
/* Sources v1-v4 (in[0..3]); targets bytes 32..79 (in[8..19]). */
#define STORES_(P, VA, SA, N) PRE EXEC_OFF \
	P "store_byte " VA ", v1" SA " offset:32" N "\n" \
	P "store_byte_d16_hi " VA ", v2" SA " offset:33" N "\n" \
	P "store_short " VA ", v3" SA " offset:34" N "\n" \
	P "store_short_d16_hi " VA ", v4" SA " offset:36" N "\n" \
	P "store_dword " VA ", v1" SA " offset:40" N "\n" \
	P "store_dwordx2 " VA ", v[2:3]" SA " offset:44" N "\n" \
	P "store_dwordx3 " VA ", v[2:4]" SA " offset:52" N "\n" \
	P "store_dwordx4 " VA ", v[1:4]" SA " offset:64" N "\n" \
	EXEC_ON READBACK(40, 32, 12)
#define STORES(F) STORES_(F)

static void ref_stores(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	uint32_t in[20];
	orig_in(xt_init_u, c, lane, in);
	uint8_t t[48];
	memcpy(t, in + 8, 48);
	if (on(lane)) {
		t[0] = (uint8_t)in[0];
		t[1] = (uint8_t)(in[1] >> 16);
		memcpy(t + 2, &in[2], 2);
		uint16_t hi = (uint16_t)(in[3] >> 16);
		memcpy(t + 4, &hi, 2);
		memcpy(t + 8, &in[0], 4);
		memcpy(t + 12, &in[1], 8);
		memcpy(t + 20, &in[1], 12);
		memcpy(t + 32, &in[0], 16);
	}
	memcpy(out, t, 48);
}

/* ---- atomics -------------------------------------------------------------------------- */
/* Slot k of a test with ns slots of W dwords: memory at in[k*W] (byte 4*W*k), data
 * in[ns*W + k*W] (cmpswap: the compare value right after it), the value returned into
 * out[k*W], the memory read back into out[ns*W + k*W].  So nout = 2*ns*W and
 * nin = nout + W.  AT op, k, n: n is the number of data registers - 1. */
#define AT_SADDR(W, D) ".set W, " #W "\n.macro AT op, k, n\nglobal_atomic_\\op v[40+\\k*W:40+\\k*W+W-1], v35, " \
	"v[" #D "+\\k*W:" #D "+\\k*W+\\n], s[4:5] offset:4*W*\\k-64 glc\n.endm\n"
#define AT_OFF(W, D) ".set W, " #W "\n.macro AT op, k, n\nglobal_atomic_\\op v[38:39], " \
	"v[" #D "+\\k*W:" #D "+\\k*W+\\n], off offset:4*W*\\k-64\n.endm\n"
#define AT_FLAT(W, D) ".set W, " #W "\n.macro AT op, k, n\nflat_atomic_\\op v[40+\\k*W:40+\\k*W+W-1], v[36:37], " \
	"v[" #D "+\\k*W:" #D "+\\k*W+\\n] offset:4*W*\\k glc\n.endm\n"
/* After the atomics: without glc nothing returns, not even into v0 (the
 * encoding's VDST field, 0): the lane id stays there and goes to v40. */
#define POST_AT_SADDR ""
#define POST_AT_FLAT ""
#define POST_AT_OFF "v_mov_b32 v40, v0\n"

/* A reference: the new memory value from the old one (tmp), the data (src)
 * and the compare value, at 32 or 64 bits. */
typedef uint64_t (*aref)(uint64_t tmp, uint64_t src, uint64_t cmp, unsigned bits);

static uint64_t mask_of(unsigned bits) { return bits == 64 ? ~0ull : 0xffffffffull; }
static int64_t sx(uint64_t v, unsigned bits) { return bits == 64 ? (int64_t)v : (int32_t)v; }
static double fl(uint64_t v, unsigned bits)
{
	if (bits == 32)
		return xt_u2f((uint32_t)v);
	double d;
	memcpy(&d, &v, 8);
	return d;
}

static uint64_t r_swap(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)t, (void)c, (void)b; return s; }
static uint64_t r_cmpswap(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)b; return t == c ? s : t; }
static uint64_t r_add(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c; return (t + s) & mask_of(b); }
static uint64_t r_sub(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c; return (t - s) & mask_of(b); }
static uint64_t r_smin(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c; return sx(s, b) < sx(t, b) ? s : t; }
static uint64_t r_smax(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c; return sx(s, b) > sx(t, b) ? s : t; }
static uint64_t r_umin(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c, (void)b; return s < t ? s : t; }
static uint64_t r_umax(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c, (void)b; return s > t ? s : t; }
static uint64_t r_and(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c, (void)b; return t & s; }
static uint64_t r_or(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c, (void)b; return t | s; }
static uint64_t r_xor(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c, (void)b; return t ^ s; }
/* INC: tmp >= src ? 0 : tmp + 1.  DEC: (tmp == 0 || tmp > src) ? src : tmp - 1 (unsigned). */
static uint64_t r_inc(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c, (void)b; return t >= s ? 0 : t + 1; }
static uint64_t r_dec(uint64_t t, uint64_t s, uint64_t c, unsigned b)
{
	(void)c, (void)b;
	return t == 0 || t > s ? s : t - 1;
}
/* CSUB: old < data ? 0 : old - data (clamped subtract). */
static uint64_t r_csub(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c, (void)b; return t < s ? 0 : t - s; }
/* The float forms compare as floats: +0 == -0, NaN equals nothing and is
 * less or greater than nothing.  MIN: src < tmp ? src : tmp; MAX: src > tmp
 * ? src : tmp; CMPSWAP: tmp == cmp ? src : tmp. */
static uint64_t r_fcmpswap(uint64_t t, uint64_t s, uint64_t c, unsigned b) { return fl(t, b) == fl(c, b) ? s : t; }
static uint64_t r_fmin(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c; return fl(s, b) < fl(t, b) ? s : t; }
static uint64_t r_fmax(uint64_t t, uint64_t s, uint64_t c, unsigned b) { (void)c; return fl(s, b) > fl(t, b) ? s : t; }
static uint64_t r_fadd(uint64_t t, uint64_t s, uint64_t c, unsigned b)
{
	(void)c, (void)b;
	return xt_f2u(xt_u2f((uint32_t)t) + xt_u2f((uint32_t)s));
}

enum { NOFLAT = 1, G11ONLY = 2 };
struct aslot { aref fn; unsigned flags; };

static uint64_t get(const uint32_t *v, unsigned w) { return w == 2 ? (uint64_t)v[1] << 32 | v[0] : v[0]; }
static void put(uint32_t *v, unsigned w, uint64_t x)
{
	v[0] = (uint32_t)x;
	if (w == 2)
		v[1] = (uint32_t)(x >> 32);
}

static void ref_atomics(const struct xt_ctx *c, unsigned lane, uint32_t *out, const struct aslot *tab, unsigned ns,
			bool glc, bool flat, void (*init)(unsigned, uint32_t *, uint32_t *, unsigned, unsigned))
{
	unsigned w = c->nin - c->nout, bits = 32 * w;
	uint32_t in[XT_MAXIN];
	orig_in(init, c, lane, in);
	for (unsigned k = 0; k < ns; k++) {
		const uint32_t *data = in + ns * w + k * w;
		uint64_t tmp = get(in + k * w, w), src = get(data, w), cmp = get(data + w, w);
		bool present = !(flat && (tab[k].flags & NOFLAT)) && !(c->gfx == 10 && (tab[k].flags & G11ONLY));
		bool act = present && on(lane);
		put(out + ns * w + k * w, w, act ? tab[k].fn(tmp, src, cmp, bits) : tmp);
		if (act && glc)
			put(out + k * w, w, tmp); /* RETURN_DATA = tmp, the value before the operation */
	}
	if (!glc)
		out[0] = lane;
}

/* Integer atomics' inputs, by lane: memory equal to the data, zero, all ones;
 * data zero or all ones; memory one above the data; small values (inc/dec
 * counting); random.  cmpswap's compare value equals memory in even lanes. */
static void init_aint(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	unsigned w = nin - nout, ns = nout / (2 * w);
	for (unsigned k = 0; k < ns; k++) {
		uint32_t *t = in + k * w, *s = in + ns * w + k * w;
		for (unsigned i = 0; i < w; i++) {
			switch (lane % 8) {
			case 0: t[i] = s[i]; break;
			case 1: t[i] = 0; break;
			case 2: t[i] = 0xffffffffu; break;
			case 3: s[i] = 0; break;
			case 4: s[i] = 0xffffffffu; break;
			case 6: t[i] = i ? 0 : t[i] & 0xff; s[i] = i ? 0 : s[i] & 0xff; break;
			default: break;
			}
		}
		if (lane % 8 == 5)
			put(t, w, get(s, w) + 1);
	}
	if (lane % 2 == 0)
		for (unsigned i = 0; i < w; i++)
			in[nin - w + i] = in[(ns - 1) * w + i];
}

/* Float atomics' inputs: signed zeros both ways, NaN on either side,
 * infinities, denormals, equal values, then random ones.  cmpswap's compare
 * value: -0 against +0 (equal as floats), the memory's own NaN (unequal),
 * the memory in other even lanes. */
static void init_aflt(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	unsigned w = nin - nout, ns = nout / (2 * w);
	static const float sp[8][2] = { { 0.0f, -0.0f }, { -0.0f, 0.0f }, { NAN, 1.0f }, { 1.0f, NAN },
					{ -INFINITY, 0x1p-149f }, { 0x1p-127f, -0x1p-127f }, { INFINITY, -1.5f },
					{ 2.5f, 2.5f } };
	for (unsigned k = 0; k < ns; k++) {
		uint32_t *t = in + k * w, *s = in + ns * w + k * w;
		if (w == 1) {
			if (lane < 8) {
				t[0] = xt_f2u(sp[lane][0]);
				s[0] = xt_f2u(sp[lane][1]);
			}
			continue;
		}
		double tv = lane < 8 ? sp[lane][0] : xt_u2f(t[0]) * 1e30, sv = lane < 8 ? sp[lane][1] : xt_u2f(s[0]);
		if (lane == 4)
			sv = 0x1p-1074;
		if (lane == 5)
			tv = 0x1p-1030, sv = -0x1p-1030;
		uint64_t tu, su;
		memcpy(&tu, &tv, 8);
		memcpy(&su, &sv, 8);
		put(t, 2, tu);
		put(s, 2, su);
	}
	uint32_t *cmp = in + nin - w, *last = in + (ns - 1) * w;
	if (lane == 0)
		put(cmp, w, w == 2 ? 1ull << 63 : 0x80000000u);
	else if (lane == 1)
		put(cmp, w, 0);
	else if (lane % 2 == 0)
		memcpy(cmp, last, 4 * w);
}

/* 32-bit integers: 14 slots (csub, global only, in the last but one; cmpswap last). */
#define OPS_I32 "AT swap, 0, 0\nAT add, 1, 0\nAT sub, 2, 0\nAT smin, 3, 0\nAT umin, 4, 0\nAT smax, 5, 0\n" \
	"AT umax, 6, 0\nAT and, 7, 0\nAT or, 8, 0\nAT xor, 9, 0\nAT inc, 10, 0\nAT dec, 11, 0\n"
static const struct aslot tab_i32[] = {
	{ r_swap, 0 }, { r_add, 0 }, { r_sub, 0 }, { r_smin, 0 }, { r_umin, 0 }, { r_smax, 0 }, { r_umax, 0 },
	{ r_and, 0 }, { r_or, 0 }, { r_xor, 0 }, { r_inc, 0 }, { r_dec, 0 }, { r_csub, NOFLAT }, { r_cmpswap, 0 },
};
#define I32_BODY(AT, CSUB) PRE AT(1, 15) EXEC_OFF OPS_I32 CSUB "AT cmpswap, 13, 1\n" EXEC_ON POST_##AT \
	READBACK(54, 0, 14)
static const char at_i32_saddr[] = I32_BODY(AT_SADDR, "AT csub, 12, 0\n");
static const char at_i32_off[] = I32_BODY(AT_OFF, "AT csub, 12, 0\n");
static const char at_i32_flat[] = I32_BODY(AT_FLAT, "");

/* 64-bit integers in two tests: 7 slots (cmpswap last), 6 slots (no compare value used). */
#define OPS_I64A "AT swap_x2, 0, 1\nAT add_x2, 1, 1\nAT sub_x2, 2, 1\nAT smin_x2, 3, 1\nAT umin_x2, 4, 1\n" \
	"AT smax_x2, 5, 1\nAT cmpswap_x2, 6, 3\n"
static const struct aslot tab_i64a[] = {
	{ r_swap, 0 }, { r_add, 0 }, { r_sub, 0 }, { r_smin, 0 }, { r_umin, 0 }, { r_smax, 0 }, { r_cmpswap, 0 },
};
#define OPS_I64B "AT umax_x2, 0, 1\nAT and_x2, 1, 1\nAT or_x2, 2, 1\nAT xor_x2, 3, 1\nAT inc_x2, 4, 1\n" \
	"AT dec_x2, 5, 1\n"
static const struct aslot tab_i64b[] = {
	{ r_umax, 0 }, { r_and, 0 }, { r_or, 0 }, { r_xor, 0 }, { r_inc, 0 }, { r_dec, 0 },
};
#define I64_BODY(AT, D, OPS, N) PRE AT(2, D) EXEC_OFF OPS EXEC_ON POST_##AT READBACK(40 + N, 0, N)
static const char at_i64a_saddr[] = I64_BODY(AT_SADDR, 15, OPS_I64A, 14);
static const char at_i64a_off[] = I64_BODY(AT_OFF, 15, OPS_I64A, 14);
static const char at_i64a_flat[] = I64_BODY(AT_FLAT, 15, OPS_I64A, 14);
static const char at_i64b_saddr[] = I64_BODY(AT_SADDR, 13, OPS_I64B, 12);
static const char at_i64b_off[] = I64_BODY(AT_OFF, 13, OPS_I64B, 12);
static const char at_i64b_flat[] = I64_BODY(AT_FLAT, 13, OPS_I64B, 12);

/* 32-bit floats: min, max, add (gfx1100 only), cmpswap. */
static const struct aslot tab_f32[] = { { r_fmin, 0 }, { r_fmax, 0 }, { r_fadd, G11ONLY }, { r_fcmpswap, 0 } };
#define F32_BODY(AT, ADD) PRE AT(1, 5) EXEC_OFF "AT fmin, 0, 0\nAT fmax, 1, 0\n" ADD "AT fcmpswap, 3, 1\n" \
	EXEC_ON POST_##AT READBACK(44, 0, 4)
#define ADD_F32 "AT add_f32, 2, 0\n"
static const char at_f32_saddr10[] = F32_BODY(AT_SADDR, ""), at_f32_saddr11[] = F32_BODY(AT_SADDR, ADD_F32);
static const char at_f32_off10[] = F32_BODY(AT_OFF, ""), at_f32_off11[] = F32_BODY(AT_OFF, ADD_F32);
static const char at_f32_flat10[] = F32_BODY(AT_FLAT, ""), at_f32_flat11[] = F32_BODY(AT_FLAT, ADD_F32);

/* 64-bit floats (gfx1030 only): min, max, cmpswap. */
static const struct aslot tab_f64[] = { { r_fmin, 0 }, { r_fmax, 0 }, { r_fcmpswap, 0 } };
#define F64_BODY(AT) PRE AT(2, 7) EXEC_OFF "AT fmin_x2, 0, 1\nAT fmax_x2, 1, 1\nAT fcmpswap_x2, 2, 3\n" \
	EXEC_ON POST_##AT READBACK(46, 0, 6)
static const char at_f64_saddr[] = F64_BODY(AT_SADDR), at_f64_off[] = F64_BODY(AT_OFF);
static const char at_f64_flat[] = F64_BODY(AT_FLAT);

#define TAB(t) t, sizeof t / sizeof t[0]
#define AREF(name, tab, glc, flat, init) \
	static void name(const struct xt_ctx *c, unsigned lane, uint32_t *out) \
	{ \
		ref_atomics(c, lane, out, TAB(tab), glc, flat, init); \
	}
AREF(ref_i32_glc, tab_i32, true, false, init_aint)
AREF(ref_i32_noglc, tab_i32, false, false, init_aint)
AREF(ref_i32_flat, tab_i32, true, true, init_aint)
AREF(ref_i64a_glc, tab_i64a, true, false, init_aint)
AREF(ref_i64a_noglc, tab_i64a, false, false, init_aint)
AREF(ref_i64b_glc, tab_i64b, true, false, init_aint)
AREF(ref_i64b_noglc, tab_i64b, false, false, init_aint)
AREF(ref_f32_glc, tab_f32, true, false, init_aflt)
AREF(ref_f32_noglc, tab_f32, false, false, init_aflt)
AREF(ref_f64_glc, tab_f64, true, false, init_aflt)
AREF(ref_f64_noglc, tab_f64, false, false, init_aflt)

/* ---- flat addresses in the LDS and private apertures ----------------------------------- */
/* v[6:7]: the aperture's base (src_shared_base / src_private_base: its high
 * dword) + the lane's byte offset in that memory (LDS: 16 bytes a lane; the
 * private memory is the lane's own).  v40: the atomic's pre-op value in[0];
 * v41: in[0] + in[3]; v42, v43: in[1], in[2]; v44: byte 1 of in[1]; v45/v46:
 * cmpswap_x2 (data {in[0], in[1]}, compare {in[2], in[3]}) returning
 * {in[1], in[2]}; v47/v48: read back. */
#define APERTURE(LO, HI) LO "v_mov_b32 v7, " HI "\n" \
	"flat_store_dword v[6:7], v1 offset:4\nflat_store_dwordx2 v[6:7], v[2:3] offset:8\n" \
	"s_waitcnt vmcnt(0) lgkmcnt(0)\n" \
	"flat_atomic_add v40, v[6:7], v4 offset:4 glc\ns_waitcnt vmcnt(0) lgkmcnt(0)\n" \
	"flat_load_dword v41, v[6:7] offset:4\nflat_load_dwordx2 v[42:43], v[6:7] offset:8\n" \
	"flat_load_ubyte v44, v[6:7] offset:9\n" \
	"flat_atomic_cmpswap_x2 v[45:46], v[6:7], v[1:4] offset:8 glc\ns_waitcnt vmcnt(0) lgkmcnt(0)\n" \
	"flat_load_dwordx2 v[47:48], v[6:7] offset:8\ns_waitcnt vmcnt(0) lgkmcnt(0)"
static const char ap_lds[] = APERTURE("v_lshlrev_b32 v6, 4, v0\n", "src_shared_base");
static const char ap_priv[] = APERTURE("v_mov_b32 v6, 8\n", "src_private_base");

/* Even lanes: in[1] = in[2] = in[3], so that cmpswap_x2 finds its compare value. */
static void init_aperture(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	if (lane % 2 == 0)
		in[2] = in[3] = in[1];
}

static void ref_aperture(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	out[0] = in[0];
	out[1] = in[0] + in[3];
	out[2] = in[1];
	out[3] = in[2];
	out[4] = (in[1] >> 8) & 0xff;
	out[5] = in[1];
	out[6] = in[2];
	bool eq = in[2] == in[1] && in[3] == in[2]; /* memory {in[1], in[2]} == compare {in[2], in[3]} */
	out[7] = eq ? in[0] : in[1];
	out[8] = eq ? in[1] : in[2];
}

const struct xt_test xt_tests_flat[] = {
	{ "global_load_saddr", XT_BOTH, LOADS(F_SADDR), NULL, NULL, 8, 20, init_loads, ref_loads, XT_EXACT },
	{ "global_load_vaddr64", XT_BOTH, LOADS(F_OFF), NULL, NULL, 8, 20, init_loads, ref_loads, XT_EXACT },
	{ "flat_load", XT_BOTH, LOADS(F_FLAT), NULL, NULL, 8, 20, init_loads, ref_loads, XT_EXACT },
	{ "global_flat_offsets", XT_BOTH, OFFSETS(2048, 2047, 2047), OFFSETS(4096, 4095, 4095), NULL, 2, 3, init_loads,
	  ref_offsets, XT_EXACT },
	{ "global_store_saddr", XT_BOTH, STORES(F_SADDR), NULL, NULL, 20, 12, xt_init_u, ref_stores, XT_EXACT },
	{ "global_store_vaddr64", XT_BOTH, STORES(F_OFF), NULL, NULL, 20, 12, xt_init_u, ref_stores, XT_EXACT },
	{ "flat_store", XT_BOTH, STORES(F_FLAT), NULL, NULL, 20, 12, xt_init_u, ref_stores, XT_EXACT },
	{ "global_atomic_i32_saddr_glc", XT_BOTH, at_i32_saddr, NULL, NULL, 29, 28, init_aint, ref_i32_glc, XT_EXACT },
	{ "global_atomic_i32_vaddr64", XT_BOTH, at_i32_off, NULL, NULL, 29, 28, init_aint, ref_i32_noglc, XT_EXACT },
	{ "flat_atomic_i32_glc", XT_BOTH, at_i32_flat, NULL, NULL, 29, 28, init_aint, ref_i32_flat, XT_EXACT },
	{ "global_atomic_i64a_saddr_glc", XT_BOTH, at_i64a_saddr, NULL, NULL, 30, 28, init_aint, ref_i64a_glc,
	  XT_EXACT },
	{ "global_atomic_i64a_vaddr64", XT_BOTH, at_i64a_off, NULL, NULL, 30, 28, init_aint, ref_i64a_noglc, XT_EXACT },
	{ "flat_atomic_i64a_glc", XT_BOTH, at_i64a_flat, NULL, NULL, 30, 28, init_aint, ref_i64a_glc, XT_EXACT },
	{ "global_atomic_i64b_saddr_glc", XT_BOTH, at_i64b_saddr, NULL, NULL, 26, 24, init_aint, ref_i64b_glc,
	  XT_EXACT },
	{ "global_atomic_i64b_vaddr64", XT_BOTH, at_i64b_off, NULL, NULL, 26, 24, init_aint, ref_i64b_noglc, XT_EXACT },
	{ "flat_atomic_i64b_glc", XT_BOTH, at_i64b_flat, NULL, NULL, 26, 24, init_aint, ref_i64b_glc, XT_EXACT },
	{ "global_atomic_f32_saddr_glc", XT_BOTH, at_f32_saddr10, at_f32_saddr11, NULL, 9, 8, init_aflt, ref_f32_glc,
	  XT_EXACT },
	{ "global_atomic_f32_vaddr64", XT_BOTH, at_f32_off10, at_f32_off11, NULL, 9, 8, init_aflt, ref_f32_noglc,
	  XT_EXACT },
	{ "flat_atomic_f32_glc", XT_BOTH, at_f32_flat10, at_f32_flat11, NULL, 9, 8, init_aflt, ref_f32_glc, XT_EXACT },
	{ "global_atomic_f64_saddr_glc", XT_G10, at_f64_saddr, NULL, NULL, 14, 12, init_aflt, ref_f64_glc, XT_EXACT },
	{ "global_atomic_f64_vaddr64", XT_G10, at_f64_off, NULL, NULL, 14, 12, init_aflt, ref_f64_noglc, XT_EXACT },
	{ "flat_atomic_f64_glc", XT_G10, at_f64_flat, NULL, NULL, 14, 12, init_aflt, ref_f64_glc, XT_EXACT },
	{ "flat_lds_aperture", XT_BOTH, ap_lds, NULL, NULL, 4, 9, init_aperture, ref_aperture, XT_EXACT },
	{ "flat_private_aperture", XT_BOTH, ap_priv, NULL, NULL, 4, 9, init_aperture, ref_aperture, XT_EXACT },
};
const unsigned xt_ntests_flat = sizeof xt_tests_flat / sizeof xt_tests_flat[0];
