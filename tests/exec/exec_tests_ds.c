/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_ds.c — single-instruction tests of the LDS (DS) instructions: loads,
 * stores, atomics of every type, exchanges, append/consume.
 * References follow the ISA guides' pseudocode, written here in plain C.
 *
 * The harness gives the workgroup 64 KiB of zeroed LDS; each body first
 * stores its lanes' initial memory values, runs the instructions under
 * test and reads the memory back into the outputs.  The atomics' bodies
 * (AT32/AT64) run each operation, with EXEC masking lanes 0, 15 and 31:
 *   - with return, each lane on its own slot (the pre-value, exact);
 *   - without return, each lane on its own slot (the new value);
 *   - both forms with every lane on one shared slot: the final value only,
 *     which is order-independent because the data are either per-lane for
 *     commutative operations or the same for every lane (inputs that the
 *     initialiser makes uniform) otherwise.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "exec_harness.h"

#define MASK 0x7fff7ffeu /* EXEC while the operations run: lanes 0, 15, 31 off */
#define ACTIVE(l) ((MASK >> (l)) & 1u)

static uint64_t u64of(const uint32_t *p) { return (uint64_t)p[1] << 32 | p[0]; }
static void put64(uint32_t *p, uint64_t v) { p[0] = (uint32_t)v; p[1] = (uint32_t)(v >> 32); }
static double d_of(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t u_of(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* ---- atomic operations, from the pseudocode (tmp: memory, a: DATA, b: DATA2) ---------- */
typedef uint64_t (*atom_fn)(uint64_t tmp, uint64_t a, uint64_t b);

static uint64_t o_add32(uint64_t t, uint64_t a, uint64_t b) { (void)b; return (uint32_t)(t + a); }
static uint64_t o_sub32(uint64_t t, uint64_t a, uint64_t b) { (void)b; return (uint32_t)(t - a); }
static uint64_t o_rsub32(uint64_t t, uint64_t a, uint64_t b) { (void)b; return (uint32_t)(a - t); }
static uint64_t o_add64(uint64_t t, uint64_t a, uint64_t b) { (void)b; return t + a; }
static uint64_t o_sub64(uint64_t t, uint64_t a, uint64_t b) { (void)b; return t - a; }
static uint64_t o_rsub64(uint64_t t, uint64_t a, uint64_t b) { (void)b; return a - t; }
/* INC: tmp >= src ? 0 : tmp + 1; DEC: (tmp == 0 || tmp > src) ? src : tmp - 1 (unsigned) */
static uint64_t o_inc(uint64_t t, uint64_t a, uint64_t b) { (void)b; return t >= a ? 0 : t + 1; }
static uint64_t o_dec(uint64_t t, uint64_t a, uint64_t b) { (void)b; return (t == 0 || t > a) ? a : t - 1; }
static uint64_t o_mini32(uint64_t t, uint64_t a, uint64_t b)
{
	(void)b;
	return (int32_t)a < (int32_t)t ? a : t;
}
static uint64_t o_maxi32(uint64_t t, uint64_t a, uint64_t b)
{
	(void)b;
	return (int32_t)a > (int32_t)t ? a : t;
}
static uint64_t o_mini64(uint64_t t, uint64_t a, uint64_t b) { (void)b; return (int64_t)a < (int64_t)t ? a : t; }
static uint64_t o_maxi64(uint64_t t, uint64_t a, uint64_t b) { (void)b; return (int64_t)a > (int64_t)t ? a : t; }
static uint64_t o_minu(uint64_t t, uint64_t a, uint64_t b) { (void)b; return a < t ? a : t; }
static uint64_t o_maxu(uint64_t t, uint64_t a, uint64_t b) { (void)b; return a > t ? a : t; }
static uint64_t o_and(uint64_t t, uint64_t a, uint64_t b) { (void)b; return t & a; }
static uint64_t o_or(uint64_t t, uint64_t a, uint64_t b) { (void)b; return t | a; }
static uint64_t o_xor(uint64_t t, uint64_t a, uint64_t b) { (void)b; return t ^ a; }
static uint64_t o_mskor(uint64_t t, uint64_t a, uint64_t b) { return (t & ~a) | b; }
static uint64_t o_xchg(uint64_t t, uint64_t a, uint64_t b) { (void)t; (void)b; return a; }
/* gfx10 DS_CMPST: cmp = DATA, src = DATA2; gfx11 DS_CMPSTORE: src = DATA, cmp = DATA2 */
static uint64_t o_cmpst(uint64_t t, uint64_t a, uint64_t b) { return t == a ? b : t; }
static uint64_t o_cmpstore(uint64_t t, uint64_t a, uint64_t b) { return t == b ? a : t; }
/* WRAP: tmp >= DATA ? tmp - DATA : tmp + DATA2 */
static uint64_t o_wrap(uint64_t t, uint64_t a, uint64_t b) { return (uint32_t)(t >= a ? t - a : t + b); }
/* floats: ADD tmp + DATA; MIN src < tmp ? src : tmp; MAX src > tmp ? src : tmp; CMPST float == */
static uint64_t o_addf(uint64_t t, uint64_t a, uint64_t b)
{
	(void)b;
	return xt_f2u(xt_u2f((uint32_t)t) + xt_u2f((uint32_t)a));
}
static uint64_t o_minf(uint64_t t, uint64_t a, uint64_t b)
{
	(void)b;
	return xt_u2f((uint32_t)a) < xt_u2f((uint32_t)t) ? a : t;
}
static uint64_t o_maxf(uint64_t t, uint64_t a, uint64_t b)
{
	(void)b;
	return xt_u2f((uint32_t)a) > xt_u2f((uint32_t)t) ? a : t;
}
static uint64_t o_cmpstf(uint64_t t, uint64_t a, uint64_t b)
{
	return xt_u2f((uint32_t)t) == xt_u2f((uint32_t)a) ? b : t;
}
static uint64_t o_cmpstoref(uint64_t t, uint64_t a, uint64_t b)
{
	return xt_u2f((uint32_t)t) == xt_u2f((uint32_t)b) ? a : t;
}
static uint64_t o_mind(uint64_t t, uint64_t a, uint64_t b) { (void)b; return d_of(a) < d_of(t) ? a : t; }
static uint64_t o_maxd(uint64_t t, uint64_t a, uint64_t b) { (void)b; return d_of(a) > d_of(t) ? a : t; }
static uint64_t o_cmpstd(uint64_t t, uint64_t a, uint64_t b) { return d_of(t) == d_of(a) ? b : t; }
static uint64_t o_cmpstored(uint64_t t, uint64_t a, uint64_t b) { return d_of(t) == d_of(b) ? a : t; }

/* ---- inputs ------------------------------------------------------------------------------ */
static const uint32_t spec32[8] = { 0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 2, 0xfffffffeu, 0x80000001u };
static const uint64_t spec64[8] = { 0, 1, ~0ull, 1ull << 63, ~0ull >> 1, 0xffffffffull, 0x100000000ull, 0x80000000ull };

/* Memory x, DATA a, DATA2 b for lane l: specials and the boundaries of
 * inc/dec/min/max/wrap (x == a, a + 1, a - 1) and compare-store hits
 * (x == a for gfx10's compare, x == b for gfx11's). */
static void xab64(unsigned l, uint64_t mask, uint64_t *x, uint64_t *a, uint64_t *b)
{
	*a = ((uint64_t)xt_rand(l, 1, 20) << 32 | xt_rand(l, 2, 20)) & mask;
	*b = ((uint64_t)xt_rand(l, 3, 20) << 32 | xt_rand(l, 4, 20)) & mask;
	if (l / 8 == 1)
		*a = (mask == ~0ull ? spec64[l % 8] : spec32[l % 8]) & mask;
	if (l / 8 == 3)
		*a >>= 20; /* small: inc/dec/wrap take both sides */
	switch (l % 8) {
	case 0: *x = 0; break;
	case 1: *x = mask; break;
	case 2: *x = (mask >> 1) + 1; break;
	case 3: *x = mask >> 1; break;
	case 4: *x = *a; break;
	case 5: *x = (*a + 1) & mask; break;
	case 6: *x = (*a - 1) & mask; break;
	default: *x = *b; break;
	}
	if (l / 8 == 2)
		*x = ((uint64_t)xt_rand(l, 5, 20) << 32 | xt_rand(l, 6, 20)) & mask;
}

/* AT32: v1 memory, v2 DATA, v3 DATA2; the shared slot's per-lane DATA v4,
 * uniform DATA / DATA2 v5 / v6, uniform initial value v7. */
static void init_at32(unsigned l, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	uint64_t x, a, b;
	xab64(l, 0xffffffffull, &x, &a, &b);
	in[0] = (uint32_t)x;
	in[1] = (uint32_t)a;
	in[2] = (uint32_t)b;
	in[3] = xt_rand(l, 7, 21);
	in[4] = xt_rand(0, 7, 21) >> 24; /* a small bound for the shared inc/dec/wrap */
	in[5] = xt_rand(0, 8, 21);
	in[6] = in[4];
	for (unsigned j = 0; j < nout; j++)
		out[j] = xt_rand(l, 100 + j, 22);
	(void)nin;
}

/* AT64: v[1:2] memory, v[3:4] DATA, v[5:6] DATA2; the shared slot's per-lane
 * DATA v[7:8], uniform DATA / DATA2 v[9:10] / v[11:12], initial v[13:14]. */
static void init_at64(unsigned l, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	uint64_t x, a, b;
	xab64(l, ~0ull, &x, &a, &b);
	put64(in, x);
	put64(in + 2, a);
	put64(in + 4, b);
	put64(in + 6, (uint64_t)xt_rand(l, 9, 23) << 32 | xt_rand(l, 10, 23));
	put64(in + 8, 40);
	put64(in + 10, (uint64_t)xt_rand(0, 11, 23) << 32 | xt_rand(0, 12, 23));
	put64(in + 12, 40);
	for (unsigned j = 0; j < nout; j++)
		out[j] = xt_rand(l, 100 + j, 24);
	(void)nin;
}

/* f32 (x, a, b) pairs: signed zeros, infinities, quiet NaNs on either side,
 * denormals, equal values, an add that overflows, an inexact sum. */
static const uint32_t fx[16][3] = {
	{ 0x00000000, 0x80000000, 0x3f800000 }, { 0x80000000, 0x00000000, 0x40000000 },
	{ 0x7f800000, 0x3f800000, 0x80000000 }, { 0xff800000, 0x7f7fffff, 0xff800000 },
	{ 0x00000001, 0x807fffff, 0x00000001 }, { 0x00400000, 0x00400000, 0x12345678 },
	{ 0x7f7fffff, 0x7f7fffff, 0x7f7fffff }, { 0x3f800001, 0x33800000, 0x3f800001 },
	{ 0x7fc00000, 0x3f800000, 0x7fc00000 }, { 0x40490fdb, 0x7fc00000, 0x40490fdb },
	{ 0x7fc00000, 0x7fc00000, 0x00000000 }, { 0xc0000000, 0xc0000000, 0x3f000000 },
	{ 0x80000001, 0x00000001, 0xbf800000 }, { 0x3f800000, 0xbf800000, 0x3f800000 },
	{ 0xff7fffff, 0xff7fffff, 0x00000000 }, { 0x00000000, 0x00000000, 0x00000000 },
};

static uint32_t rand_f(unsigned l, unsigned k)
{
	uint32_t r = xt_rand(l, k, 25);
	return (r & 0x80000000u) | ((100 + (r >> 8) % 56) << 23) | (r & 0x7fffffu);
}

/* The shared slot's per-lane DATA of the float tests: multiples of 1/4,
 * whose sums are exact in any order. */
static void init_atf(unsigned l, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	if (l < 16) {
		in[0] = fx[l][0];
		in[1] = fx[l][1];
		in[2] = fx[l][2];
	} else {
		in[0] = rand_f(l, 0);
		in[1] = l % 4 == 0 ? in[0] : rand_f(l, 1);
		in[2] = l % 4 == 1 ? in[0] : rand_f(l, 2);
	}
	in[3] = xt_f2u((float)((int)(xt_rand(l, 3, 26) % 64) - 32) / 4.0f);
	in[4] = xt_f2u(2.0f);
	in[5] = xt_f2u(1.5f);
	in[6] = xt_f2u(2.0f);
	for (unsigned j = 0; j < nout; j++)
		out[j] = xt_rand(l, 100 + j, 27);
	(void)nin;
}

static uint64_t widen_f(uint32_t f)
{
	double d = (double)xt_u2f(f);
	if (isnan(d))
		return 0x7ff8000000000000ull | (uint64_t)(f & 0x3fffff) << 29;
	return u_of(d);
}

/* f64: the f32 pairs widened (one lane with an f64 denormal, one with a
 * difference below f32's precision). */
static void init_atd(unsigned l, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	uint32_t t[7], o[10];
	init_atf(l, t, o, 7, 10);
	for (unsigned k = 0; k < 7; k++)
		put64(in + 2 * k, widen_f(t[k]));
	if (l == 4) {
		put64(in, 1);
		put64(in + 2, 0x8000000000000001ull);
	}
	if (l == 7) {
		put64(in, 0x3ff0000000000001ull);
		put64(in + 2, 0x3ff0000000000000ull);
		put64(in + 4, 0x3ff0000000000001ull);
	}
	for (unsigned j = 0; j < nout; j++)
		out[j] = xt_rand(l, 100 + j, 28);
	(void)nin;
}

/* ---- the atomic bodies ------------------------------------------------------------------- */
/* 32-bit: v10 = own slot (lane * 4; without return at +256), v11 = the shared
 * slot 0x200 (with return) / 0x208 (without).  Outputs: v40 returned, v41 own slot
 * after the returning form, v42 own slot after the other, v43/v44 the shared
 * slots. SRC: the per-lane operands, SH: the shared ones. */
#define AT32(RTN, NRT, SRC, SH)                                                                                        \
	"v_lshlrev_b32 v10, 2, v0\nv_mov_b32 v11, 0x200\n"                                                             \
	"ds_write_b32 v10, v1\nds_write_b32 v10, v1 offset:256\nds_write_b32 v11, v7\nds_write_b32 v11, v7 offset:8\n"   \
	"s_waitcnt lgkmcnt(0)\ns_mov_b32 exec_lo, 0x7fff7ffe\n"                                                        \
	RTN " v40, v10, " SRC "\n" NRT " v10, " SRC " offset:256\n" RTN " v13, v11, " SH "\n" NRT " v11, " SH          \
	" offset:8\n"                                                                                                  \
	"s_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)\n"                                                                \
	"ds_read_b32 v41, v10\nds_read_b32 v42, v10 offset:256\nds_read_b32 v43, v11\nds_read_b32 v44, v11 offset:8\n" \
	"s_waitcnt lgkmcnt(0)"

/* 64-bit: v20 = lane * 8, v21 = 0x200.  Outputs v[40:41] returned,
 * v[42:43], v[44:45] own slots, v[46:47], v[48:49] shared slots. */
#define AT64(RTN, NRT, SRC, SH)                                                                                        \
	"v_lshlrev_b32 v20, 3, v0\nv_mov_b32 v21, 0x200\n"                                                             \
	"ds_write_b64 v20, v[1:2]\nds_write_b64 v20, v[1:2] offset:256\n"                                              \
	"ds_write_b64 v21, v[13:14]\nds_write_b64 v21, v[13:14] offset:8\n"                                            \
	"s_waitcnt lgkmcnt(0)\ns_mov_b32 exec_lo, 0x7fff7ffe\n"                                                        \
	RTN " v[40:41], v20, " SRC "\n" NRT " v20, " SRC " offset:256\n" RTN " v[28:29], v21, " SH "\n" NRT          \
	" v21, " SH " offset:8\n"                                                                                      \
	"s_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)\n"                                                                \
	"ds_read_b64 v[42:43], v20\nds_read_b64 v[44:45], v20 offset:256\n"                                            \
	"ds_read_b64 v[46:47], v21\nds_read_b64 v[48:49], v21 offset:8\n"                                              \
	"s_waitcnt lgkmcnt(0)"

#define S1_32 "v2"
#define S2_32 "v2, v3"
#define SH1_32 "v4"      /* per lane: commutative operations */
#define SU1_32 "v5"      /* the same for every lane */
#define SU2_32 "v5, v6"
#define S1_64 "v[3:4]"
#define S2_64 "v[3:4], v[5:6]"
#define SH1_64 "v[7:8]"
#define SU1_64 "v[9:10]"
#define SU2_64 "v[9:10], v[11:12]"

/* The reference of one atomic test: wide (64-bit), the operation, and
 * whether the shared slot's data are per lane (shared_lane) or the first
 * lane's. */
static void ref_at(const struct xt_ctx *c, unsigned l, uint32_t *out, bool wide, atom_fn f, bool shared_lane)
{
	unsigned w = wide ? 2 : 1;
	const uint32_t *in = c->in + l * c->nin;
	uint64_t x = wide ? u64of(in) : in[0], a = wide ? u64of(in + 2) : in[1], b = wide ? u64of(in + 4) : in[2];
	uint64_t v[5];
	v[0] = wide ? u64of(out) : out[0];
	v[1] = v[2] = x;
	if (ACTIVE(l)) {
		v[0] = x;
		v[1] = v[2] = f(x, a, b);
	}
	uint64_t s = wide ? u64of(in + 12) : in[6];
	for (unsigned k = 0; k < XT_LANES; k++) {
		if (!ACTIVE(k))
			continue;
		const uint32_t *ik = c->in + k * c->nin;
		uint64_t sa = wide ? u64of(ik + (shared_lane ? 6 : 8)) : ik[shared_lane ? 3 : 4];
		s = f(s, sa, wide ? u64of(ik + 10) : ik[5]);
	}
	v[3] = v[4] = s;
	for (unsigned j = 0; j < 5; j++) {
		out[j * w] = (uint32_t)v[j];
		if (wide)
			out[j * w + 1] = (uint32_t)(v[j] >> 32);
	}
}

#define REF(NAME, WIDE, FN, LANE)                                                                                      \
	static void ref_##NAME(const struct xt_ctx *c, unsigned l, uint32_t *out) { ref_at(c, l, out, WIDE, FN, LANE); }
REF(add32, false, o_add32, true)
REF(sub32, false, o_sub32, true)
REF(rsub32, false, o_rsub32, false)
REF(inc32, false, o_inc, false)
REF(dec32, false, o_dec, false)
REF(mini32, false, o_mini32, true)
REF(maxi32, false, o_maxi32, true)
REF(minu32, false, o_minu, true)
REF(maxu32, false, o_maxu, true)
REF(and32, false, o_and, true)
REF(or32, false, o_or, true)
REF(xor32, false, o_xor, true)
REF(mskor32, false, o_mskor, false)
REF(xchg32, false, o_xchg, false)
REF(cmpst32, false, o_cmpst, false)
REF(cmpstore32, false, o_cmpstore, false)
REF(wrap32, false, o_wrap, false)
REF(add64, true, o_add64, true)
REF(sub64, true, o_sub64, true)
REF(rsub64, true, o_rsub64, false)
REF(inc64, true, o_inc, false)
REF(dec64, true, o_dec, false)
REF(mini64, true, o_mini64, true)
REF(maxi64, true, o_maxi64, true)
REF(minu64, true, o_minu, true)
REF(maxu64, true, o_maxu, true)
REF(and64, true, o_and, true)
REF(or64, true, o_or, true)
REF(xor64, true, o_xor, true)
REF(mskor64, true, o_mskor, false)
REF(xchg64, true, o_xchg, false)
REF(cmpst64, true, o_cmpst, false)
REF(cmpstore64, true, o_cmpstore, false)
REF(addf32, false, o_addf, true)
REF(minf32, false, o_minf, true)
REF(maxf32, false, o_maxf, true)
REF(cmpstf32, false, o_cmpstf, false)
REF(cmpstoref32, false, o_cmpstoref, false)
REF(minf64, true, o_mind, true)
REF(maxf64, true, o_maxd, true)
REF(cmpstf64, true, o_cmpstd, false)
REF(cmpstoref64, true, o_cmpstored, false)

#define T32(NAME, G, RTN, NRT, SRC, SH, INIT)                                                                          \
	{ "ds_" #NAME, G, AT32(RTN, NRT, SRC, SH), NULL, NULL, 7, 5, INIT, ref_##NAME, XT_EXACT }
#define T64(NAME, G, RTN, NRT, SRC, SH, INIT)                                                                          \
	{ "ds_" #NAME, G, AT64(RTN, NRT, SRC, SH), NULL, NULL, 14, 10, INIT, ref_##NAME, XT_EXACT }

/* ---- the M0-addressed and conditional forms ------------------------------------------ */
/* ds_append / ds_consume (gfx11 and gfx10 alike): one counter at
 * M0[15:0] + offset moves by the number of active lanes (29), each active
 * lane gets the value from before; the counters start near the wrap-around
 * (v1 0xfffffff0 for append, v2 10 for consume, every lane). */
static void init_app(unsigned l, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	in[0] = 0xfffffff0u;
	in[1] = 10;
	for (unsigned j = 0; j < nout; j++)
		out[j] = xt_rand(l, 100 + j, 30);
	(void)nin;
}

static void ref_app(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	uint32_t n = (uint32_t)__builtin_popcount(MASK), a = c->in[0], b = c->in[1];
	if (ACTIVE(l)) {
		out[0] = a;
		out[1] = b;
		out[2] = a + n;
	}
	out[3] = a + 2 * n;
	out[4] = b - n;
}

/* ds_load/store_addtid_b32: lane L at M0[15:0] + offset + 4 L (M0's upper
 * half is not part of the address).  v1: the stored value, v2: a value each
 * lane stores at 0x400 + 4 L that the load reads two lanes on (0 past the
 * last lane: the LDS starts zeroed). */
static void ref_tid(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	const uint32_t *in = c->in + l * c->nin;
	out[0] = ACTIVE(l) ? in[0] : 0;
	if (ACTIVE(l))
		out[1] = l + 2 < XT_LANES ? c->in[(l + 2) * c->nin + 1] : 0;
}

/* ds_condxchg32_rtn_b64: ADDR0 = (ADDR + offset) & 0xfff8; each dword of
 * DATA with bit 31 set replaces that LDS dword, bit 31 cleared; the old
 * dwords return.  v[1:2] memory, v[3:4] DATA, v5 ADDR (low bits and bit 16
 * set on some lanes: both masked off), v6 the aligned slot. */
static void init_cx(unsigned l, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(l, in, out, nin, nout);
	in[2] = (in[2] & 0x7fffffffu) | (l & 1u) << 31;
	in[3] = (in[3] & 0x7fffffffu) | (l & 2u) << 30;
	in[5] = 0x800 + 8 * l;
	in[4] = in[5] - 4 + (l % 8) + (l % 3 == 0 ? 0x10000u : 0);
}

static void ref_cx(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	const uint32_t *in = c->in + l * c->nin;
	out[2] = in[0];
	out[3] = in[1];
	if (!ACTIVE(l))
		return;
	out[0] = in[0];
	out[1] = in[1];
	for (unsigned i = 0; i < 2; i++)
		if (in[2 + i] >> 31)
			out[2 + i] = in[2 + i] & 0x7fffffffu;
}

/* ds_storexchg_2addr[_stride64]_rtn: both old values return (first address
 * first), DATA goes to the first address, DATA2 to the second; with equal
 * offsets the second write (DATA2) stays.  b32: v1/v2 the two slots'
 * memory, v3/v4 DATA/DATA2, v5 base (offsets in dwords: +4, +12), v6 base
 * (stride64: +256, +768), v7 base of the equal-offsets form (+8). */
static void init_x2(unsigned l, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(l, in, out, nin, nout);
	bool w = nin > 8; /* b64 */
	unsigned k = w ? 8 : 4;
	in[k] = (w ? 0x3000 : 0x1000) + (w ? 32 : 16) * l;
	in[k + 1] = (w ? 0x5000 : 0x2000) + (w ? 8 : 4) * l;
	in[k + 2] = 0x6000 + 8 * l;
}

static void ref_x2(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	const uint32_t *in = c->in + l * c->nin;
	unsigned w = c->nin > 8 ? 2 : 1, r = 6 * w; /* r: the memory outputs */
	const uint32_t *m1 = in, *m2 = in + w, *d1 = in + 2 * w, *d2 = in + 3 * w;
	bool a = ACTIVE(l);
	for (unsigned i = 0; i < w; i++) {
		if (a) {
			out[i] = m1[i];
			out[w + i] = m2[i];
			out[2 * w + i] = m1[i];
			out[3 * w + i] = m2[i];
			out[4 * w + i] = m1[i];
			out[5 * w + i] = m1[i];
		}
		out[r + i] = a ? d1[i] : m1[i];
		out[r + w + i] = a ? d2[i] : m2[i];
		out[r + 2 * w + i] = a ? d1[i] : m1[i];
		out[r + 3 * w + i] = a ? d2[i] : m2[i];
		out[r + 4 * w + i] = a ? d2[i] : m1[i];
	}
}

/* ---- permute ------------------------------------------------------------------------------ */
/* ds_permute_b32: each active lane i sends DATA0 to lane ((ADDR + offset)
 * bits [6:2]); the highest-numbered sender wins, a lane nobody sends to
 * gets 0, inactive lanes keep their value.  Few destinations (lanes 0-7)
 * so that senders collide; ADDR has high bits set. */
static void init_perm(unsigned l, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(l, in, out, nin, nout);
	in[0] = (xt_rand(l, 9, 31) & ~0x7cu) | ((xt_rand(l, 10, 31) % 8) << 2);
}

static void ref_perm(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	uint32_t t[XT_LANES] = { 0 };
	for (unsigned i = 0; i < XT_LANES; i++)
		if (ACTIVE(i))
			t[((c->in[i * c->nin] + 4) >> 2) & 31] = c->in[i * c->nin + 1];
	if (ACTIVE(l))
		out[0] = t[l];
}

/* ---- loads and stores -------------------------------------------------------------------- */
/* Data v1..v4 (some lanes all-ones, sign bits set or clear in every byte),
 * bases of per-lane regions in v5.. (16 or 32 bytes a lane, apart). */
static void init_ls(unsigned l, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	static const uint32_t pat[4][4] = {
		{ 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu },
		{ 0x80808080u, 0x7f7f7f7fu, 0x80007fffu, 0x7fff8000u },
		{ 0x7f7f7f7fu, 0x80808080u, 0x7fff8000u, 0x80007fffu },
		{ 0x01020304u, 0xfffefdfcu, 0x00ff00ffu, 0xff00ff00u },
	};
	xt_init_u(l, in, out, nin, nout);
	if (l >= 1 && l <= 4)
		memcpy(in, pat[l - 1], sizeof pat[0]);
	static const uint32_t base[2][5] = { { 0x1000, 0x2000, 0x3000, 0x4000, 0x5000 },
					     { 0x1000, 0x2000, 0x3000, 0x4000, 0x8000 } };
	static const uint32_t step[2][5] = { { 16, 16, 16, 16, 16 }, { 32, 4, 32, 8, 4 } };
	bool two = nout == 28; /* the two-address test */
	for (unsigned k = 0; k < 5; k++)
		in[4 + k] = base[two][k] + step[two][k] * l;
}

static uint32_t sx8(uint32_t v) { return (uint32_t)(int32_t)(int8_t)(v & 0xff); }
static uint32_t sx16(uint32_t v) { return (uint32_t)(int32_t)(int16_t)(v & 0xffff); }

/* The outputs of the widths test, from the data: what each load returns. */
static void ref_ls(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	if (!ACTIVE(l))
		return;
	const uint32_t *d = c->in + l * c->nin;
	uint8_t b[16]; /* region 2: v1..v4 stored as dwords */
	for (unsigned i = 0; i < 16; i++)
		b[i] = (uint8_t)(d[i / 4] >> (8 * (i % 4)));
	const uint32_t want[23] = {
		d[0], d[1], d[2], d[3],             /* b128 store, b32 loads */
		d[0], d[1], d[2], d[3],             /* b32 stores, b128 load */
		d[0], d[1], d[2], d[1], 0,          /* b96 store and load; the fourth dword untouched */
		d[0], d[1], d[1], 0,                /* b64 store at +8 */
		/* b32, then b8 at byte 1 and b16 at bytes 2-3 */
		(d[0] & 0xff) | (d[1] & 0xff) << 8 | (d[2] & 0xffff) << 16,
		/* b32, then b8_d16_hi (DATA[23:16]) at byte 7 and b16_d16_hi (DATA[31:16]) at bytes 4-5 */
		(d[2] >> 16) | (d[0] & 0x00ff0000u) | ((d[1] >> 16) & 0xff) << 24,
		b[1], sx8(b[3]), (uint32_t)(b[6] | b[7] << 8), sx16((uint32_t)(b[10] | b[11] << 8)),
	};
	memcpy(out, want, sizeof want);
	/* d16: the other half of the VGPR keeps its value */
	out[23] = (out[23] & 0xffff0000u) | b[5];
	out[24] = (out[24] & 0xffffu) | (uint32_t)b[7] << 16;
	out[25] = (out[25] & 0xffff0000u) | (sx8(b[11]) & 0xffff);
	out[26] = (out[26] & 0xffffu) | sx8(b[15]) << 16;
	out[27] = (out[27] & 0xffff0000u) | b[12] | b[13] << 8;
	out[28] = (out[28] & 0xffffu) | (uint32_t)(b[14] | b[15] << 8) << 16;
}

/* The two-address test: the stores' slots read back singly, then the
 * two-address loads with their offsets swapped (the second slot first). */
static void ref_2a(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	if (!ACTIVE(l))
		return;
	const uint32_t *d = c->in + l * c->nin;
	const uint32_t want[28] = {
		d[0], d[1], d[0], d[1],                          /* write2, write2st64 (b32) */
		d[0], d[1], d[2], d[3], d[0], d[1], d[2], d[3],  /* write2, write2st64 (b64) */
		d[2], d[3],                                      /* write2 b32 at offsets 0 and 255 */
		d[1], d[0], d[1], d[0],                          /* read2, read2st64 (b32), swapped */
		d[2], d[3], d[0], d[1], d[2], d[3], d[0], d[1],  /* read2, read2st64 (b64), swapped */
		d[3], d[2],
	};
	memcpy(out, want, sizeof want);
}

/* ---- returned values on one shared slot ---------------------------------------------------- */
/* The 29 active lanes step one counter each with ds_add_rtn_u32 (from 0,
 * by 1), ds_sub_rtn_u32 (from 28, by 1) and ds_inc_rtn_u32 (from 0, bound
 * 100): whatever order the lanes take, the returned values are 0..28 once
 * each.  Each lane then adds 1 to a histogram slot chosen by its returned
 * value; lane L reads slot L of each histogram: 1 for L < 29, else 0.  The
 * counters' final values: 29, -1, 29. */
static void ref_hist(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	(void)c;
	uint32_t n = (uint32_t)__builtin_popcount(MASK);
	for (unsigned k = 0; k < 3; k++)
		out[k] = l < n ? 1 : 0;
	out[3] = n;
	out[4] = 28 - n;
	out[5] = n;
}

/* ---- ds_swizzle_b32 FFT mode (offset >= 0xe000) -------------------------------------------- */
/* j = reverse of the lane's 5 low bits, shifted right by the number of
 * mask (offset[4:0]) bits, OR the lane's mask bits; an inactive source
 * gives 0, an inactive destination keeps its value. */
static void ref_fft(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	static const unsigned masks[4] = { 0x00, 0x10, 0x05, 0x1f };
	if (!ACTIVE(l))
		return;
	for (unsigned k = 0; k < 4; k++) {
		unsigned r = 0, m = masks[k];
		for (unsigned b = 0; b < 5; b++)
			if (l & (1u << b))
				r |= 1u << (4 - b);
		unsigned j = (r >> __builtin_popcount(m)) | (l & m);
		out[k] = ACTIVE(j) ? c->in[j * c->nin] : 0;
	}
}

/* ---- ds_swizzle_b32 rotate mode (0xc000 <= offset < 0xe000) -------------------------------- */
/* offset[4:0] is the mask of lane bits kept, offset[9:5] the rotation,
 * offset[10] its direction (set: backwards): j = (lane & mask) |
 * ((lane + rot) & ~mask) within 32 lanes; an inactive source gives 0.
 * The offsets: rotate by 1 over 32 lanes, by 3 backwards, by 1 within
 * groups of 4 (mask 0x1c), by 0 within groups of 2 (0xc01e: rocWMMA's
 * Rotate<0, 0, 2>). */
static void ref_rotate(const struct xt_ctx *c, unsigned l, uint32_t *out)
{
	static const unsigned offs[4] = { 0xc020, 0xc460, 0xc03c, 0xc01e };
	if (!ACTIVE(l))
		return;
	for (unsigned k = 0; k < 4; k++) {
		unsigned mask = offs[k] & 0x1f, rot = (offs[k] >> 5) & 0x1f;
		int step = (offs[k] & 0x400) ? -(int)rot : (int)rot;
		unsigned j = (l & mask) | ((unsigned)((int)l + step + 32) & ~mask & 31u);
		out[k] = ACTIVE(j) ? c->in[j * c->nin] : 0;
	}
}

const struct xt_test xt_tests_ds[] = {
	/* ---- atomics, 32-bit ---- */
	T32(add32, XT_BOTH, "ds_add_rtn_u32", "ds_add_u32", S1_32, SH1_32, init_at32),
	T32(sub32, XT_BOTH, "ds_sub_rtn_u32", "ds_sub_u32", S1_32, SH1_32, init_at32),
	T32(rsub32, XT_BOTH, "ds_rsub_rtn_u32", "ds_rsub_u32", S1_32, SU1_32, init_at32),
	T32(inc32, XT_BOTH, "ds_inc_rtn_u32", "ds_inc_u32", S1_32, SU1_32, init_at32),
	T32(dec32, XT_BOTH, "ds_dec_rtn_u32", "ds_dec_u32", S1_32, SU1_32, init_at32),
	T32(mini32, XT_BOTH, "ds_min_rtn_i32", "ds_min_i32", S1_32, SH1_32, init_at32),
	T32(maxi32, XT_BOTH, "ds_max_rtn_i32", "ds_max_i32", S1_32, SH1_32, init_at32),
	T32(minu32, XT_BOTH, "ds_min_rtn_u32", "ds_min_u32", S1_32, SH1_32, init_at32),
	T32(maxu32, XT_BOTH, "ds_max_rtn_u32", "ds_max_u32", S1_32, SH1_32, init_at32),
	T32(and32, XT_BOTH, "ds_and_rtn_b32", "ds_and_b32", S1_32, SH1_32, init_at32),
	T32(or32, XT_BOTH, "ds_or_rtn_b32", "ds_or_b32", S1_32, SH1_32, init_at32),
	T32(xor32, XT_BOTH, "ds_xor_rtn_b32", "ds_xor_b32", S1_32, SH1_32, init_at32),
	T32(mskor32, XT_BOTH, "ds_mskor_rtn_b32", "ds_mskor_b32", S2_32, SU2_32, init_at32),
	T32(xchg32, XT_BOTH, "ds_wrxchg_rtn_b32", "ds_wrxchg_rtn_b32 v16,", S1_32, SU1_32, init_at32),
	T32(cmpst32, XT_G10, "ds_cmpst_rtn_b32", "ds_cmpst_b32", S2_32, SU2_32, init_at32),
	T32(cmpstore32, XT_G11, "ds_cmpstore_rtn_b32", "ds_cmpstore_b32", S2_32, SU2_32, init_at32),
	T32(wrap32, XT_BOTH, "ds_wrap_rtn_b32", "ds_wrap_rtn_b32 v16,", S2_32, SU2_32, init_at32),
	/* ---- atomics, 64-bit ---- */
	T64(add64, XT_BOTH, "ds_add_rtn_u64", "ds_add_u64", S1_64, SH1_64, init_at64),
	T64(sub64, XT_BOTH, "ds_sub_rtn_u64", "ds_sub_u64", S1_64, SH1_64, init_at64),
	T64(rsub64, XT_BOTH, "ds_rsub_rtn_u64", "ds_rsub_u64", S1_64, SU1_64, init_at64),
	T64(inc64, XT_BOTH, "ds_inc_rtn_u64", "ds_inc_u64", S1_64, SU1_64, init_at64),
	T64(dec64, XT_BOTH, "ds_dec_rtn_u64", "ds_dec_u64", S1_64, SU1_64, init_at64),
	T64(mini64, XT_BOTH, "ds_min_rtn_i64", "ds_min_i64", S1_64, SH1_64, init_at64),
	T64(maxi64, XT_BOTH, "ds_max_rtn_i64", "ds_max_i64", S1_64, SH1_64, init_at64),
	T64(minu64, XT_BOTH, "ds_min_rtn_u64", "ds_min_u64", S1_64, SH1_64, init_at64),
	T64(maxu64, XT_BOTH, "ds_max_rtn_u64", "ds_max_u64", S1_64, SH1_64, init_at64),
	T64(and64, XT_BOTH, "ds_and_rtn_b64", "ds_and_b64", S1_64, SH1_64, init_at64),
	T64(or64, XT_BOTH, "ds_or_rtn_b64", "ds_or_b64", S1_64, SH1_64, init_at64),
	T64(xor64, XT_BOTH, "ds_xor_rtn_b64", "ds_xor_b64", S1_64, SH1_64, init_at64),
	T64(mskor64, XT_BOTH, "ds_mskor_rtn_b64", "ds_mskor_b64", S2_64, SU2_64, init_at64),
	T64(xchg64, XT_BOTH, "ds_wrxchg_rtn_b64", "ds_wrxchg_rtn_b64 v[16:17],", S1_64, SU1_64, init_at64),
	T64(cmpst64, XT_G10, "ds_cmpst_rtn_b64", "ds_cmpst_b64", S2_64, SU2_64, init_at64),
	T64(cmpstore64, XT_G11, "ds_cmpstore_rtn_b64", "ds_cmpstore_b64", S2_64, SU2_64, init_at64),
	/* ---- float atomics ---- */
	T32(addf32, XT_BOTH, "ds_add_rtn_f32", "ds_add_f32", S1_32, SH1_32, init_atf),
	T32(minf32, XT_BOTH, "ds_min_rtn_f32", "ds_min_f32", S1_32, SH1_32, init_atf),
	T32(maxf32, XT_BOTH, "ds_max_rtn_f32", "ds_max_f32", S1_32, SH1_32, init_atf),
	T32(cmpstf32, XT_G10, "ds_cmpst_rtn_f32", "ds_cmpst_f32", S2_32, SU2_32, init_atf),
	T32(cmpstoref32, XT_G11, "ds_cmpstore_rtn_f32", "ds_cmpstore_f32", S2_32, SU2_32, init_atf),
	T64(minf64, XT_BOTH, "ds_min_rtn_f64", "ds_min_f64", S1_64, SH1_64, init_atd),
	T64(maxf64, XT_BOTH, "ds_max_rtn_f64", "ds_max_f64", S1_64, SH1_64, init_atd),
	T64(cmpstf64, XT_G10, "ds_cmpst_rtn_f64", "ds_cmpst_f64", S2_64, SU2_64, init_atd),
	T64(cmpstoref64, XT_G11, "ds_cmpstore_rtn_f64", "ds_cmpstore_f64", S2_64, SU2_64, init_atd),
	/* ---- M0-addressed, conditional and two-address exchanges ---- */
	{ "ds_append_consume", XT_BOTH,
	  "s_mov_b32 m0, 0x100\nv_mov_b32 v10, 0x100\nds_write_b32 v10, v1 offset:8\nds_write_b32 v10, v2 offset:12\n"
	  "s_waitcnt lgkmcnt(0)\ns_mov_b32 exec_lo, 0x7fff7ffe\n"
	  "ds_append v40 offset:8\nds_consume v41 offset:12\nds_append v42 offset:8\n"
	  "s_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)\n"
	  "ds_read_b32 v43, v10 offset:8\nds_read_b32 v44, v10 offset:12\ns_waitcnt lgkmcnt(0)",
	  NULL, NULL, 2, 5, init_app, ref_app, XT_EXACT },
	{ "ds_addtid", XT_BOTH,
	  "s_mov_b32 m0, 0xabcd0300\ns_mov_b32 exec_lo, 0x7fff7ffe\nds_write_addtid_b32 v1 offset:16\n"
	  "s_mov_b32 exec_lo, -1\nv_lshlrev_b32 v10, 2, v0\nds_write_b32 v10, v2 offset:1024\ns_waitcnt lgkmcnt(0)\n"
	  "ds_read_b32 v40, v10 offset:784\ns_mov_b32 m0, 0x12340400\ns_mov_b32 exec_lo, 0x7fff7ffe\n"
	  "ds_read_addtid_b32 v41 offset:8\ns_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)",
	  NULL, NULL, 2, 2, xt_init_u, ref_tid, XT_EXACT },
	{ "ds_condxchg32_rtn_b64", XT_BOTH,
	  "ds_write_b64 v6, v[1:2]\ns_waitcnt lgkmcnt(0)\ns_mov_b32 exec_lo, 0x7fff7ffe\n"
	  "ds_condxchg32_rtn_b64 v[40:41], v5, v[3:4] offset:4\ns_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)\n"
	  "ds_read_b64 v[42:43], v6\ns_waitcnt lgkmcnt(0)",
	  NULL, NULL, 6, 4, init_cx, ref_cx, XT_EXACT },
	{ "ds_storexchg_2addr_b32", XT_BOTH,
	  "ds_write_b32 v5, v1 offset:4\nds_write_b32 v5, v2 offset:12\nds_write_b32 v6, v1 offset:256\n"
	  "ds_write_b32 v6, v2 offset:768\nds_write_b32 v7, v1 offset:8\ns_waitcnt lgkmcnt(0)\ns_mov_b32 exec_lo, 0x7fff7ffe\n"
	  "ds_wrxchg2_rtn_b32 v[40:41], v5, v3, v4 offset0:1 offset1:3\n"
	  "ds_wrxchg2st64_rtn_b32 v[42:43], v6, v3, v4 offset0:1 offset1:3\n"
	  "ds_wrxchg2_rtn_b32 v[44:45], v7, v3, v4 offset0:2 offset1:2\n"
	  "s_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)\n"
	  "ds_read_b32 v46, v5 offset:4\nds_read_b32 v47, v5 offset:12\nds_read_b32 v48, v6 offset:256\n"
	  "ds_read_b32 v49, v6 offset:768\nds_read_b32 v50, v7 offset:8\ns_waitcnt lgkmcnt(0)",
	  NULL, NULL, 7, 11, init_x2, ref_x2, XT_EXACT },
	{ "ds_storexchg_2addr_b64", XT_BOTH,
	  "ds_write_b64 v9, v[1:2] offset:8\nds_write_b64 v9, v[3:4] offset:24\nds_write_b64 v10, v[1:2] offset:512\n"
	  "ds_write_b64 v10, v[3:4] offset:1536\nds_write_b64 v11, v[1:2] offset:16\ns_waitcnt lgkmcnt(0)\n"
	  "s_mov_b32 exec_lo, 0x7fff7ffe\n"
	  "ds_wrxchg2_rtn_b64 v[40:43], v9, v[5:6], v[7:8] offset0:1 offset1:3\n"
	  "ds_wrxchg2st64_rtn_b64 v[44:47], v10, v[5:6], v[7:8] offset0:1 offset1:3\n"
	  "ds_wrxchg2_rtn_b64 v[48:51], v11, v[5:6], v[7:8] offset0:2 offset1:2\n"
	  "s_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)\n"
	  "ds_read_b64 v[52:53], v9 offset:8\nds_read_b64 v[54:55], v9 offset:24\nds_read_b64 v[56:57], v10 offset:512\n"
	  "ds_read_b64 v[58:59], v10 offset:1536\nds_read_b64 v[60:61], v11 offset:16\ns_waitcnt lgkmcnt(0)",
	  NULL, NULL, 11, 22, init_x2, ref_x2, XT_EXACT },
	/* ---- permute, nop ---- */
	{ "ds_permute_nop", XT_BOTH,
	  "s_mov_b32 exec_lo, 0x7fff7ffe\nds_permute_b32 v40, v1, v2 offset:4\nds_nop\ns_mov_b32 exec_lo, -1\n"
	  "s_waitcnt lgkmcnt(0)",
	  NULL, NULL, 2, 1, init_perm, ref_perm, XT_EXACT },
	/* ---- loads and stores ---- */
	{ "ds_load_store_widths", XT_BOTH,
	  "s_mov_b32 exec_lo, 0x7fff7ffe\n"
	  "ds_write_b128 v5, v[1:4]\n"
	  "ds_write_b32 v6, v1\nds_write_b32 v6, v2 offset:4\nds_write_b32 v6, v3 offset:8\nds_write_b32 v6, v4 offset:12\n"
	  "ds_write_b96 v7, v[1:3]\nds_write_b64 v8, v[1:2] offset:8\n"
	  "ds_write_b32 v9, v1\nds_write_b8 v9, v2 offset:1\nds_write_b16 v9, v3 offset:2\n"
	  "ds_write_b32 v9, v1 offset:4\nds_write_b8_d16_hi v9, v2 offset:7\nds_write_b16_d16_hi v9, v3 offset:4\n"
	  "s_waitcnt lgkmcnt(0)\n"
	  "ds_read_b32 v40, v5\nds_read_b32 v41, v5 offset:4\nds_read_b32 v42, v5 offset:8\nds_read_b32 v43, v5 offset:12\n"
	  "ds_read_b128 v[44:47], v6\nds_read_b96 v[48:50], v7\nds_read_b32 v51, v7 offset:4\nds_read_b32 v52, v7 offset:12\n"
	  "ds_read_b64 v[53:54], v8 offset:8\nds_read_b32 v55, v8 offset:12\nds_read_b32 v56, v8\n"
	  "ds_read_b32 v57, v9\nds_read_b32 v58, v9 offset:4\n"
	  "ds_read_u8 v59, v6 offset:1\nds_read_i8 v60, v6 offset:3\nds_read_u16 v61, v6 offset:6\n"
	  "ds_read_i16 v62, v6 offset:10\n"
	  "ds_read_u8_d16 v63, v6 offset:5\nds_read_u8_d16_hi v64, v6 offset:7\nds_read_i8_d16 v65, v6 offset:11\n"
	  "ds_read_i8_d16_hi v66, v6 offset:15\nds_read_u16_d16 v67, v6 offset:12\nds_read_u16_d16_hi v68, v6 offset:14\n"
	  "s_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)",
	  NULL, NULL, 9, 29, init_ls, ref_ls, XT_EXACT },
	{ "ds_2addr", XT_BOTH,
	  "s_mov_b32 exec_lo, 0x7fff7ffe\n"
	  "ds_write2_b32 v5, v1, v2 offset0:1 offset1:5\nds_write2st64_b32 v6, v1, v2 offset0:1 offset1:3\n"
	  "ds_write2_b64 v7, v[1:2], v[3:4] offset0:1 offset1:3\nds_write2st64_b64 v8, v[1:2], v[3:4] offset0:1 offset1:2\n"
	  "ds_write2_b32 v9, v3, v4 offset0:0 offset1:255\ns_waitcnt lgkmcnt(0)\n"
	  "ds_read_b32 v40, v5 offset:4\nds_read_b32 v41, v5 offset:20\nds_read_b32 v42, v6 offset:256\n"
	  "ds_read_b32 v43, v6 offset:768\nds_read_b64 v[44:45], v7 offset:8\nds_read_b64 v[46:47], v7 offset:24\n"
	  "ds_read_b64 v[48:49], v8 offset:512\nds_read_b64 v[50:51], v8 offset:1024\n"
	  "ds_read_b32 v52, v9\nds_read_b32 v53, v9 offset:1020\n"
	  "ds_read2_b32 v[54:55], v5 offset0:5 offset1:1\nds_read2st64_b32 v[56:57], v6 offset0:3 offset1:1\n"
	  "ds_read2_b64 v[58:61], v7 offset0:3 offset1:1\nds_read2st64_b64 v[62:65], v8 offset0:2 offset1:1\n"
	  "ds_read2_b32 v[66:67], v9 offset0:255 offset1:0\n"
	  "s_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)",
	  NULL, NULL, 9, 28, init_ls, ref_2a, XT_EXACT },
	{ "ds_rtn_shared_slot", XT_BOTH,
	  "v_mov_b32 v10, 1\nv_mov_b32 v11, 28\nv_mov_b32 v12, 0x100\nv_mov_b32 v13, 100\n"
	  "ds_write_b32 v12, v11 offset:4\ns_waitcnt lgkmcnt(0)\ns_mov_b32 exec_lo, 0x7fff7ffe\n"
	  "ds_add_rtn_u32 v14, v12, v10\nds_sub_rtn_u32 v15, v12, v10 offset:4\nds_inc_rtn_u32 v16, v12, v13 offset:8\n"
	  "s_waitcnt lgkmcnt(0)\n"
	  "v_lshlrev_b32 v14, 2, v14\nv_lshlrev_b32 v15, 2, v15\nv_lshlrev_b32 v16, 2, v16\n"
	  "ds_add_u32 v14, v10 offset:1024\nds_add_u32 v15, v10 offset:2048\nds_add_u32 v16, v10 offset:3072\n"
	  "s_mov_b32 exec_lo, -1\ns_waitcnt lgkmcnt(0)\nv_lshlrev_b32 v17, 2, v0\n"
	  "ds_read_b32 v40, v17 offset:1024\nds_read_b32 v41, v17 offset:2048\nds_read_b32 v42, v17 offset:3072\n"
	  "ds_read_b32 v43, v12\nds_read_b32 v44, v12 offset:4\nds_read_b32 v45, v12 offset:8\ns_waitcnt lgkmcnt(0)",
	  NULL, NULL, 0, 6, xt_init_u, ref_hist, XT_EXACT },
	{ "ds_swizzle_fft", XT_BOTH,
	  "s_mov_b32 exec_lo, 0x7fff7ffe\nds_swizzle_b32 v40, v1 offset:0xe000\nds_swizzle_b32 v41, v1 offset:0xe010\n"
	  "ds_swizzle_b32 v42, v1 offset:0xe005\nds_swizzle_b32 v43, v1 offset:0xe01f\ns_mov_b32 exec_lo, -1\n"
	  "s_waitcnt lgkmcnt(0)",
	  NULL, NULL, 1, 4, xt_init_u, ref_fft, XT_EXACT },
	{ "ds_swizzle_rotate", XT_BOTH,
	  "s_mov_b32 exec_lo, 0x7fff7ffe\nds_swizzle_b32 v40, v1 offset:0xc020\nds_swizzle_b32 v41, v1 offset:0xc460\n"
	  "ds_swizzle_b32 v42, v1 offset:0xc03c\nds_swizzle_b32 v43, v1 offset:0xc01e\ns_mov_b32 exec_lo, -1\n"
	  "s_waitcnt lgkmcnt(0)",
	  NULL, NULL, 1, 4, xt_init_u, ref_rotate, XT_EXACT },
};
const unsigned xt_ntests_ds = sizeof xt_tests_ds / sizeof xt_tests_ds[0];
